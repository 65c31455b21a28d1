"""concat, row_stack, from_dlpack, isfortran, iterable, mintypecode, typename, broadcast, shape,
ndim, size."""
import inspect
import warnings

import numpy as np
import pytest

import tnp
from engine import assert_same, check
from strategies import ALL_DTYPES


def test_concat_is_concatenate():
    assert (tnp.concat is tnp.concatenate) == (np.concat is np.concatenate)
    check(lambda xp, a, b: xp.concat([a, b], axis=1), np.ones((2, 2)), np.zeros((2, 3), int))
    check(lambda xp, a, b: xp.concat([a, b]), np.ones((2, 2)), np.zeros((2, 3)))


@pytest.mark.parametrize("kw", [dict(), dict(dtype=np.float32), dict(casting="no"),
                                dict(dtype=np.int8, casting="unsafe")])
def test_row_stack(kw):
    check(lambda xp, a, b: xp.row_stack([a, b], **kw), np.arange(3.0), np.ones((2, 3), int))
    check(lambda xp, a, b: xp.row_stack((a, b), **kw), np.arange(3.0), np.ones(4))


def test_row_stack_warns():
    def body(xp):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            xp.row_stack([[1], [2]])
        return [(type(x.message).__name__, str(x.message)) for x in w]
    check(body)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_from_dlpack(dt):
    a = np.arange(6).reshape(2, 3).astype(dt)
    check(lambda xp, a: xp.from_dlpack(a), a)
    check(lambda xp, a: xp.from_dlpack(a, device="cpu"), a)
    # a NumPy producer and a JAX producer
    assert_same(tnp.from_dlpack(a), np.from_dlpack(a))
    assert_same(tnp.from_dlpack(tnp.asarray(a).data), np.from_dlpack(a))


def test_from_dlpack_bad():
    check(lambda xp: xp.from_dlpack([1, 2]))


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[:, :1],
                                  lambda a: a[:1], lambda a: a.T[::2], lambda a: a[0],
                                  lambda a: a.reshape(1, 6).T, lambda a: a[None].T])
def test_isfortran(view):
    check(lambda xp, a: xp.isfortran(view(a)), np.ones((2, 3)))
    check(lambda xp, a: xp.isfortran(view(a)), np.ones((3, 3)))


def test_isfortran_bad():
    check(lambda xp: xp.isfortran([[1, 2]]))


def test_iterable():
    check(lambda xp, a, b: (xp.iterable(a), xp.iterable(b), xp.iterable(a[0]), xp.iterable(3),
                            xp.iterable([1]), xp.iterable("ab")), np.ones(3), np.array(2.0))


@pytest.mark.parametrize("dts", ["fd", "Fd", "b", "?", "gF", "qq", "D"])
@pytest.mark.parametrize("kw", [dict(), dict(typeset="fd"), dict(default="f")])
def test_mintypecode(dts, kw):
    arrays = [np.ones(2, c) if c in tnp.typecodes["All"] and c != "g" else c for c in dts]
    check(lambda xp, *a: xp.mintypecode(list(a), **kw), *arrays)
    check(lambda xp: xp.mintypecode(dts, **kw))


@pytest.mark.parametrize("char", list("S1?bBhHiIlLqQfdgFDGOVUcx"))
def test_typename(char):
    check(lambda xp: xp.typename(char))


def _bc_attrs(b):
    return b.shape, b.ndim, b.nd, b.numiter, b.size, b.index


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bHqefdD"], ids=str)
def test_broadcast(dt):
    def body(xp, a, b):
        bc = xp.broadcast(a, b)
        before = _bc_attrs(bc)
        first = next(bc)
        mid = bc.index
        rest = list(bc)
        bc.reset()
        return before, first, mid, rest, bc.index, [list(it) for it in bc.iters], bc.index
    check(body, np.arange(3).reshape(3, 1).astype(dt), np.arange(2).astype(dt))


@pytest.mark.parametrize("shapes", [(), ((),), ((2, 3), (3,), (1, 1)), ((0, 2), (2,)),
                                    ((2,), (3,)), ((1,),) * 65, ((1,),) * 64])
def test_broadcast_shapes_and_errors(shapes):
    def body(xp, *arrs):
        bc = xp.broadcast(*arrs)
        return _bc_attrs(bc), [tuple(x) for x in bc]
    check(body, *[np.ones(s) for s in shapes])


def test_broadcast_of_broadcast():
    def body(xp, a, b, c):
        bc = xp.broadcast(xp.broadcast(a, b), c)
        return _bc_attrs(bc), list(bc)
    check(body, np.ones((2, 1)), np.arange(3.0), np.array(5))
    check(lambda xp: _bc_attrs(xp.broadcast([1, 2], 3.0)) + (list(xp.broadcast([1, 2], 3.0)),))


def test_broadcast_iters_base_keywords_and_signature():
    def body(xp, a, b):
        bc = xp.broadcast(xp.broadcast(a), b)
        return ([it.base is x for it, x in zip(bc.iters, (a, b))],
                [(it.index, list(it)) for it in bc.iters])
    check(body, np.ones((2, 1)), np.arange(3.0))
    check(lambda xp: xp.broadcast(1, x=1))
    check(lambda xp: (str(inspect.signature(xp.broadcast)),
                      str(inspect.signature(xp.broadcast.reset))))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (), (0,), (1,), (0, 1), (1, 0), 2, (0, 0),
                                  1.5, np.int64(1)], ids=repr)
def test_shape_ndim_size(axis):
    a = np.arange(6).reshape(2, 3)
    check(lambda xp, a: (xp.shape(a), xp.ndim(a), xp.size(a, axis)), a)
    check(lambda xp: xp.size([[1, 2, 3], [4, 5, 6]], axis))


BUILTINS = sorted(n for n in dir(np) if not n.startswith("_") and n != "test"
                  and callable(getattr(np, n)) and not isinstance(getattr(np, n), type)
                  and not isinstance(getattr(np, n), np.ufunc)
                  and not hasattr(type(getattr(np, n)), "__get__"))


@pytest.mark.parametrize("name", BUILTINS)
def test_c_functions_do_not_bind_as_methods(name):
    # NumPy's functions written in C (np.array, np.zeros...) stay unbound as class attributes:
    # NumPy's own tests write ``array = np.array`` in a class and call ``self.array(x)``
    def body(xp):
        holder = type("Holder", (), {"f": getattr(xp, name)})()
        return holder.f is getattr(xp, name) or holder.f is getattr(getattr(xp, name),
                                                                     "__func__", None)
    check(body)


@pytest.mark.parametrize("name", ["array", "asarray", "zeros", "empty", "arange"])
def test_c_functions_called_through_a_class_attribute(name):
    args = {"arange": (3,), "zeros": ((2, 2),), "empty": ((0,),)}.get(name, ([[1, 3], [5, 7]],))
    check(lambda xp: type("Holder", (), {"f": getattr(xp, name)})().f(*args, dtype=np.float32))
