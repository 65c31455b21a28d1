"""median, quantile/percentile (every method, weights), average, cov, corrcoef: tnp vs NumPy."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from matrix import rotated
from strategies import FLOATS, INTS, UINTS, array_and_dtype, shapes

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
REAL = INTS + UINTS + FLOATS


def _data(dt, shape=(3, 5)):
    vals = ((np.arange(int(np.prod(shape))) * 7) % 11).reshape(shape)
    return (vals * 0.5).astype(dt) if dt.kind == "f" else vals.astype(dt)


def _with_nan():
    a = _data(np.dtype("f8"))
    a[1, 2] = np.nan
    return a


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [0.4, 0.0, 1.0, [0.1, 0.5, 0.95]], ids=str)
def test_quantile_methods(method, q):
    check(lambda xp, a: xp.quantile(a, q, axis=1, method=method), _data(np.dtype("f8")))
    check(lambda xp, a: xp.quantile(a, q, method=method), _data(np.dtype("f8"), (7,)))


@pytest.mark.parametrize("method,dt", rotated(itertools.product(
    ["linear", "lower", "midpoint", "hazen", "inverted_cdf"], REAL), 2), ids=str)
def test_quantile_dtypes(method, dt):
    rtol = 5e-3 if dt == np.float16 else 1e-5 if dt == np.float32 else None
    check(lambda xp, a: xp.quantile(a, 0.3, axis=0, method=method), _data(dt), rtol=rtol)
    check(lambda xp, a: xp.quantile(a, np.array([0.25, 0.75], np.float32), axis=-1,
                                    method=method), _data(dt), rtol=rtol)


@pytest.mark.parametrize("name", ["quantile", "percentile"])
@pytest.mark.parametrize("kw", [dict(axis=None), dict(axis=(0, 2)), dict(axis=1, keepdims=True),
                                dict(axis=(0, 1), keepdims=True), dict(axis=3)], ids=str)
def test_quantile_axes(name, kw):
    q = [0.2, 0.6] if name == "quantile" else [20, 60]
    check(lambda xp, a: getattr(xp, name)(a, q, **kw), _data(np.dtype("f4"), (2, 3, 4)),
          rtol=1e-5)


@pytest.mark.parametrize("q", [1.5, -0.1, [0.5, 2.0]], ids=str)
def test_quantile_bad_q(q):
    check(lambda xp, a: xp.quantile(a, q), _data(np.dtype("f8")))
    check(lambda xp, a: xp.percentile(a, q * 100 if np.ndim(q) == 0 else [150]),
          _data(np.dtype("f8")))


def test_quantile_bad_method_and_input():
    check(lambda xp, a: xp.quantile(a, 0.5, method="bogus"), _data(np.dtype("f8")))
    check(lambda xp, a: xp.quantile(a, 0.5), _data(np.dtype("f8")).astype(complex))
    check(lambda xp, a: xp.quantile(a, 0.5, method="linear", weights=np.ones(5)),
          _data(np.dtype("f8")))


def test_quantile_nan_and_out():
    check(lambda xp, a: xp.quantile(a, [0.3, 0.8], axis=1), _with_nan())
    check(lambda xp, a: xp.percentile(a, 40), _with_nan())

    def body(xp, a, o):
        r = xp.quantile(a, 0.5, axis=1, out=o)
        return r is o, o
    check(body, _data(np.dtype("f8")), np.zeros(3))


@pytest.mark.parametrize("axis", [None, 0, 1], ids=str)
@pytest.mark.parametrize("q", [0.3, [0.0, 0.5, 1.0]], ids=str)
def test_quantile_weights(axis, q):
    w = (np.arange(15) % 4).reshape(3, 5).astype(float)
    w1 = np.array([1.0, 0.0, 2.0, 3.0, 1.0])
    check(lambda xp, a, w: xp.quantile(a, q, axis=axis, method="inverted_cdf", weights=w),
          _data(np.dtype("f8")), w)
    if axis == 1:
        check(lambda xp, a, w: xp.percentile(a, 30, axis=1, method="inverted_cdf", weights=w),
              _data(np.dtype("i4")), w1)
    check(lambda xp, a, w: xp.quantile(a, q, axis=axis, method="inverted_cdf", weights=-w),
          _data(np.dtype("f8")), w)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on 0/0 and inf/inf first
@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("bad", [[1, np.inf, 1, 1], [0, 0, 0, 0], [np.finfo("f8").max] * 4,
                                 [1, np.nan, 1, 1], [1, 2, 3, 4]], ids=repr)
def test_quantile_weights_nan_inf_zero(name, bad):
    # one slice with bad weights, one with good ones: NumPy's ValueError
    a = np.array([[1.0, 2, 3, 4], [np.nan, np.nan, 1, 2], [np.nan] * 4])
    w = np.array([bad, [0.5] * 4, [0.0] * 4])
    q = 50 if "percentile" in name else 0.5
    check(lambda xp, a, w: getattr(xp, name)(a[:1], q, weights=w[:1], axis=1,
                                             method="inverted_cdf"), a, w)
    if name.startswith("nan"):  # the all-NaN slice's zero weights are not looked at
        check(lambda xp, a, w: getattr(xp, name)(a, q, weights=w, axis=1,
                                                 method="inverted_cdf"), a, w)



@pytest.mark.parametrize("dt,axis", rotated(itertools.product(
    REAL + [np.dtype("?")], [None, 0, -1, (0, 1)]), 2), ids=str)
def test_median(dt, axis):
    rtol = 5e-3 if dt == np.float16 else None
    check(lambda xp, a: xp.median(a, axis=axis), _data(dt), rtol=rtol)
    check(lambda xp, a: xp.median(a, axis=axis, keepdims=True), _data(dt, (4, 2)), rtol=rtol)


def test_median_nan_empty():
    check(lambda xp, a: xp.median(a, axis=1), _with_nan())
    check(lambda xp, a: xp.median(a), np.zeros((0,)))
    check(lambda xp, a: xp.median(a, axis=0), np.zeros((0, 3)))
    check(lambda xp, a: xp.median(a, axis=2), _with_nan())


@pytest.mark.parametrize("dt", [np.dtype("i4"), np.dtype("f4"), np.dtype("f8"),
                                np.dtype("c16")], ids=str)
@pytest.mark.parametrize("kw", [dict(), dict(axis=0), dict(axis=1, returned=True),
                                dict(axis=1, keepdims=True), dict(returned=True)], ids=str)
def test_average(dt, kw):
    rtol = 1e-5 if dt == np.float32 else None
    a = _data(dt) if dt.kind != "c" else _data(np.dtype("f8")) * (1 + 1j)
    check(lambda xp, a: xp.average(a, **kw), a, rtol=rtol)
    w = np.arange(1, 6, dtype=np.float32) if kw.get("axis") == 1 else \
        np.arange(1, 16).reshape(3, 5)
    check(lambda xp, a, w: xp.average(a, weights=w, **kw), a, w, rtol=rtol)


def test_average_errors():
    a = _data(np.dtype("f8"))
    check(lambda xp, a: xp.average(a, axis=1, weights=np.zeros(5)), a)
    check(lambda xp, a: xp.average(a, weights=np.ones(5)), a)
    check(lambda xp, a: xp.average(a, axis=0, weights=np.ones(5)), a)


@pytest.mark.parametrize("dt", [np.dtype("i8"), np.dtype("f4"), np.dtype("f8"),
                                np.dtype("c16")], ids=str)
@pytest.mark.parametrize("kw", [dict(), dict(rowvar=False), dict(bias=True), dict(ddof=2),
                                dict(fweights=np.array([1, 2, 1, 3, 1])),
                                dict(aweights=np.array([0.5, 1, 2, 1, 1])),
                                dict(fweights=np.array([1, 2, 1, 3, 1]),
                                     aweights=np.array([0.5, 1, 2, 1, 1]), ddof=0),
                                dict(dtype="f4")], ids=lambda k: ",".join(k))
def test_cov(dt, kw):
    a = _data(dt) if dt.kind != "c" else _data(np.dtype("f8")) * (1 - 2j)
    if kw.get("rowvar") is False:
        a = a.T.copy()
    rtol = 1e-5 if dt == np.float32 or kw.get("dtype") == "f4" else 1e-10
    atol = 1e-12 if dt.kind == "c" else 0.0  # imaginary parts that are rounding noise
    check(lambda xp, a: xp.cov(a, **kw), a, rtol=rtol, atol=atol)


def test_cov_forms():
    x = _data(np.dtype("f8"))
    check(lambda xp, a: xp.cov(a[0]), x)
    check(lambda xp, a: xp.cov(a[0], a[1]), x)
    check(lambda xp, a: xp.cov(a, a[:2]), x)
    check(lambda xp, a: xp.cov(a[0], ddof=10), x)
    check(lambda xp, a: xp.cov(a, fweights=np.array([1, -2, 1, 1, 1])), x)
    check(lambda xp, a: xp.cov(a, fweights=np.array([1.5, 2, 1, 1, 1])), x)
    check(lambda xp, a: xp.cov(np.ones((2, 2, 2))), x)


@pytest.mark.parametrize("kw", [dict(), dict(rowvar=False), dict(dtype="f4")], ids=str)
def test_corrcoef(kw):
    check(lambda xp, a: xp.corrcoef(a, **kw), _data(np.dtype("f8")), rtol=1e-5)
    check(lambda xp, a: xp.corrcoef(a[0], a[1], **kw), _data(np.dtype("i4")), rtol=1e-5)
    check(lambda xp, a: xp.corrcoef(a), _data(np.dtype("f8")) * (1 + 1j), atol=1e-12)
    check(lambda xp, a: xp.corrcoef(a[0]), _data(np.dtype("f8")))


@pytest.mark.parametrize("name", ["median", "nanmedian", "quantile", "nanquantile"])
@given(data=st.data())
def test_order_statistics_hypothesis(name, data):
    a = data.draw(array_and_dtype(INTS + FLOATS, shape=data.draw(shapes(1, 2, 1, 5))))
    method = data.draw(st.sampled_from(METHODS))
    args = () if name.endswith("median") else (0.37,)
    kw = {} if name.endswith("median") else {"method": method}
    check(lambda xp, a: getattr(xp, name)(a, *args, axis=-1, **kw), a)


@pytest.mark.parametrize("axis, wsel", [((0, 1), (slice(None), slice(None), 0)),
                                        ((1, 2), (1,)), ((0, 2), (slice(None), 0)),
                                        ((2, 0), "T"), (1, (0, slice(None), 0))], ids=str)
def test_average_weights_over_several_axes(axis, wsel):
    # weights shaped as a's axes (in the order given): NumPy's transpose and broadcast
    y = np.arange(12.0).reshape(2, 2, 3)
    w = np.array([0., 0., 1., .5, .5, 0., 0., .5, .5, 1., 0., 0.]).reshape(2, 2, 3) + 0.25
    ws = w[:, 0, :].T if wsel == "T" else w[wsel]
    check(lambda xp, y, w: xp.average(y, axis=axis, weights=w, returned=True), y, ws)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("kw", [{"aweights": np.ones(3)}, {"fweights": [1, 2, 1], "ddof": 1},
                                {"aweights": [1.0, 2.0, 0.5], "bias": True}], ids=str)
def test_cov_complex_weighted(kw):
    check(lambda xp, x: xp.cov(x, **kw), np.array([[1, 2, 3], [1j, 2j, 3.5j]]))


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("a,q", [(True, False), ([False, True, True], [False, True, True]),
                                 ([3.0, 1, 2], 1), ([3, 1, 2], [0, 1]),
                                 ([[3.0, np.nan, 2], [1, 2, 3]], True)], ids=str)
def test_quantile_integer_q_takes_elements(name, a, q):
    # linear with an integer or bool q: NumPy takes the elements (no interpolation), so a bool
    # array keeps its dtype
    check(lambda xp, a, q: getattr(xp, name)(a, q), np.asarray(a), np.asarray(q))
    if np.ndim(a):
        check(lambda xp, a, q: getattr(xp, name)(a, q, axis=-1), np.asarray(a), np.asarray(q))


def test_median_of_empty_axes():
    a = np.zeros((0, 3))
    for axis in (1, (0, 1), None):
        check(lambda xp, a: xp.median(a, axis=axis), a)


def test_out_given_positionally_before_other_arguments():
    # NumPy's own TestPercentile.test_api: out is the 4th of 6 positional arguments
    def body(xp, d):
        o, o2 = xp.zeros(()), xp.zeros(4)
        r = xp.percentile(d, 5, None, o, False, "linear")
        r2 = xp.quantile(d, 0.3, (0, 1), o2, False)
        assert r is o and r2 is o2
        return o, o2
    check(body, np.arange(24.0).reshape(2, 3, 4))
