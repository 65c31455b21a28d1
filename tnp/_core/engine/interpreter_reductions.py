"""The NumPy tier's rules for reductions, cumulative operations, ``dot_general``, ``sort`` and
``fft``: NumPy's own (its pairwise summation, its BLAS products, its pocketfft), in the jaxpr's
dtypes."""
import numpy as np

from .interpreter_base import Unsupported, rule

_REDUCE = {"reduce_sum": np.add, "reduce_prod": np.multiply, "reduce_max": np.maximum,
           "reduce_min": np.minimum, "reduce_and": np.bitwise_and, "reduce_or": np.bitwise_or,
           "reduce_xor": np.bitwise_xor}


@rule(*_REDUCE)
def _reduce(eqn, x):
    f = _REDUCE[eqn.primitive.name]
    axes = tuple(eqn.params["axes"])
    if x.size == 0 and f in (np.maximum, np.minimum):
        aval = eqn.outvars[0].aval
        if x.dtype.kind == "f":
            v = -np.inf if f is np.maximum else np.inf
        elif x.dtype.kind == "b":
            v = f is np.minimum
        else:
            info = np.iinfo(x.dtype)
            v = info.min if f is np.maximum else info.max
        return np.full(aval.shape, v, x.dtype)
    return f.reduce(x, axis=axes, dtype=x.dtype) if axes else x


@rule("argmax", "argmin")
def _arg(eqn, x):
    axes = eqn.params["axes"]
    f = np.argmax if eqn.primitive.name == "argmax" else np.argmin
    return f(x, axis=axes[0]).astype(eqn.params["index_dtype"])


_CUM = {"cumsum": np.add, "cumprod": np.multiply, "cummax": np.maximum, "cummin": np.minimum,
        "cumlogsumexp": np.logaddexp}


@rule(*_CUM)
def _cumulative(eqn, x):
    f = _CUM[eqn.primitive.name]
    axis, reverse = eqn.params["axis"], eqn.params["reverse"]
    if reverse:
        x = np.flip(x, axis)
    out = f.accumulate(x, axis=axis, dtype=x.dtype) if x.size else x.copy()
    return np.flip(out, axis) if reverse else out


@rule("dot_general")
def _dot_general(eqn, x, y):
    """Batch dimensions first, then a ``matmul`` of (free, contracted) by (contracted, free):
    NumPy's BLAS product, as ``np.matmul``/``np.dot`` compute it."""
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    dtype = eqn.outvars[0].aval.dtype
    if x.dtype != dtype:
        x = x.astype(dtype)
    if y.dtype != dtype:
        y = y.astype(dtype)
    lf = [d for d in range(x.ndim) if d not in lc and d not in lb]
    rf = [d for d in range(y.ndim) if d not in rc and d not in rb]
    xt = np.transpose(x, list(lb) + lf + list(lc))
    yt = np.transpose(y, list(rb) + list(rc) + rf)
    b = [x.shape[d] for d in lb]
    m = int(np.prod([x.shape[d] for d in lf], dtype=np.int64))
    k = int(np.prod([x.shape[d] for d in lc], dtype=np.int64))
    n = int(np.prod([y.shape[d] for d in rf], dtype=np.int64))
    if lc:
        out = np.matmul(xt.reshape(b + [m, k]), yt.reshape(b + [k, n]))
    else:  # an outer product: the products themselves (a BLAS sum from +0.0 loses -0.0)
        out = np.multiply(xt.reshape(b + [m, 1]), yt.reshape(b + [1, n]))
    return out.reshape(b + [x.shape[d] for d in lf] + [y.shape[d] for d in rf])


@rule("sort")
def _sort(eqn, *xs):
    p = eqn.params
    d, keys = p["dimension"], p["num_keys"]
    if keys == 1:
        order = np.argsort(xs[0], axis=d, kind="stable")
    else:
        if xs[0].ndim != 1:
            raise Unsupported("sort")
        order = np.lexsort(xs[:keys][::-1])
    return [np.take_along_axis(x, order, axis=d) for x in xs]


# lax.FftType's values: FFT, IFFT (normalised by 1/n, as NumPy's), RFFT, IRFFT (names:
# ``numpy.fft`` loads at the first transform, not at ``import tnp``)
_FFTS = ("fftn", "ifftn", "rfftn", "irfftn")


@rule("fft")
def _fft(eqn, x):
    """NumPy's transform over the last ``len(fft_lengths)`` axes, of those lengths (an inverse
    real transform's are its output's)."""
    p = eqn.params
    lengths = tuple(p["fft_lengths"])
    transform = getattr(np.fft, _FFTS[int(p["fft_type"])])
    return transform(x, s=lengths, axes=tuple(range(-len(lengths), 0)))
