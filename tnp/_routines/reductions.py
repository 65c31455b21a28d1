"""Sums, products, extrema, means and variances, arg-extrema, cumulative forms, count_nonzero.

``sum``/``prod``/``min``/``max`` and the cumulative forms are NumPy's ``add``/``multiply``/
``maximum``/``minimum`` reductions and accumulations: they run on the one engine of
``tnp.ufunc.reduce``/``accumulate``, whose result dtype and errors come from NumPy (the named
function run by the one probe on a placeholder); ``mean`` and ``var`` accumulate with that
engine's reduction body. Never JAX's defaults.
"""
import math
import warnings
from typing import Optional

from .._core.engine.jaxload import jnp, Tracer
import numpy as np

from .._core.engine import lazy
from .._core.array import masked
from .._core.rules import probe
from .._core.numerics.casting import numpy_cast
from .._core.numerics.division import true_divide
from .._core.numerics.fperr import emit
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import (ArrayLike, OutArray, hashable, normalize, normalize_axes,
                                        single_out, where_mask)
from .._core.dispatch.np_doc import np_doc
from .._core.ufunc import reduce_body
from .creation import asarray
from .._ufuncs.table import add, maximum, minimum, multiply

__all__ = ["sum", "prod", "mean", "std", "var", "min", "max", "amin", "amax", "ptp", "argmin",
           "argmax", "cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "count_nonzero"]

_NoValue = np._NoValue


def probe_dtype(name, a, **kw):
    """The dtype of ``numpy.<name>`` on a small placeholder like ``a`` (NumPy's exception where
    NumPy raises); keyword arguments left at ``_NoValue`` are not passed, a ``where`` array is
    given as its spec."""
    kw = {k: hashable(v) for k, v in kw.items() if v is not _NoValue}
    where = kw.pop("where", None)
    if where is not None:
        w = probe.Spec(np.shape(where), np.bool_)
        try:
            fits = np.broadcast_shapes(w.shape, a.shape) == tuple(a.shape)
        except ValueError:
            fits = False
        if not fits:  # small shapes can hide the mismatch: NumPy's error on the real shapes
            probe.call(getattr(np, name), probe.like(a), where=w, **kw)
        kw["where"] = probe.small(w)
    return probe.dtype_of(getattr(np, name), probe.small(a), **kw)


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


def _warn_few(a, where, axes, ddof, message):
    """NumPy's RuntimeWarning from ``mean`` ("Mean of empty slice") and ``var``/``std``
    ("Degrees of freedom <= 0 for slice"): some slice has at most ``ddof`` elements (a sync
    where ``where`` is given; none under a JAX trace)."""
    if where is None:
        few = count(a.shape, None, axes, False) <= ddof
    else:
        few = jnp.any(count(a.shape, where_mask(where), axes, False) <= ddof)
        if isinstance(few, Tracer):
            return
    if few:
        warnings.warn(message, RuntimeWarning, stacklevel=4)


def zero_count_divides(a, where, axes, keepdims, ddof=0, var=False):
    """NumPy's floating-point errors of ``mean``'s (``var``'s) divisions by a count of zero,
    known from the shapes (``where`` not given): ``mean`` divides a zero sum by 0; ``var``
    divides its mean's sum so, then the squared deviations, zero for at most one element, by
    ``max(n - ddof, 0)``. 'invalid' in "divide" for an array, "scalar divide" for a 0-d
    result, in the error state (``fperr.emit``: 'raise' raises). A var of more elements than
    one by zero, whose category depends on the values, is not reported."""
    if where is not None:
        return
    n = count(a.shape, None, axes, False)
    if math.prod(a.shape[i] for i in range(a.ndim) if i not in axes) == 0:
        return  # no result element: nothing divided
    last = "divide" if keepdims or len(axes) < a.ndim else "scalar divide"
    if var and n == 0:
        emit("divide", _INVALID)
    if n == 0 or (var and n <= 1 and n <= ddof):
        emit(last, _INVALID)


_INVALID = (False, False, False, True)


def checked_out(out, a, axes, keep, numpy_fn=np.add.reduce, **kw):
    """``out`` after NumPy's check that it has exactly the shape of a reduction of ``a`` over
    ``axes``: where it has not, NumPy's ``numpy_fn(a, out=out, **kw)`` (by default the
    ``add.reduce`` that NumPy's mean and var run) raises its own error on placeholders."""
    out = single_out(out, "output must be an array" if numpy_fn in (np.argmin, np.argmax)
                     else "return arrays must be of ArrayType")
    if out is not None:
        want = tuple(1 if i in axes else n for i, n in enumerate(a.shape)
                     if keep or i not in axes)
        if tuple(out.shape) != want:
            kw = kw or {"axis": axes, "keepdims": keep}
            probe.call(numpy_fn, probe.like(a), out=probe.Out(out.shape, out.dtype), **kw)
            raise ValueError(f"output parameter has the wrong shape: {tuple(out.shape)}, "
                             f"expected {want}")
    return out


def check_cast(rt, out, name="positive"):
    """NumPy's same_kind check of a ufunc result of dtype ``rt`` written into ``out``; raises
    NumPy's own exception (the probe)."""
    if out is not None and not np.can_cast(rt, out.dtype, "same_kind"):
        uf = getattr(np, name)
        probe.call(uf, *(probe.Spec((0,), rt),) * uf.nin, out=probe.Out((0,), out.dtype))


# ---- sum / prod / min / max: the ufunc reduction engine -------------------------------------
def reduction(uf, numpy_fn, a, axis, dtype, out, keepdims, initial, where, method=None):
    """``numpy_fn`` (``np.sum``, ``np.max``, ``np.nansum``, ...) as ``uf.reduce`` runs it; a
    subclass overriding ``method`` (``"sum"``) has it called instead, as NumPy's
    ``_wrapreduction`` does."""
    if type(a) is masked.MaskedValue:  # a bucketed value: its padding masked
        a, where = masked.reduction(a, axis, where, uf is minimum or uf is maximum)
    if type(a) is not ndarray and method is not None and isinstance(a, ndarray) and (
            getattr(type(a), method) is not getattr(ndarray, method)):
        kw = {k: v for k, v in (("keepdims", keepdims), ("initial", initial), ("where", where))
              if v is not _NoValue}
        if dtype is not None:
            kw["dtype"] = dtype
        return getattr(a, method)(axis=axis, out=out, **kw)
    a = a if type(a) is ndarray else asarray(a)
    x = lazy.operand(a) if lazy.recording() else a._value
    kw = {"axis": hashable(axis)}
    if dtype is not None:
        kw["dtype"] = dtype
    if keepdims is not _NoValue:
        kw["keepdims"] = keepdims
    if initial is not _NoValue:
        kw["initial"] = initial.item() if isinstance(initial, (ndarray, np.ndarray)) else initial
    return uf.reduce_resolved(numpy_fn, x, axis, out, bool(_opt(keepdims, False)), initial,
                              True if where is _NoValue else where, kw)


@np_doc(np.sum)
def sum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
        where=_NoValue):
    return reduction(add, np.sum, a, axis, dtype, out, keepdims, initial, where, "sum")


@np_doc(np.prod)
def prod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
         where=_NoValue):
    return reduction(multiply, np.prod, a, axis, dtype, out, keepdims, initial, where, "prod")


# ---- mean / var / std ------------------------------------------------------------------------
def add_reduce(x, axes, dt, keepdims, where=None):
    """``add.reduce`` in ``dt`` inside a kernel: the engine's reduction body."""
    return reduce_body(add, (axes, dt, keepdims, None, False), x, where)


@normalize
def _mean(a: ArrayLike, where: Optional[ArrayLike], axes, keepdims, work, rt,
          out: OutArray = None):
    s = add_reduce(a, axes, work, keepdims, where)
    n = count(a.shape, where, axes, keepdims)
    return numpy_cast(true_divide(s, n), rt)


_plans = {}  # plain mean/var/std calls: (name, shape, dtype, arguments) -> what NumPy decided


def _plan(name, a, axis, dtype, keepdims, **kw):
    """``(rt, axes, keepdims)`` of ``numpy.<name>`` on ``a``: NumPy's result dtype (its error
    where it raises), the reduced axes and ``keepdims`` as a bool. A plain call (no ``where``)
    is cached by ``a``'s shape and dtype and the arguments' keys."""
    where = kw.get("where", _NoValue)
    try:  # each argument with its type (0, 0.0 and False are equal keys, not equal to NumPy)
        key = None if where is not _NoValue else (
            name, a.shape, a.dtype, probe.key(axis) if type(axis) is tuple else axis,
            type(axis), dtype, keepdims,
            tuple([(v, type(v)) for v in kw.values()]))
        plan = _plans.get(key)
    except TypeError:  # unhashable arguments: decided every time
        key = plan = None
    if plan is None:
        rt = probe_dtype(name, a, axis=axis, dtype=dtype, keepdims=keepdims, **kw)
        plan = rt, _axes(axis, a.ndim), bool(_opt(keepdims, False))
        if key is not None:
            if len(_plans) >= probe.CACHE_SIZE:
                _plans.clear()
            _plans[key] = plan
    return plan


@np_doc(np.mean)
def mean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    if type(a) is masked.MaskedValue:  # a bucketed value: its padding masked
        a, where = masked.reduction(a, axis, where)
    a = a if type(a) is ndarray else asarray(a)
    rt, axes, kd = _plan("mean", a, axis, dtype, keepdims, where=where)
    _warn_few(a, _where(where), axes, 0, "Mean of empty slice")
    zero_count_divides(a, _where(where), axes, kd)
    return _mean(a, _where(where), axes, kd, accum_dtype(a.dtype, dtype), rt,
                 checked_out(out, a, axes, kd))


def var_body(a, where, axes, keepdims, ddof, m, work):
    """Variance of ``a`` over ``axes`` accumulated in ``work``: NumPy's two-pass formula (the
    deviations are taken from ``a`` itself, so a complex ``a`` keeps its imaginary part)."""
    if where is not None:
        where = jnp.broadcast_to(where, a.shape)
    n = count(a.shape, where, axes, True)
    if m is None:
        m = numpy_cast(true_divide(add_reduce(a, axes, work, True, where), n), work)
    dt = np.result_type(a.dtype, m.dtype)
    d = numpy_cast(a, dt) - numpy_cast(m, dt)
    sq = (d * jnp.conj(d)).real if dt.kind == "c" else d * d
    sw = np.dtype(work.char.lower()) if work.kind == "c" else work
    s = add_reduce(sq, axes, sw, keepdims, where)
    if not keepdims and not isinstance(n, int):
        n = n.reshape(s.shape)
    return true_divide(s, jnp.maximum(n - ddof, 0))


@normalize
def _var(a: ArrayLike, where: Optional[ArrayLike], m: Optional[ArrayLike], axes, keepdims, ddof,
         work, rt, sqrt, out: OutArray = None):
    r = numpy_cast(var_body(a, where, axes, keepdims, ddof, m, work), rt)
    return jnp.sqrt(r) if sqrt else r


def _var_like(name, a, axis, dtype, out, ddof, keepdims, where, mean, correction):
    a = asarray(a)
    rt, axes, kd = _plan(name, a, axis, dtype, keepdims, ddof=ddof, where=where,
                         correction=correction)
    if correction is not _NoValue:
        ddof = correction
    m = None if mean is _NoValue else mean
    check_cast(rt, out, "sqrt" if name == "std" else "add")
    _warn_few(a, _where(where), axes, ddof, "Degrees of freedom <= 0 for slice")
    zero_count_divides(a, _where(where), axes, kd, ddof, True)
    return _var(a, _where(where), m, axes, kd, ddof, accum_dtype(a.dtype, dtype), rt,
                name == "std", checked_out(out, a, axes, kd))


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
    return x.reshape(x.shape[:len(rest)] + (math.prod(x.shape[len(rest):]),))


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


@np_doc(np.min)
def min(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduction(minimum, np.min, a, axis, None, out, keepdims, initial, where, "min")


@np_doc(np.max)
def max(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduction(maximum, np.max, a, axis, None, out, keepdims, initial, where, "max")


@np_doc(np.amin)
def amin(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduction(minimum, np.amin, a, axis, None, out, keepdims, initial, where, "min")


@np_doc(np.amax)
def amax(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    return reduction(maximum, np.amax, a, axis, None, out, keepdims, initial, where, "max")


@normalize
def _ptp(a: ArrayLike, axes, keepdims, out: OutArray = None):
    static = (axes, a.dtype, keepdims, None, False)
    return reduce_body(maximum, static, a, None) - reduce_body(minimum, static, a, None)


@np_doc(np.ptp)
def ptp(a, axis=None, out=None, keepdims=_NoValue):
    a = asarray(a)
    probe_dtype("ptp", a, axis=axis, keepdims=keepdims)
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    if out is not None and not np.can_cast(a.dtype, out.dtype, "same_kind"):
        max(a, axis, out=out, keepdims=keepdims)  # NumPy has written the maximum when it fails
        check_cast(a.dtype, out, "subtract")
    return _ptp(a, axes, kd, checked_out(out, a, axes, kd, np.maximum.reduce))


# ---- argmin / argmax -------------------------------------------------------------------------
@normalize
def _arg(a: ArrayLike, axis, keepdims, op, out: OutArray = None):
    nd = a.ndim
    x = a.reshape(-1) if axis is None else jnp.moveaxis(a, axis, -1)
    if x.dtype.kind == "c":
        r = lex_arg(x, op)
    else:
        r = (jnp.argmax if op == "max" else jnp.argmin)(x, axis=-1)
    r = numpy_cast(r, np.intp)
    if keepdims:
        r = r.reshape((1,) * nd) if axis is None else jnp.expand_dims(r, axis)
    return r


def _arg_like(op, a, axis, out, keepdims):
    a = asarray(a)
    probe_dtype("arg" + op, a, axis=axis, keepdims=keepdims)
    ax = None if axis is None else _axes(axis, a.ndim)[0]
    kd = bool(_opt(keepdims, False))
    axes = tuple(range(a.ndim)) if ax is None else (ax,)
    out = checked_out(out, a, axes, kd, getattr(np, "arg" + op), axis=ax, keepdims=kd)
    if out is not None and out.dtype != np.intp:
        probe.call(np.ndarray.astype, probe.Spec((0,), out.dtype), np.intp,
                   casting="safe")  # NumPy's TypeError
    return _arg(a, ax, kd, op, out)


@np_doc(np.argmin)
def argmin(a, axis=None, out=None, *, keepdims=_NoValue):
    return _arg_like("min", a, axis, out, keepdims)


@np_doc(np.argmax)
def argmax(a, axis=None, out=None, *, keepdims=_NoValue):
    return _arg_like("max", a, axis, out, keepdims)


# ---- cumulative: the ufunc accumulation engine --------------------------------------------
def accumulation(uf, numpy_fn, a, axis, dtype, out, **kw):
    """``numpy_fn`` (``np.cumsum``, ``np.cumulative_prod``, ...) as ``uf.accumulate`` runs it."""
    x = asarray(a)._value
    kw = dict(kw, axis=axis, dtype=dtype)
    if axis is None and x.ndim == 1:
        axis = 0
    return uf.accumulate_resolved(numpy_fn, x, axis, out, kw,
                                  bool(kw.get("include_initial", False)), "output must be an array")


@np_doc(np.cumsum)
def cumsum(a, axis=None, dtype=None, out=None):
    return accumulation(add, np.cumsum, a, axis, dtype, out)


@np_doc(np.cumprod)
def cumprod(a, axis=None, dtype=None, out=None):
    return accumulation(multiply, np.cumprod, a, axis, dtype, out)


@np_doc(np.cumulative_sum)
def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return accumulation(add, np.cumulative_sum, x, axis, dtype, out,
                        include_initial=include_initial)


@np_doc(np.cumulative_prod)
def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return accumulation(multiply, np.cumulative_prod, x, axis, dtype, out,
                        include_initial=include_initial)


# ---- count_nonzero ---------------------------------------------------------------------------
@normalize
def _count_nonzero(a: ArrayLike, axes, keepdims):
    return jnp.sum(a != 0, axis=axes, keepdims=keepdims, dtype=np.intp)


@np_doc(np.count_nonzero)
def count_nonzero(a, axis=None, *, keepdims=False):
    a = asarray(a)
    probe_dtype("count_nonzero", a, axis=axis, keepdims=keepdims)
    return _count_nonzero(a, _axes(axis, a.ndim), bool(keepdims))
