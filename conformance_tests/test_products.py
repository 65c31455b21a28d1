"""dot, vdot, inner, outer, tensordot, einsum, einsum_path, kron, trace, cross against NumPy."""
import numpy as np
import pytest

from engine import assert_same, check
from strategies import ALL_DTYPES

import tnp


def _arr(shape, dt, start=1):
    n = int(np.prod(shape))
    if np.dtype(dt).kind == "b":
        return (np.arange(n) % 3 != 1).reshape(shape)
    v = (np.arange(start, start + n) % 7) - (0 if np.dtype(dt).kind == "u" else 2)
    v = v.astype(dt)
    if np.dtype(dt).kind == "c":
        v = v + 1j * v[::-1]
    return v.reshape(shape).astype(dt)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_dot_dtypes(dt):
    a, b = _arr((3, 4), dt), _arr((4, 2), dt, 3)
    check(lambda xp, a, b: xp.dot(a, b), a, b)
    check(lambda xp, a, b: xp.dot(a[0], b), a, b)
    check(lambda xp, a, b: xp.dot(a[0], a[1]), a, b)
    check(lambda xp, a, b: xp.vdot(a, a), a, b)
    check(lambda xp, a, b: xp.inner(a, a), a, b)
    check(lambda xp, a, b: xp.outer(a[0], b[:, 0]), a, b)
    check(lambda xp, a, b: xp.kron(a, b), a, b)
    check(lambda xp, a, b: xp.tensordot(a, b, 1), a, b)
    check(lambda xp, a, b: xp.trace(a), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk->ik", a, b), a, b)


def test_int8_wraps():
    a = np.full((2, 40), 100, np.int8)
    check(lambda xp, a: xp.dot(a, a.T), a)
    check(lambda xp, a: xp.einsum("ij,kj", a, a), a)


@pytest.mark.parametrize("dt1,dt2", [("int8", "float32"), ("uint8", "int8"), ("float16",
                                     "complex64"), ("bool", "int16"), ("float32", "float64")])
def test_mixed(dt1, dt2):
    a, b = _arr((2, 3), dt1), _arr((3, 3), dt2)
    for f in (lambda xp, a, b: xp.dot(a, b), lambda xp, a, b: xp.inner(a, b),
              lambda xp, a, b: xp.outer(a, b), lambda xp, a, b: xp.kron(a, b),
              lambda xp, a, b: xp.tensordot(a, b, axes=([1], [0])),
              lambda xp, a, b: xp.cross(a, b), lambda xp, a, b: xp.einsum("ij,jk", a, b)):
        check(f, a, b)


def test_shapes_and_errors():
    a, b = _arr((2, 3, 4), "float64"), _arr((5, 4, 2), "float64")
    check(lambda xp, a, b: xp.dot(a, b), a, b)
    check(lambda xp, a, b: xp.dot(a, a), a, b)
    check(lambda xp, a, b: xp.dot(a, 2.5), a, b)
    check(lambda xp, a, b: xp.inner(a, b), a, b)
    check(lambda xp, a, b: xp.inner(a, b[..., 0]), a, b)
    check(lambda xp, a, b: xp.vdot(a, b[0]), a, b)
    check(lambda xp, a, b: xp.tensordot(a, b, axes=([2, 0], [1, 1])), a, b)
    check(lambda xp, a, b: xp.tensordot(a, b, axes=([2], [2])), a, b)
    check(lambda xp, a, b: xp.tensordot(a, b, axes=0), a[0, 0], b[0])
    check(lambda xp, a, b: xp.trace(a, 1, 1, 2), a, b)
    check(lambda xp, a, b: xp.trace(a, -1, axis1=2, axis2=0, dtype=np.float32), a, b)
    check(lambda xp, a, b: xp.trace(a[0, 0]), a, b)
    check(lambda xp, a, b: xp.trace(a, axis1=0, axis2=3), a, b)
    check(lambda xp, a, b: xp.kron(a[0], b[0, 0]), a, b)
    check(lambda xp, a, b: xp.outer(a, b), a, b)


def test_out():
    a, b = _arr((3, 4), "float64"), _arr((4, 2), "float64")

    def body(xp, a, b, o):
        r = xp.dot(a, b, out=o)
        assert r is o
        xp.outer(a[0], b[:, 0], out=xp.zeros((4, 4)))
        return o
    check(body, a, b, np.zeros((3, 2)))
    check(lambda xp, a, b, o: xp.dot(a, b, out=o), a, b, np.zeros((3, 2), np.float32))
    check(lambda xp, a, b, o: xp.trace(a, out=o), a, b, np.zeros((), np.int32))
    check(lambda xp, a, b, o: xp.einsum("ij,jk", a, b, out=o), a, b, np.zeros((3, 2)))


@pytest.mark.parametrize("make", [lambda xp: xp.empty((3, 4))[:, ::2],
                                  lambda xp: xp.empty((3, 4))[:, :2],
                                  lambda xp: xp.empty((2, 3)).T, lambda xp: xp.empty((3, 2))[::-1],
                                  lambda xp: xp.empty((3,)), lambda xp: xp.empty((3, 2), order="F"),
                                  lambda xp: xp.empty((3, 2))])
def test_dot_out_must_be_c_contiguous(make):
    """NumPy's dot writes only into a C-contiguous ``out`` of the result's shape and dtype (its
    ValueError otherwise, the out left unchanged)."""
    def body(xp, a, b):
        o = make(xp)
        o[...] = 7
        try:
            xp.dot(a, b, out=o)
        except ValueError as e:
            return str(e), o
        return o
    check(body, _arr((3, 4), "float64"), _arr((4, 2), "float64"))


@pytest.mark.parametrize("sub,shapes", [
    ("ii", [(3, 3)]), ("ii->i", [(3, 3)]), ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]),
    ("i,i", [(3,), (3,)]), ("i,j->ij", [(2,), (3,)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 4)]),
    ("ij...,jk...->ik...", [(2, 3, 2), (3, 4, 2)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("i,i,i->", [(3,), (3,), (3,)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ij,jk", [(2, 3), (4, 2)]), ("ij->ik", [(2, 3)]), ("i->", [(0,)]),
    # implicit output over mixed case (character order: uppercase first), spaces, relabelled
    ("Ba,aC", [(2, 3), (3, 4)]), ("aB,BC", [(3, 2), (2, 4)]), ("zA,Az", [(2, 3), (3, 2)]),
    (" j i , k j ", [(3, 2), (4, 3)]), ("...ii->...i", [(2, 3, 3)]), ("i...i", [(3, 2, 3)]),
])
@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_einsum_forms(sub, shapes, optimize):
    ops = [_arr(s, "float64", i + 1) for i, s in enumerate(shapes)]
    check(lambda xp, *o: xp.einsum(sub, *o, optimize=optimize), *ops)


def test_einsum_interleaved_and_kwargs():
    a, b = _arr((2, 3), "int32"), _arr((3, 4), "float32")
    check(lambda xp, a, b: xp.einsum(a, [0, 1], b, [1, 2], [0, 2]), a, b)
    check(lambda xp, a, b: xp.einsum(a, [Ellipsis, 1], b, [1, Ellipsis]), a, b)
    check(lambda xp, a, b: xp.einsum(a, [30, 1], b, [1, 2]), a, b)  # implicit: 'C' before 'e'
    check(lambda xp, a, b: xp.einsum(a, [3, 1], b, [1, 0], [3, 0]), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, dtype=np.float64), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, dtype=np.int32), a, b)
    check(lambda xp, a, b: xp.einsum("ij,jk", a, b, dtype=np.int32, casting="unsafe"), a, b)
    check(lambda xp, a, b: xp.einsum("ij", a, bogus=1), a, b)


def test_einsum_path_and_optimize_path():
    ops = [_arr(s, "float64") for s in [(2, 3), (3, 4), (4, 5)]]
    for opt in ("greedy", "optimal"):
        exp = np.einsum_path("ij,jk,kl->il", *ops, optimize=opt)
        assert_same(tnp.einsum_path("ij,jk,kl->il", *[tnp.asarray(o) for o in ops],
                                    optimize=opt), exp)
    path = np.einsum_path("ij,jk,kl->il", *ops)[0]
    check(lambda xp, *o: xp.einsum("ij,jk,kl->il", *o, optimize=path), *ops)


@pytest.mark.parametrize("dt", ["int16", "uint8", "float32", "float64", "complex128", "bool"])
def test_cross(dt):
    a, b = _arr((4, 3), dt), _arr((4, 3), dt, 5)
    check(lambda xp, a, b: xp.cross(a, b), a, b)
    check(lambda xp, a, b: xp.cross(a[0], b), a, b)
    check(lambda xp, a, b: xp.cross(a.T, b.T, axisa=0, axisb=0, axisc=0), a, b)
    check(lambda xp, a, b: xp.cross(a.T, b.T, axis=0), a, b)
    check(lambda xp, a, b: xp.cross(a[:, :2], b[:, :2]), a, b)
    check(lambda xp, a, b: xp.cross(a[:, :2], b), a, b)
    check(lambda xp, a, b: xp.cross(a[:, :1], b), a, b)


@pytest.mark.parametrize("sub", ["...", "ij", "ji", "ij->ij", "ii->i", "...ii->...i",
                                 "ii...->...i", "...ii->i...", "jii->ij", "i...i->i...",
                                 "i...i->...i", "iii->i"])
def test_einsum_single_operand_is_a_view(sub):
    # NumPy's einsum returns a view of its operand where no label is summed: writes through it
    # reach the operand, and it is as writeable as the operand
    term = sub.split("->")[0]
    ndim = len(term.replace("...", "")) + ("..." in term)
    a = np.arange(3.0 ** ndim).reshape((3,) * ndim)

    def body(xp, a):
        b = xp.einsum(sub, a)
        b[...] = -xp.arange(b.size, dtype=b.dtype).reshape(b.shape)
        return a, b, b.flags.writeable, xp.einsum(sub, a[...]).base is not None

    check(body, a)


def test_einsum_view_of_a_read_only_operand():
    def body(xp, a):
        a.flags.writeable = False
        return xp.einsum("ii->i", a).flags.writeable, xp.einsum("ji", a).flags.writeable

    check(body, np.arange(9.0).reshape(3, 3))


@pytest.mark.parametrize("sub,path", [
    ("ab,bc,cd,de->ae", ["einsum_path", (2, 3), (0, 1)]),
    ("a,a,a->a", ["einsum_path", (1,), (0, 1)]),
    ("ab,bc,cd,de->ae", ["einsum_path", (2, 3), (0, 2), (0, 1)]),
])
def test_einsum_explicit_path(sub, path):
    # an explicit contraction path NumPy refuses: its RuntimeError (a valid one: the value)
    ops = [np.arange(1.0, 1.0 + 2 ** len(t)).reshape((2,) * len(t))
           for t in sub.split("->")[0].split(",")]
    check(lambda xp, *o: xp.einsum(sub, *o, optimize=path), *ops)
