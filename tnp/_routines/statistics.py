"""Order statistics and averages: median, quantile/percentile (every method), average, cov,
corrcoef.

Quantiles sort along the reduced axes on the device and interpolate with NumPy's formulas
(Hyndman & Fan's methods exactly as ``numpy.quantile`` writes them). ``q`` is read on the host
(a sync point if it is a device array): NumPy validates its values and its dtype decides the
interpolation precision. Weighted quantiles check the weights' signs on the host (sync point).
"""
import math
import warnings
from typing import Optional

from .._core.engine.jaxload import jnp, Tracer
import numpy as np

from .._core.dispatch.normalize import ArrayLike, OutArray, hashable, normalize
from .._core.dispatch.np_doc import np_doc
from .._core.rules import probe
from .._core.engine import syncs
from .._core.numerics.casting import numpy_cast
from .creation import asarray
from .reductions import (_NoValue, _axes, _lex_last, _opt, accum_dtype,
                         check_cast, checked_out, zero_count_divides)
from .._core.numerics.fperr import emit
from .._ufuncs.table import divide, maximum, minimum, sqrt

__all__ = ["median", "percentile", "quantile", "average", "cov", "corrcoef"]


def _qarg(q):
    """``q`` for the probe: a Python scalar as itself (cached); anything else as a NumPy array,
    whose values NumPy validates and whose dtype it promotes with (the probe runs uncached)."""
    return q if q is None or type(q) in (int, float, bool) else np.asarray(q)


def probe_quantile(name, a, q, weights, **kw):
    """The dtype of ``numpy.<name>`` on a small placeholder of ``a`` (raises NumPy's exception)."""
    kw = {k: hashable(v) for k, v in kw.items() if v is not _NoValue}
    if weights is not None:
        kw["weights"] = probe.One(*probe.small(probe.Spec(np.shape(weights), np.float64)))
    args = () if name.endswith("median") else (_qarg(q),)
    return probe.dtype_of(getattr(np, name), probe.small(a), *args, **kw)


def _is_tracer(x):
    return isinstance(getattr(x, "_value", x), Tracer)


def check_weights(w):
    """NumPy's data-dependent weight checks (a sync point; skipped under tracing)."""
    w = asarray(w)
    if not _is_tracer(w) and syncs.check(jnp.any(w.data < 0)):
        raise ValueError("Weights must be non-negative.")


# ---- the quantile engine -------------------------------------------------------------------
def _virtual_index(method, nf, q):
    """NumPy's virtual index (float) or direct index (int) for each method."""
    def hf(alpha, beta):
        return nf * q + (alpha + q * (1 - alpha - beta)) - 1

    def discrete(index, cond):
        prev = jnp.floor(index)
        gamma = index - prev
        res = numpy_cast(jnp.where(cond(gamma, index), prev, prev + 1), np.intp)
        return jnp.maximum(res, 0)

    table = {
        "inverted_cdf": lambda: discrete(nf * q - 1, lambda g, _: g == 0),
        "averaged_inverted_cdf": lambda: nf * q - 1,
        "closest_observation": lambda: discrete(
            nf * q - 1 - 0.5, lambda g, i: (g == 0) & (jnp.floor(i) % 2 == 1)),
        "interpolated_inverted_cdf": lambda: hf(0, 1),
        "hazen": lambda: hf(0.5, 0.5),
        "weibull": lambda: hf(0, 0),
        "linear": lambda: (nf - 1) * q,
        "median_unbiased": lambda: hf(1 / 3.0, 1 / 3.0),
        "normal_unbiased": lambda: hf(3 / 8.0, 3 / 8.0),
        "lower": lambda: numpy_cast(jnp.floor((nf - 1) * q), np.intp),
        "higher": lambda: numpy_cast(jnp.ceil((nf - 1) * q), np.intp),
        "midpoint": lambda: 0.5 * (jnp.floor((nf - 1) * q) + jnp.ceil((nf - 1) * q)),
        "nearest": lambda: numpy_cast(jnp.round((nf - 1) * q), np.intp),
    }
    return table[method]()


def _fix_gamma(method, gamma, vi):
    if method == "averaged_inverted_cdf":
        return numpy_cast(jnp.where(gamma == 0, 0.5, 1.0), gamma.dtype)
    if method == "midpoint":
        return numpy_cast(jnp.where(vi % 1 == 0, 0.0, 0.5), gamma.dtype)
    return gamma


def _interpolate(xs, n, q, method, rt):
    """Quantiles of sorted ``xs`` (rest + (m,)) with ``n`` valid values per slice (rest + (1,))
    at the flat quantiles ``q`` (k,): an array rest + (k,)."""
    qdt = q.dtype if q.dtype.kind == "f" else np.dtype(np.float64)
    qf = numpy_cast(q, qdt)
    nf = numpy_cast(n, qdt)
    if method == "linear" and q.dtype.kind in "biu":  # NumPy's: an integer index, no lerp
        vi = (n - 1) * numpy_cast(q, np.intp)     # (so a bool ``a`` stays bool)
    else:
        vi = _virtual_index(method, nf, qf)
    last = jnp.maximum(n - 1, 0)
    if vi.dtype.kind in "iu":
        idx = jnp.minimum(vi, last)
        return numpy_cast(jnp.take_along_axis(xs, idx, axis=-1), rt)
    prev = jnp.floor(vi)
    nxt = prev + 1
    above = vi >= nf - 1
    below = vi < 0
    bad = jnp.isnan(vi)
    prev = jnp.where(above | bad, -1, jnp.where(below, 0, prev))
    nxt = jnp.where(above | bad, -1, jnp.where(below, 0, nxt))
    gamma = numpy_cast(_fix_gamma(method, vi - prev, vi), qdt)
    pi = numpy_cast(jnp.where(prev < 0, last, prev), np.intp)
    ni = numpy_cast(jnp.where(nxt < 0, last, nxt), np.intp)
    a = jnp.take_along_axis(xs, pi, axis=-1)
    b = jnp.take_along_axis(xs, ni, axis=-1)
    diff = numpy_cast(b - a, rt)
    t = numpy_cast(gamma, rt)
    lo = numpy_cast(a, rt) + diff * t
    hi = numpy_cast(b, rt) - diff * (1 - t)
    return jnp.where(t >= 0.5, hi, lo)


def _weighted(xs_order, x, w, q, rt, valid):
    """inverted_cdf with weights: the first sorted value whose normalised cdf reaches q."""
    xs = jnp.take_along_axis(x, xs_order, axis=-1)
    ws = jnp.take_along_axis(jnp.broadcast_to(w, x.shape), xs_order, axis=-1)
    if valid is not None:
        ws = jnp.where(jnp.take_along_axis(valid, xs_order, axis=-1), ws, 0)
    cdf = jnp.cumsum(ws, axis=-1, dtype=np.float64)
    cdf = cdf / cdf[..., -1:]
    if q.dtype.kind == "f":
        cdf = numpy_cast(cdf, q.dtype)
    cdf = jnp.where(cdf == 0, -1, cdf)
    idx = jnp.sum(cdf[..., None, :] < q[:, None], axis=-1)
    n = x.shape[-1] if valid is None else jnp.sum(valid, axis=-1, keepdims=True)
    idx = numpy_cast(jnp.minimum(idx, jnp.maximum(n - 1, 0)), np.intp)
    return numpy_cast(jnp.take_along_axis(xs, idx, axis=-1), rt)


@normalize
def _quantile(a: ArrayLike, q: ArrayLike, w: Optional[ArrayLike], axes, keepdims, method, rt,
              nan, out: OutArray = None):
    x = _lex_last(a, axes)
    if w is not None:
        w = _lex_last(w, axes) if w.shape == a.shape else w
    qf = q.reshape(-1)
    inexact = x.dtype.kind in "fc"
    isn = jnp.isnan(x) if inexact else jnp.zeros(x.shape, bool)
    if w is not None:
        r = _weighted(jnp.argsort(x, axis=-1), x, w, qf, rt, ~isn if nan else None)
    else:
        xs = jnp.sort(x, axis=-1)
        n = jnp.sum(~isn, axis=-1, keepdims=True) if nan else jnp.full(
            x.shape[:-1] + (1,), x.shape[-1], np.intp)
        r = _interpolate(xs, n, qf, method, rt)
    if inexact:
        flag = jnp.all(isn, axis=-1) if nan else jnp.any(isn, axis=-1)
        r = jnp.where(flag[..., None], jnp.asarray(np.nan, rt), r)
    r = jnp.moveaxis(r, -1, 0).reshape(q.shape + r.shape[:-1])
    if keepdims:
        r = r.reshape(q.shape + tuple(1 if i in axes else s for i, s in enumerate(a.shape)))
    return r


def quantile_front(name, a, q, axis, out, method, keepdims, weights, nan):
    """Shared front of quantile/percentile and their nan forms: NumPy's checks and dtype."""
    a = asarray(a)
    rt = probe_quantile(name, a, q, weights, axis=axis, method=method, keepdims=keepdims)
    qh = np.asarray(q)
    if name.endswith("percentile"):
        qh = np.true_divide(qh, 100)
    if weights is not None:
        check_weights(weights)
        if not _is_tracer(a) and not _is_tracer(weights) and syncs.check(_weights_total_bad(
                a, weights, _axes(axis, a.ndim), nan)):
            raise ValueError("Weights included NaN, inf or were all zero.")
    if not nan:
        check_cast(rt, out)
    return _quantile(a, qh, weights, _axes(axis, a.ndim), bool(_opt(keepdims, False)), method,
                     rt, nan, out)


@normalize
def _weights_total_bad(a: ArrayLike, w: ArrayLike, axes, nan):
    """Whether a slice's weights sum to 0, inf or NaN (NumPy's normalised cdf then ends in NaN);
    the nan forms count the weights of a slice's non-NaN values, and skip all-NaN slices (NumPy
    returns NaN for those without looking at the weights)."""
    x = _lex_last(a, axes)
    w = jnp.broadcast_to(_lex_last(w, axes) if w.shape == a.shape else w, x.shape)
    w = numpy_cast(w, np.float64)
    if nan and x.dtype.kind in "fc":
        valid = ~jnp.isnan(x)
        total = jnp.cumsum(jnp.where(valid, w, 0), axis=-1)[..., -1]
        return jnp.any(~jnp.isfinite(total) | (total == 0) & jnp.any(valid, axis=-1))
    total = jnp.cumsum(w, axis=-1)[..., -1]
    return jnp.any(~jnp.isfinite(total) | (total == 0))


@np_doc(np.quantile)
def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None):
    return quantile_front("quantile", a, q, axis, out, method, keepdims, weights, False)


@np_doc(np.percentile)
def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    return quantile_front("percentile", a, q, axis, out, method, keepdims, weights, False)


# ---- median ----------------------------------------------------------------------------------
@normalize
def _median(a: ArrayLike, axes, keepdims, rt, nan, out: OutArray = None):
    x = _lex_last(a, axes)
    inexact = x.dtype.kind in "fc"
    isn = jnp.isnan(x) if inexact else jnp.zeros(x.shape, bool)
    xs = jnp.sort(x, axis=-1)
    n = jnp.sum(~isn, axis=-1, keepdims=True) if nan else jnp.full(
        x.shape[:-1] + (1,), x.shape[-1], np.intp)
    lo = jnp.maximum((n - 1) // 2, 0)
    hi = jnp.minimum(n // 2, jnp.maximum(n - 1, 0))
    work = accum_dtype(a.dtype, None)
    if x.shape[-1] == 0:
        r = jnp.full(x.shape[:-1], np.nan, work)
    else:
        # NumPy's nanmedian along part of a >1-d array's axes, of fewer than 600 elements,
        # sums the middle element(s) in the input's float dtype and halves the sum, taking an
        # odd count's middle element twice (so 2x can overflow to inf); otherwise it takes the
        # mean of the middle element(s) in ``work``.
        twice = nan and x.dtype.kind == "f" and 0 < len(axes) < a.ndim and math.prod(
            a.shape[i] for i in axes) < 600
        sum_dt = x.dtype if twice else work
        va = numpy_cast(jnp.take_along_axis(xs, lo, axis=-1)[..., 0], sum_dt)
        vb = numpy_cast(jnp.take_along_axis(xs, hi, axis=-1)[..., 0], sum_dt)
        # either way a sum that starts from +0: a middle -0.0 comes out as +0.0
        va = jnp.where(va == 0, jnp.zeros_like(va), va)
        mid = (va + vb) / jnp.asarray(2, sum_dt)
        r = numpy_cast(mid if twice else jnp.where(lo[..., 0] == hi[..., 0], va, mid), work)
    if inexact:
        flag = jnp.all(isn, axis=-1) if nan else jnp.any(isn, axis=-1)
        r = jnp.where(flag, jnp.asarray(np.nan, r.dtype), r)
    r = numpy_cast(r, rt)
    if keepdims:
        r = r.reshape(tuple(1 if i in axes else s for i, s in enumerate(a.shape)))
    return r


def median_front(name, a, axis, out, keepdims, nan):
    a = asarray(a)
    rt = probe_quantile(name, a, None, None, axis=axis, keepdims=keepdims)
    axes, kd = _axes(axis, a.ndim), bool(_opt(keepdims, False))
    if not nan and a.size == 0 and math.prod(
            a.shape[i] for i in range(a.ndim) if i not in axes):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)  # (NumPy's mean
        zero_count_divides(a, None, axes, kd)  # of the empty middle)
    return _median(a, axes, kd, rt, nan, out if nan else checked_out(out, a, axes, kd))


@np_doc(np.median)
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return median_front("median", a, axis, out, keepdims, False)


# ---- average ---------------------------------------------------------------------------------
@normalize
def _average(a: ArrayLike, w: ArrayLike, axes, keepdims, rt, st):
    wt = w
    if w.shape != a.shape:  # NumPy's: w's axes are a's ``axes`` in order, the others 1
        wt = jnp.transpose(w, np.argsort(axes)).reshape(
            tuple(n if i in axes else 1 for i, n in enumerate(a.shape)))
    wt = numpy_cast(jnp.broadcast_to(wt, a.shape), rt)
    scl = jnp.sum(wt, axis=axes, keepdims=keepdims, dtype=rt)
    avg = jnp.sum(numpy_cast(a, rt) * wt, axis=axes, keepdims=keepdims, dtype=rt) / scl
    return numpy_cast(avg, rt), numpy_cast(jnp.broadcast_to(scl, avg.shape), st)


@np_doc(np.average)
def average(a, axis=None, weights=None, returned=False, *, keepdims=_NoValue):
    from .reductions import mean
    a = asarray(a)
    w = None if weights is None else asarray(weights)
    kw = {} if keepdims is _NoValue else {"keepdims": keepdims}
    ph_a, ph_w = probe.small(a), None if w is None else probe.One(*probe.small(w))
    if w is not None and w.shape != a.shape:  # NumPy checks w's length against a's axes: a
        axes = axis if isinstance(axis, tuple) else (axis,)  # small ``a`` but for those axes
        if all(isinstance(i, int) and -a.ndim <= i < a.ndim for i in axes):
            keep = {i % a.ndim for i in axes}
            ph_a = probe.Spec(tuple(n if i in keep else min(n, 2) for i, n in enumerate(a.shape)),
                              a.dtype)
            ph_w = probe.One(*probe.like(w))
    r = probe.call(np.average, ph_a, axis=hashable(axis), weights=ph_w, returned=bool(returned),
                   **kw)
    rt, st = (r[0].dtype, r[1].dtype) if returned else (r.dtype, None)
    if w is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        if returned:
            scl = np.dtype(avg.dtype).type(a.size / max(avg.size, 1))
            return avg, asarray(np.broadcast_to(scl, avg.shape))
        return avg
    kd = bool(_opt(keepdims, False))
    avg, scl = _average(a, w, _axes(axis, a.ndim), kd, rt, st)
    if not _is_tracer(scl) and syncs.check(jnp.any(scl.data == 0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return (avg, scl) if returned else avg


# ---- cov / corrcoef --------------------------------------------------------------------------
@normalize
def _cov(m: ArrayLike, y: Optional[ArrayLike], fw: Optional[ArrayLike],
         aw: Optional[ArrayLike], rowvar, ddof, dt):
    X = jnp.atleast_2d(numpy_cast(m, dt))
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return jnp.zeros((0, 0), dt)
    if y is not None:
        Y = jnp.atleast_2d(numpy_cast(y, dt))
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = jnp.concatenate([X, Y], axis=0)
    w = None
    if fw is not None:
        w = numpy_cast(fw, np.float64)
    if aw is not None:
        w = numpy_cast(aw, np.float64) if w is None else w * aw
    if w is None:
        avg = jnp.mean(X, axis=1, dtype=dt)
        fact = X.shape[1] - ddof
    else:
        rt = np.result_type(dt, w.dtype, np.float64)
        w_sum = jnp.sum(w, dtype=np.float64)  # real weights: NumPy's complex sum's real part
        avg = numpy_cast(jnp.sum(numpy_cast(X, rt) * w, axis=1) / w_sum, rt)
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * jnp.sum(w * aw) / w_sum
    fact = jnp.where(jnp.asarray(fact) <= 0, 0.0, fact)
    X = numpy_cast(X - avg[:, None], dt)
    XT = X.T if w is None else (numpy_cast(X, np.result_type(dt, w.dtype)) * w).T
    c = jnp.dot(X, jnp.conj(XT), precision="highest")
    c = numpy_cast(c * (1.0 / jnp.asarray(fact, np.float64)), c.dtype)
    return jnp.squeeze(c)


def _few_observations(m, y, rowvar, ddof):
    """NumPy's warnings of ``cov`` without weights when its observations are at most ``ddof``
    (known from the shapes): "Degrees of freedom <= 0 for slice", then its ``1 / 0`` ('divide'
    in "divide") and, for one observation (every deviation 0), ``0 * inf`` ('invalid' in
    "multiply"), in the error state (``fperr.emit``). Zero observations, whose mean NumPy
    takes first, are not reported."""
    variables = 0 if m.ndim == 0 else 1 if m.ndim == 1 else m.shape[0 if rowvar else 1]
    n = m.size if m.ndim < 2 else m.shape[1 if rowvar else 0]
    if y is not None:
        variables += 1 if y.ndim < 2 else y.shape[0 if rowvar else 1]
    if variables == 0 or n == 0 or n - ddof > 0:
        return
    warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
    emit("divide", (True, False, False, False))
    if n == 1:
        emit("multiply", (False, False, False, True))


def _ones_spec(x):
    return None if x is None else probe.One(*probe.small(asarray(x)))


@np_doc(np.cov)
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    m = asarray(m)
    y = None if y is None else asarray(y)
    rt = probe.dtype_of(np.cov, probe.small(m), None if y is None else probe.small(y),
                        bool(rowvar), bool(bias), ddof, _ones_spec(fweights),
                        _ones_spec(aweights), dtype=dtype)
    if ddof is None:
        ddof = 0 if bias else 1
    for w, name in ((fweights, "fweights"), (aweights, "aweights")):
        if w is not None:
            wa = asarray(w)
            if name == "fweights" and not _is_tracer(wa) and bool(
                    jnp.any(wa.data != jnp.around(wa.data))):
                raise TypeError("fweights must be integer")
            if not _is_tracer(wa) and syncs.check(jnp.any(wa.data < 0)):
                raise ValueError(f"{name} cannot be negative")
    dt = np.result_type(m.dtype, *(() if y is None else (y.dtype,)), np.float64) \
        if dtype is None else np.dtype(dtype)
    if fweights is None and aweights is None:
        _few_observations(m, y, bool(rowvar), ddof)
    return _cov(m, y, fweights, aweights, bool(rowvar), ddof, dt).astype(rt, copy=False)


@normalize
def _clip_complex(c: ArrayLike):
    return jnp.clip(c.real, -1, 1) + 1j * jnp.clip(c.imag, -1, 1)


def _clip_corr(c):
    """NumPy's clip of a correlation to [-1, 1] (real and imaginary parts apart); a real one
    by tnp's ufuncs (a NaN from a division stays visible to the float-error check)."""
    return _clip_complex(c) if c.dtype.kind == "c" else minimum(maximum(c, -1), 1)


@np_doc(np.corrcoef)
def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return divide(c, c)
    # NumPy's divisions, as tnp's ufuncs: their floating-point errors are NumPy's
    stddev = sqrt(c.diagonal().real)
    return _clip_corr(divide(divide(c, stddev[:, None]), stddev[None, :]))
