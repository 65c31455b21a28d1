"""Reductions (sum ... count_nonzero) and the matching ndarray methods, tnp vs NumPy."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check, platform_xfail
from matrix import rotated
from tnp._core import settings
from strategies import ALL_DTYPES, FLOATS, array_and_dtype, shapes

AXES = [None, 0, -1, (0, 1), (0, 2)]


def _data(dt, shape=(2, 3, 4)):
    n = int(np.prod(shape))
    vals = (np.arange(n) % 7 - 3).reshape(shape)
    if dt.kind == "b":
        return (vals > 0)
    if dt.kind == "u":
        vals = np.abs(vals)
    if dt.kind == "c":
        return (vals + 1j * (vals[..., ::-1] % 3)).astype(dt)
    if dt.kind == "f":
        return (vals * 0.5).astype(dt)
    return vals.astype(dt)


def _with_nan(dt):
    a = _data(dt)
    a[0, 1, 2] = np.nan
    a[1, 0, 0] = np.nan
    return a


SUMLIKE = ["sum", "prod", "mean", "std", "var", "min", "max", "amin", "amax", "ptp"]


@pytest.mark.parametrize("name,dt,axis", rotated(
    itertools.product(SUMLIKE, ALL_DTYPES, AXES), 3), ids=str)
def test_axis_dtypes(name, dt, axis, request):
    if name == "prod" and np.dtype(dt).kind == "c" and axis == (0, 2):
        request.applymarker(platform_xfail(
            "the sign of a zero imaginary part depends on the order of the complex products: "
            "NumPy multiplies along the axes in order, XLA's GPU reduction in a tree"))
    rtol = 5e-3 if dt == np.float16 else None
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), _data(dt), rtol=rtol)


@pytest.mark.parametrize("name", SUMLIKE + ["argmin", "argmax", "count_nonzero"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2), 3, (0, 0)], ids=str)
def test_keepdims_and_bad_axes(name, axis):
    check(lambda xp, a: getattr(xp, name)(a, axis=axis, keepdims=True), _data(np.dtype("f8")))


@pytest.mark.parametrize("name", SUMLIKE + ["argmin", "argmax"])
@pytest.mark.parametrize("dt", FLOATS + [np.dtype("c16")], ids=str)
def test_nan_inputs(name, dt):
    rtol = 5e-3 if dt == np.float16 else None
    check(lambda xp, a: getattr(xp, name)(a, axis=1), _with_nan(dt), rtol=rtol)
    check(lambda xp, a: getattr(xp, name)(a), _with_nan(dt), rtol=rtol)


@pytest.mark.parametrize("name", SUMLIKE + ["argmin", "argmax", "count_nonzero"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((0, 3), 1), ((2, 0), 1)],
                         ids=str)
def test_empty(name, shape, axis):
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), np.zeros(shape))


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max"])
@pytest.mark.parametrize("dt", [np.dtype("i4"), np.dtype("f8"), np.dtype("c16"),
                                np.dtype("?")], ids=str)
def test_initial_where(name, dt, request, placement):
    if name == "prod" and dt.kind == "c" and placement == "device" and settings.get(
            "cold") != "off":  # (in the auto pass these small arrays are NumPy's, on the host)
        request.applymarker(pytest.mark.xfail(strict=True, reason=(
            "the NumPy tier (TNP_COLD) multiplies the masked-out elements' 1+0j in: signed "
            "zeros of the imaginary part differ from NumPy's product of the kept elements")))
    mask = np.array([True, False, True, True])
    check(lambda xp, a: getattr(xp, name)(a, axis=-1, initial=2), _data(dt))
    check(lambda xp, a: getattr(xp, name)(a, axis=1, where=mask, initial=1), _data(dt))
    check(lambda xp, a: getattr(xp, name)(a, where=mask), _data(dt))
    check(lambda xp, a: getattr(xp, name)(a, axis=0, initial=3), np.zeros((0, 2), dt))


@pytest.mark.parametrize("name", ["mean", "var", "std"])
def test_where_mean_var(name):
    mask = np.array([[True, False, True, True], [False, False, False, True],
                     [True, True, True, True]])
    check(lambda xp, a: getattr(xp, name)(a, axis=-1, where=mask), _data(np.dtype("f8")))
    check(lambda xp, a: getattr(xp, name)(a, where=mask, keepdims=True), _data(np.dtype("i2")))


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["f4", "i8", "int8", "c16", "u2", "?"], ids=str)
@pytest.mark.parametrize("dt", [np.dtype("i4"), np.dtype("f8"), np.dtype("?")], ids=str)
def test_dtype_argument(name, dtype, dt):
    # a negative float cast to an unsigned type is undefined in C: use non-negative data there
    a = np.abs(_data(dt)) if np.dtype(dtype).kind == "u" else _data(dt)
    check(lambda xp, a: getattr(xp, name)(a, axis=1, dtype=dtype), a)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("dt", [np.dtype("i8"), np.dtype("f2"), np.dtype("f4"),
                                np.dtype("c8"), np.dtype("c16")], ids=str)
@pytest.mark.parametrize("kw", [dict(ddof=1), dict(ddof=2.5), dict(correction=1),
                                dict(ddof=1, correction=1), dict(ddof=5), dict(dtype="f4")],
                         ids=str)
def test_ddof_correction(name, dt, kw):
    rtol = 5e-3 if dt == np.float16 else 1e-5 if dt.char in "fF" else None
    check(lambda xp, a: getattr(xp, name)(a, axis=-1, **kw), _data(dt), rtol=rtol)


@pytest.mark.parametrize("name", ["var", "std"])
def test_mean_argument(name):
    def body(xp, a):
        return getattr(xp, name)(a, axis=1, mean=xp.mean(a, axis=1, keepdims=True))
    check(body, _data(np.dtype("f8")))


@pytest.mark.parametrize("name,odt", [("sum", "f8"), ("mean", "f8"), ("max", "i4"),
                                      ("std", "f4"), ("argmax", "i8"), ("cumsum", "f8"),
                                      ("prod", "c16")])
def test_out(name, odt):
    def body(xp, a, o):
        r = getattr(xp, name)(a, axis=0, out=o)
        return r is o, o
    shape = (3, 4) if name != "cumsum" else (2, 3, 4)
    check(body, _data(np.dtype("i4")), np.zeros(shape, odt))


@pytest.mark.parametrize("name,dt,axis", rotated(itertools.product(
    ["argmin", "argmax"], ALL_DTYPES, [None, 0, -1]), 2), ids=str)
def test_argminmax(name, dt, axis):
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), _data(dt))
    check(lambda xp, a: getattr(xp, name)(a, axis=axis, keepdims=True), _data(dt))


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("axis", [None, 0, -1, 3], ids=str)
def test_cumulative(name, dt, axis):
    rtol = 5e-3 if dt == np.float16 else None
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), _data(dt), rtol=rtol)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dt", [np.dtype("?"), np.dtype("i1"), np.dtype("f4")], ids=str)
@pytest.mark.parametrize("kw", [dict(), dict(axis=1), dict(axis=-1, include_initial=True),
                                dict(axis=0, dtype="f8")], ids=str)
def test_cumulative_array_api(name, dt, kw):
    check(lambda xp, a: getattr(xp, name)(a, **kw), _data(dt))
    check(lambda xp, a: getattr(xp, name)(a, **kw), _data(dt).ravel())


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("axis, out_shape", [(0, (3, 2)), (1, (2, 3)), (0, (2, 2)),
                                             (1, (3, 3)), (0, (1, 2))], ids=str)
def test_cumulative_include_initial_out(name, axis, out_shape):
    def body(xp, a):
        out = xp.zeros(out_shape)
        r = getattr(xp, name)(a, axis=axis, out=out, include_initial=True)
        return r is out, out
    check(body, np.arange(1, 5).reshape(2, 2))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("axis", [None, 1, (0, 2)], ids=str)
def test_count_nonzero(dt, axis):
    check(lambda xp, a: xp.count_nonzero(a, axis=axis), _data(dt))


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "std", "var", "min", "max", "argmin",
                                  "argmax", "cumsum", "cumprod"])
@pytest.mark.parametrize("dt", [np.dtype("i2"), np.dtype("f4"), np.dtype("c16")], ids=str)
def test_methods(name, dt):
    rtol = 1e-5 if dt.char in "fF" else None
    check(lambda xp, a: getattr(a, name)(), _data(dt), rtol=rtol)
    check(lambda xp, a: getattr(a, name)(1), _data(dt), rtol=rtol)
    check(lambda xp, a: getattr(a[:, 1:], name)(axis=-1), _data(dt), rtol=rtol)


def test_lexicographic_complex_ties():
    a = np.array([[1 + 2j, 1 + 5j, 0 + 9j, 1 + 5j], [3 - 1j, 3 - 2j, -1 + 0j, 3 - 1j]])
    for name in ["min", "max", "argmin", "argmax", "ptp"]:
        check(lambda xp, x: getattr(xp, name)(x, axis=1), a)
        check(lambda xp, x: getattr(xp, name)(x), a)


def test_python_lists_and_scalars():
    check(lambda xp: xp.sum([1, 2, 3]))
    check(lambda xp: xp.mean([1, 2, 3.5]))
    check(lambda xp: xp.max(7))
    check(lambda xp: xp.argmax([[1, 5], [7, 2]], axis=0))
    check(lambda xp: xp.cumsum(True))


@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmax", "std", "ptp", "nansum",
                                  "nanvar", "median", "quantile", "nanargmin"])
@pytest.mark.parametrize("oshape,odt", [((1, 4), "f8"), ((3,), "f8"), ((4,), "i4"),
                                        ((4,), "u8"), ((4,), "f8")], ids=str)
def test_out_shape_and_cast_errors(name, oshape, odt):
    def body(xp, a, o):
        args = (0.5,) if name == "quantile" else ()
        return getattr(xp, name)(a, *args, axis=0, out=o)
    check(body, np.ones((3, 4)), np.zeros(oshape, odt))


@pytest.mark.parametrize("name", ["min", "max", "argmin", "argmax", "count_nonzero"])
@given(data=st.data())
def test_order_free_reductions_hypothesis(name, data):
    a = data.draw(array_and_dtype(ALL_DTYPES, shape=data.draw(shapes(1, 3, 1, 4))))
    axis = data.draw(st.sampled_from([None, 0, -1]))
    check(lambda xp, a: getattr(xp, name)(a, axis=axis), a)


def _first_warning(body):
    def run(xp, *args):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = body(xp, *args)
        return r, [(x.category, str(x.message)) for x in w[:1]]
    return run


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.mean(a[:0]),
    lambda xp, a: xp.mean(a, axis=0, where=[True, False, False]),
    lambda xp, a: xp.mean(a, axis=1),
    lambda xp, a: xp.var(a[:1], ddof=1, axis=0),
    lambda xp, a: xp.std(a, axis=0, ddof=2),
    lambda xp, a: xp.std(a, axis=1, ddof=2),
    lambda xp, a: xp.var(a, correction=3, axis=1),
    lambda xp, a: xp.var(a, where=xp.zeros_like(a, bool)),
    lambda xp, a: xp.std(a[:, :0], axis=1),
], ids=["mean-empty", "mean-where", "mean-none", "var-ddof", "std-ddof-ok", "std-ddof",
        "var-correction", "var-where-nothing", "std-empty-slices"])
def test_mean_var_warnings_for_slices_too_small(call):
    # NumPy's first warning: "Mean of empty slice" / "Degrees of freedom <= 0 for slice" (its
    # floating-point RuntimeWarnings that follow are a documented difference of tnp)
    check(_first_warning(call), np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("n", [7, 127, 128, 300])
def test_float16_sums_and_products_round_as_numpy(n):
    # NumPy's float16 sum accumulates in float32 and rounds once (a contiguous 1-d sum); its
    # products and cumulative forms round to float16 at every step
    d = np.arange(1, n + 1, dtype=np.float16) / np.float16(3)
    check(lambda xp, a: (xp.sum(a), xp.sum(a[::-1]), xp.add.reduce(a[::2])), d, exact=True)
    check(lambda xp, a: (xp.prod(a[:20]), xp.cumsum(a), xp.cumprod(a[:30])), d, exact=True)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "amax", "amin"])
def test_subclass_method_override(name):
    # NumPy's _wrapreduction: np.sum(a) calls a.sum(axis=, out=, **given) when a's class
    # overrides it (its TypeError for an argument the override lacks); the array's own method
    # reached through super() reduces the array itself
    method = {"amax": "max", "amin": "min"}.get(name, name)

    def body(xp, a):
        def narrow(self, axis=None, out=None):
            r = getattr(super(Sub, self), method)(axis=axis, out=out, keepdims=True)
            return "override", xp.asarray(r)  # the class of a result: diff-subclasses
        Sub = type("Sub", (xp.ndarray,), {method: narrow})
        return getattr(xp, name), a.view(Sub)

    def calls(xp, a):
        fn, s = body(xp, a)
        results = fn(s), fn(s, axis=0), s.sum(), getattr(s, method)(axis=1), fn(s.view(xp.ndarray))
        return tuple(r if type(r) is tuple else xp.asarray(r) for r in results)

    def refused(xp, a):
        fn, s = body(xp, a)
        return fn(s, keepdims=True)
    check(calls, np.arange(1.0, 7.0).reshape(2, 3))
    check(refused, np.arange(1.0, 7.0).reshape(2, 3))
