"""Mathematical routines beyond the ufuncs: convolve, correlate, interp, gradient, diff, ediff1d,
trapezoid, clip, round/around, fix, nan_to_num, unwrap, sinc, i0, angle, real, imag.

Result dtypes and argument errors come from NumPy run on placeholders (``tnp._core.rules.probe``); the
arithmetic follows NumPy's own formulas, step by step in the same dtypes.
"""
import builtins
import math
import typing

from .._core.engine.jaxload import jax, jnp
import numpy as np

from .._core.numerics import division
from .._core.rules import probe
from .._core.array import write
from .._core.numerics.casting import numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import (ArrayLike, ArrayLikeSeq, ArrayOrScalar, OutArray,
                                        normalize, normalize_axis, operator_index, to_jax)
from .._core.dispatch.np_doc import np_doc
from .creation import asarray
from .products import HIGHEST, compute_dtype, finish

__all__ = ["convolve", "correlate", "interp", "gradient", "diff", "ediff1d", "trapezoid", "clip",
           "round", "around", "fix", "nan_to_num", "unwrap", "sinc", "i0", "angle", "real",
           "imag"]

_NoValue = np._NoValue


_MODES = ("valid", "same", "full")  # NumPy's names for its integer modes 0, 1, 2


def _correlate(a, v, mode, convolve):
    np_fn = np.convolve if convolve else np.correlate
    dt = probe.dtype_of(np_fn, probe.Spec((1,), a.dtype), probe.Spec((1,), v.dtype), mode)
    if a.ndim != 1 or v.ndim != 1 or a.size == 0 or v.size == 0:
        probe.call(np_fn, probe.like(a), probe.like(v), mode)
    mode = mode if isinstance(mode, str) else _MODES[operator_index(mode)]
    ct = compute_dtype(dt)
    a, v = numpy_cast(a.reshape(-1), ct), numpy_cast(v.reshape(-1), ct)
    if ct.kind in "iu":  # XLA's GPU convolutions take floating point only
        if convolve:  # NumPy convolves the longer operand with the shorter one reversed
            a, v = (a, v[::-1]) if a.shape[0] >= v.shape[0] else (v, a[::-1])
        r = _shift_sum_correlate(a, v, mode)
    else:
        fn = jnp.convolve if convolve else jnp.correlate
        r = fn(a, v, mode=mode, precision=HIGHEST, preferred_element_type=ct)
    return finish(r, dt)


def _shift_sum_correlate(a, v, mode):
    """NumPy's ``correlate(a, v, mode)`` of two integer vectors: the full correlation as a sum of
    shifted products (a loop over the shorter operand), exact with wraparound, then NumPy's
    window of it for ``mode``."""
    n, m = a.shape[0], v.shape[0]
    if m > n:  # for real operands, correlate(a, v) is correlate(v, a) reversed
        full = _full_correlation(v, a)[::-1]
    else:
        full = _full_correlation(a, v)
    short, long = min(n, m), max(n, m)
    start, length = {"full": (0, n + m - 1), "valid": (short - 1, long - short + 1),
                     "same": ((short - 1) // 2 if n >= m else short // 2, long)}[mode]
    return full[start:start + length]


def _full_correlation(a, v):
    m, length = v.shape[0], a.shape[0] + v.shape[0] - 1
    padded = jnp.pad(a, (m - 1, m - 1))

    def add_shift(j, acc):
        return acc + jax.lax.dynamic_slice(padded, (j,), (length,)) * v[j]
    return jax.lax.fori_loop(0, m, add_shift, jnp.zeros(length, a.dtype))


@np_doc(np.convolve)
@normalize
def convolve(a: ArrayLike, v: ArrayLike, mode="full"):
    return _correlate(a, v, mode, True)


@np_doc(np.correlate)
@normalize
def correlate(a: ArrayLike, v: ArrayLike, mode="valid"):
    return _correlate(a, v, mode, False)


@np_doc(np.interp)
@normalize
def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left=None, right=None, period=None):
    dt = probe.dtype_of(np.interp, probe.unit(x), probe.Spec((2,), xp.dtype),
                        probe.Spec((2,), fp.dtype), left, right, period)
    probe.call(np.interp, probe.Spec((1,), x.dtype), probe.like(xp), probe.like(fp), left, right,
               period)
    x, xp = numpy_cast(x, np.float64), numpy_cast(xp, np.float64)
    fp = numpy_cast(fp, dt)
    if period is not None:
        period = abs(period)
        left = right = None
        x = x % period
        xp = xp % period
        order = jnp.argsort(xp, stable=True)
        xp, fp = xp[order], fp[order]
        xp = jnp.concatenate([xp[-1:] - period, xp, xp[:1] + period])
        fp = jnp.concatenate([fp[-1:], fp, fp[:1]])
    if dt.kind == "c":
        re = _interp_real(x, xp, fp.real, _part(left, 0), _part(right, 0))
        im = _interp_real(x, xp, fp.imag, _part(left, 1), _part(right, 1))
        im = jnp.where(jnp.isnan(x) & (xp.shape[0] > 1), 0.0, im)  # NumPy: nan+0j at NaN
        part = np.finfo(dt).dtype  # the parts as they are: re + 1j * inf would make re NaN
        return jax.lax.complex(jnp.asarray(re, part), jnp.asarray(im, part))
    return _interp_real(x, xp, fp, left, right)


def _part(v, imag):
    if v is None:
        return None
    return complex(v).imag if imag else complex(v).real


def _interp_real(x, xp, fp, left, right):
    n = xp.shape[0]
    j = jnp.clip(jnp.searchsorted(xp, x, side="right") - 1, 0, max(n - 2, 0))
    if n == 1:
        r = jnp.broadcast_to(fp[0], x.shape)
    else:
        x0, x1, f0, f1 = xp[j], xp[j + 1], fp[j], fp[j + 1]
        slope = (f1 - f0) / (x1 - x0)
        r = slope * (x - x0) + f0
        alt = f1 - slope * (x1 - x)  # NumPy's fallback where slope*(x-x0) is NaN
        r = jnp.where(jnp.isnan(r), jnp.where(jnp.isnan(alt) & (f0 == f1), f0, alt), r)
        r = jnp.where(x == x0, f0, r)  # NumPy's: an x on a sample point is its value
    lv = fp[0] if left is None else left
    rv = fp[-1] if right is None else right
    r = jnp.where(x < xp[0], lv, r)
    r = jnp.where(x > xp[-1], rv, r)
    r = jnp.where(x == xp[-1], fp[-1], r)
    if n > 1:
        r = jnp.where(jnp.isnan(x), jnp.nan, r)
    return numpy_cast(r, np.float64)


def _grad_axis(f, dx, axis, edge_order, otype):
    """One axis of ``gradient``: ``dx`` is a scalar spacing or the array of coordinate diffs."""
    n = f.shape[axis]

    def sl(a, b=None):
        return jnp.take(f, jnp.arange(f.shape[axis])[slice(a, b)], axis=axis)

    def at(i):
        return jnp.take(f, jnp.array([i % n]), axis=axis)

    def bshape(d):
        return d.reshape([-1 if k == axis else 1 for k in range(f.ndim)])
    if jnp.ndim(dx) == 0:
        mid = (sl(2) - sl(None, -2)) / (2.0 * dx)
        if edge_order == 1:
            first = (at(1) - at(0)) / dx
            last = (at(-1) - at(-2)) / dx
        else:
            first = -(1.5 * at(0) - 2.0 * at(1) + 0.5 * at(2)) / dx
            last = (0.5 * at(-3) - 2.0 * at(-2) + 1.5 * at(-1)) / dx
    else:
        dx1, dx2 = dx[:-1], dx[1:]
        a = bshape(-dx2 / (dx1 * (dx1 + dx2)))
        b = bshape((dx2 - dx1) / (dx1 * dx2))
        c = bshape(dx1 / (dx2 * (dx1 + dx2)))
        mid = a * sl(None, -2) + b * sl(1, -1) + c * sl(2)
        if edge_order == 1:
            first = (at(1) - at(0)) / dx[0]
            last = (at(-1) - at(-2)) / dx[-1]
        else:
            d1, d2 = dx[0], dx[1]
            first = (-(2.0 * d1 + d2) / (d1 * (d1 + d2)) * at(0) + (d1 + d2) / (d1 * d2) * at(1)
                     - d1 / (d2 * (d1 + d2)) * at(2))
            d1, d2 = dx[-2], dx[-1]
            last = (d2 / (d1 * (d1 + d2)) * at(-3) - (d2 + d1) / (d1 * d2) * at(-2)
                    + (2.0 * d2 + d1) / (d2 * (d1 + d2)) * at(-1))
    parts = [numpy_cast(first, otype), numpy_cast(mid, otype), numpy_cast(last, otype)]
    return jnp.concatenate(parts, axis=axis)


@normalize
def _gradient(f: ArrayLike, spacings: ArrayLikeSeq, axes, edge_order):
    otype = f.dtype
    if otype.kind in "iu":
        f, otype = numpy_cast(f, np.float64), np.dtype(np.float64)
    elif otype.kind == "b" and (edge_order == 1 or any(jnp.ndim(d) == 0 for d in spacings)):
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the "
                        "bitwise_xor, the `^` operator, or the logical_xor function instead.")
    elif otype.kind == "b":
        f, otype = numpy_cast(f, np.float64), np.dtype(np.float64)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    outs = []
    for ax, d in zip(axes, spacings):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        d = jnp.asarray(d)
        if d.ndim == 1:
            if d.shape[0] != f.shape[ax]:
                raise ValueError("when 1d, distances must match the length of the corresponding "
                                 "dimension")
            if d.dtype.kind in "iub":
                d = numpy_cast(d, np.float64)
            d = jnp.diff(d)
        elif d.ndim != 0:
            raise ValueError("distances must be either scalars or 1d")
        outs.append(_grad_axis(f, d, ax, edge_order, otype))
    return outs[0] if len(outs) == 1 else tuple(outs)


@np_doc(np.gradient)
def gradient(f, *varargs, axis=None, edge_order=1):
    f = asarray(f)
    axes = (tuple(range(f.ndim)) if axis is None else
            tuple(normalize_axis(operator_index(a), f.ndim) for a in
                  (axis if isinstance(axis, (tuple, list)) else (axis,))))
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    n = len(varargs)
    if n == 0:
        spacings = [1.0] * len(axes)
    elif n == 1 and np.ndim(varargs[0]) == 0:
        spacings = [varargs[0]] * len(axes)
    elif n == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError("invalid number of arguments")
    return _gradient(f, spacings, axes, operator_index(edge_order))


@normalize
def _diff(a: ArrayLike, n, axis, prepend: typing.Optional[ArrayLike],
          append: typing.Optional[ArrayLike]):
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, a.ndim)
    parts = []
    for extra in (prepend, append):
        if extra is not None:
            if extra.ndim == 0:
                shape = list(a.shape)
                shape[axis] = 1
                extra = jnp.broadcast_to(extra, shape)
            parts.append(extra)
    if prepend is not None or append is not None:
        dt = np.result_type(*[p.dtype for p in [a] + parts])
        seq = ([parts[0]] if prepend is not None else []) + [a] + (
            [parts[-1]] if append is not None else [])
        probe.call(np.concatenate, tuple(probe.like(s) for s in seq), axis)
        a = jnp.concatenate([numpy_cast(s, dt) for s in seq], axis=axis)
    m = a.shape[axis]
    for _ in range(n):
        m = max(m - 1, 0)
        hi = jnp.take(a, jnp.arange(1, m + 1), axis=axis)
        lo = jnp.take(a, jnp.arange(0, m), axis=axis)
        a = (hi != lo) if a.dtype.kind == "b" else (hi - lo)
    return a


@np_doc(np.diff)
def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    return _diff(a, operator_index(n), axis, None if prepend is _NoValue else prepend,
                 None if append is _NoValue else append)


@np_doc(np.ediff1d)
@normalize
def ediff1d(ary: ArrayLike, to_end: typing.Optional[ArrayLike] = None,
            to_begin: typing.Optional[ArrayLike] = None):
    probe.call(np.ediff1d, probe.Spec((2,), ary.dtype),
               None if to_end is None else probe.like(to_end),
               None if to_begin is None else probe.like(to_begin))
    a = ary.ravel()
    d = numpy_cast(a[1:] - a[:-1], ary.dtype)
    parts = [numpy_cast(p.ravel(), ary.dtype) for p in (to_begin,) if p is not None]
    parts += [d] + [numpy_cast(p.ravel(), ary.dtype) for p in (to_end,) if p is not None]
    return jnp.concatenate(parts)


@np_doc(np.trapezoid)
@normalize
def trapezoid(y: ArrayLike, x: typing.Optional[ArrayLike] = None, dx=1.0, axis=-1):
    shape, dt = probe.call(np.trapezoid, probe.like(y), None if x is None else probe.like(x), dx,
                           axis)
    axis = normalize_axis(axis, y.ndim)
    m = y.shape[axis]
    hi = jnp.take(y, jnp.arange(1, m), axis=axis)
    lo = jnp.take(y, jnp.arange(0, max(m - 1, 0)), axis=axis)
    s = (hi | lo) if y.dtype.kind == "b" else hi + lo
    if x is None:
        d = dx
    elif x.ndim == 1:
        d = _diff.__wrapped__(x, 1, 0, None, None)
        d = d.reshape([-1 if k == axis else 1 for k in range(y.ndim)])
    else:
        d = _diff.__wrapped__(x, 1, axis, None, None)
    if not isinstance(d, float):
        pt = np.result_type(d.dtype, s.dtype)
        d, s = numpy_cast(d, pt), numpy_cast(s, pt)
        s = (d & s) if pt.kind == "b" else d * s
        d = 1
    return jnp.sum(numpy_cast(d * numpy_cast(s, dt), dt) / 2.0, axis=axis, dtype=dt).reshape(shape)


def _bound_spec(v):
    if v is None or type(v) in (bool, int, float, complex):
        return v
    return probe.like(to_jax(v))


def _unit_bound(v):
    b = _bound_spec(v)
    return probe.unit(b) if isinstance(b, probe.Spec) else b


@normalize
def _clip(a: ArrayLike, lo: typing.Optional[ArrayOrScalar], hi: typing.Optional[ArrayOrScalar],
          dt):
    # NumPy's clip loops. Real: x is kept unless strictly past a bound (clip(-0.0, 0.0) is
    # -0.0) and a NaN bound makes the result NaN. Complex, in the lexicographic order of
    # jnp.less (tnp.less's implementation): a NaN x is kept, otherwise x only when strictly
    # inside (a tie takes the bound, a NaN bound wins).
    r = numpy_cast(a, dt)
    for bound, below in ((lo, True), (hi, False)):
        if bound is None:
            continue
        b = jnp.asarray(bound, dt) if not hasattr(bound, "dtype") else numpy_cast(bound, dt)
        if dt.kind == "c":
            r = jnp.where(jnp.isnan(r) | (jnp.less(b, r) if below else jnp.less(r, b)), r, b)
            continue
        r = jnp.where(jnp.less(r, b) if below else jnp.less(b, r), b, r)
        if dt.kind == "f":
            r = jnp.where(jnp.isnan(b), b, r)
    return r


def _check_out_type(func, out, *args):
    """NumPy's TypeError for an ``out`` that is no array, from ``func`` on a placeholder."""
    if out is not None and not isinstance(out, (ndarray, np.ndarray)):
        func(np.zeros(1), *args, out=out)
        raise TypeError("output must be an array")


@np_doc(np.clip)
def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue, **kwargs):
    # NumPy's own errors for the combination of bounds given (a placeholder call: each given
    # bound stands in as 0)
    probe.call(np.clip, probe.Spec((0,), np.float64),
               *(_NoValue if v is _NoValue else 0 for v in (a_min, a_max)),
               **{k: 0 for k, v in (("min", min), ("max", max)) if v is not _NoValue})
    if a_min is _NoValue and a_max is _NoValue:
        a_min, a_max = min, max
    lo = None if a_min is _NoValue else a_min
    hi = None if a_max is _NoValue else a_max
    x = asarray(a)
    bad = set(kwargs) - {"dtype", "casting"}
    if bad:
        raise TypeError(f"tnp.clip: keyword {sorted(bad)[0]!r} is not supported")
    kw = {k: np.dtype(v) if k == "dtype" else v for k, v in kwargs.items()}
    _check_out_type(np.clip, out, 0, 1)
    shape, dt = probe.call(np.clip, probe.like(x), _bound_spec(lo), _bound_spec(hi), **kw)
    if out is not None:
        probe.call(np.clip, probe.unit(x), _unit_bound(lo), _unit_bound(hi),
                   out=probe.Out((1,) * out.ndim, out.dtype), **kw)
    if dt.kind in "iu":  # NumPy 2 clips by out-of-range Python ints as by the dtype's limits
        info = np.iinfo(dt)
        lo, hi = (builtins.min(builtins.max(b, int(info.min)), int(info.max))
                  if type(b) is int else b for b in (lo, hi))
    r = _clip(x, lo, hi, dt)
    if out is None:
        return r
    write.assign(out, r, readonly="output array is read-only")
    return out


@normalize
def _round(a: ArrayLike, f: ArrayLike, decimals, dt):
    if dt.kind == "c":
        return jax.lax.complex(_round_real(a.real, f, decimals, a.real.dtype),
                               _round_real(a.imag, f, decimals, a.real.dtype))
    return _round_real(a, f, decimals, dt)


def _round_real(a, f, decimals, dt):
    """NumPy's steps: multiply (divide) by 10**|decimals|, rint, divide (multiply) back (the
    division rounded as NumPy's: ``division``)."""
    if a.dtype.kind in "iu":
        if decimals >= 0:
            return numpy_cast(a, dt)
        wide = np.dtype(np.uint64 if dt.kind == "u" else np.int64)
        return numpy_cast(numpy_cast(jnp.rint(division.true_divide(numpy_cast(a, np.float64), f)) * f, wide), dt)
    a, f = numpy_cast(a, dt), numpy_cast(f, dt)
    if decimals >= 0:
        return division.true_divide(jnp.rint(a * f), f)
    return jnp.rint(division.true_divide(a, f)) * f


@np_doc(np.round)
def round(a, decimals=0, out=None):
    x = asarray(a)
    decimals = operator_index(decimals)
    _check_out_type(np.round, out)
    dt = probe.dtype_of(np.round, probe.unit(x), decimals,
                        None if out is None else probe.Out((1,) * out.ndim, out.dtype))
    r = _round(x, np.float64(10.0 ** abs(decimals)), decimals,
               dt if out is None else np.dtype(x.dtype) if x.dtype.kind != "b" else dt)
    if out is None:
        return r
    write.assign(out, r, readonly="output array is read-only")
    return out


@np_doc(np.around)
def around(a, decimals=0, out=None):
    return round(a, decimals, out)


@np_doc(np.fix)
@normalize
def fix(x: ArrayLike, out: OutArray = None):
    dt = probe.dtype_of(np.fix, probe.unit(x))
    return numpy_cast(jnp.trunc(x), dt) if x.dtype.kind in "fc" else numpy_cast(x, dt)


@normalize
def _nan_to_num(x: ArrayLike, nan, posinf, neginf):
    if x.dtype.kind not in "fc":
        return x
    rt = np.dtype({"F": "f", "D": "d"}.get(x.dtype.char, x.dtype.char))
    info = np.finfo(rt)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf

    def fix_part(v):  # the masks are the input's (a nan=inf is not then made posinf)
        isnan, isposinf, isneginf = jnp.isnan(v), jnp.isposinf(v), jnp.isneginf(v)
        v = jnp.where(isnan, numpy_cast(jnp.asarray(nan), rt), v)
        v = jnp.where(isposinf, numpy_cast(jnp.asarray(big), rt), v)
        return jnp.where(isneginf, numpy_cast(jnp.asarray(small), rt), v)
    if x.dtype.kind == "c":
        return jax_complex(fix_part(x.real), fix_part(x.imag), x.dtype)
    return fix_part(x)


def jax_complex(re, im, dt):
    """``re + 1j*im`` of dtype ``dt``, keeping the signs of zero parts."""
    part = np.dtype({"F": "f", "D": "d"}[np.dtype(dt).char])
    return jax.lax.complex(numpy_cast(re, part), numpy_cast(im, part))


@np_doc(np.nan_to_num)
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    arr = x if isinstance(x, ndarray) else asarray(x)
    r = _nan_to_num(arr, nan, posinf, neginf)
    if copy or not isinstance(x, ndarray):
        return r
    write.assign(x, r)
    return x


@normalize
def _unwrap(p: ArrayLike, discont, axis, period):
    axis = normalize_axis(axis, p.ndim)
    n = p.shape[axis]
    dd = _diff.__wrapped__(p, 1, axis, None, None)
    if discont is None:
        discont = period / 2
    from .._core.rules.dtypes import result_type
    dtype = result_type(np.dtype(dd.dtype), period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        interval_high = period / 2
        ambiguous = True
    interval_low = -interval_high
    ddc = numpy_cast(dd, dtype)
    ddmod = jnp.mod(ddc - jnp.asarray(interval_low, dtype), jnp.asarray(period, dtype)) + \
        jnp.asarray(interval_low, dtype)
    if ambiguous:
        ddmod = jnp.where((ddmod == interval_low) & (dd > 0), jnp.asarray(interval_high, dtype),
                          ddmod)
    ph = ddmod - ddc
    ph = jnp.where(jnp.abs(dd) < discont, jnp.zeros((), dtype), ph)
    cs = jnp.cumsum(ph, axis=axis, dtype=dtype)
    head = numpy_cast(jnp.take(p, jnp.arange(0, min(1, n)), axis=axis), dtype)
    tail = numpy_cast(jnp.take(p, jnp.arange(1, n), axis=axis), dtype) + cs
    return jnp.concatenate([head, numpy_cast(tail, dtype)], axis=axis)


@np_doc(np.unwrap)
def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    x = asarray(p)
    if x.ndim == 0:
        probe.call(np.unwrap, probe.like(to_jax(x)), discont, axis, period=period)
    return _unwrap(x, discont, operator_index(axis), period)


@np_doc(np.sinc)
@normalize
def sinc(x: ArrayLike):
    dt = probe.dtype_of(np.sinc, probe.unit(x))
    x = jnp.asarray(np.pi, dt) * numpy_cast(x, dt)
    eps = np.finfo(dt).eps if dt.kind == "f" else 1e-20
    y = jnp.where(x != 0, x, jnp.asarray(eps, dt))
    return numpy_cast(jnp.sin(y) / y, dt)


@np_doc(np.i0)
@normalize
def i0(x: ArrayLike):
    dt = probe.dtype_of(np.i0, probe.unit(x))
    return numpy_cast(jnp.i0(jnp.abs(numpy_cast(x, np.float64))), dt)


@np_doc(np.angle)
@normalize
def angle(z: ArrayLike, deg=False):
    dt = probe.dtype_of(np.angle, probe.unit(z), deg)
    ct = np.dtype(np.float32) if dt == np.float16 else dt
    if z.dtype.kind == "c":
        a = jnp.arctan2(numpy_cast(z.imag, ct), numpy_cast(z.real, ct))
    else:
        a = jnp.arctan2(jnp.zeros((), ct), numpy_cast(z, ct))
    if deg:
        a = numpy_cast(a, dt) * jnp.asarray(180 / np.pi, dt)
    return numpy_cast(a, dt)


@np_doc(np.real)
def real(val):
    try:
        return val.real
    except AttributeError:
        return asarray(val).real


@np_doc(np.imag)
def imag(val):
    try:
        return val.imag
    except AttributeError:
        return asarray(val).imag
