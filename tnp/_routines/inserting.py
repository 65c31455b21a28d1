"""Routines that write into an existing array: every one goes through ``write.assign``."""
import functools
import operator

from .._core.engine.jaxload import jit, jnp, JaxArray
import numpy as np

from .._core.array import write
from .._core.numerics.casting import cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import normalize_axis, to_jax, where_mask
from .._core.dispatch.np_doc import np_doc
from .._core.engine import syncs

__all__ = ["copyto", "put", "put_along_axis", "putmask", "place", "fill_diagonal"]

_PY_SCALARS = (bool, int, float, complex)


def _flat_view(a):
    return a._view(("reshape", (a.shape, (a.size,))), (), (a.size,))


def _require_ndarray(a, what):
    if not isinstance(a, ndarray):
        raise TypeError(f"{what} must be a numpy.ndarray, not {type(a).__name__}")


def _mask(mask, a, name):
    m = to_jax(mask)
    if m.dtype != np.bool_:
        m = cast(m, np.bool_)
    if m.size != a.size:
        raise ValueError(f"{name}: mask and data must be the same size")
    return m.reshape(a.shape)


def _from_any(obj, dtype, safe):
    """NumPy's conversion of a written operand: arrays are checked for ``safe`` casting (when
    ``safe``) and cast in the write kernel; scalars and sequences convert as NumPy's setitem."""
    if isinstance(obj, ndarray):
        obj = obj._value
    if isinstance(obj, (np.ndarray, JaxArray)):
        if safe and not np.can_cast(obj.dtype, dtype, "safe"):
            what = "scalar" if obj.ndim == 0 else "array data"
            raise TypeError(f"Cannot cast {what} from {np.dtype(obj.dtype)!r} to {dtype!r} "
                            "according to the rule 'safe'")
        return obj
    return np.asarray(write.host_value(obj, dtype)).astype(dtype, copy=False)


@np_doc(np.copyto)
def copyto(dst, src, casting="same_kind", where=True):
    _require_ndarray(dst, "copyto() argument 1")
    if type(src) in _PY_SCALARS or isinstance(src, np.generic):
        converted = np.empty((), dst.dtype)
        np.copyto(converted, src, casting=casting)  # NumPy's casting rule and conversion
        src = converted
    else:
        if not isinstance(src, (ndarray, JaxArray, np.ndarray)):
            src = np.asarray(src)
        if not np.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {np.dtype(src.dtype)!r} to "
                            f"{dst.dtype!r} according to the rule {casting!r}")
    write.check_broadcast(src.shape, dst.shape)
    wh = None
    if where is not True:
        wh = where_mask(where)
        write.check_where(wh.shape, dst.shape)
    write.assign(dst, src, where=wh)


@np_doc(np.put)
def put(a, ind, v, mode="raise"):
    if not isinstance(a, ndarray):
        raise TypeError(f"argument 1 must be numpy.ndarray, not {type(a)}")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    idx = to_jax(_from_any(ind, np.dtype(np.intp), safe=True))
    if idx.size == 0:
        return
    vals = write.cyclic(v, idx.size, a.dtype)
    if vals is None:
        return
    idx = idx.reshape(-1)
    if a.size == 0:  # NumPy's IndexError (its wording depends on the version)
        np.put(np.empty(0, a.dtype), 0, 0, mode=mode)
        return
    if mode != "raise":
        idx = _wrap_or_clip(idx, a.size, mode == "wrap")
    write.assign(_flat_view(a), vals, index=idx, readonly="put: output array is read-only")


@functools.partial(jit, static_argnums=(1, 2))
def _wrap_or_clip(idx, n, wrap):
    return idx % n if wrap else jnp.clip(idx, 0, n - 1)


@np_doc(np.put_along_axis)
def put_along_axis(arr, indices, values, axis):
    _require_ndarray(arr, "put_along_axis() argument 1")
    idx = to_jax(indices)
    if idx.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    target = arr
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        target, axis = _flat_view(arr), 0
    if idx.ndim != target.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis(operator.index(axis), target.ndim)
    index = tuple(idx if d == axis else np.arange(n).reshape(
        [n if k == d else 1 for k in range(target.ndim)]) for d, n in enumerate(target.shape))
    write.assign(target, values, index=index)


@np_doc(np.putmask)
def putmask(a, /, mask, values):
    _require_ndarray(a, "putmask() argument a")
    m = _mask(mask, a, "putmask")
    vals = write.cyclic(_from_any(values, a.dtype, safe=True), a.size, a.dtype)
    if vals is None:
        return
    write.assign(a, vals.reshape(a.shape) if vals.ndim else vals, where=m,
                 readonly="putmask: output array is read-only")


@functools.lru_cache(maxsize=None)
def _place_kernel():
    def spread(mask, v):
        pos = jnp.cumsum(mask.reshape(-1), dtype=np.int64) - 1
        return jnp.ravel(v)[pos % v.size].reshape(mask.shape)
    return jit(spread)


@np_doc(np.place, notes="Sync point only when ``vals`` is empty (whether any mask value is True).")
def place(arr, mask, vals):
    if not isinstance(arr, ndarray):
        raise TypeError(f"argument 1 must be numpy.ndarray, not {type(arr)}")
    m = _mask(mask, arr, "place")
    v = _from_any(vals, arr.dtype, safe=True)
    if np.size(v) == 0:
        if syncs.check(jnp.any(m)):
            raise ValueError("Cannot insert from an empty array!")
        return
    write.assign(arr, _place_kernel()(m, jnp.asarray(v, arr.dtype)), where=m,
                 readonly="WRITEBACKIFCOPY base is read-only")


@np_doc(np.fill_diagonal)
def fill_diagonal(a, val, wrap=False):
    _require_ndarray(a, "fill_diagonal() argument a")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
    a.flat[:end:step] = val

