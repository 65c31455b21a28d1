"""The one reduction engine and the one cast: ``sum``/``prod``/``min``/``max``, the cumulative
forms and the nan-variants run ``ufunc.reduce``/``accumulate``'s engine, so their values with a
``dtype=`` that the input must be cast to are NumPy's own casts (NaN, inf and out-of-range
floats to integers wrap as NumPy's C casts do, not saturate as XLA's). Searches promote Python
scalars as arrays, as NumPy's ``searchsorted`` does. Every case compares tnp with NumPy.
"""
import numpy as np
import pytest

from engine import check

HARD_FLOATS = np.array([np.nan, 1e30, -2.5, 3e9, -1e10, 2.7, np.inf, -np.inf, 0.5])
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _inputs(dt):
    """HARD_FLOATS; for uint32 each value alone: NumPy's auto-vectorised float-to-uint32 loop
    gives other values than its per-element loop for out-of-range floats, by the element's
    position in the array (platform-defined); tnp gives the per-element ones."""
    return [HARD_FLOATS[i:i + 1] for i in range(HARD_FLOATS.size)] if dt is np.uint32 else \
        [HARD_FLOATS]


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["sum", "prod", "cumsum", "cumprod", "nansum", "nanprod",
                                  "nancumsum", "nancumprod"])
def test_float_input_to_integer_dtype(name, dt):
    for a in _inputs(dt):
        check(lambda xp, a: getattr(xp, name)(a, dtype=dt), a)
        check(lambda xp, a: getattr(xp, name)(a.reshape(-1, min(3, a.size)), axis=1, dtype=dt),
              a)


@pytest.mark.parametrize("dt", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("method", ["reduce", "accumulate"])
@pytest.mark.parametrize("uf", ["add", "multiply", "maximum", "minimum"])
def test_ufunc_methods_cast_the_same(uf, method, dt):
    for a in _inputs(dt):
        check(lambda xp, a: getattr(getattr(xp, uf), method)(a, dtype=dt), a)


@pytest.mark.parametrize("case", [
    (np.array([np.nan, 1e30, -2.5]), np.int64, "sum"),
    (np.array([1e10, 2.7]), np.int32, "cumsum"),
    (np.array([3e9, 2.5]), np.int32, "prod"),
], ids=lambda c: f"{c[2]}-{np.dtype(c[1]).name}")
def test_issue_table_rows(case):
    a, dt, name = case
    check(lambda xp, a: getattr(xp, name)(a, dtype=dt), a)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.float16, np.float32],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("v", [1000, -1, 2**40, -2**40, 0.1, 2.5, 1e300, np.float64(0.1)],
                         ids=repr)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_python_scalars_promote_as_arrays(v, dt, side):
    a = np.array([0, 0.1, 1, 2, 100], dt) if np.dtype(dt).kind == "f" else np.arange(5, dtype=dt)
    check(lambda xp, a: xp.searchsorted(a, v, side=side), a)
    check(lambda xp, a: xp.searchsorted(a, [v, v], side=side), a)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex128, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["min", "max", "amin", "amax"])
def test_extrema_on_the_engine(name, dt):
    a = np.array([[3, 1, 2], [0, 5, 4]]).astype(dt)
    check(lambda xp, a: getattr(xp, name)(a), a)
    check(lambda xp, a: getattr(xp, name)(a, axis=0, keepdims=True), a)
    check(lambda xp, a: getattr(xp, name)(a, axis=1, initial=2, where=a != 5), a)
    check(lambda xp, a: getattr(xp, name)(a, axis=1, where=a != 5), a)  # NumPy's ValueError
    check(lambda xp, a: getattr(xp, name)(a[:, :0], axis=1), a)  # empty: NumPy's ValueError


# (cumsum with a 0-d out is left out: NumPy 2.4 itself crashes on it, a segfault)
@pytest.mark.parametrize("name,out_shape", [
    (name, shape) for name in ("sum", "prod", "max", "cumsum")
    for shape in ((3,), (1, 3), (2,), ()) if (name, shape) != ("cumsum", ())], ids=repr)
def test_out_shape_errors_are_numpys(name, out_shape):
    def body(xp, a, out):
        kw = {} if name == "cumsum" else {"axis": 0}
        return getattr(xp, name)(a, out=out, **kw)
    check(body, np.arange(6.0).reshape(2, 3), np.zeros(out_shape))
