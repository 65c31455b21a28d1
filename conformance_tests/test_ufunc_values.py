"""Every ufunc x every dtype it accepts, on edge values (nan, +-inf, +-0, extremes, subnormals),
with weak Python scalars, and hypothesis-drawn shapes and values, against NumPy."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check, ftz_xfail, xla_xfail
from matrix import rotated
from strategies import arrays, broadcastable_shapes, shapes

ELEMENTWISE = sorted({getattr(np, n).__name__ for n in dir(np)
                      if isinstance(getattr(np, n), np.ufunc) and not getattr(np, n).signature})
FLOAT_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, -7.0, 100.0, np.inf, -np.inf, np.nan]
# Transcendental functions near their singularities differ from NumPy's libm in the last bits;
# relative tolerance per dtype as in the engine, plus this absolute floor for values near 0.
ATOL = {"e": 1e-3, "f": 1e-6, "F": 1e-6, "d": 1e-12, "D": 1e-12}


def edge_values(dt):
    """One 1-d array of a dtype's edge values."""
    dt = np.dtype(dt)
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [info.min, info.min + 1, -7, -3, -1, 0, 1, 2, 3, 7, info.max - 1, info.max]
        return np.array(sorted({v for v in vals if info.min <= v <= info.max}), dt)
    info = np.finfo(dt.char.lower())
    real = FLOAT_SPECIAL + [float(info.max), -float(info.smallest_normal)]
    if dt.kind == "f":
        return np.array(real, dt)
    part = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
    return np.array([complex(a, b) for a in part for b in part], dt)


def _pairs(dt):
    v = edge_values(dt)
    a, b = np.meshgrid(v, v)
    return a.ravel(), b.ravel()


def _body(name):
    def body(xp, *args):
        with np.errstate(all="ignore"):
            return getattr(xp, name)(*args)
    return body


# Every dtype's output dtype is checked by test_ufunc_attrs' table; values on one dtype per kind
# and width class (compiles are the cost here).
EDGE_DTYPES = ["bool", "int8", "uint32", "int64", "float16", "float32", "float64", "complex128"]


_TIES16 = ("NumPy's float16 {} loop returns the first operand on a tie of zeros "
           "(maximum(0.0, -0.0) == 0.0, maximum(-0.0, 0.0) == -0.0), where its float32/64 "
           "loops order -0.0 below 0.0; tnp applies the float32/64 rule to float16")
KNOWN = {
    **{(n, "float16"): _TIES16.format(n) for n in ("maximum", "minimum", "fmax", "fmin")},
    ("nextafter", "float16"): ("NumPy's float16 nextafter (npy_half_nextafter) returns x when "
                               "x == y (nextafter(-0.0, 0.0) == -0.0); its float32/64 loops "
                               "(C's nextafter) return y, as tnp does for float16 too"),
    ("exp2", "float32"): ("NumPy's float32 exp2 (exp2f) is exact at integers (exp2(100) == "
                          "2**100); XLA's float32 exp2 is 2 ulp off there (2.1e-6 relative)"),
    ("reciprocal", "int64"): ("NumPy's integer reciprocal is C's 1/x, which gives INT64_MIN "
                              "at x == 0 on x86 (the division traps are masked); tnp gives 0"),
}
# Functions whose result is exact by definition (a neighbouring float, a bit pattern, a
# rounding, an integer): compared with no tolerance, where a tolerance would pass e.g. a
# nextafter that returns x unchanged or a spacing of 0.
# (floor_divide and divmod are not here: for float quotients beyond 2**53 tnp's floor of the
# rounded division can differ from NumPy's npy_divmod by 1 ulp; they get the float tolerance.)
EXACT = {"nextafter", "spacing", "copysign", "ldexp", "frexp", "modf", "floor", "ceil", "trunc",
         "rint", "fabs", "sign", "signbit", "negative", "positive", "absolute", "conjugate",
         "maximum", "minimum", "fmax", "fmin", "fmod", "remainder",
         "isnan", "isinf", "isfinite", "isnat", "heaviside", "square", "add", "subtract",
         "multiply", "gcd", "lcm", "left_shift", "right_shift", "bitwise_and", "bitwise_or",
         "bitwise_xor", "bitwise_count", "invert", "logical_and", "logical_or", "logical_xor",
         "logical_not", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def _tol(dt, name=None):
    """The file's absolute tolerance for ``dt``, or none for an exact function (multiply: none
    above the smallest normal, where XLA on CPU flushes NumPy's subnormal products to 0)."""
    if name == "multiply" and np.dtype(dt).kind in "fc":
        return dict(rtol=0.0, atol=float(np.finfo(dt).smallest_normal))
    if name in EXACT:
        return dict(exact=True)
    return dict(atol=ATOL.get(np.dtype(dt).char, 0.0))


def _edge_params():
    for name in ELEMENTWISE:
        for dt in EDGE_DTYPES:
            reason = KNOWN.get((name, dt))
            yield pytest.param(name, dt, id=f"{name}-{dt}",
                               marks=xla_xfail(reason) if reason else ())


@pytest.mark.parametrize("name,dt", rotated(_edge_params(), 2))
def test_edge_values(name, dt):
    uf = getattr(np, name)
    args = (edge_values(dt),) if uf.nin == 1 else _pairs(dt)
    check(_body(name), *args, **_tol(dt, name))


def _scalar_params():
    for name in ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
                 "maximum", "fmin", "arctan2", "equal", "less", "left_shift", "bitwise_and",
                 "hypot"]:
        for dt in ["int8", "uint8", "int64", "float16", "float32", "complex64"]:
            for scalar in [True, 3, -2, 2.5, -0.0, float("inf"), 1 + 2j]:
                reason = None
                if name in ("maximum", "fmin") and scalar == 0 and dt == "float16":
                    reason = _TIES16.format(name)
                yield pytest.param(name, dt, scalar, id=f"{name}-{dt}-{scalar!r}",
                                   marks=pytest.mark.xfail(strict=True, reason=reason)
                                   if reason else ())


def _ties_by_position(name):
    """Whether the sign NumPy gives a tie of zeros in ``name`` depends on the element's place in
    the array on this CPU: its AVX512 loops (x86-64-v4) give ``fmin(0.0, -0.0)`` as -0.0 in
    their vector body and 0.0 in the scalar tail, where its other loops order -0.0 first."""
    s = np.signbit(getattr(np, name)(np.zeros(9), -0.0))
    return bool(s.any() and not s.all())


@pytest.mark.parametrize("name,dt,scalar", rotated(_scalar_params(), 3))
def test_python_scalars(name, dt, scalar):
    x = edge_values(dt)
    body = _body(name)
    if (name in ("maximum", "fmin") and dt != "float16"  # (float16: KNOWN's first-operand rule)
            and type(scalar) is float and scalar == 0 and _ties_by_position(name)):
        body = lambda xp, *args, f=body: f(xp, *args) + 0.0  # noqa: E731 (zeros without sign)
    check(lambda xp, a: body(xp, a, scalar), x, **_tol(dt, name))
    check(lambda xp, a: body(xp, scalar, a), x, **_tol(dt, name))


@pytest.mark.parametrize("dt", ["int8", "uint16", "int64", "uint64"])
def test_shifts_past_bit_width(dt):
    x = edge_values(dt)
    shifts = np.array([0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65, 200] * 2)[:x.size].astype(dt)
    check(lambda xp, a, s: (xp.left_shift(a, s), xp.right_shift(a, s)), x, shifts)


@pytest.mark.parametrize("dt", ["int8", "int64", "uint8", "bool"])
def test_integer_power_negative_exponent(dt):
    check(lambda xp, a: xp.power(a, -1), edge_values(dt))
    check(lambda xp, a, b: xp.power(a, b), np.array([2, 3], dt), np.array([1, -2], "int8"))


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "equal",
                                  "not_equal"])
def test_signed_unsigned_comparisons_are_exact(name):
    # NumPy's 'qQ->?' and 'Qq->?' loops compare exactly, with no float64 promotion (where
    # 2**60 and 2**60 + 1 are one value)
    s = np.array([2**60, -1, 2**63 - 1, 0, -2**63, 5], "int64")
    u = np.array([2**60 + 1, 2**64 - 1, 2**63, 0, 0, 5], "uint64")
    check(lambda xp, a, b: (getattr(xp, name)(a, b), getattr(xp, name)(b, a)), s, u)
    check(lambda xp, a: (getattr(xp, name)(a, -1), getattr(xp, name)(-1, a)), u)
    check(lambda xp, a, b: getattr(xp, name)(a[:, None], b), s, u)


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "equal",
                                  "not_equal"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_comparisons_with_nan_parts(name, dt):
    # NumPy's complex order is lexicographic, and a NaN real or imaginary part is unordered
    nan = np.nan
    v = np.array([complex(nan, 0), complex(0, nan), complex(nan, nan), complex(1, nan), 1, -1,
                  1j, -1j, 1 + 1j, -1 - 1j, 0], dt)
    check(lambda xp, a: getattr(xp, name)(a[:, None], a), v)


@pytest.mark.parametrize("exponent", [2.8, -0.5, -1.5, np.float32(-2.0)],
                         ids=repr)
def test_integer_power_of_a_cast_exponent(exponent):
    # NumPy checks the exponent as cast to the integer loop (unsafe casting truncates it)
    unsafe = {"dtype": np.intp, "casting": "unsafe"}
    check(lambda xp: xp.power(1.5, exponent, **unsafe), exact=True)
    check(lambda xp, a: xp.power(a, exponent, **unsafe), np.array([2, 3]), exact=True)
    check(lambda xp, a, b: xp.power(a, b, **unsafe), np.array([2, 3]),
          np.array([2.5, exponent]), exact=True)
    check(lambda xp, a: xp.power.reduce(a, dtype=np.intp), np.array([2.0, 3.0, exponent]),
          exact=True)


def test_isnat_rejects_numbers():
    check(lambda xp, a: xp.isnat(a), np.arange(3.0))


_FTZ = ("XLA on CPU flushes subnormal floats to zero (FTZ/DAZ): NumPy's ceil(5e-324) == 1.0, "
        "sign(5e-324) == 1.0; tnp sees 0.0")


@pytest.mark.parametrize("name", [pytest.param("ceil", marks=ftz_xfail(_FTZ)), "equal",
                                  pytest.param("sign", marks=ftz_xfail(_FTZ))])
def test_subnormals(name):
    x = np.array([np.finfo("float64").smallest_subnormal, 0.0])
    uf = getattr(np, name)
    check(_body(name), *([x] * uf.nin))


@pytest.mark.parametrize("dt", ["float16", pytest.param("float32", marks=ftz_xfail(
    "subnormals flushed to zero by XLA on CPU: NumPy's frexp/ldexp of float32 subnormals")),
    pytest.param("float64", marks=ftz_xfail(
        "subnormals flushed to zero by XLA on CPU: NumPy's frexp/ldexp of float64 subnormals"))])
def test_frexp_ldexp_subnormals(dt):
    info = np.finfo(dt)
    x = np.array([info.smallest_subnormal, info.smallest_normal, -info.smallest_subnormal * 3,
                  info.max, 0.0, -0.0, np.inf, np.nan], dt)
    check(lambda xp, a: xp.frexp(a), x)
    e = np.array([0, 1, -1, 5, -30, 2000, -2000, 3], np.int32)
    check(lambda xp, a, b: xp.ldexp(a, b), x, e)


@given(st.data())
def test_hypothesis_binary(data):
    name = data.draw(st.sampled_from(["add", "subtract", "multiply", "divide", "floor_divide",
                                      "remainder", "power", "maximum", "minimum", "fmax",
                                      "arctan2", "hypot", "logaddexp", "copysign"]))
    dt = data.draw(st.sampled_from(["int16", "uint8", "float32", "float64"]))
    if name in ("arctan2", "hypot", "logaddexp", "copysign") and dt[0] in "iu":
        dt = "float64"
    s1, s2 = data.draw(broadcastable_shapes())
    a, b = data.draw(arrays(np.dtype(dt), s1)), data.draw(arrays(np.dtype(dt), s2))
    if name == "power" and dt[0] == "i":
        b = np.abs(b) % 5
    check(_body(name), a, b, **_tol(dt, name))


@given(st.data())
def test_hypothesis_unary(data):
    name = data.draw(st.sampled_from(["sin", "exp", "log1p", "sqrt", "sign", "absolute",
                                      "negative", "rint", "floor", "isfinite", "spacing",
                                      "cbrt", "square", "reciprocal"]))
    dt = data.draw(st.sampled_from(["float16", "float32", "float64"]))
    a = data.draw(arrays(np.dtype(dt), data.draw(shapes(max_dims=3))))
    check(_body(name), a, **_tol(dt, name))
