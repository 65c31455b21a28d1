"""Numerical ranges: linspace, logspace, geomspace (jitted kernels, static ``num`` and dtypes)."""
import functools
import math
import operator

from .._core.engine.jaxload import jit, jnp
import numpy as np

from .._core.numerics import division
from .._core.rules import dtypes, probe
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import to_jax
from .._core.dispatch.np_doc import np_doc
from .._core.numerics.casting import numpy_cast
from .._core.engine import devices, syncs
from .creation import asarray, check_size, elements, place
from .._ufuncs.table import power
from .reshaping import expand_dims

__all__ = ["linspace", "logspace", "geomspace"]


def _linspace_dtype(start_key, stop_key):
    ph = [dtypes.WEAK_PLACEHOLDER[k] if k in dtypes.WEAK_PLACEHOLDER else probe.Spec((), k)
          for k in (start_key, stop_key)]
    return probe.dtype_of(np.linspace, *ph, 0)


def _linspace_body(start, stop, num, endpoint, dt, axis):
    """NumPy's linspace arithmetic, step by step, in dtype ``dt``; returns (y, step)."""
    start, stop = numpy_cast(start, dt), numpy_cast(stop, dt)
    div = (num - 1) if endpoint else num
    delta = stop - start
    y = jnp.arange(num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        # divided, not multiplied by a reciprocal (linspace(0, 49, 50)[1] would be 0.999...:
        # ``division``)
        div = jnp.asarray(div, dt)
        step = division.true_divide(delta, div)
        y = jnp.where(jnp.any(step == 0), division.true_divide(y, div) * delta, y * step)
    else:
        step = None
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y = y.at[-1].set(jnp.broadcast_to(stop, y.shape[1:]))
    if axis != 0:
        y = jnp.moveaxis(y, 0, axis)
    return y, step


@functools.partial(jit, static_argnums=(2, 3, 4, 5, 6, 7))
def _linspace_kernel(start, stop, num, endpoint, dt, dtype, axis, rule):
    dt, dtype = np.dtype(dt), np.dtype(dtype)
    y, step = _linspace_body(start, stop, num, endpoint, dt, axis)
    if dtype.kind in "iu":
        y = jnp.floor(y)
    return devices.constrain(numpy_cast(y, dtype), rule), step


def _axis_for(axis, ndim):
    from numpy.exceptions import AxisError
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, "destination")  # NumPy's moveaxis(y, 0, axis) names it
    return axis % ndim


def _prepare(start, stop, num, dtype):
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dt = _linspace_dtype(dtypes.promotion_key(start), dtypes.promotion_key(stop))
    dt = dtypes.check_supported(dt)
    dtype = dt if dtype is None else dtypes.canonical(dtype)
    if dtype.kind in "iu" and dt.kind == "c":
        probe.call(np.floor, probe.Spec((1,), dt))  # NumPy's TypeError: no complex floor
    s, e = to_jax(start), to_jax(stop)
    # NumPy's broadcast (and its error) of ``stop - start``, on placeholders
    shape = probe.call(np.subtract, probe.Spec(e.shape, np.float64),
                       probe.Spec(s.shape, np.float64)).shape
    check_size(num * math.prod(shape), dtype)
    return s, e, num, dt, dtype


def _spaced_size(start, stop, num, *operands):
    """The element count of ``num`` samples along a new axis, spaced between the broadcast
    ``start``, ``stop`` (and ``operands``)."""
    shape = np.broadcast_shapes(*(np.shape(v) for v in (start, stop) + operands))
    return elements((num,) + shape)


def _linspace_size(start, stop, num=50, *args, **kwargs):
    """``result_size`` of ``linspace`` and ``geomspace``."""
    return _spaced_size(start, stop, num)


def _logspace_size(start, stop, num=50, endpoint=True, base=10.0, *args, **kwargs):
    return _spaced_size(start, stop, num, base)


@np_doc(np.linspace, result_size=_linspace_size)
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    s, e, num, dt, dtype = _prepare(start, stop, num, dtype)
    ndim = len(jnp.broadcast_shapes(s.shape, e.shape)) + 1
    y, step = _linspace_kernel(s, e, num, bool(endpoint), dt.char, dtype.char,
                               _axis_for(axis, ndim), devices.policy())
    y = place(ndarray._wrap(y), device)
    if retstep:
        return y, (ndarray._wrap(step) if step is not None else math.nan)
    return y


def _is_scalar_base(base):
    return isinstance(base, (float, int)) or np.ndim(base) == 0


@np_doc(np.logspace, result_size=_logspace_size)
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    if not _is_scalar_base(base):
        ndmax = len(np.broadcast_shapes(np.shape(start), np.shape(stop), np.shape(base)))
        start, stop, base = (asarray(a).reshape((1,) * (ndmax - np.ndim(a)) + np.shape(a))
                             for a in (start, stop, base))
        base = expand_dims(base, axis=axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    out = power(base, y)
    return out if dtype is None else out.astype(dtype, copy=False)


@functools.partial(jit, static_argnums=(2, 3, 4, 5, 6, 7))
def _geomspace_kernel(start, stop, num, endpoint, dt, dtype, axis, rule):
    dt, dtype = np.dtype(dt), np.dtype(dtype)
    start, stop = numpy_cast(start, dt), numpy_cast(stop, dt)
    if dt.kind == "c":
        out_sign = start / numpy_cast(jnp.abs(start), dt)
    else:
        out_sign = jnp.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    y, _ = _linspace_body(jnp.log10(start), jnp.log10(stop), num, endpoint, dt, 0)
    result = jnp.power(jnp.asarray(10.0, dt), y)
    shape = result.shape[1:]
    if num > 0:
        result = result.at[0].set(jnp.broadcast_to(start, shape))
        if num > 1 and endpoint:
            result = result.at[-1].set(jnp.broadcast_to(stop, shape))
    result = result * out_sign
    if axis != 0:
        result = jnp.moveaxis(result, 0, axis)
    return devices.constrain(numpy_cast(result, dtype), rule)


@np_doc(np.geomspace, result_size=_linspace_size,
        notes="Checking start and stop for zeros is a sync point (one bool).")
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    s, e = to_jax(start), to_jax(stop)
    if syncs.check(jnp.any(s == 0) | jnp.any(e == 0)):
        raise ValueError("Geometric sequence cannot include zero")
    num = operator.index(num)
    dtype = None if dtype is None else dtypes.canonical(dtype)
    dt = dtypes.check_supported(np.result_type(s.dtype, e.dtype, 0.0,
                                               np.float64 if dtype is None else dtype))
    dtype = dt if dtype is None else dtype
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    check_size(num * math.prod(jnp.broadcast_shapes(s.shape, e.shape)), dtype)
    ndim = len(jnp.broadcast_shapes(s.shape, e.shape)) + 1
    return ndarray._wrap(_geomspace_kernel(s, e, num, bool(endpoint), dt.char, dtype.char,
                                           _axis_for(axis, ndim), devices.policy()))
