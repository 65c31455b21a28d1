"""Writing routines and in-place operators against NumPy: copyto, put, put_along_axis, putmask,
place, fill, fill_diagonal, augmented assignment on views; errors leave arrays unchanged."""
import operator
import warnings

import numpy as np
import pytest

from engine import check

DTYPES = [np.dtype(d) for d in ("float64", "float32", "int64", "int8", "uint16", "bool",
                                "complex128")]
A = np.arange(12.0).reshape(3, 4)


def _arr(dt, shape=(3, 4)):
    return (np.arange(int(np.prod(shape))) % 5).astype(dt).reshape(shape)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("src", [np.arange(4) % 2, np.linspace(0, 1, 4), 3, 2.5, True, 1j,
                                 np.arange(4, dtype=np.int8), 2**70, -1], ids=repr)
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe", "no", "equiv"])
def test_copyto_casting(dt, src, casting):
    def body(xp, a):
        xp.copyto(a, src, casting=casting)
        return a
    check(body, _arr(dt))


@pytest.mark.parametrize("where", [True, False, [True, False, True, False],
                                   np.arange(12).reshape(3, 4) % 3 == 0, [[1], [0], [1]],
                                   [True, False]])
def test_copyto_where(where):
    def body(xp, a, b):
        xp.copyto(a, b, where=where)
        return a
    check(body, A, -A[0])


def test_copyto_errors():
    check(lambda xp, a: xp.copyto(a, np.arange(3)), A)
    check(lambda xp, a: xp.copyto([1, 2], a), A)
    check(lambda xp, a: xp.copyto(a[:, ::2], a[:, 1::2]) or a, A)  # overlapping views

    def read_only(xp, a):
        xp.copyto(xp.broadcast_to(a[0], (3, 4)), 1)
    check(read_only, A)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("ind,v", [([0, 5, 11], [10, 20, 30]), ([1, 1, 2], [7, 8]),
                                   ([-1, -12], 99), ([13, 2], [1, 2]), ([-13, 0], [5]),
                                   ([], [1]), ([1, 2], []), (3, 5.5), ([[0, 1], [2, 3]], [9])],
                         ids=str)
def test_put(mode, ind, v):
    def body(xp, a):
        xp.put(a, ind, v, mode=mode)
        return a
    check(body, A)

    def method_on_view(xp, a):
        a.T.put(ind, v, mode=mode)
        return a
    check(method_on_view, A)


def test_put_errors():
    check(lambda xp, a: xp.put([1, 2], [0], 1), A)
    check(lambda xp, a: xp.put(a, [0], 1, mode="bad"), A)
    check(lambda xp, a: xp.put(a, [0.0], 1), A)
    for mode in ("wrap", "clip", "raise"):
        check(lambda xp: xp.put(xp.asarray([]), 1, 1, mode=mode))
        check(lambda xp: xp.put(xp.zeros((0, 2), int), [], 1, mode=mode))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_put_along_axis(axis):
    idx = np.array([[0, 2, 1, 0]]) if axis == 0 else np.array([[3], [0], [1]])
    if axis is None:
        idx = np.array([11, 0, 5])

    def body(xp, a):
        xp.put_along_axis(a, idx, np.array([-1.0]), axis=axis)
        return a
    check(body, A)
    check(lambda xp, a: xp.put_along_axis(a, idx.astype(float), 1, axis=axis), A)
    check(lambda xp, a: xp.put_along_axis(a, idx[..., None], 1, axis=axis), A)


@pytest.mark.parametrize("values", [-1, [10, 20], np.arange(12) * 10, [], 2.5, 2**70])
def test_putmask(values):
    def body(xp, a):
        xp.putmask(a, a % 3 == 1, values)
        return a
    check(body, A.astype(np.int64))
    check(lambda xp, a: xp.putmask(a, [True, False], values), A)


@pytest.mark.parametrize("vals", [[-1, -2], [5], np.arange(20), [], 1.5])
@pytest.mark.parametrize("mask", ["some", "none"])
def test_place(vals, mask):
    def body(xp, a):
        m = a > 6 if mask == "some" else a > 100
        xp.place(a, m, vals)
        return a
    check(body, A.astype(np.int32))
    check(lambda xp, a: xp.place(a, [True], vals), A)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("value", [0, 7, -2.5, True, 3 + 1j, 300], ids=repr)
def test_fill(dt, value):
    def body(xp, a):
        a.fill(value)
        v = a[1:, ::2]
        v.fill(value)
        return a
    check(body, _arr(dt))


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 7), (3, 3, 3), (2, 3, 2)])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("val", [9, [1, 2], np.arange(10)])
def test_fill_diagonal(shape, wrap, val):
    def body(xp, a):
        xp.fill_diagonal(a, val, wrap=wrap)
        return a
    check(body, np.zeros(shape))
    check(lambda xp, a: xp.fill_diagonal(a[0], 1), np.zeros((3,)) if shape else A)


INPLACE = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv,
           operator.imod, operator.ipow, operator.iand, operator.ior, operator.ixor,
           operator.ilshift, operator.irshift, operator.imatmul]


@pytest.mark.parametrize("op", INPLACE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dt", [np.dtype("int64"), np.dtype("float64"), np.dtype("uint8"),
                                np.dtype("bool")], ids=str)
def test_inplace_operator_on_views(op, dt):
    def body(xp, a, b):
        v = a[:, 1:3].T  # (2, 3) view
        r = op(v, b)
        assert r is v
        return a, v
    b = _arr(dt, (3, 3)) if op is operator.imatmul else _arr(dt, (2, 3))
    check(body, _arr(dt, (3, 4)), b)


def test_int_true_divide_inplace_raises_and_leaves_unchanged():
    def body(xp, a):
        a /= 2
    check(body, np.arange(6))


def test_aliasing_inplace():
    def body(xp, a):
        a[1:] += a[:-1]
        a[:, ::-1] *= a
        return a
    check(body, A)


def test_ufunc_out_view():
    def body(xp, a):
        xp.add(a[0], a[1], out=a[2])
        xp.multiply(a, 2, out=a.T.T)
        return a
    check(body, A)


@pytest.mark.parametrize("dt", ["U2", object, "g", ">f4", "M8[s]"], ids=str)
def test_writing_routines_on_dtypes_only_numpy_holds(dt):
    # These arrays live on the host tier whatever the placement: NumPy's own routine writes
    # them in place (through a view too), under the write path's lock
    src = np.arange(6).astype(dt).reshape(2, 3)
    v = np.arange(6, 12).astype(dt)

    def body(xp, a, vals):
        xp.place(a, a != a[0, 0], vals[:2])
        xp.put(a, [5, 0], vals[2:4])
        xp.copyto(a[:, 1:], vals[4], where=[[True, False]])
        xp.putmask(a[1], [True, False, True], vals[:1])
        xp.fill_diagonal(a, vals[5])
        xp.put_along_axis(a, np.array([[0], [2]]), vals[1:3].reshape(2, 1), axis=1)
        return a
    check(body, src, v)
    # NumPy's errors: an index out of range, a value it cannot convert
    check(lambda xp, a: xp.put(a, [9], a[0, :1]), src)
    check(lambda xp, a: xp.copyto(a, "not a number" if a.dtype.kind != "U" else object()), src)


CASTS_OF_COMPLEX = {
    "setitem": lambda xp, x, c: x.__setitem__(slice(None), c),
    "fancy": lambda xp, x, c: x.__setitem__([1, 0], c),
    "mask": lambda xp, x, c: x.__setitem__(xp.array([True, False]), c[:1]),
    "copyto": lambda xp, x, c: xp.copyto(x, c, casting="unsafe"),
    "out": lambda xp, x, c: xp.add(c, c, out=x, casting="unsafe"),
    "astype": lambda xp, x, c: c.astype(x.dtype),
    "asarray": lambda xp, x, c: xp.asarray(c, dtype=x.dtype),
}


@pytest.mark.parametrize("dt", [np.int64, np.uint8, np.float32, np.float64, bool], ids=str)
@pytest.mark.parametrize("name", CASTS_OF_COMPLEX)
def test_complex_to_real_warns(name, dt):
    """NumPy's ComplexWarning where complex data is cast to a real number dtype (not bool);
    under an 'error' filter nothing is written."""
    def body(xp, c):
        x = xp.ones(2, dt)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            CASTS_OF_COMPLEX[name](xp, x, c)
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            try:
                CASTS_OF_COMPLEX[name](xp, x, c * 2)
                raised = False
            except np.exceptions.ComplexWarning:
                raised = True
        return x, raised, [(type(m.message), str(m.message)) for m in w]
    check(body, np.array([1 + 2j, 3j]))


@pytest.mark.parametrize("dt", ["float64", "int32", "longdouble", "clongdouble"])
def test_flat_assignment_through_a_strided_view(dt):
    # ``v.flat = ...`` on a view NumPy cannot reshape without a copy writes into the array
    # (also for dtypes held on the host tier)
    def body(xp, a):
        v = a[::2, ::3]
        v.flat = range(1, 37)
        a[1::2, 1::3].flat[2:5] = 7
        return a
    check(body, np.zeros((12, 18), dt))


def test_object_array_element_is_the_object_given(placement):
    """One element of an object array set to an array: NumPy stores that array object itself
    (a slice set to it broadcasts its elements)."""
    def body(xp):
        a = xp.array([1, 2])
        arr = xp.empty(4, dtype=object)
        arr[0] = a
        arr[1] = [3, 4]
        arr[2:] = xp.array([5, 6])
        return arr[0] is a, type(arr[1]).__name__, arr[2:].tolist(), type(arr[3]).__name__
    check(body)


VALUES_NUMPY_HOLDS = {
    "str": np.array(["2", "-3", "7"]), "bad str": np.array(["2", "x", "7"]),
    "object": np.array([1, 2.5, 3], dtype=object), "datetime64": np.array(
        ["2020-01-01", "1970-01-03", "2001-09-09"], dtype="M8[D]"),
    "bytes": np.array([b"1", b"0", b"4"]), "longdouble": np.array([1.5, -2.25, 3.0], np.longdouble),
}


@pytest.mark.parametrize("dt", ["int64", "float64", "int8"])
@pytest.mark.parametrize("name", VALUES_NUMPY_HOLDS)
def test_write_values_of_dtypes_only_numpy_holds(placement, name, dt):
    """A tnp array of a dtype the device cannot hold (strings, objects, dates...) written into a
    numeric array, by a slice, a mask and an integer index: NumPy's conversion of the values, or
    its error class (NumPy may have written the elements before the bad one; tnp's target is
    left as it was, as every failed write leaves it)."""
    def body(xp, target, value):
        v = xp.asarray(value)
        out = []
        for index in (slice(None, 3), xp.asarray([True, False, True, True, False]),
                      xp.asarray([4, 0, 2])):
            t = target.copy()
            try:
                t[index] = v
            except (TypeError, ValueError) as e:
                out.append(type(e).__name__)
                if xp is not np:
                    np.testing.assert_array_equal(np.asarray(t), target)
                continue
            out.append(t)
        return out
    check(body, np.arange(5).astype(dt), VALUES_NUMPY_HOLDS[name])
