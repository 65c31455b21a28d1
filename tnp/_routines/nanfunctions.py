"""The nan-functions: reductions, arg-extrema, cumulative forms and order statistics that skip
NaNs.

NumPy's all-NaN ``RuntimeWarning``s need to know whether a slice is all NaN: eagerly tnp reads
that one flag from the device (a sync point, on float inputs only); under tracing no warning is
given. ``nanargmin``/``nanargmax`` must raise ``ValueError`` on an all-NaN slice, which needs the
same flag (under tracing they return the index NumPy's argmin would give instead).
"""
import warnings
from typing import Optional

from .._core.engine.jaxload import jnp
import numpy as np

from .._core.dispatch.normalize import ArrayLike, OutArray, normalize
from .._core.rules import probe
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.np_doc import np_doc
from .._core.ufunc import reduce_body
from . import reductions as red
from .creation import asarray
from .reductions import _NoValue, _axes, _opt, _where, add_reduce, checked_out, probe_dtype
from .._ufuncs.table import add, maximum, minimum, multiply
from .statistics import _is_tracer, check_weights, median_front, probe_quantile, quantile_front

__all__ = ["nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmin", "nanmax", "nanargmin",
           "nanargmax", "nancumsum", "nancumprod", "nanmedian", "nanpercentile", "nanquantile"]


def _inexact(a):
    return a.dtype.kind in "fc"


def _nan_mask(x):
    return jnp.isnan(x) if x.dtype.kind in "fc" else jnp.zeros(x.shape, bool)


@normalize
def _all_nan(a: ArrayLike, axes):
    return jnp.any(jnp.all(_nan_mask(a), axis=axes)) if a.size else jnp.asarray(False)


def _warn_if(cond_fn, msg, stacklevel=3):
    """Warn like NumPy when ``cond_fn()`` (a device flag) is True; skipped under tracing."""
    flag = cond_fn()
    if not _is_tracer(flag) and bool(flag):
        warnings.warn(msg, RuntimeWarning, stacklevel=stacklevel)


def _replaced(a, value):
    return jnp.where(_nan_mask(a), jnp.asarray(value, a.dtype), a)


# ---- nansum / nanprod ------------------------------------------------------------------------
def _nansum_like(op, a, axis, dtype, out, keepdims, initial, where):
    a = asarray(a)
    uf, np_fn = (add, np.nansum) if op == "sum" else (multiply, np.nanprod)
    x = _fill_nan(a, 0 if op == "sum" else 1) if _inexact(a) else a
    return red.reduction(uf, np_fn, x, axis, dtype, out, keepdims, initial, where)


@np_doc(np.nansum)
def nansum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
           where=_NoValue):
    return _nansum_like("sum", a, axis, dtype, out, keepdims, initial, where)


@np_doc(np.nanprod)
def nanprod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
            where=_NoValue):
    return _nansum_like("prod", a, axis, dtype, out, keepdims, initial, where)


# ---- nanmean / nanvar / nanstd ---------------------------------------------------------------
def _valid(a, where):
    v = ~_nan_mask(a)
    return v if where is None else v & jnp.broadcast_to(where, a.shape)


@normalize
def _nanmean(a: ArrayLike, where: Optional[ArrayLike], axes, keepdims, dtype, rt,
             out: OutArray = None):
    v = _valid(a, where)
    x = jnp.where(v, a, jnp.zeros((), a.dtype))
    tot = add_reduce(x, axes, dtype, keepdims)
    cnt = jnp.sum(v, axis=axes, keepdims=keepdims, dtype=np.intp)
    return numpy_cast(tot / cnt, rt)


@normalize
def _empty_slices(a: ArrayLike, where: Optional[ArrayLike], axes, ddof):
    return jnp.any(jnp.sum(_valid(a, where), axis=axes) - ddof <= 0)


@np_doc(np.nanmean)
def nanmean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    a = asarray(a)
    if not _inexact(a):
        return red.mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    rt = probe_dtype("nanmean", a, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    axes = _axes(axis, a.ndim)
    _warn_if(lambda: _empty_slices(a, _where(where), axes, 0), "Mean of empty slice")
    kd = bool(_opt(keepdims, False))
    out = checked_out(out, a, axes, kd)
    if out is not None:  # NumPy's errors for out's dtype (an inexact `a` needs an inexact out)
        small = probe.small(a)
        probe.call(np.nanmean, small, axis=axes, keepdims=kd, out=probe.Out(tuple(
            1 if i in axes else n for i, n in enumerate(small.shape) if kd or i not in axes),
            out.dtype))
    return _nanmean(a, _where(where), axes, kd, rt if dtype is None else np.dtype(dtype), rt, out)


@normalize
def _nanvar(a: ArrayLike, where: Optional[ArrayLike], m: Optional[ArrayLike], axes, keepdims,
            ddof, dtype, rt, sqrt, out: OutArray = None):
    v = _valid(a, where)
    work = a.dtype if dtype is None else dtype
    x = jnp.where(v, a, jnp.zeros((), a.dtype))
    cnt = jnp.sum(v, axis=axes, keepdims=True, dtype=np.intp)
    if m is None:
        m = add_reduce(x, axes, work, True) / cnt
    d = x - numpy_cast(m, a.dtype)
    sq = (d * jnp.conj(d)).real if d.dtype.kind == "c" else d * d
    sq = jnp.where(v, sq, jnp.zeros((), sq.dtype))
    sw = np.dtype(work.char.lower()) if work.kind == "c" else work
    s = add_reduce(sq, axes, sw, keepdims)
    dof = cnt - ddof
    if not keepdims:
        dof = dof.reshape(s.shape)
    r = jnp.where(dof <= 0, jnp.asarray(np.nan, s.dtype), s / jnp.where(dof <= 0, 1, dof))
    r = numpy_cast(r, rt)
    return jnp.sqrt(r) if sqrt else r


def _nanvar_like(name, a, axis, dtype, out, ddof, keepdims, where, mean, correction):
    a = asarray(a)
    if not _inexact(a):
        return getattr(red, name[3:])(a, axis=axis, dtype=dtype, out=out, ddof=ddof,
                                      keepdims=keepdims, where=where, mean=mean,
                                      correction=correction)
    rt = probe_dtype(name, a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims,
                     where=where, correction=correction)
    if correction is not _NoValue:
        ddof = correction
    axes = _axes(axis, a.ndim)
    _warn_if(lambda: _empty_slices(a, _where(where), axes, ddof),
             "Degrees of freedom <= 0 for slice.")
    m = None if mean is _NoValue else mean
    kd = bool(_opt(keepdims, False))
    if out is not None:  # NumPy's check of out's dtype (its own TypeError)
        probe.call(getattr(np, name), probe.Spec((1,), a.dtype), out=probe.Out((), out.dtype))
    return _nanvar(a, _where(where), m, axes, kd, ddof, None if dtype is None else np.dtype(dtype),
                   rt, name == "nanstd", checked_out(out, a, axes, kd))


@np_doc(np.nanvar)
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
           mean=_NoValue, correction=_NoValue):
    return _nanvar_like("nanvar", a, axis, dtype, out, ddof, keepdims, where, mean, correction)


@np_doc(np.nanstd)
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
           mean=_NoValue, correction=_NoValue):
    return _nanvar_like("nanstd", a, axis, dtype, out, ddof, keepdims, where, mean, correction)


# ---- nanmin / nanmax -------------------------------------------------------------------------
@normalize
def _nanextreme(a: ArrayLike, where: Optional[ArrayLike], axes, keepdims, initial, op,
                out: OutArray = None):
    nan = _nan_mask(a)
    fill = jnp.inf if op == "min" else -jnp.inf
    x = jnp.where(nan, jnp.asarray(fill, a.dtype), a)
    uf = minimum if op == "min" else maximum
    r = reduce_body(uf, (axes, a.dtype, keepdims, initial, initial is not None), x, where)
    valid = ~nan if where is None else ~nan & jnp.broadcast_to(where, a.shape)
    none = ~jnp.any(valid, axis=axes, keepdims=keepdims)
    if initial is not None:
        return r
    return jnp.where(none, jnp.asarray(np.nan, a.dtype), r)


def _nanextreme_like(op, a, axis, out, keepdims, initial, where):
    a = asarray(a)
    if not _inexact(a):
        return getattr(red, op)(a, axis, out=out, keepdims=keepdims, initial=initial, where=where)
    probe_dtype("nan" + op, a, axis=axis, keepdims=keepdims, initial=initial, where=where)
    axes = _axes(axis, a.ndim)
    if initial is _NoValue:
        _warn_if(lambda: _all_nan(a, axes), "All-NaN slice encountered", 4)
    kd = bool(_opt(keepdims, False))
    return _nanextreme(a, _where(where), axes, kd, _opt(initial, None), op,
                       checked_out(out, a, axes, kd, getattr(np, "f" + op).reduce))


@np_doc(np.nanmin)
def nanmin(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return _nanextreme_like("min", a, axis, out, keepdims, initial, where)


@np_doc(np.nanmax)
def nanmax(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return _nanextreme_like("max", a, axis, out, keepdims, initial, where)


# ---- nanargmin / nanargmax -------------------------------------------------------------------
def _nanarg_like(op, a, axis, out, keepdims):
    a = asarray(a)
    if _inexact(a):
        probe_dtype("nanarg" + op, a, axis=axis, keepdims=keepdims)
        axes = None if axis is None else _axes(axis, a.ndim)
        flag = _all_nan(a, axes)
        if not _is_tracer(flag) and bool(flag):
            raise ValueError("All-NaN slice encountered")
        a = asarray(_fill_nan(a, np.inf if op == "min" else -np.inf))
    return red._arg_like(op, a, axis, out, keepdims)


@normalize
def _fill_nan(a: ArrayLike, value):
    if a.dtype.kind == "c":
        return jnp.where(_nan_mask(a), jnp.asarray(complex(value, 0), a.dtype), a)
    return _replaced(a, value)


@np_doc(np.nanargmin)
def nanargmin(a, axis=None, out=None, *, keepdims=_NoValue):
    return _nanarg_like("min", a, axis, out, keepdims)


@np_doc(np.nanargmax)
def nanargmax(a, axis=None, out=None, *, keepdims=_NoValue):
    return _nanarg_like("max", a, axis, out, keepdims)


# ---- nancumsum / nancumprod ------------------------------------------------------------------
@np_doc(np.nancumsum)
def nancumsum(a, axis=None, dtype=None, out=None):
    a = asarray(a)
    probe_dtype("nancumsum", a, axis=axis, dtype=dtype)
    return red.cumsum(_fill_nan(a, 0) if _inexact(a) else a, axis, dtype, out)


@np_doc(np.nancumprod)
def nancumprod(a, axis=None, dtype=None, out=None):
    a = asarray(a)
    probe_dtype("nancumprod", a, axis=axis, dtype=dtype)
    return red.cumprod(_fill_nan(a, 1) if _inexact(a) else a, axis, dtype, out)


# ---- nanmedian / nanpercentile / nanquantile ------------------------------------------------
def _warn_all_nan(a, axis):
    a = asarray(a)
    if _inexact(a) and a.size:
        _warn_if(lambda: _all_nan(a, _axes(axis, a.ndim)), "All-NaN slice encountered", 4)


def _empty(name, a, q, axis, out, keepdims, weights=None, **kw):
    """NumPy's answer for an empty ``a``, once its checks of the arguments have passed: the
    ``nanmean`` of ``a`` ("Mean of empty slice" where a slice is empty; ``q`` adds no axes)."""
    probe_quantile(name, a, q, weights, axis=axis, keepdims=keepdims, **kw)
    if weights is not None:
        check_weights(weights)
    return nanmean(a, axis, out=out, keepdims=keepdims)


@np_doc(np.nanmedian)
def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=_NoValue):
    a = asarray(a)
    if a.size == 0:
        return _empty("nanmedian", a, None, axis, out, keepdims)
    _warn_all_nan(a, axis)
    return median_front("nanmedian", a, axis, out, keepdims, True)


@np_doc(np.nanpercentile)
def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=_NoValue, *, weights=None):
    a = asarray(a)
    if a.size == 0:
        return _empty("nanpercentile", a, q, axis, out, keepdims, weights, method=method)
    _warn_all_nan(a, axis)
    return quantile_front("nanpercentile", a, q, axis, out, method, keepdims, weights, True)


@np_doc(np.nanquantile)
def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=_NoValue, *, weights=None):
    a = asarray(a)
    if a.size == 0:
        return _empty("nanquantile", a, q, axis, out, keepdims, weights, method=method)
    _warn_all_nan(a, axis)
    return quantile_front("nanquantile", a, q, axis, out, method, keepdims, weights, True)
