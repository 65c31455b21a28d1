"""Histograms and binning: histogram, histogram2d, histogramdd, histogram_bin_edges, bincount,
digitize.

Counting runs on the device. Bin edges are NumPy's own (``numpy.histogram_bin_edges`` /
``numpy.linspace`` on the host), so they are bit-identical; they need the data's range, read from
the device as two scalars per dimension (a sync point, as is NumPy's finiteness check). A string
estimator (``'auto'``, ``'fd'``, ...) decides the number of bins from the data itself: the data
is read on the host for it (a sync point). ``bincount``'s length and ``digitize``'s
monotonicity check read a few scalars from the device (sync points).
"""
import builtins
import operator
from typing import Optional

from .._core.engine.jaxload import jnp
import numpy as np

from .._core.rules import probe
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, ArrayLikeSeq, normalize
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["histogram", "histogram2d", "histogramdd", "histogram_bin_edges", "bincount",
           "digitize"]


@normalize
def _minmax(a: ArrayLike):
    return jnp.stack([jnp.min(a), jnp.max(a)]) if a.size else jnp.zeros((0,), a.dtype)


def _edges(a, bins, range, weights):
    """NumPy's bin edges for ``a`` (host array), computed by NumPy from the data's range."""
    if isinstance(bins, str):
        host_w = None if weights is None else np.asarray(weights)
        return np.histogram_bin_edges(np.asarray(a).ravel(), bins, range, host_w)
    if np.ndim(bins) == 1 or range is not None:
        ph = np.zeros((0,), a.dtype)
    else:
        ph = np.asarray(_minmax(a.ravel()))
    return np.histogram_bin_edges(ph, bins, range)


@normalize
def _count(a: ArrayLike, edges: ArrayLike, w: Optional[ArrayLike], lo, hi, dt):
    x = a.reshape(-1)
    nb = edges.shape[0] - 1
    idx = jnp.searchsorted(edges, x, side="right") - 1
    idx = jnp.where(x == edges[-1], nb - 1, idx)
    keep = (x >= (edges[0] if lo is None else lo)) & (x <= (edges[-1] if hi is None else hi))
    keep = keep & (idx >= 0) & (idx < nb)
    acc = np.intp if w is None else (np.complex128 if dt.kind == "c" else np.float64)
    val = jnp.ones(x.shape, acc) if w is None else numpy_cast(w.reshape(-1), acc)
    val = jnp.where(keep, val, jnp.zeros((), acc))
    return numpy_cast(jnp.zeros((nb,), acc).at[jnp.where(keep, idx, 0)].add(val), dt)


@normalize
def _density(n: ArrayLike, edges: ArrayLike):
    db = numpy_cast(jnp.diff(edges), np.float64)
    return n / db / jnp.sum(n)


def _hist_dtype(a_dt, w_dt):
    w = None if w_dt is None else probe.Spec((1,), w_dt)
    return probe.call(np.histogram, probe.Spec((1,), a_dt), 1, weights=w)[0].dtype


@np_doc(np.histogram_bin_edges)
def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = asarray(a)
    return asarray(_edges(a, bins, range, weights))


@np_doc(np.histogram)
def histogram(a, bins=10, range=None, density=None, weights=None):
    a = asarray(a)
    w = None if weights is None else asarray(weights)
    if w is not None and w.shape != a.shape:
        raise ValueError("weights should have the same shape as a.")
    edges = _edges(a, bins, range, weights)
    lo, hi = (None, None) if range is None else (float(range[0]), float(range[1]))
    dt = _hist_dtype(a.dtype, None if w is None else w.dtype)
    n = _count(a, edges, w, lo, hi, dt)
    if density:
        return _density(n, edges), asarray(edges)
    return n, asarray(edges)


# ---- histogramdd / histogram2d ---------------------------------------------------------------
@normalize
def _count_dd(sample: ArrayLike, edges: ArrayLikeSeq, w: Optional[ArrayLike]):
    idx = []
    nbin = []
    for i, e in enumerate(edges):
        col = sample[:, i]
        k = jnp.searchsorted(e, col, side="right")
        k = jnp.where(col == e[-1], k - 1, k)
        idx.append(k)
        nbin.append(e.shape[0] + 1)
    flat = jnp.ravel_multi_index(tuple(idx), tuple(nbin), mode="clip") if idx else None
    size = int(np.prod(nbin))
    val = jnp.ones(sample.shape[0], np.float64) if w is None else numpy_cast(w, np.float64)
    hist = jnp.zeros((size,), np.float64).at[flat].add(val).reshape(nbin)
    return hist[(slice(1, -1),) * len(edges)]


@normalize
def _density_dd(hist: ArrayLike, dedges: ArrayLikeSeq):
    s = jnp.sum(hist)
    d = hist.ndim
    for i, de in enumerate(dedges):
        shape = [1] * d
        shape[i] = hist.shape[i]
        hist = hist / de.reshape(shape)
    return hist / s


def _dd_edges(sample, D, bins, range):
    try:
        M = len(bins)
        if M != D:
            raise ValueError(
                "The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in builtins.range(D):
        if np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(
                    f"`bins[{i}]` must be positive, when an integer")
            if range[i] is None:
                mm = np.asarray(_minmax(sample[:, i]))
                ph = mm if mm.size else np.zeros((0,), sample.dtype)
            else:
                ph = np.zeros((0,), sample.dtype)
            lo, hi = np.lib._histograms_impl._get_outer_edges(ph, range[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(np.linspace(lo, hi, n + 1))
        elif np.ndim(bins[i]) == 1:
            e = np.asarray(bins[i])
            if np.any(e[:-1] > e[1:]):
                raise ValueError(
                    f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(e)
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    return edges



@np_doc(np.histogramdd)
def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    s = asarray(sample)
    if not (hasattr(sample, "shape") and s.ndim == 2):
        s = s.reshape((1, -1) if s.ndim < 2 else s.shape).T
    N, D = s.shape
    sample = s
    w = None if weights is None else asarray(weights)
    edges = _dd_edges(sample, D, bins, range)
    hist = _count_dd(sample, edges, w)
    if density:
        hist = _density_dd(hist, [np.diff(e) for e in edges])
    return hist, [asarray(e) for e in edges]


@np_doc(np.histogram2d)
def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    if len(x) != len(y):  # NumPy's error (it raises before looking at anything else)
        probe.call(np.histogram2d, probe.Spec((len(x),), np.float64),
                   probe.Spec((len(y),), np.float64))
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = np.asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# ---- bincount / digitize ---------------------------------------------------------------------
@normalize
def _bincount(x: ArrayLike, w: Optional[ArrayLike], length, dt):
    acc = np.float64 if w is not None else np.intp
    val = jnp.ones(x.shape, acc) if w is None else numpy_cast(w, acc)
    return numpy_cast(jnp.zeros((length,), acc).at[x].add(val), dt)


@np_doc(np.bincount)
def bincount(x, /, weights=None, minlength=0):
    # Python data as NumPy converts it, straight to intp: [] is no float64 array it would refuse
    x = asarray(x, np.intp if not hasattr(type(x), "__array__") and np.size(x) == 0
                else None)
    w = None if weights is None else asarray(weights)
    n = x.shape[0] if x.ndim == 1 else 1
    ph_w = None if w is None else probe.Spec((min(n, 2),) + w.shape[1:] if w.ndim else (),
                                             w.dtype)
    # placeholders of the operands' ranks (a 0-d x is NumPy's ValueError)
    dt = probe.dtype_of(np.bincount, probe.Spec((min(n, 2),) + x.shape[1:] if x.ndim else (),
                                                x.dtype), ph_w, minlength=minlength)
    if w is not None and w.shape != x.shape:
        raise ValueError("The weights and list don't have the same length.")
    mm = np.asarray(_minmax(x))
    if mm.size and mm[0] < 0:
        raise ValueError("'list' argument must have no negative elements")
    length = int(max(mm[1] + 1 if mm.size else 0, minlength))
    return _bincount(x.astype(np.intp), w, length, dt)


@normalize
def _monotonic(b: ArrayLike):
    return jnp.stack([jnp.all(b[1:] >= b[:-1]), jnp.all(b[1:] <= b[:-1])])


@normalize
def _digitize(x: ArrayLike, b: ArrayLike, side, decreasing):
    if decreasing:
        return numpy_cast(b.shape[0] - jnp.searchsorted(b[::-1], x, side=side), np.intp)
    return numpy_cast(jnp.searchsorted(b, x, side=side), np.intp)


@np_doc(np.digitize)
def digitize(x, bins, right=False):
    x = asarray(x)
    b = asarray(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if b.dtype.kind == "c":  # NumPy's TypeError: its bins are cast to float64, 'safe'
        probe.call(np.digitize, probe.Spec((1,), x.dtype), probe.Spec((1,), b.dtype), right)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1 else
                         "object of too small depth for desired array")
    inc, dec = np.asarray(_monotonic(b)) if b.shape[0] > 1 else (True, False)
    if not inc and not dec:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    return _digitize(x, b, side, bool(dec and not inc))
