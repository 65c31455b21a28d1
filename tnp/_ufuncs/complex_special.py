"""Complex ufunc loops with C99 Annex G special values, as NumPy gives them, on the device.

NumPy's complex ``exp``, ``log``, ``sqrt``, ``cosh``, ``sinh``, ``tanh``, ``arccos``,
``arccosh``, ``arcsinh``, ``arctanh``, ``sin``, ``cos``, ``tan``, ``arcsin`` and ``arctan`` call
the C library's ``cexp``, ``clog``, ... (glibc on Linux), which follow C99 Annex G for infinite,
NaN and signed-zero parts; its ``expm1``, ``log1p``, ``log2``, ``log10``, ``exp2``,
``reciprocal``, ``absolute`` and ``sign`` are NumPy's own formulas on the real functions (or on
``clog``/``cexp``). XLA's complex kernels follow none of it (``exp(inf + nan j)`` is
``nan + nan j`` there, NumPy's ``inf + nan j``). Complex ``power``/``float_power`` follow
NumPy's own ``npy_cpow`` (below).

Each function here is one formulation for every backend, in jnp/lax on the real and imaginary
parts: the ordinary finite inputs keep XLA's complex kernel (evaluated on the first quadrant and
reflected by the function's symmetries, which fixes the signs of zeros), and the special inputs
are selected with ``jnp.where`` into the values of glibc's Annex G branches (the unspecified
signs included, since those are what NumPy shows). No host round trip, no per-platform branch.

``IMPLS`` maps NumPy ufunc names to loop implementations that take the complex path for complex
loop dtypes and the given real implementation otherwise; ``tnp._ufuncs.table`` registers them.
Private module: no public names (``__all__`` is empty).
"""
from .._core.engine.jaxload import jnp, lax
import numpy as np

from .._core.numerics.casting import numpy_cast

__all__ = []

_PI = np.pi
_PI_2 = np.pi / 2
_PI_4 = np.pi / 4


def _parts(z):
    return jnp.real(z), jnp.imag(z)


def _full(like, v):
    return jnp.full_like(like, v)


def _cs(mag, sign):
    """copysign with a Python float or an array magnitude."""
    return jnp.copysign(mag if hasattr(mag, "dtype") else _full(sign, mag), sign)


def _neg_if(cond, v):
    return jnp.where(cond, -v, v)


def _sel(pairs, default):
    """The value of the first true condition of ``pairs`` ((cond, value), ...), else default."""
    out = default
    for cond, val in reversed(pairs):
        out = jnp.where(cond, val, out)
    return out


def _nan(like):
    return _full(like, np.nan)


def _inf(like):
    return _full(like, np.inf)


def _first_quadrant(fn, z):
    """``fn`` on |Re z| + i|Im z|: the parts and the signbits of z's parts."""
    x, y = _parts(z)
    sx, sy = jnp.signbit(x), jnp.signbit(y)
    w = fn(lax.complex(jnp.abs(x), jnp.abs(y)))
    return jnp.real(w), jnp.imag(w), sx, sy


# ---- exp, log, sqrt, expm1, log1p ------------------------------------------------------------

def cexp(z):
    """glibc's cexp: exp(x) cis(y); an infinite real part gives 0 or inf times cis(y)."""
    x, y = _parts(z)
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    # one XLA kernel, on x + i|y| with non-finite parts replaced by 0 (then conjugated back):
    # the finite results, and cis(|y|)'s signs for an infinite x
    w = jnp.exp(lax.complex(jnp.where(fin_x, x, 0), jnp.where(fin_y, jnp.abs(y), 0)))
    sy = jnp.signbit(y)
    re_w, im_w = jnp.real(w), _neg_if(sy, jnp.imag(w))
    re_f = re_w
    im_f = jnp.where(y == 0, y, im_w)  # exp(x + i0) = exp(x) + i0, also past overflow
    # real part infinite
    value = jnp.where(jnp.signbit(x), _full(x, 0.0), _inf(x))
    re_i = _sel([(y == 0, value), (fin_y, _cs(value, re_w))], value)
    im_i = _sel([(y == 0, y), (fin_y, _cs(value, im_w))],
                jnp.where(jnp.signbit(x), _cs(0.0, y), _nan(x)))
    re = _sel([(fin_x & fin_y, re_f), (fin_x, _nan(x)), (jnp.isinf(x), re_i)], _nan(x))
    im = _sel([(fin_x & fin_y, im_f), (fin_x, _nan(x)), (jnp.isinf(x), im_i)],
              jnp.where(y == 0, y, _nan(x)))
    return lax.complex(re, im)


def clog(z):
    """glibc's clog: log|z| + i atan2(y, x); -inf + i(0 or pi) at zero, inf + i nan for an
    infinite part with a nan one."""
    x, y = _parts(z)
    fin = jnp.isfinite(x) & jnp.isfinite(y)
    nan = jnp.isnan(x) | jnp.isnan(y)
    zero = (x == 0) & (y == 0)
    sy = jnp.signbit(y)
    w = jnp.log(lax.complex(x, jnp.abs(y)))
    re_f, im_f = jnp.real(w), _neg_if(sy, jnp.imag(w))
    re_z = -1 / jnp.abs(x)
    im_z = _cs(jnp.where(jnp.signbit(x), _full(x, _PI), _full(x, 0.0)), y)
    # an infinite part and no nan: atan2(y, x) is a multiple of pi/4 (no atan2 kernel)
    inf_x, inf_y = jnp.isinf(x), jnp.isinf(y)
    neg = jnp.signbit(x)
    ang = _sel([(inf_x & inf_y, jnp.where(neg, _full(x, 3 * _PI_4), _full(x, _PI_4))),
                (inf_y, _full(x, _PI_2))], jnp.where(neg, _full(x, _PI), _full(x, 0.0)))
    re = _sel([(zero, re_z), (fin, re_f), (~nan, _inf(x))],
              jnp.where(inf_x | inf_y, _inf(x), _nan(x)))
    im = _sel([(zero, im_z), (fin, im_f), (~nan, _cs(ang, y))], _nan(x))
    return lax.complex(re, im)


def csqrt(z):
    """glibc's csqrt: the principal root, conjugate-symmetric in the sign of zero."""
    x, y = _parts(z)
    fin = jnp.isfinite(x) & jnp.isfinite(y)
    w = jnp.sqrt(lax.complex(x, jnp.abs(y)))
    re_f, im_f = jnp.real(w), _cs(jnp.imag(w), y)
    # y == 0
    neg = x < 0
    sq = jnp.sqrt(jnp.abs(x))
    re_f = jnp.where(y == 0, jnp.where(neg, _full(x, 0.0), sq), re_f)
    im_f = jnp.where(y == 0, _cs(jnp.where(neg, sq, _full(x, 0.0)), y), im_f)
    ynan = jnp.isnan(y)
    re_s = _sel([(jnp.isinf(y), _inf(x)),
                 (jnp.isinf(x) & neg, jnp.where(ynan, _nan(x), _full(x, 0.0)))],
                jnp.where(jnp.isinf(x), x, _nan(x)))
    im_s = _sel([(jnp.isinf(y), y), (jnp.isinf(x) & neg, _cs(np.inf, y)),
                 (jnp.isinf(x), jnp.where(ynan, _nan(x), _cs(0.0, y)))], _nan(x))
    return lax.complex(jnp.where(fin, re_f, re_s), jnp.where(fin, im_f, im_s))


def cexpm1(z):
    """NumPy's nc_expm1: expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)."""
    x, y = _parts(z)
    a = jnp.sin(y / 2)
    return lax.complex(jnp.expm1(x) * jnp.cos(y) - 2 * a * a, jnp.exp(x) * jnp.sin(y))


def clog1p(z):
    """NumPy's nc_log1p: log(hypot(x + 1, y)) + i atan2(y, x + 1)."""
    x, y = _parts(z)
    x1 = x + 1
    return lax.complex(jnp.log(jnp.hypot(x1, y)), jnp.arctan2(y, x1))


# ---- cosh, sinh, tanh ------------------------------------------------------------------------

def _sincos(y):
    """glibc's sin/cos of a finite y (sin y = y, cos y = 1 below the smallest normal)."""
    tiny = jnp.abs(y) <= np.finfo(y.dtype).tiny
    return jnp.where(tiny, y, jnp.sin(y)), jnp.where(tiny, _full(y, 1.0), jnp.cos(y))


def _cosh_sinh(ax):
    """cosh(|x|) and sinh(|x|) without overflowing early: exp(|x|/2)^2 / 2 past the threshold."""
    t = int((np.finfo(ax.dtype).maxexp - 1) * np.log(2))
    big = ax > t
    h = jnp.exp(jnp.where(big, ax / 2, 0)) * float(np.sqrt(0.5))
    return jnp.where(big, h, jnp.cosh(ax)), jnp.where(big, h, jnp.sinh(ax)), big, h


def _hyperbolic_parts(z):
    """What ccosh and csinh share: the parts, their finiteness, the sign of x, sin/cos of a
    finite y, and cosh/sinh of a finite |x| without early overflow."""
    x, y = _parts(z)
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    s, c = _sincos(jnp.where(fin_y, y, 0))
    ch, sh, big, h = _cosh_sinh(jnp.where(fin_x, jnp.abs(x), 0))
    return x, y, fin_x, fin_y, jnp.signbit(x), s, c, ch, sh, big, h


def ccosh(z):
    """glibc's ccosh: cosh(x) cos(y) + i sinh(x) sin(y), no early overflow, Annex G's table."""
    x, y, fin_x, fin_y, sx, s, c, ch, sh, big, h = _hyperbolic_parts(z)
    re_f = jnp.where(big, (h * c) * h, ch * c)
    im_f = _neg_if(sx, jnp.where(s == 0, s, jnp.where(big, (h * s) * h, sh * s)))
    re_i = _sel([(y == 0, _inf(x)), (fin_y, _cs(np.inf, c))], _inf(x))
    im_i = _sel([(y == 0, _neg_if(sx, y)), (fin_y, _neg_if(sx, _cs(np.inf, s)))], _nan(x))
    re = _sel([(fin_x & fin_y, re_f), (fin_x, _nan(x)), (jnp.isinf(x), re_i)], _nan(x))
    im = _sel([(fin_x & fin_y, im_f),
               (fin_x, jnp.where(x == 0, _full(x, 0.0), _nan(x))),
               (jnp.isinf(x), im_i)], jnp.where(y == 0, y, _nan(x)))
    return lax.complex(re, im)


def csinh(z):
    """glibc's csinh: sinh(x) cos(y) + i cosh(x) sin(y), no early overflow, Annex G's table."""
    x, y, fin_x, fin_y, sx, s, c, ch, sh, big, h = _hyperbolic_parts(z)
    re_f = _neg_if(sx, jnp.where(big, (h * c) * h, sh * c))
    im_f = jnp.where(s == 0, s, jnp.where(big, (h * s) * h, ch * s))
    re_i = _sel([(y == 0, _neg_if(sx, _inf(x))), (fin_y, _neg_if(sx, _cs(np.inf, c)))], _inf(x))
    im_i = _sel([(y == 0, y), (fin_y, _cs(np.inf, s))], _nan(x))
    re = _sel([(fin_x & fin_y, re_f),
               (fin_x, jnp.where(x == 0, _neg_if(sx, _full(x, 0.0)), _nan(x))),
               (jnp.isinf(x), re_i)], _nan(x))
    im = _sel([(fin_x & fin_y, im_f), (fin_x, _nan(x)), (jnp.isinf(x), im_i)],
              jnp.where(y == 0, y, _nan(x)))
    return lax.complex(re, im)


def ctanh(z):
    """glibc's ctanh: XLA's kernel in the first quadrant (odd and conjugate-symmetric), Annex G's
    table for non-finite parts (+-1 + i(+-0) for an infinite real part)."""
    x, y = _parts(z)
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    fin = fin_x & fin_y
    # one kernel; an infinite x is replaced by 0 there: tanh(0 + i|y|) = i tan|y|, whose sign
    # (sin y cos y's, conjugated back) is glibc's sign of the zero imaginary part at x = +-inf
    w = jnp.tanh(lax.complex(jnp.where(fin, jnp.abs(x), 0), jnp.where(fin_y, jnp.abs(y), 0)))
    re_f = _neg_if(jnp.signbit(x), jnp.real(w))
    im_f = _neg_if(jnp.signbit(y), jnp.imag(w))
    # special: real part infinite
    im_i = jnp.where(fin_y, _cs(0.0, im_f), _cs(0.0, y))
    re = _sel([(fin, re_f), (jnp.isinf(x), _cs(1.0, x)), (y == 0, x)],
              jnp.where(x == 0, x, _nan(x)))
    im = _sel([(fin, im_f), (jnp.isinf(x), im_i), (y == 0, y)], _nan(x))
    return lax.complex(re, im)


# ---- arcsinh, arccosh, arccos, arctanh -------------------------------------------------------

def _casinh_parts(x, y, kernel=True):
    """glibc's casinh on parts: XLA's kernel in the first quadrant (odd and conjugate-symmetric),
    Annex G's table for non-finite parts. Without ``kernel`` only the non-finite parts and
    0 + 0i are right (what cacos needs of it, without a second transcendental kernel)."""
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    zero = (x == 0) & (y == 0)
    if kernel:
        re_w, im_w, _, _ = _first_quadrant(jnp.arcsinh, lax.complex(x, y))
        re_f = jnp.where(zero, x, _cs(re_w, x))
        im_f = jnp.where(zero, y, _cs(im_w, y))
    else:
        re_f, im_f = x, y
    xnan = jnp.isnan(x)
    re_s = _sel([(jnp.isinf(y), _cs(np.inf, x)), (~fin_x, x)], _nan(x))
    im_s = _sel([(jnp.isinf(y), jnp.where(xnan, _nan(x),
                                          _cs(jnp.where(fin_x, _full(x, _PI_2),
                                                        _full(x, _PI_4)), y))),
                 (~fin_x, jnp.where((jnp.isinf(x) & fin_y) | (xnan & (y == 0)),
                                    _cs(0.0, y), _nan(x)))], _nan(x))
    fin = fin_x & fin_y
    return jnp.where(fin, re_f, re_s), jnp.where(fin, im_f, im_s)


def casinh(z):
    return lax.complex(*_casinh_parts(*_parts(z)))


def cacosh(z):
    """glibc's cacosh: real part >= 0, conjugate-symmetric, Annex G's table."""
    x, y = _parts(z)
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    sy = jnp.signbit(y)
    w = jnp.arccosh(lax.complex(x, jnp.abs(y)))
    re_f = jnp.abs(jnp.real(w))
    im_f = _neg_if(sy, jnp.imag(w))
    zero = (x == 0) & (y == 0)
    re_f = jnp.where(zero, _full(x, 0.0), re_f)
    im_f = jnp.where(zero, _cs(_PI_2, y), im_f)
    xnan = jnp.isnan(x)
    im_yinf = jnp.where(xnan, _nan(x), _cs(
        jnp.where(jnp.isinf(x), jnp.where(x < 0, _full(x, _PI - _PI_4), _full(x, _PI_4)),
                  _full(x, _PI_2)), y))
    im_xinf = jnp.where(fin_y, _cs(jnp.where(jnp.signbit(x), _full(x, _PI), _full(x, 0.0)), y),
                        _nan(x))
    re_s = _sel([(jnp.isinf(y) | jnp.isinf(x), _inf(x))], _nan(x))
    im_s = _sel([(jnp.isinf(y), im_yinf), (jnp.isinf(x), im_xinf)],
                jnp.where(x == 0, _full(x, _PI_2), _nan(x)))
    fin = fin_x & fin_y
    return lax.complex(jnp.where(fin, re_f, re_s), jnp.where(fin, im_f, im_s))


def cacos(z):
    """glibc's cacos: special parts (and 0 + 0i) through pi/2 - casin(z), casin = -i casinh(iz)."""
    x, y = _parts(z)
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    sy = jnp.signbit(y)
    w = jnp.arccos(lax.complex(x, jnp.abs(y)))
    re_f, im_f = jnp.real(w), _neg_if(sy, jnp.imag(w))
    # glibc: special inputs (and 0 + 0i) through casin(z) = -i casinh(i z)
    nan = jnp.isnan(x) | jnp.isnan(y)
    ash_re, ash_im = _casinh_parts(-y, x, kernel=False)  # casinh(-y + ix); casin = (im, -re)
    re_s = _PI_2 - ash_im
    im_s = ash_re
    # casin with a NaN part
    re_n = jnp.where(x == 0, _PI_2 - x, _nan(x))
    im_n = jnp.where(x == 0, -y, jnp.where(jnp.isinf(x) | jnp.isinf(y), -_cs(np.inf, y),
                                            _nan(x)))
    re_s = jnp.where(nan, re_n, re_s)
    im_s = jnp.where(nan, im_n, im_s)
    re_s = jnp.where(re_s == 0, _full(x, 0.0), re_s)
    special = ~(fin_x & fin_y) | ((x == 0) & (y == 0))
    return lax.complex(jnp.where(special, re_s, re_f), jnp.where(special, im_s, im_f))


def catanh(z):
    """glibc's catanh: odd and conjugate-symmetric, Annex G's table."""
    x, y = _parts(z)
    fin_x, fin_y = jnp.isfinite(x), jnp.isfinite(y)
    re_w, im_w, _, _ = _first_quadrant(jnp.arctanh, z)
    zero = (x == 0) & (y == 0)
    re_f = jnp.where(zero, x, _cs(re_w, x))
    im_f = jnp.where(zero, y, _cs(im_w, y))
    re_s = _sel([(jnp.isinf(y) | jnp.isinf(x) | (x == 0), _cs(0.0, x))], _nan(x))
    im_s = _sel([(jnp.isinf(y), _cs(_PI_2, y)),
                 (jnp.isinf(x) | (x == 0), jnp.where(fin_y, _cs(_PI_2, y), _nan(x)))], _nan(x))
    fin = fin_x & fin_y
    return lax.complex(jnp.where(fin, re_f, re_s), jnp.where(fin, im_f, im_s))


# ---- the circular functions through the hyperbolic ones: f(z) = -i g(i z), cos(z) = cosh(i z)

def _times_i(fn, rotate_back=True):
    def f(z):
        x, y = _parts(z)
        w = fn(lax.complex(-y, x))
        return lax.complex(jnp.imag(w), -jnp.real(w)) if rotate_back else w
    f.__name__ = fn.__name__.replace("h", "", 1) if fn.__name__.startswith("c") else fn.__name__
    return f


def csin(z):
    """-i csinh(i z), but glibc's csin gives +inf (not the rotation's sign) for an infinite
    imaginary part with a non-finite real part."""
    x, y = _parts(z)
    w = _times_i(csinh)(z)
    odd = jnp.isinf(y) & ~jnp.isfinite(x)
    return lax.complex(jnp.where(odd, _nan(x), jnp.real(w)), jnp.where(odd, _inf(x), jnp.imag(w)))


ccos = _times_i(ccosh, rotate_back=False)
ctan = _times_i(ctanh)
catan = _times_i(catanh)


def casin(z):
    """glibc's casin: its own NaN cases, -i casinh(i z) otherwise."""
    x, y = _parts(z)
    w = _times_i(casinh)(z)
    nan = jnp.isnan(x) | jnp.isnan(y)
    re_n = jnp.where(x == 0, x, _nan(x))
    im_n = jnp.where(x == 0, y, jnp.where(jnp.isinf(x) | jnp.isinf(y), _cs(np.inf, y), _nan(x)))
    return lax.complex(jnp.where(nan, re_n, jnp.real(w)), jnp.where(nan, im_n, jnp.imag(w)))


def _scaled_log(c):
    """NumPy's nc_log2/nc_log10: clog(z) with both parts times ``c``."""
    def f(z):
        w = clog(z)
        return lax.complex(jnp.real(w) * c, jnp.imag(w) * c)
    return f


def cexp2(z):
    """NumPy's nc_exp2: cexp(z * ln 2)."""
    x, y = _parts(z)
    return cexp(lax.complex(x * float(np.log(2)), y * float(np.log(2))))


def creciprocal(z):
    """NumPy's complex reciprocal loop (Smith's division of 1 by z, nan for 0)."""
    x, y = _parts(z)
    big = jnp.abs(x) >= jnp.abs(y)
    xs = jnp.where(big, x, y)  # the larger part
    ys = jnp.where(big, y, x)
    r = ys / xs
    d = xs + ys * r
    return lax.complex(jnp.where(big, 1 / d, r / d), jnp.where(big, -r / d, -1 / d))


def cabs(z):
    """npy_cabs: hypot of the parts (inf when a part is infinite, even with a NaN)."""
    x, y = _parts(z)
    return jnp.hypot(x, y)


def csign(z):
    """NumPy 2's complex sign (npy_csign): z / |z| with |z| = hypot; 0 for 0; where |z| is
    infinite (an infinite part, or an overflow) the unit direction of the infinite real part,
    nan if both parts are infinite, else +-1j by the imaginary part's sign; nan for a nan |z|."""
    x, y = _parts(z)
    a = jnp.hypot(x, y)
    one = _full(x, 1.0)
    zero = _full(x, 0.0)
    inf_x, inf_y = jnp.isinf(x), jnp.isinf(y)
    safe = jnp.where((a == 0) | ~jnp.isfinite(a), one, a)
    big = jnp.isinf(a)
    re = _sel([(jnp.isnan(a), _nan(x)), (big & inf_x & inf_y, _nan(x)),
               (big & inf_x, jnp.where(x > 0, one, -one)), (big, zero), (a == 0, zero)],
              x / safe)
    im = _sel([(jnp.isnan(a), _nan(x)), (big & inf_x & inf_y, _nan(x)), (big & inf_x, zero),
               (big, jnp.where(y > 0, one, -one)), (a == 0, zero)], y / safe)
    return lax.complex(re, im)


_COMPLEX = {"exp": cexp, "expm1": cexpm1, "log": clog, "log1p": clog1p, "sqrt": csqrt,
            "cosh": ccosh, "sinh": csinh, "tanh": ctanh, "arccos": cacos, "arccosh": cacosh,
            "arcsinh": casinh, "arctanh": catanh,
            "sin": csin, "cos": ccos, "tan": ctan, "arcsin": casin, "arctan": catan,
            "log2": _scaled_log(float(1 / np.log(2))), "log10": _scaled_log(float(1 / np.log(10))),
            "exp2": cexp2, "reciprocal": creciprocal, "absolute": cabs,
            "sign": csign}


# ---- power (NumPy's npy_cpow) -----------------------------------------------------------------

def _cmul(a, b):
    """NumPy's cmul: the plain product, no recovery of infinities. complex64's is float's
    arithmetic exactly: products exact in double, each rounded to float (overflowing where
    float's do), then the sum rounded (so no fused multiply-add changes a rounding)."""
    ar, ai, br, bi = jnp.real(a), jnp.imag(a), jnp.real(b), jnp.imag(b)
    if a.dtype != np.complex64:
        return lax.complex(ar * br - ai * bi, ar * bi + ai * br)
    ar, ai, br, bi = (numpy_cast(v, np.float64) for v in (ar, ai, br, bi))

    def f32(v):  # float's rounding and range, kept in double (XLA may drop a convert pair)
        return lax.reduce_precision(v, exponent_bits=8, mantissa_bits=23)
    return lax.complex(numpy_cast(f32(ar * br) - f32(ai * bi), np.float32),
                       numpy_cast(f32(ar * bi) + f32(ai * br), np.float32))


def _recip(b):
    """NumPy's cdiv(1, b) (Smith's algorithm; 0 gives inf + nan j), written out for the numerator 1 + 0i: XLA's simplifier would fold
    ``x + 0`` to ``x`` and lose IEEE's -0 + 0 == +0, so that sum is a select here."""
    br, bi = jnp.real(b), jnp.imag(b)
    abr, abi = jnp.abs(br), jnp.abs(bi)
    big_r = abr >= abi
    zero = (abr == 0) & (abi == 0)
    rat = jnp.where(big_r, bi / jnp.where(zero, 1, br), br / jnp.where(big_r, 1, bi))
    scl = 1 / jnp.where(big_r, br + bi * rat, bi + br * rat)
    zero_r = jnp.zeros_like(rat)
    plus = jnp.where(rat == 0, zero_r, rat)  # rat + 0
    minus = jnp.where(rat == 0, zero_r, -rat)  # 0 - rat
    re = jnp.where(big_r, scl, plus * scl)
    im = jnp.where(big_r, minus * scl, -scl)
    return lax.complex(jnp.where(zero, 1 / abr, re), jnp.where(zero, _nan(br), im))


def _c99_mul(a, b):
    """C's complex product as GCC compiles it (__muldc3, C99 Annex G.5.1): the plain product,
    with infinities recovered where both of its parts are nan."""
    x_, y_ = jnp.real(a), jnp.imag(a)
    c, d = jnp.real(b), jnp.imag(b)
    ac, bd, ad, bc = x_ * c, y_ * d, x_ * d, y_ * c
    re, im = ac - bd, ad + bc
    both_nan = jnp.isnan(re) & jnp.isnan(im)
    one, zero = _full(x_, 1.0), _full(x_, 0.0)

    def box(v):  # an infinite part becomes +-1, a finite one +-0
        return _cs(jnp.where(jnp.isinf(v), one, zero), v)

    def unnan(v):
        return jnp.where(jnp.isnan(v), _cs(0.0, v), v)

    inf_ab = jnp.isinf(x_) | jnp.isinf(y_)
    inf_cd = jnp.isinf(c) | jnp.isinf(d)
    a1 = jnp.where(inf_ab, box(x_), x_)
    b1 = jnp.where(inf_ab, box(y_), y_)
    c1 = jnp.where(inf_ab, unnan(c), c)
    d1 = jnp.where(inf_ab, unnan(d), d)
    c2 = jnp.where(inf_cd, box(c1), c1)
    d2 = jnp.where(inf_cd, box(d1), d1)
    a2 = jnp.where(inf_cd, unnan(a1), a1)
    b2 = jnp.where(inf_cd, unnan(b1), b1)
    overflow = ~inf_ab & ~inf_cd & (jnp.isinf(ac) | jnp.isinf(bd) | jnp.isinf(ad) |
                                    jnp.isinf(bc))
    a3, b3 = jnp.where(overflow, unnan(a2), a2), jnp.where(overflow, unnan(b2), b2)
    c3, d3 = jnp.where(overflow, unnan(c2), c2), jnp.where(overflow, unnan(d2), d2)
    recalc = both_nan & (inf_ab | inf_cd | overflow)
    re = jnp.where(recalc, np.inf * (a3 * c3 - b3 * d3), re)
    im = jnp.where(recalc, np.inf * (a3 * d3 + b3 * c3), im)
    return lax.complex(re, im)


def _float_rounded(z):
    """A complex128 value rounded to complex64's precision and range, kept in complex128
    (``reduce_precision``: XLA may drop a complex128 -> complex64 -> complex128 convert pair)."""
    def r(v):
        return lax.reduce_precision(v, exponent_bits=8, mantissa_bits=23)
    return lax.complex(r(jnp.real(z)), r(jnp.imag(z)))


def _sys_cpow(a, b):
    """glibc's cpow: cexp(b * clog(a)), C's product; complex64's cpowf rounds each step to
    complex64 (evaluated in double here, so fused multiply-adds do not change the rounding)."""
    if a.dtype == np.complex64:
        wide = np.complex128
        log_a = _float_rounded(clog(numpy_cast(a, wide)))
        prod = _float_rounded(_c99_mul(numpy_cast(b, wide), log_a))
        return numpy_cast(cexp(prod), a.dtype)
    return cexp(_c99_mul(b, clog(a)))


def cpow(a, b):
    """NumPy's npy_cpow: 1 for a zero exponent; 0 or nan for a zero base; a, a*a, a*(a*a) for
    the exponents 1, 2, 3; repeated multiplication (and NumPy's division for a negative one)
    for other integral exponents below 100; the C library's cpow otherwise."""
    a, b = jnp.broadcast_arrays(a, b)
    ar, ai, br, bi = jnp.real(a), jnp.imag(a), jnp.real(b), jnp.imag(b)
    one = jnp.ones_like(a)
    integral = (bi == 0) & (jnp.abs(br) < 100) & (br == jnp.round(br))
    n = numpy_cast(jnp.where(integral, br, 0), np.int64)
    acc, p, m = one, a, jnp.abs(n)
    for _ in range(7):
        acc = jnp.where((m & 1) == 1, _cmul(acc, p), acc)
        p, m = _cmul(p, p), m >> 1
    acc = jnp.where(n < 0, _recip(acc), acc)
    sq = _cmul(a, a)
    acc = _sel([(n == 1, a), (n == 2, sq), (n == 3, _cmul(a, sq))], acc)
    r = jnp.where(integral, acc, _sys_cpow(a, b))
    zero_a = (ar == 0) & (ai == 0)
    r = jnp.where(zero_a, jnp.where(br > 0, jnp.zeros_like(a), jnp.full_like(
        a, complex(np.nan, np.nan))), r)
    return jnp.where((br == 0) & (bi == 0), one, r)


_BINARY = {"power": cpow, "float_power": cpow}


def _complex_aware(real_impl, complex_impl):
    def impl(*xs):
        return complex_impl(*xs) if xs[0].dtype.kind == "c" else real_impl(*xs)
    impl.__name__ = getattr(real_impl, "__name__", "impl")
    return impl


def with_complex_special(impls):
    """The entries of ``impls`` (NumPy ufunc name -> loop implementation) that this module
    replaces: each keeps its real implementation for real loops."""
    return {name: _complex_aware(impls[name], fn)
            for name, fn in {**_COMPLEX, **_BINARY}.items()}
