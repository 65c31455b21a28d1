"""Sums, products, extrema, means and variances, arg-extrema, cumulative forms, count_nonzero.

Result dtypes and argument errors come from NumPy itself, run once (cached) on a tiny placeholder
of the same dtype, rank and emptiness: never from JAX's defaults.
"""
import functools
import warnings
from typing import Optional

import jax.numpy as jnp
from jax import lax
import numpy as np

from .._core.normalize import ArrayLike, OutArray, hashable, normalize, normalize_axes
from .._core.np_doc import np_doc
from .creation import asarray

__all__ = ["sum", "prod", "mean", "std", "var", "min", "max", "amin", "amax", "ptp", "argmin",
           "argmax", "cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "count_nonzero"]

_NoValue = np._NoValue
_WHERE = "<where>"


@functools.lru_cache(maxsize=4096)
def _probe_cached(name, shape, dt, kw):
    ph = np.zeros(tuple(s if s < 2 else 2 for s in shape), dt)
    kwargs = {k: (np.ones(ph.shape, bool) if v is _WHERE else v) for k, v in kw
              if v is not _NoValue}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(getattr(np, name)(ph, **kwargs)).dtype


def probe(name, a, **kw):
    """The dtype of ``numpy.<name>`` on a placeholder like ``a``; raises NumPy's exception."""
    key = tuple(kw.items())
    try:
        return _probe_cached(name, a.shape, a.dtype, key)
    except TypeError:  # an unhashable argument (a list axis): as a tuple
        key = tuple((k, hashable(v)) for k, v in key)
        return _probe_cached(name, a.shape, a.dtype, key)


def _opt(v, default):
    return default if v is _NoValue else v


def _where(where):
    return None if where is _NoValue or where is True else where


def _axes(axis, ndim):
    return normalize_axes(hashable(axis), ndim)


def accum_dtype(dt, dtype):
    """The dtype NumPy's mean/var accumulate in (float64 for ints, float32 for float16)."""
    if dtype is not None:
        return np.dtype(dtype)
    if dt.kind in "biu":
        return np.dtype(np.float64)
    return np.dtype(np.float32) if dt == np.float16 else dt


def count(shape, where, axes, keepdims):
    """Elements per reduced slice (a jax array when ``where`` is given, else a Python int)."""
    if where is None:
        return int(np.prod([shape[i] for i in axes], dtype=np.int64))
    w = jnp.broadcast_to(where, shape)
    return jnp.sum(w, axis=axes, keepdims=keepdims, dtype=np.int64)


def checked_out(out, shape, axes, keepdims, lead=()):
    """``out`` after NumPy's check that it has exactly the reduction's shape (ValueError)."""
    if out is not None:
        want = lead + tuple(1 if i in axes else n for i, n in enumerate(shape)
                            if keepdims or i not in axes)
        if tuple(out.shape) != want:
            raise ValueError(f"output parameter for reduction has the wrong shape: "
                             f"{tuple(out.shape)}, expected {want}")
    return out


def check_cast(rt, out, name="positive"):
    """NumPy's same_kind check of a ufunc result of dtype ``rt`` written into ``out``; raises
    NumPy's own exception (run on empty placeholders)."""
    if out is not None and not np.can_cast(rt, out.dtype, "same_kind"):
        ins = (np.zeros(0, rt),) * getattr(np, name).nin
        getattr(np, name)(*ins, out=np.zeros(0, out.dtype))


# ---- sum / prod -------------------------------------------------------------------------------
@normalize
def _sumprod(a: ArrayLike, where: Optional[ArrayLike], axes, keepdims, dtype, initial, op,
             out: OutArray = None):
    x = a.astype(dtype)
    ident = 0 if op == "sum" else 1
    if where is not None:
        x = jnp.where(where, x, jnp.asarray(ident, dtype))
    f = jnp.sum if op == "sum" else jnp.prod
    r = f(x, axis=axes, keepdims=keepdims, dtype=dtype)
    if initial is not None:
        init = jnp.asarray(initial).astype(dtype)
        r = r + init if op == "sum" else r * init
    return r.astype(dtype)


def _sum_like(op, a, axis, dtype, out, keepdims, initial, where, kernel=None, name=None):
    """The front end of sum/prod and (with nanfunctions' ``kernel`` and ``name``) of
    nansum/nanprod: NumPy's result dtype and errors from a probe, then the kernel."""
    a = asarray(a)
    if dtype is None and out is not None:
        dtype = out.dtype  # NumPy's reduction loop runs in the dtype of ``out``
    rt = probe(name or op, a, axis=hashable(axis), dtype=dtype, keepdims=keepdims,
               initial=initial, where=_WHERE if where is not _NoValue else _NoValue)
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    return (kernel or _sumprod)(a, _where(where), axes, kd, rt, _opt(initial, None), op,
                                checked_out(out, a.shape, axes, kd))


@np_doc(np.sum)
def sum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
        where=_NoValue):
    return _sum_like("sum", a, axis, dtype, out, keepdims, initial, where)


@np_doc(np.prod)
def prod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
         where=_NoValue):
    return _sum_like("prod", a, axis, dtype, out, keepdims, initial, where)


# ---- mean / var / std ------------------------------------------------------------------------
@normalize
def _mean(a: ArrayLike, where: Optional[ArrayLike], axes, keepdims, work, rt,
          out: OutArray = None):
    x = a.astype(work)
    if where is not None:
        x = jnp.where(where, x, jnp.zeros((), work))
    s = jnp.sum(x, axis=axes, keepdims=keepdims, dtype=work)
    n = count(a.shape, where, axes, keepdims)
    return (s / n).astype(rt)


@np_doc(np.mean)
def mean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    a = asarray(a)
    rt = probe("mean", a, axis=hashable(axis), dtype=dtype, keepdims=keepdims,
               where=_WHERE if where is not _NoValue else _NoValue)
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    return _mean(a, _where(where), axes, kd, accum_dtype(a.dtype, dtype), rt,
                 checked_out(out, a.shape, axes, kd))


def var_body(a, where, axes, keepdims, ddof, m, work):
    """Variance of ``a`` over ``axes`` accumulated in ``work``: NumPy's two-pass formula (the
    deviations are taken from ``a`` itself, so a complex ``a`` keeps its imaginary part)."""
    if where is not None:
        where = jnp.broadcast_to(where, a.shape)
    n = count(a.shape, where, axes, True)
    if m is None:
        xs = a.astype(work)
        if where is not None:
            xs = jnp.where(where, xs, jnp.zeros((), work))
        m = (jnp.sum(xs, axis=axes, keepdims=True, dtype=work) / n).astype(work)
    dt = np.result_type(a.dtype, m.dtype)
    d = a.astype(dt) - m.astype(dt)
    sq = (d * jnp.conj(d)).real if dt.kind == "c" else d * d
    if where is not None:
        sq = jnp.where(where, sq, jnp.zeros((), sq.dtype))
    sw = np.dtype(work.char.lower()) if work.kind == "c" else work
    s = jnp.sum(sq.astype(sw), axis=axes, keepdims=keepdims, dtype=sw)
    if not keepdims and not isinstance(n, int):
        n = n.reshape(s.shape)
    return s / jnp.maximum(n - ddof, 0)


@normalize
def _var(a: ArrayLike, where: Optional[ArrayLike], m: Optional[ArrayLike], axes, keepdims, ddof,
         work, rt, sqrt, out: OutArray = None):
    r = var_body(a, where, axes, keepdims, ddof, m, work).astype(rt)
    return jnp.sqrt(r) if sqrt else r


def _var_like(name, a, axis, dtype, out, ddof, keepdims, where, mean, correction):
    a = asarray(a)
    rt = probe(name, a, axis=hashable(axis), dtype=dtype, ddof=ddof, keepdims=keepdims,
               where=_WHERE if where is not _NoValue else _NoValue, correction=correction)
    if correction is not _NoValue:
        ddof = correction
    m = None if mean is _NoValue else mean
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    check_cast(rt, out)
    return _var(a, _where(where), m, axes, kd, ddof, accum_dtype(a.dtype, dtype), rt,
                name == "std", checked_out(out, a.shape, axes, kd))


@np_doc(np.var)
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
        mean=_NoValue, correction=_NoValue):
    return _var_like("var", a, axis, dtype, out, ddof, keepdims, where, mean, correction)


@np_doc(np.std)
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
        mean=_NoValue, correction=_NoValue):
    return _var_like("std", a, axis, dtype, out, ddof, keepdims, where, mean, correction)


# ---- min / max / ptp -------------------------------------------------------------------------
def _lex_last(x, k):
    """Move the reduced axes to the end, flattened into one (shape ``rest + (n,)``)."""
    nd = x.ndim
    rest = [i for i in range(nd) if i not in k]
    x = jnp.transpose(x, rest + list(k))
    return x.reshape(x.shape[:len(rest)] + (-1,))


def lex_arg(x, op):
    """Index of the first lexicographic (real, imag) max/min of complex ``x`` along its last axis,
    NaN first like NumPy."""
    re, im = x.real, x.imag
    nan = jnp.isnan(re) | jnp.isnan(im)
    best_re = (jnp.max if op == "max" else jnp.min)(re, axis=-1, keepdims=True)
    cand = re == best_re
    fill = -jnp.inf if op == "max" else jnp.inf
    best_im = (jnp.max if op == "max" else jnp.min)(jnp.where(cand, im, fill), axis=-1,
                                                     keepdims=True)
    hit = cand & (im == best_im)
    has_nan = jnp.any(nan, axis=-1)
    return jnp.where(has_nan, jnp.argmax(nan, axis=-1), jnp.argmax(hit, axis=-1))


def _complex_extreme(x, axes, keepdims, initial, op):
    flat = _lex_last(x, axes)
    if initial is not None:
        init = jnp.full(flat.shape[:-1] + (1,), initial, x.dtype)
        flat = jnp.concatenate([flat, init], axis=-1)
    idx = lex_arg(flat, op)
    r = jnp.take_along_axis(flat, idx[..., None], axis=-1)[..., 0]
    if keepdims:
        r = jnp.expand_dims(r, axes)
    return r


@normalize
def _extreme(a: ArrayLike, where: Optional[ArrayLike], axes, keepdims, initial, op,
             out: OutArray = None):
    if a.dtype.kind == "c":
        x = a
        if where is not None:
            x = jnp.where(where, x, jnp.asarray(initial, a.dtype))
        return _complex_extreme(x, axes, keepdims, initial, op)
    f = jnp.max if op == "max" else jnp.min
    init = None if initial is None else np.asarray(initial).astype(a.dtype).item()
    if a.dtype == np.bool_:
        r = f(a.astype(np.int8), axis=axes, keepdims=keepdims, where=where,
              initial=None if init is None else int(init))
        return r.astype(np.bool_)
    return f(a, axis=axes, keepdims=keepdims, where=where, initial=init)


def _extreme_like(op, a, axis, out, keepdims, initial, where):
    a = asarray(a)
    probe(op, a, axis=hashable(axis), keepdims=keepdims, initial=initial,
          where=_WHERE if where is not _NoValue else _NoValue)
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    return _extreme(a, _where(where), axes, kd, _opt(initial, None), op,
                    checked_out(out, a.shape, axes, kd))


@np_doc(np.min)
def min(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return _extreme_like("min", a, axis, out, keepdims, initial, where)


@np_doc(np.max)
def max(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return _extreme_like("max", a, axis, out, keepdims, initial, where)


@np_doc(np.amin)
def amin(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return _extreme_like("min", a, axis, out, keepdims, initial, where)


@np_doc(np.amax)
def amax(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return _extreme_like("max", a, axis, out, keepdims, initial, where)


@normalize
def _ptp(a: ArrayLike, axes, keepdims, out: OutArray = None):
    hi = _extreme.__wrapped__(a, None, axes, keepdims, None, "max")
    lo = _extreme.__wrapped__(a, None, axes, keepdims, None, "min")
    return hi - lo


@np_doc(np.ptp)
def ptp(a, axis=None, out=None, keepdims=_NoValue):
    a = asarray(a)
    probe("ptp", a, axis=hashable(axis), keepdims=keepdims)
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    if out is not None and not np.can_cast(a.dtype, out.dtype, "same_kind"):
        max(a, axis, out=out, keepdims=keepdims)  # NumPy has written the maximum when it fails
        check_cast(a.dtype, out, "subtract")
    return _ptp(a, axes, kd, checked_out(out, a.shape, axes, kd))


# ---- argmin / argmax -------------------------------------------------------------------------
@normalize
def _arg(a: ArrayLike, axis, keepdims, op, out: OutArray = None):
    nd = a.ndim
    x = a.reshape(-1) if axis is None else jnp.moveaxis(a, axis, -1)
    if x.dtype.kind == "c":
        r = lex_arg(x, op)
    else:
        r = (jnp.argmax if op == "max" else jnp.argmin)(x, axis=-1)
    r = r.astype(np.intp)
    if keepdims:
        r = r.reshape((1,) * nd) if axis is None else jnp.expand_dims(r, axis)
    return r


def _arg_like(op, a, axis, out, keepdims):
    a = asarray(a)
    probe("arg" + op, a, axis=axis, keepdims=keepdims)
    ax = None if axis is None else _axes(axis, a.ndim)[0]
    kd = bool(_opt(keepdims, False))
    axes = tuple(range(a.ndim)) if ax is None else (ax,)
    out = checked_out(out, a.shape, axes, kd)
    if out is not None and out.dtype != np.intp:
        np.zeros(0, out.dtype).astype(np.intp, casting="safe")  # NumPy's TypeError
    return _arg(a, ax, kd, op, out)


@np_doc(np.argmin)
def argmin(a, axis=None, out=None, *, keepdims=_NoValue):
    return _arg_like("min", a, axis, out, keepdims)


@np_doc(np.argmax)
def argmax(a, axis=None, out=None, *, keepdims=_NoValue):
    return _arg_like("max", a, axis, out, keepdims)


# ---- cumulative ------------------------------------------------------------------------------
def _sequential_cumprod(x, ax):
    """Complex cumprod left to right, so signed zeros come out as NumPy's (a parallel scan
    associates differently)."""
    def step(carry, v):
        c = carry * v
        return c, c
    if x.shape[ax] == 0:
        return x
    xs = jnp.moveaxis(x, ax, 0)
    _, rest = lax.scan(step, xs[0], xs[1:])
    return jnp.moveaxis(jnp.concatenate([xs[:1], rest], axis=0), 0, ax)


@normalize
def _cum(a: ArrayLike, axis, dtype, op, include_initial, out: OutArray = None):
    x = a.reshape(-1) if axis is None else a
    ax = 0 if axis is None else axis
    x = x.astype(dtype)
    if op == "prod" and dtype.kind == "c":
        r = _sequential_cumprod(x, ax)
    else:
        r = (jnp.cumsum if op == "sum" else jnp.cumprod)(x, axis=ax, dtype=dtype)
    if include_initial:
        shape = list(r.shape)
        shape[ax] = 1
        r = jnp.concatenate([jnp.full(shape, 0 if op == "sum" else 1, dtype), r], axis=ax)
    return r


def _cum_like(name, op, a, axis, dtype, out, initial=False, **kw):
    a = asarray(a)
    if dtype is None and out is not None:
        dtype = out.dtype
    rt = probe(name, a, axis=axis, dtype=dtype, **kw)
    ax = None if axis is None else _axes(axis, a.ndim)[0]
    if ax is None and a.ndim == 1:
        ax = 0
    return _cum(a, ax, rt, op, initial, out)


@np_doc(np.cumsum)
def cumsum(a, axis=None, dtype=None, out=None):
    return _cum_like("cumsum", "sum", a, axis, dtype, out)


@np_doc(np.cumprod)
def cumprod(a, axis=None, dtype=None, out=None):
    return _cum_like("cumprod", "prod", a, axis, dtype, out)


@np_doc(np.cumulative_sum)
def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cum_like("cumulative_sum", "sum", x, axis, dtype, out, bool(include_initial),
                     include_initial=include_initial)


@np_doc(np.cumulative_prod)
def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cum_like("cumulative_prod", "prod", x, axis, dtype, out, bool(include_initial),
                     include_initial=include_initial)


# ---- count_nonzero ---------------------------------------------------------------------------
@normalize
def _count_nonzero(a: ArrayLike, axes, keepdims):
    return jnp.sum(a != 0, axis=axes, keepdims=keepdims, dtype=np.intp)


@np_doc(np.count_nonzero)
def count_nonzero(a, axis=None, *, keepdims=False):
    a = asarray(a)
    probe("count_nonzero", a, axis=hashable(axis), keepdims=keepdims)
    return _count_nonzero(a, _axes(axis, a.ndim), bool(keepdims))
