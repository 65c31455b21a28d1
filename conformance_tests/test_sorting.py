"""sort, argsort, lexsort, partition, argpartition, sort_complex and the in-place methods.

NumPy's default sort kind is not stable (and its SIMD sorts order -0.0/0.0 and ties freely), so
tie-sensitive comparisons use ``kind='stable'``/``stable=True``; with the default kind the data
have no ties that could show. partition/argpartition promise only the kth placement: the tests
compare the kth element and the sorted result (both determined), never the rest of the order.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from strategies import ALL_DTYPES, arrays, dtypes

AXES = [-1, 0, None]


def _data(dt, ties=True):
    """A (3, 4) array of ``dt``: ties if ``ties``, NaN (and a complex NaN class) if inexact."""
    vals = np.array([[5, 1, 3, 1], [2, 7, 2, 0], [4, 6, 9, 3]]) if ties else \
        np.array([[5, 1, 3, 11], [2, 7, 8, 0], [4, 6, 9, 10]])
    if dt.kind == "b":
        return (vals % 2).astype(dt)
    a = vals.astype(dt)
    if dt.kind == "f":
        a[1, 1] = np.nan
        a[2, 0] = -np.inf
    if dt.kind == "c":
        a = a + (1j * vals[::-1]).astype(dt)
        a[1, 1] = complex(np.nan, 1)
        a[0, 2] = complex(2, np.nan)
    return a


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_sort(dt, axis):
    check(lambda xp, a: xp.sort(a, axis=axis), _data(dt))
    check(lambda xp, a: xp.sort(a, axis=axis, kind="stable"), _data(dt))


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_argsort(dt, axis):
    check(lambda xp, a: xp.argsort(a, axis=axis, stable=True), _data(dt))
    if dt.kind != "b":
        check(lambda xp, a: xp.argsort(a, axis=axis), _data(dt, ties=False))


@given(dtypes(), st.integers(0, 12), st.data())
def test_sort_stable_hypothesis(dt, n, data):
    a = data.draw(arrays(dt, (n,)))
    check(lambda xp, a: (xp.sort(a, kind="stable"), xp.argsort(a, kind="stable")), a)


def test_sort_nan_and_zero_order():
    check(lambda xp, a: (xp.sort(a, stable=True), xp.argsort(a, stable=True)),
          np.array([0.0, np.nan, -0.0, -np.inf, -np.nan, 1.0, -0.0]))
    c = np.array([complex(np.nan, np.nan), complex(1, np.nan), complex(np.nan, 0), 2 + 0j,
                  complex(0, np.nan), 1 + 1j, complex(np.nan, -1), 1 - 1j])
    check(lambda xp, a: (xp.sort(a, kind="stable"), xp.argsort(a, kind="stable")), c)


def test_sort_empty_and_0d():
    check(lambda xp, a: xp.sort(a), np.zeros((0, 3)))
    check(lambda xp, a: xp.sort(a, axis=0), np.zeros((0, 3)))
    check(lambda xp, a: xp.sort(a, axis=None), np.array(3.0))
    check(lambda xp, a: xp.argsort(a, axis=None), np.array(3.0))
    check(lambda xp, a: xp.sort(a), np.array(3.0))


@pytest.mark.parametrize("kwargs", [dict(kind="bogus"), dict(axis=2), dict(axis=-3),
                                    dict(order="f0"), dict(axis=None, kind="nope")])
def test_sort_errors(kwargs):
    check(lambda xp, a: xp.sort(a, **kwargs), _data(np.dtype(float)))
    check(lambda xp, a: xp.argsort(a, **kwargs), _data(np.dtype(float)))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_sort_methods_in_place(dt):
    def body(xp, a):
        r = a.sort(axis=0)
        return r, a, a.argsort(kind="stable")
    check(body, _data(dt))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bhilqBHILQefdFD"], ids=str)
def test_sort_complex(dt):
    check(lambda xp, a: xp.sort_complex(a), _data(dt, ties=False)[0])
    check(lambda xp, a: xp.sort_complex(a), _data(dt, ties=False))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?ilQdD"], ids=str)
def test_lexsort(dt):
    a, b = _data(dt)[0], _data(dt)[1]
    check(lambda xp, a, b: xp.lexsort((a, b)), a, b)
    check(lambda xp, a, b: xp.lexsort([b, a]), a, b)
    check(lambda xp, k: xp.lexsort(k), _data(dt))
    check(lambda xp, k: xp.lexsort(k, axis=0), np.stack([_data(dt), _data(dt)[::-1]]))
    check(lambda xp, k: xp.lexsort(k, axis=None), np.stack([_data(dt), _data(dt)[::-1]]))


def test_lexsort_errors():
    check(lambda xp: xp.lexsort([]))
    check(lambda xp, a, b: xp.lexsort([a, b]), np.arange(3), np.arange(4))
    check(lambda xp, a: xp.lexsort([a], axis=1), np.arange(3))


def _partition_body(fn, kth, axis):
    def body(xp, a):
        p = getattr(xp, fn)(a, kth, axis=axis)
        if fn == "argpartition":
            p = xp.take_along_axis(a, p, axis=axis) if axis is not None else a.ravel()[p]
        ax = -1 if axis is None else axis
        ks = [kth] if np.isscalar(kth) else kth
        return [xp.take(p, k, axis=ax) for k in ks], xp.sort(p, axis=ax)
    return body


@pytest.mark.parametrize("fn", ["partition", "argpartition"])
@pytest.mark.parametrize("kth,axis", [(1, -1), (-1, -1), ((0, 2), 0), (5, None), (3, 1)])
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bqHefdD"], ids=str)
def test_partition_invariants(fn, kth, axis, dt):
    check(_partition_body(fn, kth, axis), _data(dt))


@pytest.mark.parametrize("fn", ["partition", "argpartition"])
@pytest.mark.parametrize("kth,kwargs", [(4, {}), (-5, {}), (True, {}), (1, dict(axis=2)),
                                        (1, dict(kind="quick")), (12, dict(axis=None))])
def test_partition_errors(fn, kth, kwargs):
    check(lambda xp, a: getattr(xp, fn)(a, kth, **kwargs), _data(np.dtype(float)))


def test_partition_methods():
    def body(xp, a):
        r = a.partition(2)
        return r, xp.sort(a, axis=-1), a[:, 2]
    check(body, _data(np.dtype(np.int32)))
    check(_partition_body("argpartition", 1, -1), _data(np.dtype(np.float32)))
    check(lambda xp, a: xp.sort(xp.take_along_axis(a, a.argpartition(2), -1)),
          _data(np.dtype(np.float32)))
