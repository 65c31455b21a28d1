"""unique (+ array-API forms), isin, intersect1d, union1d, setdiff1d, setxor1d.

NumPy's ``unique_values`` and ``unique(sorted=False)`` return the distinct values in an
unspecified order (a hash table): those tests compare the sorted results. Inputs avoid -0.0
beside 0.0 where NumPy's unstable sort may keep either zero as the representative.
"""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from matrix import rotated
from strategies import ALL_DTYPES, arrays, dtypes


def _data(dt):
    vals = np.array([[5, 1, 3, 1], [2, 7, 2, 0], [5, 1, 3, 1]])
    if dt.kind == "b":
        return (vals % 2).astype(dt)
    a = vals.astype(dt)
    if dt.kind == "f":
        a[1, 1] = np.nan
        a[0, 0] = np.nan
    if dt.kind == "c":
        a = a + (1j * (vals % 3)).astype(dt)
        a[1, 1] = complex(1, np.nan)
        a[0, 0] = complex(np.nan, 0)
    return a


FLAGS = [(False, False, False), (True, False, False), (False, True, False),
         (False, False, True), (True, True, True)]


@pytest.mark.parametrize("flags,dt", rotated(itertools.product(FLAGS, ALL_DTYPES), 2), ids=str)
def test_unique(dt, flags):
    check(lambda xp, a: xp.unique(a, *flags), _data(dt))
    check(lambda xp, a: xp.unique(a, *flags, equal_nan=False), _data(dt))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bqHfD"], ids=str)
def test_unique_axis(dt, axis):
    a = _data(dt)
    if dt.kind in "fc":
        a[np.isnan(a)] = 0
    check(lambda xp, a: xp.unique(a, True, True, True, axis=axis), a)


def test_unique_edge():
    check(lambda xp, a: xp.unique(a, True, True, True), np.zeros(0))
    check(lambda xp, a: xp.unique(a, True, True, True), np.array(3.0))
    check(lambda xp, a: xp.unique(a, axis=2), np.zeros((2, 2)))
    check(lambda xp: xp.unique([3, 1, 3, 2]))
    check(lambda xp, a: xp.sort(xp.unique(a, sorted=False)), np.array([3, 1, 3, 2]))


@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_1d_along_its_axis(axis, equal_nan):
    # NumPy: a 1-d array along its axis is unique(axis=None): equal_nan applies
    a = np.array([1.0, np.nan, 2.0, np.nan, 1.0])
    check(lambda xp, a: xp.unique(a, axis=axis, equal_nan=equal_nan), a)
    check(lambda xp, a: xp.unique(a, True, True, True, axis=axis, equal_nan=equal_nan), a)
    check(lambda xp, a: xp.unique(a, axis=1), a)


@pytest.mark.parametrize("axis", [0.0, np.float64(1), 5, -3, "0"], ids=repr)
@pytest.mark.parametrize("shape", [(4,), (2, 2)], ids=str)
def test_unique_bad_axis(axis, shape):
    # NumPy's TypeError for a float axis (its message differs between 1-d and n-d) and its
    # AxisError naming the array's ndim
    check(lambda xp, a: xp.unique(a, axis=axis), np.arange(4.0).reshape(shape))


@pytest.mark.parametrize("shape,axis", [((2, 0), 0), ((0, 2), 1), ((0, 2), 0), ((3, 0, 2), 0),
                                        ((2, 0, 3), 2)])
def test_unique_axis_of_empty_rows(shape, axis):
    check(lambda xp, a: xp.unique(a, True, True, True, axis=axis), np.zeros(shape, np.int64))


@given(dtypes(), st.integers(0, 10), st.data())
def test_unique_hypothesis(dt, n, data):
    a = data.draw(arrays(dt, (n,)))
    if dt.kind in "fc":
        a[a == 0] = 0  # -0.0 and 0.0 are one value; which sign NumPy keeps is unspecified
    check(lambda xp, a: xp.unique(a, True, True, True), a)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_unique_array_api(dt):
    check(lambda xp, a: xp.unique_all(a), _data(dt))
    check(lambda xp, a: xp.unique_counts(a), _data(dt))
    check(lambda xp, a: xp.unique_inverse(a), _data(dt))
    check(lambda xp, a: xp.sort(xp.unique_values(a)), _data(dt))


@pytest.mark.parametrize("dt1,dt2,invert", rotated(itertools.product(
    [np.dtype(c) for c in "?bBqHefdD"], [np.dtype(c) for c in "?qfD"], [False, True]), 2),
    ids=str)
def test_isin(dt1, dt2, invert):
    check(lambda xp, a, b: xp.isin(a, b, invert=invert), _data(dt1), _data(dt2)[1])
    check(lambda xp, a, b: xp.isin(a, b, invert=invert, assume_unique=True), _data(dt1),
          _data(dt2)[1, :2])


@pytest.mark.parametrize("kind", [None, "sort", "table", "bogus"])
def test_isin_kinds(kind):
    check(lambda xp, a, b: xp.isin(a, b, kind=kind), np.arange(6), np.array([1, 4, 9]))
    check(lambda xp, a, b: xp.isin(a, b, kind=kind), np.arange(6.0), np.array([1, 4, 9]))
    check(lambda xp, a: xp.isin(a, [], kind=kind), np.arange(3))
    check(lambda xp, a: xp.isin(a, 2, kind=kind), np.arange(3))


@pytest.mark.parametrize("dt1,dt2", rotated(itertools.product(
    [np.dtype(c) for c in "?bHfD"], [np.dtype(c) for c in "qD"]), 2), ids=str)
def test_set_ops(dt1, dt2):
    a, b = _data(dt1), _data(dt2)[1:]
    check(lambda xp, a, b: xp.intersect1d(a, b), a, b)
    check(lambda xp, a, b: xp.intersect1d(a, b, return_indices=True), a, b)
    check(lambda xp, a, b: xp.union1d(a, b), a, b)
    check(lambda xp, a, b: xp.setdiff1d(a, b), a, b)
    check(lambda xp, a, b: xp.setxor1d(a, b), a, b)


def test_set_ops_assume_unique_and_empty():
    a, b = np.array([5, 1, 3, 9]), np.array([3, 4, 5])
    check(lambda xp, a, b: xp.intersect1d(a, b, assume_unique=True, return_indices=True), a, b)
    check(lambda xp, a, b: xp.setdiff1d(a, b, assume_unique=True), a, b)
    check(lambda xp, a, b: xp.setxor1d(a, b, assume_unique=True), a, b)
    e = np.zeros(0)
    for fn in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        check(lambda xp, a, b: getattr(xp, fn)(a, b), e, e)
        check(lambda xp, a, b: getattr(xp, fn)(a, b), a, e)
    check(lambda xp: (xp.union1d([1, 2], [[2, 3]]), xp.intersect1d([[1, 2]], [2])))


def test_in1d_removed():
    import tnp
    assert hasattr(np, "in1d") == hasattr(tnp, "in1d")


@pytest.mark.parametrize("dt", ["i1", "i4", "i8", "u1", "u8"])
@pytest.mark.parametrize("kind", [None, "sort", "table"])
def test_isin_table_range_overflow(dt, kind):
    # kind='table': NumPy refuses test values whose range its dtype cannot hold (RuntimeError);
    # None and 'sort' take them
    info = np.iinfo(dt)
    test = np.array([info.min if info.min else 0, info.max if info.min else 200], dt)
    check(lambda xp, a, t: xp.isin(a, t, kind=kind), np.array([1, 2, 3, 0], dt), test)


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?qfD"], ids=str)
def test_set_ops_of_compactions(dt):
    """Compactions (``a[m]``: on the device a masked value, bucketed once its length is asked)
    and the uniques of them, through unique's flags, isin and the set routines."""
    a, b = _data(dt).ravel(), _data(dt)[1:].ravel()

    def body(xp, a, b):
        x, y = a[a != a[0]], b[b != b[-1]]
        len(x)  # bucketed from here, on the device
        u = xp.unique(x)
        return (u, xp.unique(x, return_index=True, return_counts=True),
                xp.unique(x, return_counts=True, equal_nan=False), xp.isin(u, xp.unique(y)),
                xp.isin(x, y, invert=True), u[xp.isin(u, y)], xp.intersect1d(x, y),
                xp.union1d(x, y), xp.setdiff1d(x, y), xp.setdiff1d(y, x), xp.setxor1d(x, y),
                xp.setxor1d(u, xp.unique(y), assume_unique=True),
                xp.intersect1d(x, y, return_indices=True), xp.unique(x, return_inverse=True),
                xp.unique(x, True, True, True, equal_nan=False), xp.concatenate((x, y, u)),
                xp.concatenate((u, b[:3]), axis=None))
    check(body, a, b)


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "qfD"], ids=str)
def test_joined_compactions_cast(dt):
    """``concatenate`` of compactions with ``dtype=``: NumPy's casts (float to int truncates,
    complex to float warns and drops the imaginary part)."""
    a = (np.arange(24) * 1.75 - 9).astype(dt)

    def body(xp, a):
        x, y = a[a.real > 0], a[a.real < -2]
        len(x)
        return (xp.concatenate((x, y), dtype=xp.int16, casting="unsafe"),
                xp.concatenate((y, x), dtype=xp.float32, casting="unsafe"))
    check(body, a)
