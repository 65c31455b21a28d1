"""Views against NumPy: what NumPy returns as a view reads from and writes through to its base;
view chains three levels deep; read-only views; base, flags, strides, memory overlap."""
import warnings

import numpy as np
import pytest

import tnp
from engine import assert_same, check

A = np.arange(24.0).reshape(2, 3, 4)
C = (np.arange(6) + 1j * np.arange(6)[::-1]).reshape(2, 3)

VIEWS = {
    "slice": lambda xp, a: a[1:, ::2],
    "neg_step": lambda xp, a: a[::-1, :, ::-3],
    "int_then_slice": lambda xp, a: a[1, 1:],
    "T": lambda xp, a: a.T,
    "transpose": lambda xp, a: xp.transpose(a, (1, 2, 0)),
    "swapaxes": lambda xp, a: xp.swapaxes(a, 0, 2),
    "moveaxis": lambda xp, a: xp.moveaxis(a, 0, -1),
    "reshape": lambda xp, a: a.reshape(6, 4),
    "reshape_of_slice": lambda xp, a: a[1].reshape(-1),
    "ravel": lambda xp, a: xp.ravel(a),
    "squeeze": lambda xp, a: xp.squeeze(a[:1]),
    "expand_dims": lambda xp, a: xp.expand_dims(a, (0, 2)),
    "newaxis": lambda xp, a: a[:, None],
    "view": lambda xp, a: a.view(),
    "flip": lambda xp, a: xp.flip(a, 1),
    "flip_all": lambda xp, a: xp.flip(a),
    "fliplr": lambda xp, a: xp.fliplr(a),
    "flipud": lambda xp, a: xp.flipud(a),
    "split_piece": lambda xp, a: xp.split(a, 2, axis=2)[1],
    "array_split_piece": lambda xp, a: xp.array_split(a, 3, axis=-1)[0],
    "hsplit_piece": lambda xp, a: xp.hsplit(a, [1])[1],
    "vsplit_piece": lambda xp, a: xp.vsplit(a, 2)[0],
    "dsplit_piece": lambda xp, a: xp.dsplit(a, [1, 3])[2],
    "atleast_3d": lambda xp, a: xp.atleast_3d(a[0, 0]),
    "atleast_2d": lambda xp, a: xp.atleast_2d(a[0, 0]),
    "atleast_1d": lambda xp, a: xp.atleast_1d(a[0, 0, 0]),
    "real_of_real": lambda xp, a: a.real,
}


@pytest.mark.parametrize("name", VIEWS)
def test_view_reads_and_writes_through(name):
    make = VIEWS[name]

    def body(xp, a):
        v = make(xp, a)
        before = v.copy()
        v[...] = -1  # the base sees the write
        v2 = make(xp, a)
        a[...] = 7  # the view sees the base's write
        return before, v, v2, v.base is a, v.flags.owndata, v.flags.writeable
    check(body, A)


@pytest.mark.parametrize("name", VIEWS)
def test_view_to_numpy(name):
    # numpy.array of a view (tnp reads a small root's view on the host): a writable copy
    def body(xp, a):
        v = VIEWS[name](xp, a)
        h = np.array(v)
        writeable = h.flags.writeable
        h[...] = -1
        return h, writeable, v
    check(body, A, host_ok=True)


@pytest.mark.parametrize("name", VIEWS)
def test_view_layout(name):
    def body(xp, a):
        v = VIEWS[name](xp, a)
        return (v.strides, v.flags.c_contiguous, v.flags.f_contiguous,
                xp.shares_memory(v, a), xp.may_share_memory(v, a), xp.shares_memory(v, a[0, 0]),
                xp.may_share_memory(v, a[1, 2, 3:]))
    check(body, A)


@pytest.mark.parametrize("part", ["real", "imag"])
def test_real_imag_views(part):
    def body(xp, c):
        v = getattr(c, part)
        v[0, 1] = 99
        setattr(c, part, getattr(c, part) * 2)
        return c, v, v.strides, v.flags.c_contiguous
    check(body, C)


def test_imag_of_real_is_read_only_and_setter_raises():
    check(lambda xp, a: a.imag, A)

    def body(xp, a):
        a.imag = 1
    check(body, A)

    def write_imag(xp, a):
        a.imag[0] = 1
    check(write_imag, A)


@pytest.mark.parametrize("order", [0, 1, 2])
def test_chain_three_levels_written_at_each_level(order):
    def body(xp, a):
        v1 = a[:, ::-1]
        v2 = v1.T
        v3 = v2[1:, :, 0]
        target = (v1, v2, v3)[order]
        target[...] = -5
        v3[0, 0] = 100
        v2[0] = 42
        return a, v1, v2, v3
    check(body, A)


def test_views_of_views_base_is_root():
    def body(xp, a):
        return a[1][0].base is a, a.T[0].base is a, xp.split(a, 2)[0][0].base is a
    check(body, A)


@pytest.mark.parametrize("make", [lambda xp, a: xp.diagonal(a, 1, 1, 2),
                                  lambda xp, a: a.diagonal(),
                                  lambda xp, a: xp.broadcast_to(a[0], (3, 3, 4))])
def test_read_only_views(make):
    def read(xp, a):
        v = make(xp, a)
        return v, v.flags.writeable, v.flags.owndata, v.strides

    def write(xp, a):
        make(xp, a)[...] = 1

    def write_after_base_changed(xp, a):
        v = make(xp, a)
        a[0] = -1
        return v
    check(read, A)
    check(write, A)
    check(write_after_base_changed, A)


FLAG_KEYS = ["C", "F", "FNC", "FORC", "B", "BEHAVED", "CA", "CARRAY", "FA", "FARRAY", "A", "W",
             "O", "X", "fnc", "Q"]


@pytest.mark.parametrize("name", VIEWS)
def test_derived_flags(name):
    def body(xp, a, fortran=False):
        v = VIEWS[name](xp, xp.asfortranarray(a) if fortran else a)
        f = v.flags
        out = [f.fnc, f.forc, f.behaved, f.carray, f.farray]
        for k in FLAG_KEYS:
            try:
                out.append(f[k])
            except KeyError as e:
                out.append(str(e))
        v.setflags(write=False)
        return out + [v.flags.behaved, v.flags.carray, v.flags.farray]
    check(body, A)
    check(lambda xp, a: body(xp, a, True), A)


def test_setflags_write_true_on_diagonal_writes_through():
    def body(xp, a):
        d = xp.diagonal(a, -1)
        d.setflags(write=True)
        d[...] = 0
        return a
    check(body, np.arange(16.0).reshape(4, 4))


def test_setflags_read_only():
    def body(xp, a):
        a.setflags(write=False)
        v = a[1:]
        a[0] = 1
    check(body, A)

    def view_readonly(xp, a):
        a.setflags(write=False)
        return a[1:].flags.writeable

    def reenable_view(xp, a):
        a.setflags(write=False)
        a[1:].setflags(write=True)
    check(view_readonly, A)
    check(reenable_view, A)


@pytest.mark.parametrize("make", [lambda xp, a: a.T.reshape(-1), lambda xp, a: a[:, ::2].ravel(),
                                  lambda xp, a: a[:, 1].reshape(8),
                                  lambda xp, a: a.reshape(-1)[::2].ravel(),
                                  lambda xp, a: a[0, :, 1].ravel("K"),
                                  lambda xp, a: a[0, :, 1:2].ravel("A"),
                                  lambda xp, a: a[::-1].ravel("K")])
def test_reshape_copies_where_numpy_copies(make):
    def body(xp, a):
        r = make(xp, a)
        r[...] = 0
        return a, r.flags.owndata, xp.shares_memory(r, a)
    check(body, A)


def test_reshape_copy_false_raises_where_numpy_would_copy():
    check(lambda xp, a: xp.reshape(a.T, -1, copy=False), A)
    check(lambda xp, a: xp.reshape(a[1:], -1, copy=False).base is a, A)


@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_of_fortran_array(order):
    """An order='F' array: a C-order reshape needs a copy, an F-order one is a view."""
    def body(xp, a):
        f = xp.array(a, order="F")
        r = xp.reshape(f, (4, 6), order=order)
        return r, xp.shares_memory(r, f), r.flags.c_contiguous, r.flags.f_contiguous
    check(body, A)
    check(lambda xp, a: xp.reshape(xp.array(a, order="F"), (12, 2), order=order, copy=False),
          A)


def test_flat_reads_copy_and_writes_through():
    def body(xp, a):
        f = a.T.flat[3:7]
        f[0] = 99
        a.T.flat[[1, 5]] = -1
        a.flat[10:14] = [1, 2, 3]  # repeated cyclically
        a[0].flat = 8
        return a, f, a.flat[5], len(a.flat), list(a[0, 0].flat)
    check(body, A)


@pytest.mark.parametrize("ndim", [32, 33, 64])
def test_flat_dimension_limit_and_deletion(ndim):
    def body(xp):
        a = xp.ones((1,) * ndim)
        try:
            it = a.flat
        except RuntimeError as e:
            return str(e)
        try:
            del it[0]
        except TypeError as e:
            return len(it), str(e)
    check(body)


_FLAT_INDICES = {
    "True": lambda xp: True, "False": lambda xp: False, "np.True_": lambda xp: np.True_,
    "bool and int list": lambda xp: [True, 1], "bool list": lambda xp: [True, True],
    "float list": lambda xp: [1.0, 2.0], "float": lambda xp: 1.0, "None": lambda xp: None,
    "2 ints": lambda xp: (1, 2), "()": lambda xp: (), "...": lambda xp: ...,
    "mask": lambda xp: xp.arange(9) % 2 == 0, "short mask": lambda xp: xp.array([True, False]),
    "float array": lambda xp: xp.array([1.0]),
    "int16 array": lambda xp: xp.array([1, 3], np.int16),
    "0-d int array": lambda xp: xp.array(2), "2-d list": lambda xp: [[1, 2], [3, 4]],
    "flat": lambda xp: xp.array([0, 5, 6]).flat, "int": lambda xp: -9, "int oob": lambda xp: 9,
    "empty list": lambda xp: [],
    "empty bytes flat": lambda xp: xp.array([], dtype="S").flat,
    "bytes flat": lambda xp: xp.array(["a"], dtype="S").flat,
}


@pytest.mark.parametrize("op", ["get", "set"])
@pytest.mark.parametrize("index", list(_FLAT_INDICES))
def test_flat_index_forms(index, op):
    """NumPy's flatiter index rules: its errors, its deprecation warnings (a 0-d bool, float
    indices) and the values of the deprecated forms."""
    def body(xp, a):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always", DeprecationWarning)
            if op == "get":
                r = a.flat[_FLAT_INDICES[index](xp)]
            else:
                a.flat[_FLAT_INDICES[index](xp)] = -1
                r = a
        return r, [str(m.message) for m in w if m.category is DeprecationWarning]
    check(body, np.arange(9).reshape(3, 3))


def test_flags_compare():
    def body(xp, a):
        b = a.copy()
        b.flags.writeable = False
        return (a.flags == a.copy().flags, a.flags == a.T.flags, a.flags != a[1:].flags,
                a[1].flags == xp.ones((3, 4)).flags, a.flags == b.flags, a.flags == 1,
                a.flags != 1, xp.asfortranarray(a).flags == a.T.copy().T.flags)
    check(body, A)


def test_shape_strides_of_empty_and_scalar():
    check(lambda xp, a: (a.strides, a[:0].strides, a[0, 0, 0].strides, a[:0].flags.c_contiguous),
          A)


def test_shares_memory_disjoint_and_other_arrays():
    def body(xp, a):
        b = a.copy()
        return (xp.shares_memory(a[0], a[1]), xp.may_share_memory(a[0], a[1]),
                xp.shares_memory(a[:, ::2], a[:, 1::2]), xp.may_share_memory(a[:, ::2], a[:, 1::2]),
                xp.shares_memory(a, b), xp.shares_memory(a[::2], a[1:]))
    check(body, A)


def test_shares_memory_with_numpys_view(placement):
    """``numpy.asarray(a)`` of a host-tier array is NumPy's view of its memory (README's
    diff-memory): ``shares_memory`` answers for it as NumPy does for ``a`` and its view; a
    device array's data is XLA's (shares nothing)."""
    def answers(xp):
        a = xp.arange(20.0).reshape(4, 5)
        n = np.asarray(a)
        return [xp.shares_memory(a, n), xp.shares_memory(a[2:], n[:3]),
                xp.shares_memory(a[3:], n[:3]), xp.may_share_memory(a[:, ::2], n),
                xp.shares_memory(n[1], a[1]), xp.shares_memory(a.copy(), n)]
    expected = answers(np)
    if placement != "auto":  # a device array (also mode sharded's): NumPy's copy, no memory shared
        expected = [False] * len(expected)
    assert answers(tnp) == expected


def test_resize_method():
    def body(xp, a):
        b = a.copy()
        b.resize((3, 5))
        c = a.copy()
        c.resize(30, refcheck=False)
        d = a.copy()
        d.resize(2)
        return b, c, d
    check(body, A)

    def referenced(xp, a):
        b = a.copy()
        v = b[1:]
        b.resize(4)
    check(referenced, A)

    def view(xp, a):
        a[1:].resize(4, refcheck=False)
    check(view, A)


def test_split_errors_and_pieces():
    def body(xp, a):
        return xp.array_split(a, 5, axis=2), xp.split(a, [1, 10], axis=1)
    check(body, A)
    check(lambda xp, a: xp.split(a, 5, axis=2), A)
    check(lambda xp, a: xp.array_split(a, 0), A)
    check(lambda xp, a: xp.hsplit(a[0, 0, 0], 1), A)
    check(lambda xp, a: xp.vsplit(a[0, 0], 1), A)
    check(lambda xp, a: xp.dsplit(a[0], 1), A)


def test_atleast_multiple_and_errors():
    check(lambda xp, a: xp.atleast_2d(a[0, 0, 0], a[0, 0], a), A)
    check(lambda xp, a: xp.fliplr(a[0, 0]), A)
    check(lambda xp, a: xp.flipud(a[0, 0, 0]), A)
    check(lambda xp, a: xp.diagonal(a[0, 0]), A)
    check(lambda xp, a: xp.diagonal(a, 0, 1, 1), A)
    check(lambda xp, a: xp.broadcast_to(a, (3, 4)), A)


def test_tnp_view_is_a_tnp_array():
    a = tnp.arange(6.0)
    v = a[1:]
    assert isinstance(v, tnp.ndarray) and v.base is a
    v[0] = 10.0
    n = np.arange(6.0)
    n[1] = 10.0
    assert_same(a, n)


@pytest.mark.parametrize("new_shape", [(4, 6), (-1,), 24, (2, 12), (5, 5), (3, -1, 2)])
def test_shape_setter(new_shape):
    def root(xp, a):
        v, w = a[1], a.T
        a.shape = new_shape
        a[...] = a * 2 if a.ndim else a
        return a, v, w, v.strides, a.strides

    def view(xp, a):
        v = a[1]
        v.shape = new_shape
        v[...] = -1
        return a, v
    check(root, A)
    check(view, A)
    check(lambda xp, a: setattr(a.T, "shape", new_shape), A)


# ---- ndarray.view(dtype): the same bytes reinterpreted -------------------------------------
_VIEW_DTYPES = [np.int8, np.uint8, np.int16, np.float16, np.int32, np.float32, np.int64,
                np.uint64, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dst", _VIEW_DTYPES, ids=str)
@pytest.mark.parametrize("src", [np.uint8, np.int32, np.float64, np.complex64], ids=str)
def test_view_dtype(src, dst):
    base = (np.arange(48) * 37 % 101 - 20).astype(src).reshape(3, 16)
    check(lambda xp, a: a.view(dst), base)
    check(lambda xp, a: a[1:, 8:].view(dst), base)  # rows strided, last axis contiguous
    check(lambda xp, a: a[::-1].view(dst).view(src), base)


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 4), (3, 0, 2)], ids=str)
def test_view_dtype_empty(shape):
    def body(xp, a):
        v = a.view(np.uint32)
        v.fill(7)
        return v, a.view(np.complex128), a.view(np.uint8), a.byteswap(), a
    check(body, np.zeros(shape))


def test_view_dtype_bool():
    bits = np.array([[0, 1, 1, 0], [1, 0, 0, 1]], np.uint8)
    check(lambda xp, a: (a.view(np.bool_), a.view(np.bool_).view(np.int8)), bits)
    check(lambda xp, a: a.view(np.uint16).view(np.bool_), bits)


def test_view_dtype_writes_through():
    def body(xp, a):
        v = a[1:, 2:6].view(np.int16)
        v[0, 1] = -3
        v[1] += 1
        w = a.view(np.complex128)
        w[2, 0] = 5 - 1j
        b = a[0].view(np.uint8)
        b[7] = 0xC0
        return v, w
    check(body, np.arange(24.0).reshape(3, 8))


@pytest.mark.parametrize("case", ["transposed", "strided", "0-d", "ragged", "0-d same size"])
def test_view_dtype_errors(case):
    body = {"transposed": lambda xp, a: a.T.view(np.int32),
            "strided": lambda xp, a: a[:, ::2].view(np.complex128),
            "0-d": lambda xp, a: a[0, 0].view(np.int32),
            "ragged": lambda xp, a: a[:, :3].view(np.complex128),
            "0-d same size": lambda xp, a: a[0, 1].view(np.int64)}[case]
    check(body, np.arange(12.0).reshape(3, 4))


# ---- ndarray.view(type): a view of another array class -------------------------------------
# `sub` stands for a subclass of xp.ndarray made in the body (NumPy's of numpy.ndarray, tnp's of
# tnp.ndarray); NumPy's rule: a first argument that is an array class is the type, not a dtype.
_VIEW_TYPE_CALLS = {
    "own class": lambda a, sub: a.view(a.__class__),
    "sub positional": lambda a, sub: a.view(sub),
    "sub keyword": lambda a, sub: a.view(type=sub),
    "dtype and sub": lambda a, sub: a.view(np.int64, sub),
    "dtype= sub": lambda a, sub: a.view(dtype=sub),
    "None, type=sub": lambda a, sub: a.view(None, type=sub),
    "sub twice": lambda a, sub: a.view(sub, type=sub),
    "sub then dtype": lambda a, sub: a.view(sub, np.int64),
    "int as dtype": lambda a, sub: a.view(int),
    "type=int": lambda a, sub: a.view(type=int),
}


@pytest.mark.parametrize("call", list(_VIEW_TYPE_CALLS))
def test_view_type(call):
    def body(xp, a):
        class Sub(xp.ndarray):
            def __array_finalize__(self, obj):
                self.finalized_from = obj.shape if obj is not None else None

        v = _VIEW_TYPE_CALLS[call](a[1:], Sub)
        v[0] = -1  # writes through to `a`
        kind = "sub" if type(v) is Sub else "own" if type(v) is type(a) else type(v).__name__
        return kind, getattr(v, "finalized_from", None), v
    check(body, np.arange(6.0))


def test_array_wrap():
    # ndarray.__array_wrap__ (NumPy's linalg tests call it): the array as one of this array's
    # class; its scalar with return_scalar for a 0-d one
    def body(xp, a, b):
        class Sub(xp.ndarray):
            pass
        w = a.view(Sub).__array_wrap__(b)
        return (type(w) is Sub, w, a.__array_wrap__(b[:1]),
                a.__array_wrap__(b[1:].reshape(()), None, True),
                a.__array_wrap__(b[1:], None, True), a.__array_wrap__(np.arange(2)))
    check(body, np.arange(3.0), np.arange(2.0))
    check(lambda xp, a: a.__array_wrap__([1.0]), np.arange(3.0))  # NumPy's TypeError


def test_view_type_numpy_class_refused():
    """A view of a tnp array is a tnp array: a NumPy array class (numpy.matrix) is refused."""
    with pytest.raises(TypeError, match="tnp.ndarray"):
        tnp.arange(4.0).view(np.matrix)


def test_view_dtype_layout():
    def body(xp, a):
        v = a[:, 2:].view(np.int32)
        return v.strides, v.flags.c_contiguous, xp.shares_memory(v, a[:, :2]), \
            xp.shares_memory(v, a[:, 3:])
    check(body, np.arange(12.0).reshape(3, 4))


@pytest.mark.parametrize("dt,offset", [(np.float64, 8), (np.float64, 0), (np.int32, 4),
                                       (np.uint8, 15), (np.int16, 6), (np.complex64, 8),
                                       (np.int64, 12), (np.float32, -1)], ids=str)
def test_getfield_setfield(dt, offset):
    def body(xp, a):
        f = a[1:, ::2].getfield(dt, offset)
        a.setfield(3, dt, offset)
        return f, a[0, 0].getfield(dt, offset)
    check(body, C)


def test_getfield_writes_through_and_layout():
    def body(xp, a):
        f = a.getfield(np.int16, 2)
        f[1] = -5
        f += 1
        return f, f.strides, xp.shares_memory(f, a[2:])
    check(body, np.arange(4, dtype=np.int64) * 65537)


_BUFFER_VIEWS = {  # ndarray(shape, dtype, buffer, offset, strides) over a tnp array's bytes
    "reversed": ((4,), int, 32, (-8,)),
    "repeated": ((8,), int, 24, (0,)),
    "windows": ((3, 4), int, 8, (8, 8)),
    "transposed": ((2, 3), int, 0, (8, 16)),
    "empty": ((0, 3), int, 0, (80, 8)),
    "reinterpreted": ((5,), np.float32, 4, (4,)),
    "bytes": ((6,), np.uint8, 3, (5,)),
    "zero_d": ((), int, 16, None),
    "complex": ((2,), np.complex64, 8, (16,)),
}


@pytest.mark.parametrize("name", list(_BUFFER_VIEWS))
def test_ndarray_over_buffer(name):
    shape, dt, offset, strides = _BUFFER_VIEWS[name]

    def body(xp, a):
        v = xp.ndarray(shape, dt, a, offset, strides)
        read = v.copy()
        if v.size:
            v[...] = xp.arange(v.size).reshape(v.shape)  # writes reach the buffer
        return read, v.strides, v.flags.c_contiguous, a, v
    check(body, np.arange(10))


@pytest.mark.parametrize("args", [
    ((4,), int, 32, (-16,)), ((8,), int, 24, (8,)), ((2, 3), int, 40, (-16, -24)),
    ((2,), int, 0, ()), ((), int, 0, (8,)), ((2,), int, 4, (8,)), ((2,), int, 80, None)],
    ids=repr)
def test_ndarray_over_buffer_errors(args):
    check(lambda xp, a: xp.ndarray(*args[:2], a, *args[2:]), np.arange(10))


def test_ndarray_over_buffer_of_other_objects():
    def body(xp):
        r = xp.ndarray((2,), "<i2", bytearray(b"\x01\x00\x02\x00"))
        s = xp.ndarray((2,), "<i2", b"\x01\x00\x02\x00", 2, (0,))
        e = xp.ndarray(0, "f8", b"")
        return r, r.flags.writeable, s, s.flags.writeable, e, xp.ndarray((2,), "S3", b"abcdef")
    check(body)


def test_ndarray_huge_broadcast_over_buffer():
    # NumPy's TestCreation::test_array_too_big: nothing of the shape is allocated
    def body(xp):
        big = xp.ndarray((np.iinfo(np.intp).max // 8,), np.intp, np.zeros(100), 0, (0,))
        return big.shape, big.strides, big.flags.writeable
    check(body)
    check(lambda xp: xp.ndarray((np.iinfo(np.intp).max // 8 + 1,), np.intp, np.zeros(100),
                                0, (0,)))


def test_view_of_a_root_holds_one_reference(placement):
    """A view holds its base once, as NumPy's does (NumPy's indexing tests count references)."""
    import sys

    def counts(xp):
        a = xp.arange(10.0).copy()
        start = sys.getrefcount(a)
        views = [a[2:5], a[::2], a.reshape(2, 5), a.T]
        return [sys.getrefcount(a) - start, len(views)]
    assert counts(tnp) == counts(np)


@pytest.mark.parametrize("axes", [(np.array([2, 0, 1]),), ([1, 2, 0],), (None,), (), ((),),
                                  (1, 0, 2)], ids=repr)
def test_transpose_axes_forms(axes):
    """``a.transpose`` with an array of axes (compared with nothing), a list, None, no
    argument, an explicit empty tuple (NumPy's ValueError) and separate integers."""
    def body(xp):
        a = xp.arange(24.0).reshape(2, 3, 4)
        given = [xp.asarray(x) if isinstance(x, np.ndarray) else x for x in axes]
        return a.transpose(*given)
    check(body)
