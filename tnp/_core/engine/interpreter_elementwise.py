"""The NumPy tier's rules for elementwise primitives: arithmetic, math functions, comparisons,
bitwise operations, ``select_n``, ``clamp`` and conversions. Each computes in its operands'
dtypes (the jaxpr's, NumPy's result dtypes) with NumPy's ufunc, so it rounds as NumPy does;
where ``lax`` defines a value NumPy's C operation leaves undefined (an integer division by zero,
a shift past the width) the rule gives ``lax``'s, which the jaxpr's own selects expect."""
import numpy as np

from .interpreter_base import Unsupported, aligned, of_parts, rule
from .jaxload import jnp

BIG = 4096  # results of at least this many elements are written to an aligned array


def _out(eqn):
    aval = eqn.outvars[0].aval
    if aval.size >= BIG:
        return aligned(aval.shape, aval.dtype)
    return None


def _ufunc(f):
    def run(eqn, *xs):
        out = _out(eqn)
        if out is None:
            return f(*xs)
        try:
            return f(*xs, out=out)
        except TypeError:  # NumPy's result dtype is another (a rule converts it): no out=
            return f(*xs)
    return run


_UFUNCS = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "neg": np.negative,
    "max": np.maximum, "min": np.minimum, "nextafter": np.nextafter,
    "floor": np.floor, "ceil": np.ceil, "is_finite": np.isfinite,
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log1p": np.log1p, "expm1": np.expm1,
    "tanh": np.tanh, "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2, "sinh": np.sinh,
    "cosh": np.cosh, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "sqrt": np.sqrt, "cbrt": np.cbrt, "square": np.square, "conj": np.conjugate,
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor, "not": np.invert,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal, "population_count": np.bitwise_count,
    "copysign": np.copysign, "abs": np.abs, "sign": np.sign,
}
for _name, _f in _UFUNCS.items():
    rule(_name)(_ufunc(_f))


@rule("copy", "copy_p")
def _copy(eqn, x):
    return x.copy()


@rule("reduce_precision")
def _reduce_precision(eqn, x):
    fi = np.finfo(x.dtype)
    if (eqn.params["exponent_bits"], eqn.params["mantissa_bits"]) != (fi.nexp, fi.nmant):
        raise Unsupported("reduce_precision")
    return x


@rule("optimization_barrier")
def _barrier(eqn, *xs):
    return list(xs)


@rule("rsqrt")
def _rsqrt(eqn, x):
    return np.reciprocal(np.sqrt(x))


@rule("logistic")
def _logistic(eqn, x):
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


@rule("real")
def _real(eqn, x):
    return np.real(x)


@rule("imag")
def _imag(eqn, x):
    return np.imag(x)


@rule("complex")
def _complex(eqn, x, y):
    aval = eqn.outvars[0].aval
    out = np.empty(aval.shape, aval.dtype)
    out.real = x
    out.imag = y
    return out


@rule("round")
def _round(eqn, x):
    if int(eqn.params["rounding_method"]) == 1:  # to nearest even
        return np.round(x)
    t = np.trunc(x)  # away from zero
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


def _safe_divisor(x, y):
    """``(zero, safe)``: where the integer divisor ``y`` is 0, and ``y`` with 1 there and where
    a signed ``x`` is its minimum over -1 (the cases NumPy's C division leaves undefined: the
    caller puts ``lax``'s values there)."""
    zero = y == 0
    safe = np.where(zero, 1, y).astype(y.dtype)
    if x.dtype.kind == "i":
        safe = np.where((x == np.iinfo(x.dtype).min) & (safe == -1), 1, safe).astype(y.dtype)
    return zero, safe


@rule("div")
def _div(eqn, x, y):
    if x.dtype.kind not in "iu":
        return _ufunc(np.true_divide)(eqn, x, y)
    # lax: truncated toward zero, x / 0 all ones, INT_MIN / -1 INT_MIN
    zero, safe = _safe_divisor(x, y)
    q = np.floor_divide(x, safe)
    if x.dtype.kind == "i":
        q = q + ((q * safe != x) & ((x < 0) != (safe < 0))).astype(q.dtype)
    return np.where(zero, np.array(-1).astype(x.dtype), q)


@rule("rem")
def _rem(eqn, x, y):
    if x.dtype.kind not in "iu":
        return _ufunc(np.fmod)(eqn, x, y)
    # lax: the sign of x, x % 0 = x, INT_MIN % -1 = 0
    zero, safe = _safe_divisor(x, y)
    return np.where(zero, x, np.fmod(x, safe))


@rule("pow")
def _pow(eqn, x, y):
    return np.power(x, y)


@rule("integer_pow")
def _integer_pow(eqn, x):
    """``x ** y`` by repeated squaring, as ``lax`` computes it (the same products)."""
    y = eqn.params["y"]
    if y == 0:
        return np.ones_like(x)
    neg = y < 0
    y = abs(y)
    acc = None
    base = x
    while y:
        if y & 1:
            acc = base if acc is None else acc * base
        y >>= 1
        if y:
            base = base * base
    return np.reciprocal(acc) if neg else acc


@rule("select_n")
def _select_n(eqn, which, *cases):
    if len(cases) == 1:
        return cases[0]
    if which.dtype == np.bool_:
        out = _out(eqn)
        if out is not None:
            np.copyto(out, cases[0])
            np.copyto(out, cases[1], where=np.broadcast_to(which, out.shape))
            return out
        return np.where(which, cases[1], cases[0])
    shape = eqn.outvars[0].aval.shape
    out = np.array(np.broadcast_to(cases[0], shape))
    which = np.broadcast_to(which, shape)
    for k, c in enumerate(cases[1:], 1):
        np.copyto(out, c, where=which == k)
    return out


@of_parts("hypot", lambda: jnp.hypot)
def _abs(eqn, z):
    """``hypot(real(z), imag(z))``, what ``abs`` of a complex array traces to: NumPy's ``abs(z)``
    itself (one pass, where ``jnp.hypot``'s jaxpr takes a dozen; NumPy's rounding)."""
    out = _out(eqn)
    if out is None:
        return np.abs(z)
    return np.abs(z, out=out)


@rule("clamp")
def _clamp(eqn, lo, x, hi):
    return np.minimum(np.maximum(x, lo), hi)


@rule("convert_element_type")
def _convert(eqn, x):
    dtype = np.dtype(eqn.params["new_dtype"])
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = x.real  # lax takes the real part (NumPy's cast too, with a warning)
    if dtype.kind in "iu" and x.dtype.kind == "f":
        # lax saturates and maps NaN to 0 (NumPy's C cast is undefined there)
        info = np.iinfo(dtype)
        bad = np.isnan(x)
        lo, hi = x < info.min, x >= float(info.max) + 1
        out = np.where(bad | lo | hi, 0, x).astype(dtype)
        out = np.where(lo, dtype.type(info.min), out)
        return np.where(hi, dtype.type(info.max), out)
    return x.astype(dtype)


@rule("bitcast_convert_type")
def _bitcast(eqn, x):
    dtype = np.dtype(eqn.params["new_dtype"])
    if dtype.itemsize != x.dtype.itemsize:
        raise Unsupported("bitcast_convert_type")
    return x.view(dtype)


@rule("shift_left", "shift_right_logical", "shift_right_arithmetic")
def _shift(eqn, x, y):
    bits = x.dtype.itemsize * 8
    name = eqn.primitive.name
    out_of_range = (y < 0) | (y >= bits)
    s = np.where(out_of_range, 0, y).astype(x.dtype)
    if name == "shift_left":
        return np.where(out_of_range, x.dtype.type(0), np.left_shift(x, s))
    if name == "shift_right_arithmetic":
        s = np.where(out_of_range, bits - 1, y).astype(x.dtype)
        return np.right_shift(x, s)
    u = np.dtype(f"u{x.dtype.itemsize}")
    r = np.right_shift(x.view(u), s.view(u) if s.dtype.kind == "i" else s.astype(u))
    return np.where(out_of_range, u.type(0), r).view(x.dtype)
