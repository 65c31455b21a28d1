"""Every NumPy ufunc as a ``tnp.ufunc``: the jax implementation of each loop.

Implementations receive inputs already cast to NumPy's loop dtypes and return the loop's
output(s); where XLA's value differs from NumPy's (integer division by zero, ...), it is fixed here.
"""
from .._core.engine.jaxload import jnp, lax
import numpy as np

from .._core.numerics.casting import numpy_cast
from .._core.numerics import division
from .._core.ufunc import for_numpy, ufunc
from .complex_special import with_complex_special
from .gufunc_axes import gufunc


def _via_float32(fn):
    """NumPy's float16 loops compute in float32 and round once: do the same."""
    def f(x, y):
        if x.dtype != np.float16:
            return fn(x, y)
        r = fn(numpy_cast(x, np.float32), numpy_cast(y, np.float32))
        if isinstance(r, tuple):
            return tuple(numpy_cast(v, np.float16) for v in r)
        return numpy_cast(r, np.float16)
    return f


def _int_safe(fn):
    """An integer division-like op with NumPy's result 0 for a zero divisor."""
    def f(x, y):
        safe = jnp.where(y == 0, jnp.ones_like(y), y)
        return jnp.where(y == 0, jnp.zeros_like(x), fn(x, safe))
    return f


@_via_float32
def _float_divmod(a, b):
    """NumPy's npy_divmod: floor quotient and Python-convention remainder, signed zeros kept."""
    mod = jnp.fmod(a, b)
    div = division.true_divide(a - mod, b)
    adjust = (mod != 0) & ((b < 0) != (mod < 0))
    new_mod = jnp.where(adjust, mod + b, mod)
    new_mod = jnp.where(mod == 0, jnp.copysign(jnp.zeros_like(b), b), new_mod)
    div = jnp.where(adjust, div - 1, div)
    floor = jnp.floor(div)
    floor = jnp.where(div - floor > 0.5, floor + 1, floor)
    quotient = division.true_divide(a, b)
    floor = jnp.where(div == 0, jnp.copysign(jnp.zeros_like(div), quotient), floor)
    zero = b == 0
    return jnp.where(zero, quotient, floor), jnp.where(zero, mod, new_mod)


def _floor_divide(x, y):
    if x.dtype.kind in "iu":
        return _int_safe(jnp.floor_divide)(x, y)
    if x.dtype.kind == "b":
        return jnp.floor_divide(x, y)
    return _float_divmod(x, y)[0]


def _remainder(x, y):
    if x.dtype.kind in "iu":
        return _int_safe(jnp.remainder)(x, y)
    return _float_divmod(x, y)[1]


def _fmod(x, y):
    if x.dtype.kind in "iu":
        return _int_safe(jnp.fmod)(x, y)
    return jnp.fmod(x, y)


def _divmod(x, y):
    if x.dtype.kind in "iu":
        return _floor_divide(x, y), _remainder(x, y)
    return _float_divmod(x, y)


def _int_power(x, y):
    """Exponentiation by squaring over all bits of ``y`` (NumPy's wrap-around on overflow)."""
    def step(_, c):
        acc, base, e = c
        acc = jnp.where((e & 1) == 1, acc * base, acc)
        return acc, base * base, lax.shift_right_logical(e, jnp.ones_like(e))
    x, y = jnp.broadcast_arrays(x, y)
    acc, _, _ = lax.fori_loop(0, x.dtype.itemsize * 8, step, (jnp.ones_like(x), x, y))
    return acc


def _cdiv(a, b):
    """NumPy's complex division (Smith's algorithm, complex inf/nan for a zero divisor)."""
    ar, ai, br, bi = jnp.real(a), jnp.imag(a), jnp.real(b), jnp.imag(b)
    abr, abi = jnp.abs(br), jnp.abs(bi)
    big_r = abr >= abi
    zero = (abr == 0) & (abi == 0)
    rat = jnp.where(big_r, bi / jnp.where(zero, 1, br), br / jnp.where(big_r, 1, bi))
    scl = 1 / jnp.where(big_r, br + bi * rat, bi + br * rat)
    re = jnp.where(big_r, (ar + ai * rat) * scl, (ar * rat + ai) * scl)
    im = jnp.where(big_r, (ai - ar * rat) * scl, (ai * rat - ar) * scl)
    re = jnp.where(zero, division.true_divide(ar, abr), re)
    im = jnp.where(zero, division.true_divide(ai, abr), im)
    return lax.complex(re, im)


def _divide(x, y):
    if x.dtype == np.complex64:  # rounding once from double keeps NumPy's exact zeros
        wide = np.complex128
        return numpy_cast(_cdiv(numpy_cast(x, wide), numpy_cast(y, wide)), np.complex64)
    if x.dtype.kind == "c":
        return _cdiv(x, y)
    return _via_float32(division.true_divide)(x, y)


def _power(x, y):
    if x.dtype.kind in "iu":
        return _int_power(x, y)
    return _via_float32(jnp.power)(x, y)  # complex loops: complex_special


def _cge(xr, xi, yr, yi):
    return ((xr > yr) & ~jnp.isnan(xi) & ~jnp.isnan(yi)) | ((xr == yr) & (xi >= yi))


def _cle(xr, xi, yr, yi):
    return ((xr < yr) & ~jnp.isnan(xi) & ~jnp.isnan(yi)) | ((xr == yr) & (xi <= yi))


def _cgt(xr, xi, yr, yi):
    return ((xr > yr) & ~jnp.isnan(xi) & ~jnp.isnan(yi)) | ((xr == yr) & (xi > yi))


def _clt(xr, xi, yr, yi):
    return ((xr < yr) & ~jnp.isnan(xi) & ~jnp.isnan(yi)) | ((xr == yr) & (xi < yi))


def _extremum(real_fn, pick_first, propagate):
    """maximum/minimum (``propagate``: a NaN operand wins) and fmax/fmin (a NaN loses);
    complex operands in NumPy's lexicographic order."""
    def f(x, y):
        if x.dtype.kind != "c":
            return real_fn(x, y)
        xr, xi, yr, yi = jnp.real(x), jnp.imag(x), jnp.real(y), jnp.imag(y)
        nan = (jnp.isnan(xr) | jnp.isnan(xi)) if propagate else (jnp.isnan(yr) | jnp.isnan(yi))
        return jnp.where(pick_first(xr, xi, yr, yi) | nan, x, y)
    return f


def _real_max(x, y):  # NumPy's SIMD loop: the second operand on ties (max(0.0, -0.0) is -0.0)
    return jnp.where((x > y) | jnp.isnan(x), x, y)


def _real_min(x, y):
    return jnp.where((x < y) | jnp.isnan(x), x, y)


def _jnp(name):
    """jax.numpy's ``name`` as a loop implementation, looked up when a kernel is traced (JAX is
    imported at the first device operation, not with tnp)."""
    def impl(*args):
        return getattr(jnp, name)(*args)
    impl.__name__ = impl.__qualname__ = name
    return impl


def _logaddexp2(x, y):
    """NumPy's ``npy_logaddexp2``: ``x + 1`` exactly where ``x == y`` (JAX's formula leaves
    -4.8e-17 in float64, and 9e-5 in float16 where XLA computes half natively, as on CPUs with
    AVX512-FP16)."""
    return jnp.where(x == y, x + 1, jnp.logaddexp2(x, y))


_MAXIMUM, _MINIMUM = _extremum(_real_max, _cge, True), _extremum(_real_min, _cle, True)
_FMAX, _FMIN = _extremum(_jnp("fmax"), _cge, False), _extremum(_jnp("fmin"), _cle, False)


def _gcd(x, y):
    """Euclid on the magnitudes as unsigned integers, a fixed number of steps (no data-dependent
    loop: |INT_MIN| is representable there), cast back with NumPy's wrap-around."""
    if x.dtype.kind == "b":
        return x | y
    udt = jnp.dtype(f"uint{x.dtype.itemsize * 8}")
    a = numpy_cast(jnp.abs(x), udt) if x.dtype.kind == "i" else x
    b = numpy_cast(jnp.abs(y), udt) if y.dtype.kind == "i" else y
    a, b = jnp.broadcast_arrays(a, b)

    def step(_, c):
        p, q = c
        nz = q != 0
        return jnp.where(nz, q, p), jnp.where(nz, p % jnp.where(nz, q, 1), q)
    g, _ = lax.fori_loop(0, x.dtype.itemsize * 12 + 2, step, (a, b))
    return numpy_cast(g, x.dtype)


def _lcm(x, y):
    if x.dtype.kind == "b":
        return x & y
    g = _gcd(x, y)
    wide = np.uint64 if x.dtype == np.uint64 else np.int64  # C's int promotion, then wrap
    q = numpy_cast(lax.div(x, jnp.where(g == 0, jnp.ones_like(g), g)), wide)  # C division
    # NumPy's |x| / gcd * |y|: the magnitudes multiplied, so an int64 overflow wraps as NumPy's
    r = numpy_cast(jnp.abs(q) * jnp.abs(numpy_cast(y, wide)), x.dtype)
    return jnp.where(g == 0, jnp.zeros_like(r), r)


def _modf(x):
    """C modf: the fractional part carries the sign of ``x`` (modf(-2.0) = (-0.0, -2.0))."""
    whole = jnp.trunc(x)
    frac = jnp.where(jnp.isinf(x), jnp.zeros_like(x), x - whole)
    return jnp.copysign(frac, x), whole


def _sign(x):
    if x.dtype.kind == "f":  # sign(-0.0) is +0.0 in NumPy
        r = jnp.where(x > 0, 1, jnp.where(x < 0, -1, jnp.where(x == 0, 0, x)))
        return numpy_cast(r, x.dtype)
    return jnp.sign(x)  # NumPy 2 for complex: z / |z|


def _spacing(x):
    # NumPy's spacing(-0.0) is spacing(+0.0); -0.0 found by its bits (x == 0 is also true of
    # subnormals where XLA's CPU treats them as zero)
    udt = jnp.dtype(f"uint{x.dtype.itemsize * 8}")
    neg_zero = lax.bitcast_convert_type(x, udt) == jnp.array(1 << (udt.itemsize * 8 - 1), udt)
    x = jnp.where(neg_zero, jnp.zeros_like(x), x)
    return jnp.where(jnp.isinf(x), jnp.full_like(x, np.nan), jnp.spacing(x))  # nan at +-inf


def _reciprocal(x):
    if x.dtype.kind in "iu":  # C integer division 1 / x, and 0 for x == 0
        return _int_safe(lax.div)(jnp.ones_like(x), x)
    return jnp.reciprocal(x)



def _int_comparison(op, below, above, complex_op=None):
    """NumPy's comparison loops of a signed with an unsigned integer ('qQ->?', 'Qq->?'): exact,
    where JAX promotes the pair to float64 and rounds (``2**60 < 2**60 + 1`` was False).
    ``below``/``above``: ``op(negative, unsigned)`` and ``op(unsigned, negative)``.
    ``complex_op``: NumPy's order of complex operands (a NaN part makes them unordered)."""
    def compare(x, y):
        if complex_op is not None and x.dtype.kind == "c":
            return complex_op(jnp.real(x), jnp.imag(x), jnp.real(y), jnp.imag(y))
        if {x.dtype.kind, y.dtype.kind} != {"i", "u"}:
            return op(x, y)
        if x.dtype.kind == "i":
            return jnp.where(x < 0, below, op(lax.convert_element_type(x, y.dtype), y))
        return jnp.where(y < 0, above, op(x, lax.convert_element_type(y, x.dtype)))
    return compare


_COMPARISONS = {
    "equal": _int_comparison(_jnp("equal"), False, False),
    "not_equal": _int_comparison(_jnp("not_equal"), True, True),
    "less": _int_comparison(_jnp("less"), True, False, _clt),
    "less_equal": _int_comparison(_jnp("less_equal"), True, False, _cle),
    "greater": _int_comparison(_jnp("greater"), False, True, _cgt),
    "greater_equal": _int_comparison(_jnp("greater_equal"), False, True, _cge),
}

_IMPLS = {
    **_COMPARISONS, "absolute": _jnp("absolute"), "add": _jnp("add"), "arccos": _jnp("arccos"),
    "arccosh": _jnp("arccosh"), "arcsin": _jnp("arcsin"), "arcsinh": _jnp("arcsinh"),
    "arctan": _jnp("arctan"), "arctan2": _jnp("arctan2"), "arctanh": _jnp("arctanh"),
    "bitwise_and": _jnp("bitwise_and"), "bitwise_count": _jnp("bitwise_count"),
    "bitwise_or": _jnp("bitwise_or"), "bitwise_xor": _jnp("bitwise_xor"), "cbrt": _jnp("cbrt"),
    "ceil": _jnp("ceil"), "conjugate": _jnp("conjugate"), "copysign": _jnp("copysign"),
    "cos": _jnp("cos"), "cosh": _jnp("cosh"), "deg2rad": _jnp("deg2rad"),
    "degrees": _jnp("degrees"), "divide": _divide, "divmod": _divmod, "exp": _jnp("exp"),
    "exp2": _jnp("exp2"), "expm1": _jnp("expm1"), "fabs": _jnp("fabs"),
    "float_power": _jnp("float_power"), "floor": _jnp("floor"), "floor_divide": _floor_divide,
    "fmax": _FMAX, "fmin": _FMIN, "fmod": _fmod, "frexp": _jnp("frexp"), "gcd": _gcd,
    "heaviside": _jnp("heaviside"), "hypot": _jnp("hypot"), "invert": _jnp("invert"),
    "isfinite": _jnp("isfinite"), "isinf": _jnp("isinf"), "isnan": _jnp("isnan"), "lcm": _lcm,
    "ldexp": _jnp("ldexp"), "left_shift": _jnp("left_shift"), "log": _jnp("log"),
    "log10": _jnp("log10"), "log1p": _jnp("log1p"), "log2": _jnp("log2"),
    "logaddexp": _jnp("logaddexp"), "logaddexp2": _logaddexp2,
    "logical_and": _jnp("logical_and"), "logical_not": _jnp("logical_not"),
    "logical_or": _jnp("logical_or"), "logical_xor": _jnp("logical_xor"), "matmul": _jnp("matmul"),
    "matvec": _jnp("matvec"), "maximum": _MAXIMUM, "minimum": _MINIMUM, "modf": _modf,
    "multiply": _jnp("multiply"), "negative": _jnp("negative"), "nextafter": _jnp("nextafter"),
    "positive": _jnp("positive"), "power": _power, "rad2deg": _jnp("rad2deg"),
    "radians": _jnp("radians"), "reciprocal": _reciprocal, "remainder": _remainder,
    "right_shift": _jnp("right_shift"), "rint": _jnp("rint"), "sign": _sign,
    "signbit": _jnp("signbit"), "sin": _jnp("sin"), "sinh": _jnp("sinh"), "spacing": _spacing,
    "sqrt": _jnp("sqrt"), "square": _jnp("square"), "subtract": _jnp("subtract"),
    "tan": _jnp("tan"), "tanh": _jnp("tanh"), "trunc": _jnp("trunc"), "vecdot": _jnp("vecdot"),
    "vecmat": _jnp("vecmat"), "isnat": None,
}


def _isnat(x):
    raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.")


_IMPLS["isnat"] = _isnat
# Complex loops with C99 Annex G special values (inf/nan/signed-zero parts) as NumPy gives them.
_IMPLS.update(with_complex_special(_IMPLS))

# One tnp.ufunc per NumPy ufunc object (each registers itself: ``tnp._core.ufunc.for_numpy``);
# NumPy's aliases (abs, conj, ...) name the same object.
__all__ = []
# vars(), not dir() + getattr(): NumPy would import its lazy submodules (f2py, testing, ...).
for _name in sorted(n for n, o in vars(np).items() if isinstance(o, np.ufunc)):
    _np_uf = getattr(np, _name)
    if for_numpy(_np_uf) is None:
        _cls = gufunc if _np_uf.signature else ufunc  # gufuncs take axes=/axis=/keepdims=
        _cls(_np_uf, _IMPLS[_np_uf.__name__])
    globals()[_name] = for_numpy(_np_uf)
    __all__.append(_name)
