"""The nan-functions, tnp vs NumPy: NaN-free, NaN-containing and all-NaN slices."""
import itertools
import warnings

import numpy as np
import pytest

from engine import check
from matrix import rotated
from strategies import ALL_DTYPES, FLOATS

import tnp

REDUCE = ["nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmin", "nanmax"]
ALL = REDUCE + ["nanargmin", "nanargmax", "nancumsum", "nancumprod", "nanmedian"]


def _data(dt, shape=(3, 4)):
    vals = (np.arange(int(np.prod(shape))) * 5 % 7 - 2).reshape(shape)
    if dt.kind == "b":
        return vals > 0
    if dt.kind == "u":
        vals = np.abs(vals)
    if dt.kind == "c":
        return (vals + 0.5j * vals[::-1]).astype(dt)
    return (vals * 0.5).astype(dt) if dt.kind == "f" else vals.astype(dt)


def _nan(dt, all_nan_row=False):
    a = _data(dt)
    a[0, 1] = np.nan
    a[2, 3] = np.nan
    if all_nan_row:
        a[1] = np.nan
    return a


def _rtol(dt):
    return 5e-3 if dt == np.float16 else 1e-5 if dt.char in "fF" else None


@pytest.mark.parametrize("name,dt,axis", rotated(
    itertools.product(ALL, ALL_DTYPES, [None, 0, -1]), 3), ids=str)
def test_no_nan(name, dt, axis):
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), _data(dt), rtol=_rtol(dt))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("dt", FLOATS + [np.dtype("c16")], ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1], ids=str)
def test_with_nan(name, dt, axis):
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), _nan(dt), rtol=_rtol(dt))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("axis", [None, 1, 0], ids=str)
def test_all_nan_slice(name, axis):
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), _nan(np.dtype("f8"), True))
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), np.full((2, 3), np.nan))


@pytest.mark.parametrize("name", REDUCE + ["nanargmin", "nanargmax", "nanmedian"])
@pytest.mark.parametrize("axis", [None, 1, (0, 1), 2], ids=str)
def test_keepdims(name, axis):
    if name in ("nanargmin", "nanargmax") and isinstance(axis, tuple):
        axis = 0
    check(lambda xp, a: getattr(xp, name)(a, axis=axis, keepdims=True), _nan(np.dtype("f4")),
          rtol=1e-5)


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmin", "nanmax"])
def test_initial_where(name):
    mask = np.array([True, False, True, True])
    check(lambda xp, a: getattr(xp, name)(a, axis=1, initial=5.0), _nan(np.dtype("f8"), True))
    check(lambda xp, a: getattr(xp, name)(a, axis=1, where=mask, initial=-1.0), _nan(
        np.dtype("f8")))


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
def test_where_ddof_dtype(name):
    mask = np.array([True, False, True, True])
    check(lambda xp, a: getattr(xp, name)(a, axis=1, where=mask), _nan(np.dtype("f8")))
    check(lambda xp, a: getattr(xp, name)(a, axis=0, dtype="f4"), _nan(np.dtype("f8")),
          rtol=1e-5)
    if name != "nanmean":
        for kw in (dict(ddof=1), dict(correction=2), dict(ddof=3)):
            check(lambda xp, a: getattr(xp, name)(a, axis=0, **kw), _nan(np.dtype("f8")))


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanmax", "nanargmin", "nancumsum",
                                  "nanmedian"])
def test_out(name):
    def body(xp, a, o):
        r = getattr(xp, name)(a, axis=0, out=o)
        return r is o, o
    shape = (3, 4) if name == "nancumsum" else (4,)
    odt = "i8" if name == "nanargmin" else "f8"
    check(body, _nan(np.dtype("f8")), np.zeros(shape, odt))


@pytest.mark.parametrize("odt", ["?", "i8", "f4", "c8", "f2"])
@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
def test_out_dtypes(name, odt):
    """An out= of another dtype (NumPy's nanmean refuses a non-inexact one)."""
    def body(xp, a, o):
        return getattr(xp, name)(a, axis=1, out=o) is o, o
    check(body, _nan(np.dtype("f8")), np.zeros(3, odt))
    check(lambda xp, a, o: getattr(xp, name)(a, out=o), _nan(np.dtype("f8")), np.zeros((), odt))


@pytest.mark.parametrize("name", ["nanquantile", "nanpercentile"])
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint",
                                    "hazen", "weibull", "inverted_cdf", "closest_observation",
                                    "averaged_inverted_cdf", "interpolated_inverted_cdf",
                                    "median_unbiased", "normal_unbiased"])
def test_nanquantile_methods(name, method):
    q = [0.1, 0.5, 0.9] if name == "nanquantile" else [10, 50, 90]
    check(lambda xp, a: getattr(xp, name)(a, q, axis=1, method=method), _nan(np.dtype("f8")))
    check(lambda xp, a: getattr(xp, name)(a, q[1], method=method), _nan(np.dtype("f8")))


@pytest.mark.parametrize("dt", [np.dtype("i4"), np.dtype("f4"), np.dtype("f8")], ids=str)
@pytest.mark.parametrize("kw", [dict(axis=0), dict(axis=1, keepdims=True), dict()], ids=str)
def test_nanquantile_forms(dt, kw):
    a = _nan(dt) if dt.kind == "f" else _data(dt)
    check(lambda xp, a: xp.nanquantile(a, 0.25, **kw), a, rtol=_rtol(dt))
    check(lambda xp, a: xp.nanpercentile(a, np.array([25.0, 75.0]), **kw), a, rtol=_rtol(dt))
    check(lambda xp, a: xp.nanmedian(a, **kw), a, rtol=_rtol(dt))
    check(lambda xp, a: xp.nanquantile(a, [0.5, 0.7], axis=1), _nan(np.dtype("f8"), True))
    check(lambda xp, a: xp.nanquantile(a, 1.5), a)


def test_nanquantile_weights():
    w = np.array([1.0, 2.0, 0.5, 1.0])
    a = _nan(np.dtype("f8"))
    W = np.tile(w, (3, 1))
    q = [0.3, 0.6]
    # values: weights of the axis' length for 1-d input, of a's shape for 2-d input
    for row in a:
        check(lambda xp, a, w: xp.nanquantile(a, q, method="inverted_cdf", weights=w), row, w)
        check(lambda xp, a, w: xp.nanpercentile(a, 40.0, method="inverted_cdf", weights=w),
              row, w)
    for axis in (0, 1, None):
        check(lambda xp, a, w: xp.nanquantile(a, q, axis=axis, method="inverted_cdf",
                                              weights=w), a, W)
    check(lambda xp, a, w: xp.nanquantile(a, 0.5, axis=1, keepdims=True,
                                          method="inverted_cdf", weights=w), a, W)
    # NumPy raises for 1-d weights along axis 1 of a 2-d array with NaNs (an IndexError from
    # its per-row NaN removal): tnp must raise as NumPy does
    check(lambda xp, a: xp.nanquantile(a, q, axis=1, method="inverted_cdf", weights=w), a)
    # weights need method="inverted_cdf"
    check(lambda xp, a, w: xp.nanquantile(a, q, weights=w), a[1], w)


@pytest.mark.parametrize("name,msg", [("nanmin", "All-NaN"), ("nanmax", "All-NaN"),
                                      ("nanmean", "Mean of empty"),
                                      ("nanvar", "Degrees of freedom"),
                                      ("nanmedian", "All-NaN")])
def test_runtime_warnings(name, msg):
    a = _nan(np.dtype("f8"), True)
    for xp in (np, tnp):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            getattr(xp, name)(xp.asarray(a), axis=1)
        assert any(issubclass(r.category, RuntimeWarning) and msg in str(r.message)
                   for r in rec), (xp.__name__, [str(r.message) for r in rec])


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_nanmedian_sums_middle_elements_in_dtype(dt):
    # NumPy's nanmedian along part of a 2-d array (fewer than 600 elements per slice) sums the
    # middle element twice for an odd count: near the dtype's maximum that overflows to inf;
    # the 1-d path (axis=None) and long slices take the element itself.
    big = np.finfo(dt).max / np.array(1.5, dt)
    a = np.array([[big, np.nan, 1.0], [big, big, 1.0], [-0.0, np.nan, -0.0]], dt)
    check(lambda xp, a: xp.nanmedian(a, axis=1), a)
    check(lambda xp, a: xp.nanmedian(a, axis=0), a)
    check(lambda xp, a: xp.nanmedian(a), a)
    long = np.full((2, 601), big, dt)
    check(lambda xp, a: xp.nanmedian(a, axis=1), long)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd", "mean", "var", "std", "sum",
                                  "nansum", "cumsum"])
@pytest.mark.parametrize("dtype", [np.longdouble, "g", np.float32, "f"], ids=str)
def test_dtype_the_device_cannot_hold(name, dtype):
    # dtype=longdouble (a type, a character or a dtype): NumPy's call, on the host; not JAX's
    # "JAX only supports number, bool, and string dtypes" from the cast
    check(lambda xp, a: getattr(xp, name)(a, dtype=dtype, axis=1), np.eye(3))


@pytest.mark.parametrize("name,args", [("nanmedian", ()), ("nanpercentile", ([10, 50],)),
                                       ("nanquantile", (0.3,))])
@pytest.mark.parametrize("shape,axis", [((0, 3), 0), ((0, 3), None), ((0, 3), 1),
                                        ((0,), None), ((2, 0), -1)], ids=str)
@pytest.mark.parametrize("dt", ["f8", "f4", "i8"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_order_statistics_of_empty(name, args, shape, axis, dt, keepdims):
    # NumPy answers with the nanmean of the empty array (q adds no axes), warning "Mean of
    # empty slice" only where a slice is empty
    a = np.zeros(shape, dt)
    check(lambda xp, a: getattr(xp, name)(a, *args, axis=axis, keepdims=keepdims), a)
    seen = []
    for xp in (np, tnp):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            getattr(xp, name)(xp.asarray(a), *args, axis=axis, keepdims=keepdims)
        seen.append([str(r.message) for r in rec if "Mean of empty" in str(r.message)])
    assert seen[0] == seen[1]


def test_order_statistics_of_empty_check_q():
    check(lambda xp, a: xp.nanpercentile(a, 200), np.zeros((0, 3)))
    check(lambda xp, a: xp.nanquantile(a, [0.5, -1], axis=0), np.zeros((0, 3)))


@pytest.mark.parametrize("name", ["nanmin", "nanmax"])
def test_nanmin_nanmax_out_of_wrong_shape(name):
    # NumPy's error names the reduction its fast path runs (fmin/fmax)
    check(lambda xp, a: getattr(xp, name)(a, out=xp.zeros(2)), np.arange(10.0))
