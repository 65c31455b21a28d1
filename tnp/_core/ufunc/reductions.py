"""The reduction engine of tnp's ufuncs: ``reduce``, ``accumulate``, ``reduceat`` and ``at``
(and the routines' fronts that share them: ``sum``, ``cumsum``, ...) outside their kernels.
NumPy decides each call's result dtype and errors on placeholders (``probe``); the kernels run
the bodies of ``reduction_bodies``; ``out=`` is written through the one write path; the
float-error checks that ``errstate`` asks for run after it (``check_fp``). The functions here
take the ufunc as an argument.
"""
import math

from ..engine.jaxload import jnp
import numpy as np

from ..engine import lazy
from ..rules import dtypes, probe
from ..array import write
from ..numerics.fperr import INT_FOLDS, errcheck as _errcheck, reduce_check
from ..numerics.intervals import reduce_rule
from ..array.ndarray import ndarray
from ..numerics.casting import cast
from ..dispatch.normalize import normalize_axes, single_out, to_jax, where_mask
from .loops import (cast_in, check_int_power, fits, is_tracer, operands,
                    python_scalars)

_NO_VALUE = np._NoValue


def reduce_resolved(uf, numpy_fn, x, axis, out, keepdims, initial, where, kw):
    """The one reduction engine (``ufunc.reduce``, ``sum``, ``prod``, ``min``, ``max`` and
    the nan-variants' fronts): NumPy's ``numpy_fn(x, **kw)`` on a placeholder decides the
    result dtype and errors; the reduction runs in that dtype (the one cast converts ``x``).
    A plain call (no ``out``, ``where``, ``initial`` or error state) seen before is one
    lookup of its kernel, keyed by everything NumPy decided from. ``x`` may be a pending
    node (``lazy``): with no ``out`` or error state, the result is pending too."""
    plain = (out is None and where is True and initial is _NO_VALUE
             and _errcheck.modes() is None)
    if plain:
        try:
            key = (numpy_fn, x.shape, x.dtype, probe.key(tuple(kw.items())))
            kern = uf._reduced.get(key)
        except TypeError:  # unhashable arguments: resolved every time
            plain = False
        else:
            if kern is not None:
                return _plain_reduce(*kern, x)
    out = single_out(out)
    res = probe.call(numpy_fn, probe.small(x), **kw)  # NumPy's errors for the arguments
    if x.ndim == 0 and axis is not None and not isinstance(axis, tuple):
        axis = ()  # NumPy takes axis 0 (or -1) of a 0-d array (the probe refused others)
    axes = normalize_axes(axis, x.ndim)
    want = tuple(1 if i in axes else n for i, n in enumerate(x.shape)
                 if keepdims or i not in axes)
    wh = None if where is True else where_mask(where)
    res_dt = _method_dtype(numpy_fn, x, kw, wh, out, want, res)
    if out is not None and kw.get("dtype") is None:
        # the loop NumPy reduces with into ``out`` (logical_and's is bool's for an int
        # ``out``): the result is cast to ``out``'s dtype as it is written
        res_dt = dtypes.canonical(uf._np.resolve_dtypes(
            (res_dt, x.dtype, None), reduction=True, casting="unsafe")[2])  # (probed above)
    if uf.__name__ == "power" and res_dt.kind in "iu" and len(axes) == 1:
        check_int_power(jnp.moveaxis(lazy.value(x), axes[0], 0)[1:], res_dt)
    init_h = scalar(initial)
    static = (axes, res_dt, bool(keepdims), init_h,
              init_h is not _NO_VALUE and init_h is not None)
    kern = uf._method_kernel("reduce", static)
    rule = None if initial is not _NO_VALUE else reduce_rule(  # (the elements' range only)
        uf.__name__, math.prod(x.shape) // max(1, math.prod(want)), res_dt, wh is not None)
    check = (_reduce_check(numpy_fn, kw) if uf.__name__ in ("add", "multiply")
             and res_dt.kind in "fc" else None)  # (lazily: 'warn' and the other modes)
    if plain and uf.__name__ != "power":  # (power checks its exponents every call)
        uf._reduced[key] = (kern, want, res_dt, rule, check)
    if out is None and _errcheck.modes() is None and lazy.recording():
        return lazy.adopt(ndarray._wrap(lazy.call(kern, (x, wh), want, res_dt, check, rule)))
    xv = lazy.value(x)  # (a pending operand computed once: the kernel and the check)
    r = kern(xv, wh)
    result = _finish(r, out)
    check_fp(uf, "reduce", static, xv, wh, r)
    return result


_CHECKS = {}  # (NumPy's function, its arguments' key) -> the reduction's ``Check``


def _reduce_check(numpy_fn, kw):
    """The ``Check`` of a sum or product (``fperr.reduce_check``), one per call signature (a
    graph's checks are part of its cache key), or None for unhashable arguments."""
    try:
        key = (numpy_fn, probe.key(tuple(kw.items())))
        check = _CHECKS.get(key)
    except TypeError:
        return None
    if check is None:
        if len(_CHECKS) >= probe.CACHE_SIZE:
            _CHECKS.clear()
        check = _CHECKS[key] = reduce_check(numpy_fn, kw)
    return check


def _plain_reduce(kern, shape, dtype, rule, check, x):
    """A plain reduction seen before (``reduce_resolved``): pending when recording."""
    if lazy.recording():
        return lazy.adopt(ndarray._wrap(lazy.call(kern, (x, None), shape, dtype, check,
                                                  rule)))
    return ndarray._wrap(kern(lazy.value(x), None))


def accumulate_resolved(uf, numpy_fn, x, axis, out, kw, include_initial=False,
                        out_message="return arrays must be of ArrayType"):
    """The one accumulation engine (``ufunc.accumulate``, ``cumsum``, ``cumprod``,
    ``cumulative_*`` and the nan-variants' fronts); ``axis=None`` accumulates the flattened
    array, as ``cumsum`` does."""
    out = single_out(out, out_message)
    res = probe.call(numpy_fn, probe.small(x), **kw)  # NumPy's errors for the arguments
    if axis is None:
        x, ax = x.reshape(-1), 0
    else:
        ax = normalize_axes(axis, x.ndim)[0]
    want = list(x.shape)
    want[ax] += bool(include_initial)
    res_dt = _method_dtype(numpy_fn, x, kw, None, out, tuple(want), res)
    if uf.__name__ == "power" and res_dt.kind in "iu":
        check_int_power(jnp.moveaxis(x, ax, 0)[1:], res_dt)
    static = (ax, res_dt, bool(include_initial))
    r = uf._method_kernel("accumulate", static)(x)
    result = _finish(r, out)
    check_fp(uf, "accumulate", static, x, None, r)
    return result


def check_fp(uf, method, static, x, where, r):
    """``errstate``'s 'raise' checks of a reduction or accumulation, after ``out=`` is
    written as in NumPy (a sync; skipped by default and under a JAX trace)."""
    check = _errcheck.modes()
    if check is not None and not is_tracer(r) and (
            static[1].kind in "fc" or static[1].kind in "iu" and uf.__name__ in INT_FOLDS
            and (method == "accumulate" or len(static[0]) == 1)):
        found = uf._method_kernel(method + "_flags", static)(x, where, r)
        _errcheck.report(method, check, found)


def reduceat(uf, x, indices, axis, dtype, out):
    """Segment reductions of ``x`` (a JAX array); the indices are read on the host (a sync
    for device indices)."""
    out = single_out(out)
    given = indices.__array__() if isinstance(indices, ndarray) else indices
    # NumPy's errors for bad indices, axis, dtype and out, on placeholders of the real
    # shapes; the indices as NumPy converts them (Python data straight to intp: [] is no
    # float64 array it would refuse)
    res = probe.call(uf._np.reduceat, probe.like(x), given, axis=axis, dtype=dtype)
    idx = np.asarray(given).astype(np.intp, casting="unsafe")
    res_dt = dtypes.check_supported(res.dtype)
    if out is not None:
        probe.call(uf._np.reduceat, probe.like(x), idx, axis=axis, dtype=dtype,
                   out=probe.Out(res.shape, out.dtype))
    ax = normalize_axes(axis, x.ndim)[0]
    n = x.shape[ax]
    pieces = []
    xm = cast(jnp.moveaxis(x, ax, 0), res_dt)
    for j, start in enumerate(idx.tolist()):
        stop = idx[j + 1] if j + 1 < len(idx) else n
        seg = xm[start:stop] if start < stop else xm[start:start + 1]
        pieces.append(uf._method_kernel("fold", (res_dt,))(seg))
    result = jnp.moveaxis(jnp.stack(pieces), 0, ax) if pieces else jnp.zeros(
        x.shape[:ax] + (0,) + x.shape[ax + 1:], res_dt)
    return _finish(result, out)


def at(uf, a, indices, b):
    """Unbuffered in-place ``a[indices] = uf(a[indices], b)`` (``a`` a tnp array, checked by
    ``ufunc.at``): the new value of ``a`` computed on the device, written through
    ``write.assign``."""
    ops, keys = operands((a,) + (() if b is None else (b,)))
    in_dts, out_dts = uf._resolve(tuple(keys), (a.dtype,), None, None, "unsafe")
    python_scalars(uf.__name__, ops, keys, in_dts)
    pos = ndarray._wrap(jnp.arange(a.size, dtype=np.int64).reshape(a.shape))[indices]._value
    if b is not None and not fits(pos.shape, np.shape(ops[1])):
        raise ValueError("array is not broadcastable to correct shape")  # NumPy's error
    vals = () if b is None else (jnp.broadcast_to(cast_in(ops[1], in_dts[1]), pos.shape),)
    kern = uf._method_kernel("at", (in_dts, a.dtype))
    write.assign(a, kern(a._value, pos, *vals))


# ---- argument helpers -------------------------------------------------------------------
def array(x):
    return x._value if isinstance(x, ndarray) else to_jax(x)


def scalar(v):
    if v is _NO_VALUE or v is None:
        return v
    if isinstance(v, ndarray):
        v = v.__array__()
    return np.asarray(v).item() if not isinstance(v, (bool, int, float, complex)) else v


def _method_dtype(numpy_fn, x, kw, where, out, want, res):
    """The result dtype of a reduction or accumulation (``res``: NumPy's result on a small
    placeholder of ``x``), with NumPy's errors for ``where=`` and ``out=``: NumPy on
    placeholders of small shapes decides; where the real shapes do not fit (``out`` is not
    exactly ``want``, ``where`` does not broadcast to ``x``), NumPy on placeholders of the real
    shapes raises its own error."""
    if where is None and out is None:
        return dtypes.canonical(res.dtype if isinstance(res, probe.Spec) else
                                np.asarray(res).dtype)
    small_kw, real_kw = dict(kw), dict(kw)
    fits = True
    if where is not None:
        small_kw["where"], real_kw["where"] = probe.small(where), probe.like(where)
        try:
            fits = np.broadcast_shapes(where.shape, x.shape) == tuple(x.shape)
        except ValueError:
            fits = False
    if out is not None:
        # the shape of NumPy's result on the small placeholder (one longer on the axis with
        # ``include_initial``, which ``probe.small(out)`` would cut to 2)
        small_kw["out"] = probe.Out(res[0] if isinstance(res, probe.Spec) else np.shape(res),
                                    out.dtype)
        real_kw["out"] = probe.Out(out.shape, out.dtype)
        fits = fits and tuple(out.shape) == want
    if not fits:
        probe.call(numpy_fn, probe.like(x), **real_kw)
        raise ValueError("operands could not be broadcast together")
    return dtypes.canonical(probe.dtype_of(numpy_fn, probe.small(x), **small_kw))


def _finish(result, out):
    if out is None:
        return ndarray._wrap(result)
    write.assign(out, result)
    return out
