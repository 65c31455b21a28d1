"""Array creation: from data, from shape and value, and numerical ranges."""
import math
import operator

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtypes
from .._core.ndarray import ndarray
from .._core.normalize import ArrayLike, DTypeLike, normalize, to_jax
from .._core.np_doc import np_doc

__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy",
           "astype", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
           "full_like", "arange"]


def _shape_tuple(shape):
    if isinstance(shape, (list, tuple)):
        return tuple(operator.index(s) for s in shape)
    return (operator.index(shape),)


def _check_shape(shape):
    shape = _shape_tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _from_object(obj, dtype, ndmin):
    """A jax.Array for any array-like: tnp/JAX arrays stay on the device; the rest is parsed by
    NumPy (so nested lists and mixed Python scalars get NumPy's dtype) and put on the device."""
    if isinstance(obj, ndarray):
        v = obj._value
    elif isinstance(obj, jax.Array):
        dtypes.check_supported(np.dtype(obj.dtype))
        v = obj
    else:
        host = np.array(obj, dtype=dtype, ndmin=ndmin, copy=None)
        dtypes.check_supported(host.dtype)
        return jax.device_put(host)
    if dtype is not None and v.dtype != dtype:
        v = _cast(v, dtype)
    if v.ndim < ndmin:
        v = v.reshape((1,) * (ndmin - v.ndim) + v.shape)
    return v


_cast_kernel = jax.jit(lambda x, dtype: x.astype(dtype), static_argnums=1)


def _cast(v, dtype):
    return _cast_kernel(v, np.dtype(dtype))


@np_doc(np.array)
def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0, like=None):
    dtype = None if dtype is None else dtypes.canonical(dtype)
    if copy is False:
        if isinstance(object, ndarray) and (dtype is None or dtype == object.dtype) and (
                object.ndim >= ndmin):
            return object
        if not isinstance(object, (ndarray, jax.Array)):
            raise ValueError("Unable to avoid copy while creating an array as requested.")
    if copy is None and isinstance(object, ndarray) and (dtype is None or dtype == object.dtype) \
            and object.ndim >= ndmin:
        return object
    # A copy of a tnp array shares the immutable jax.Array: the first write to either rebinds its
    # own buffer (the write path never donates a buffer that something else still holds).
    return ndarray._wrap(_from_object(object, dtype, ndmin))


@np_doc(np.asarray)
def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    out = array(a, dtype, copy=copy)
    if device is not None:
        out = ndarray._wrap(jax.device_put(out._value, device))
    return out


@np_doc(np.asanyarray)
def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    return asarray(a, dtype, device=device, copy=copy)


@np_doc(np.ascontiguousarray)
def ascontiguousarray(a, dtype=None, *, like=None):
    return array(a, dtype, copy=None, ndmin=1)


@np_doc(np.asfortranarray)
def asfortranarray(a, dtype=None, *, like=None):
    return array(a, dtype, copy=None, ndmin=1)


@np_doc(np.copy)
def copy(a, order="K", subok=False):
    return array(a, copy=True)


@np_doc(np.astype)
def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe"):
    dtype = dtypes.canonical(dtype)
    if not isinstance(x, ndarray):
        raise TypeError(f"Input should be a NumPy array. It is a {type(x)} instead.")
    if not np.can_cast(x.dtype, dtype, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dtype!r} according to "
                        f"the rule '{casting}'")
    if dtype == x.dtype and not copy:
        return x
    return ndarray._wrap(_cast(x._value, dtype) if dtype != x.dtype else x._value)


_fill_kernel = jax.jit(lambda value, shape, dtype: jnp.full(shape, value, dtype),
                       static_argnums=(1, 2))


def _filled(shape, value, dtype):
    return ndarray._wrap(_fill_kernel(value, _check_shape(shape), dtype))


@np_doc(np.zeros)
def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    return _filled(shape, 0, dtypes.canonical(dtype))


@np_doc(np.ones)
def ones(shape, dtype=None, order="C", *, device=None, like=None):
    return _filled(shape, 1, dtypes.canonical(dtype or float))


@np_doc(np.empty, notes="The contents are zeros (XLA has no uninitialised memory).")
def empty(shape, dtype=float, order="C", *, device=None, like=None):
    return _filled(shape, 0, dtypes.canonical(dtype))


def _fill_value(fill_value, dtype):
    """NumPy's conversion of a fill value to ``dtype`` (its OverflowError etc.), as an operand."""
    if isinstance(fill_value, (ndarray, jax.Array)):
        return to_jax(fill_value).astype(dtype)
    tmp = np.empty(np.shape(fill_value), dtype)
    tmp[...] = fill_value
    return tmp


@np_doc(np.full)
def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if dtype is None:
        dtype = np.asarray(fill_value).dtype if not isinstance(fill_value, ndarray) \
            else fill_value.dtype
    dtype = dtypes.canonical(dtype)
    shape = _check_shape(shape)
    return ndarray._wrap(_fill_kernel(_fill_value(fill_value, dtype), shape, dtype))


def _like_shape_dtype(a, dtype, shape):
    dt = dtypes.canonical(dtype) if dtype is not None else (
        a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype)
    dtypes.check_supported(np.dtype(dt))
    return (np.shape(a) if shape is None else _check_shape(shape)), np.dtype(dt)


@np_doc(np.zeros_like)
def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(a, dtype, shape)
    return _filled(shape, 0, dt)


@np_doc(np.ones_like)
def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(a, dtype, shape)
    return _filled(shape, 1, dt)


@np_doc(np.empty_like, notes="The contents are zeros.")
def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(prototype, dtype, shape)
    return _filled(shape, 0, dt)


@np_doc(np.full_like)
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(a, dtype, shape)
    return ndarray._wrap(_fill_kernel(_fill_value(fill_value, dt), shape, dt))


_arange_jit = jax.jit(lambda start, step, n, dtype, work: (
    start + jnp.arange(n, dtype=work) * step).astype(dtype), static_argnums=(2, 3, 4))


@np_doc(np.arange)
def arange(start_or_stop, /, stop=None, step=None, *, dtype=None, device=None, like=None):
    if stop is None:
        start, stop = 0, start_or_stop
    else:
        start = start_or_stop
    step = 1 if step is None else step
    for v in (start, stop, step):
        if isinstance(v, ndarray):
            if v.ndim:
                raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    start, stop, step = (v.item() if isinstance(v, ndarray) else v for v in (start, stop, step))
    # NumPy decides the dtype and the errors: an empty arange of the same argument types.
    probe = np.arange(start, type(stop)(start) if isinstance(stop, (int, float)) and not
                      isinstance(stop, bool) else stop, step, dtype=dtype)
    dt = dtypes.check_supported(probe.dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if all(isinstance(v, (int, np.integer)) for v in (start, stop, step)):
        n = len(range(int(start), int(stop), int(step)))
    else:
        n = max(0, math.ceil((complex(stop) - complex(start)).real / complex(step).real)) \
            if not isinstance(step, complex) else max(0, math.ceil(
                ((complex(stop) - complex(start)) / complex(step)).real))
    if dt.kind in "iub":
        work = np.dtype(np.int64) if dt.kind != "u" else np.dtype(np.uint64)
        if dt.kind == "b":
            return array(np.arange(start, stop, step, dtype=dt))
        start_c, step_c = int(start), int(step)
    else:
        work = np.dtype(np.complex128) if dt.kind == "c" else np.dtype(np.float64)
        start_c = complex(start) if dt.kind == "c" else float(start)
        delta = (start + step) - start
        step_c = complex(delta) if dt.kind == "c" else float(delta)
    return ndarray._wrap(_arange_jit(start_c, step_c, n, dt, work))
