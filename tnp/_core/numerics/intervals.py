"""Interval bounds of NumPy's float operations: what a lazily recorded operation's result can
be, given what its operands can be, so a flush can prove a floating-point check cannot fire
(``engine/valueranges``) and leave it out of the fused computation.

A range is ``(lo, hi)``: every element is finite and lies in ``[lo, hi]`` (None: not known,
or possibly not finite). A rule (``ufunc_rule``, ``reduce_rule``, ``matmul_rule``) takes the
operands' ranges and whether its two operands are the same value (``x * x`` is a square) and
gives the result's range, or None; one rule object per loop and length (the proofs are kept
by their rules, ``engine/valueranges``). Bounds are computed in Python floats on the exact real
operation and widened (``bounded``) by a margin of the result dtype's precision (each device
operation rounds once, monotonically; transcendental functions are a few units in the last
place from exact) and refused past a quarter of the dtype's largest value; an operand that
must be nonzero, positive or non-negative is required to be so by at least four of the dtype's
smallest normal numbers (XLA's CPU code flushes subnormals to zero)."""
import functools
import math

import numpy as np

_LIMITS = {}  # dtype -> (largest allowed magnitude, smallest allowed nonzero magnitude, margin)


def _limits(dt):
    lim = _LIMITS.get(dt)
    if lim is None:
        fi = np.finfo(dt)
        lim = _LIMITS[dt] = (float(fi.max) / 4, 4 * float(fi.tiny), 64 * float(fi.eps))
    return lim


def bounded(r, dt, spread=1.0):
    """``r`` widened by ``spread`` times the float dtype ``dt``'s margin, or None when not known
    or past its limit."""
    big, _, margin = _limits(dt)
    return _widened(r, big, margin * spread)


def _widened(r, big, margin):
    """``r`` widened by the relative ``margin``, or None when not known or past ``big``."""
    if r is None:
        return None
    lo, hi = r
    lo, hi = lo - abs(lo) * margin, hi + abs(hi) * margin
    if not (-big <= lo <= hi <= big):  # (False for a NaN bound too)
        return None
    return (lo, hi)


def _fits(r, dt):
    """Whether the range ``r`` is within the float dtype ``dt``'s limit (an operand cast to
    a narrower loop dtype may overflow in the cast)."""
    big = _limits(dt)[0]
    return -big <= r[0] and r[1] <= big


def _away_from_zero(r, dt):
    """Whether ``r`` excludes zero by the dtype's margin."""
    tiny = _limits(dt)[1]
    return r[0] >= tiny or r[1] <= -tiny


def _hull(*values):
    vals = [v for v in values if v is not None]
    if len(vals) != len(values) or any(math.isnan(v) for v in vals):
        return None
    return (min(vals), max(vals))


def _monotone(f, r, increasing=True):
    try:
        a, b = f(r[0]), f(r[1])
    except (OverflowError, ValueError):
        return None
    return (a, b) if increasing else (b, a)


def _product(a, b):
    return _hull(a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])


def _square(a):
    lo, hi = a
    m = max(lo * lo, hi * hi)
    return (0.0 if lo <= 0 <= hi else min(lo * lo, hi * hi), m)


def _power(a, b, dt):
    if b[0] == b[1] and b[0] == int(b[0]) and abs(b[0]) <= 64:  # an integer exponent
        k = int(b[0])
        if k < 0:
            if not _away_from_zero(a, dt):
                return None
            a = _hull(1 / a[0], 1 / a[1])
            k = -k
        if k == 0:
            return (1.0, 1.0)
        try:
            if a[0] >= 0:
                return (a[0] ** k, a[1] ** k)
            if a[1] <= 0:
                return _hull(a[0] ** k, a[1] ** k)
            return (0.0, max(abs(a[0]), a[1]) ** k) if k % 2 == 0 else (a[0] ** k, a[1] ** k)
        except OverflowError:
            return None
    if a[0] < _limits(dt)[1] and not (a[0] >= 0 and b[0] > 0):  # (a base that may be
        return None  # negative, or zero with an exponent that may not be positive)
    try:
        return _hull(*(math.pow(x, y) for x in a for y in b))
    except (OverflowError, ValueError):
        return None


def _divide(a, b, dt):
    if not _away_from_zero(b, dt):
        return None
    return _product(a, _hull(1 / b[0], 1 / b[1]))


def _remainder(a, b, dt):
    if not _away_from_zero(b, dt):
        return None
    m = max(abs(b[0]), abs(b[1]))
    return (-m, m)


def _log_of(f):
    def rule(a, dt):
        if a[0] < _limits(dt)[1]:
            return None
        return _monotone(f, a)
    return rule


def _within(lo, hi, f):
    def rule(a, dt):
        if a[0] < lo or a[1] > hi:
            return None
        return _monotone(f, a)
    return rule


_UNARY = {
    "negative": lambda a, dt: (-a[1], -a[0]),
    "positive": lambda a, dt: a,
    "absolute": lambda a, dt: (0.0 if a[0] <= 0 <= a[1] else min(abs(a[0]), abs(a[1])),
                               max(abs(a[0]), abs(a[1]))),
    "square": lambda a, dt: _square(a),
    "sqrt": _within(0.0, math.inf, math.sqrt),
    "cbrt": lambda a, dt: _monotone(np.cbrt, a),
    "exp": lambda a, dt: _monotone(math.exp, a),
    "exp2": lambda a, dt: _monotone(lambda x: math.pow(2.0, x), a),
    "expm1": lambda a, dt: _monotone(math.expm1, a),
    "log": _log_of(math.log),
    "log2": _log_of(math.log2),
    "log10": _log_of(math.log10),
    "log1p": lambda a, dt: None if a[0] < -1 + 0.5 else _monotone(math.log1p, a),
    "sin": lambda a, dt: (-1.0, 1.0),
    "cos": lambda a, dt: (-1.0, 1.0),
    "tanh": lambda a, dt: _monotone(math.tanh, a),
    "arctan": lambda a, dt: _monotone(math.atan, a),
    "arcsinh": lambda a, dt: _monotone(math.asinh, a),
    "arcsin": _within(-1.0, 1.0, math.asin),
    "arccos": lambda a, dt: None if a[0] < -1 or a[1] > 1 else (math.acos(a[1]),
                                                                  math.acos(a[0])),
    "sinh": lambda a, dt: _monotone(math.sinh, a),
    "cosh": lambda a, dt: _monotone(math.cosh, _UNARY["absolute"](a, dt)),
    "reciprocal": lambda a, dt: _divide((1.0, 1.0), a, dt),
    "floor": lambda a, dt: (a[0] - 1, a[1]),
    "ceil": lambda a, dt: (a[0], a[1] + 1),
    "trunc": lambda a, dt: (a[0] - 1, a[1] + 1),
    "rint": lambda a, dt: (a[0] - 1, a[1] + 1),
    "fabs": lambda a, dt: _UNARY["absolute"](a, dt),
    "sign": lambda a, dt: (-1.0, 1.0),
    "deg2rad": lambda a, dt: (math.radians(a[0]), math.radians(a[1])),
    "radians": lambda a, dt: (math.radians(a[0]), math.radians(a[1])),
    "rad2deg": lambda a, dt: (math.degrees(a[0]), math.degrees(a[1])),
    "degrees": lambda a, dt: (math.degrees(a[0]), math.degrees(a[1])),
}

_BINARY = {
    "add": lambda a, b, dt: (a[0] + b[0], a[1] + b[1]),
    "subtract": lambda a, b, dt: (a[0] - b[1], a[1] - b[0]),
    "multiply": lambda a, b, dt: _product(a, b),
    "divide": _divide,
    "true_divide": _divide,
    "power": _power,
    "float_power": _power,
    "maximum": lambda a, b, dt: (max(a[0], b[0]), max(a[1], b[1])),
    "minimum": lambda a, b, dt: (min(a[0], b[0]), min(a[1], b[1])),
    "fmax": lambda a, b, dt: (max(a[0], b[0]), max(a[1], b[1])),
    "fmin": lambda a, b, dt: (min(a[0], b[0]), min(a[1], b[1])),
    "hypot": lambda a, b, dt: (0.0, math.hypot(max(abs(a[0]), abs(a[1])),
                                               max(abs(b[0]), abs(b[1])))),
    "arctan2": lambda a, b, dt: (-math.pi, math.pi),
    "remainder": _remainder,
    "fmod": _remainder,
    "copysign": lambda a, b, dt: (-max(abs(a[0]), abs(a[1])), max(abs(a[0]), abs(a[1]))),
}


def ufunc_rule(name, out_dtypes):
    """The rule of the ufunc ``name``'s loop (one real float result), or None."""
    if len(out_dtypes) != 1 or out_dtypes[0].kind != "f":
        return None
    dt = out_dtypes[0]
    big, _, margin = _limits(dt)
    unary, binary = _UNARY.get(name), _BINARY.get(name)
    if unary is not None:
        def rule(xs, same):
            a = xs[0]
            if a is None or a[0] < -big or a[1] > big:
                return None
            try:
                r = unary(a, dt)
            except (OverflowError, ValueError, ZeroDivisionError):
                return None
            return _widened(r, big, margin)
        return rule
    if binary is not None:
        square = name == "multiply"

        def rule(xs, same):
            a, b = xs
            if (a is None or b is None or a[0] < -big or a[1] > big or b[0] < -big
                    or b[1] > big):
                return None
            try:
                r = _square(a) if square and same else binary(a, b, dt)
            except (OverflowError, ValueError, ZeroDivisionError):
                return None
            return _widened(r, big, margin)
        return rule
    return None


@functools.lru_cache(maxsize=1024)
def reduce_rule(name, n, dt, masked):
    """The rule of the ufunc ``name``'s reduction of ``n`` elements into float ``dt``
    (``masked``: some may be left out), or None: a sum is within ``n`` times the terms' range
    (0 within when some may be left out), widened by ``n`` roundings; a maximum or minimum of
    at least one element is within their range."""
    if dt.kind != "f":
        return None
    if name in ("maximum", "minimum", "fmax", "fmin"):
        return None if masked or n == 0 else lambda xs, same: bounded(xs[0], dt)
    if name != "add" or n * _limits(dt)[2] >= 1:
        return None

    def rule(xs, same):
        a = xs[0]
        if a is None or not _fits(a, dt):
            return None
        lo, hi = n * a[0], n * a[1]
        if masked or n == 0:
            lo, hi = min(lo, 0.0), max(hi, 0.0)
        return bounded((lo, hi), dt, n + 1)
    return rule


@functools.lru_cache(maxsize=1024)
def matmul_rule(k, dt):
    """The rule of a matrix product contracting ``k`` elements into float ``dt``: ``k`` times
    the range of one product (``reduce_rule``'s bound for a sum)."""
    if dt.kind != "f" or (k + 1) * _limits(dt)[2] >= 1:
        return None

    def rule(xs, same):
        a, b = xs
        if a is None or b is None or not (_fits(a, dt) and _fits(b, dt)):
            return None
        p = _product(a, b)
        if p is None:
            return None
        lo, hi = k * p[0], k * p[1]
        return bounded((min(lo, 0.0), max(hi, 0.0)), dt, k + 2)
    return rule
