"""Array creation: from data, from shape and value, and numerical ranges."""
import functools
import inspect
import math
import operator

from .._core.engine.jaxload import jax, jit, jnp, JaxArray
import numpy as np

from .._core.engine import caches, devices, lazy
from .._core.rules import dtypes, probe
from .._core.array import flags, storage
from .._core.dispatch import tiers
from .._core.array.subclasses import as_type_of
from .._core.numerics.casting import cast, cast_kernel, numpy_cast, warn_complex_to_real
from .._core.engine.devices import place
from .._core.dispatch.fallback import to_numpy_tree
from .._core.numerics.fperr import cast_check, check_cast
from .._core.array.ndarray import (host_copy, ndarray, protocol_array, refused_array_method,
                                   refused_protocol_array)
from .._core.dispatch.normalize import to_jax
from .._core.engine.tracing import in_trace
from .._core.dispatch.np_doc import np_doc, numpy_signature

__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy",
           "astype", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
           "full_like", "arange"]


def _shape_tuple(shape):
    """``shape`` as NumPy reads one: an integer, or a sequence of integers (a list, a tuple,
    a 1-d integer array)."""
    if isinstance(shape, (list, tuple)) or isinstance(shape, ndarray) and shape.ndim:
        return tuple(operator.index(s) for s in shape)
    return (operator.index(shape),)


def _check_shape(shape, dtype):
    """``shape`` as a tuple, with NumPy's errors for a negative dimension, for more than NumPy's
    64 dimensions and for an array whose size in bytes exceeds the largest intp (XLA would
    abort the process): those of a data-free NumPy placeholder of that shape."""
    try:
        shape = _shape_tuple(shape)
    except TypeError:
        np.empty(to_numpy_tree(shape), np.int8)  # NumPy's own TypeError
        raise
    probe.placeholder(probe.Spec(shape, dtype))
    return shape


def elements(shape):
    """The element count of a result of ``shape`` (an int or a sequence of ints): a creation
    routine's ``result_size`` (``frontend.entry``). None for a negative dimension (NumPy gives
    the error); TypeError for a shape that is not integers."""
    if type(shape) is int:
        return shape if shape >= 0 else None
    dims = _shape_tuple(shape)
    return None if any(d < 0 for d in dims) else math.prod(dims)


def _shape_size(shape, *args, **kwargs):
    """``result_size`` of a routine whose first argument is its result's shape."""
    return elements(shape)


def _like_size(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``result_size`` of a ``*_like`` routine: known when ``a`` is not a tnp array (the call
    on one is placed as its input is)."""
    return None if isinstance(a, ndarray) else elements(np.shape(a) if shape is None else shape)


def _full_like_size(a, fill_value, *args, **kwargs):
    return _like_size(a, *args, **kwargs)


def check_size(n, dtype):
    """NumPy's ValueError for ``n`` elements of ``dtype`` over the largest intp in bytes."""
    if n * np.dtype(dtype).itemsize > np.iinfo(np.intp).max:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than "
                         "the maximum possible size.")


@np_doc(np.array)
def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=0, like=None):
    if order != "K" and order is not None:
        _check_order(order, np.array, 0)
    copy = _copy_mode(copy)
    dtype = None if dtype is None else dtypes.canonical(dtype)
    order = order.upper() if isinstance(order, str) else order
    if ndmax and isinstance(object, (ndarray, JaxArray)):  # NumPy's checks of ndmax
        probe.call(np.array, probe.small(object), dtype=dtype, ndmin=ndmin, ndmax=ndmax)
    if copy is not True and isinstance(object, ndarray) and (
            dtype is None or dtype == object.dtype) and _has_layout(object, order):
        if object.ndim >= ndmin:
            # a stand-in for a NumPy scalar becomes a real 0-d array (a new one, as NumPy's)
            if not object._scalar:
                return object
            if copy is False:
                np.array(np.int8(0), copy=False)  # NumPy's own ValueError: a scalar is copied
            return ndarray._wrap(object._value)._as_array()
        shape = (1,) * (ndmin - object.ndim) + object.shape
        return object._view(("reshape", (object.shape, shape)), (), shape)
    if copy is False and not (isinstance(object, JaxArray) and (
            dtype is None or dtype == object.dtype)):
        got = None if isinstance(object, (ndarray, np.generic)) else protocol_array(
            object, dtype, copy)
        if got is not None:  # NumPy trusts what ``__array__(copy=False)`` returns
            return array(got, dtype, copy=False, order=order, ndmin=ndmin)
        np.array([0], copy=False)  # NumPy's own ValueError (its message names the migration)
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    # A copy of a tnp array shares the immutable jax.Array: the first write to either rebinds its
    # own buffer (the write path never donates a buffer that something else still holds).
    if isinstance(object, (ndarray, JaxArray)):
        if dtype is not None:
            warn_complex_to_real(object.dtype, dtype)
        out = ndarray._wrap(to_jax(object, dtype, ndmin))._as_array()
    else:  # host data: NumPy parses it; placed on the host or the device (placement)
        try:
            host = host_copy(object, dtype, ndmin, copy, ndmax)
        except ValueError as e:  # an ``__array__`` (of a class written for tnp) gave a tnp array
            if type(object) not in (list, tuple):  # NumPy trusts what ``__array__`` returns
                got = refused_protocol_array(object, e, dtype, copy)
                return array(got, dtype, copy=None, order=order, ndmin=ndmin)
            if not refused_array_method(e):
                raise
            host = host_copy(to_numpy_tree(object), dtype, ndmin)
        out = tiers.new_root(host)._as_array()
    return flags.lay_out(out, flags.copy_order(object, order) if isinstance(object, ndarray)
                         else order)


def _copy_mode(copy):
    """``copy=`` as NumPy reads it: True, None (if needed) or False (never); its own
    ``np._CopyMode`` members and anything with a truth value (whose error comes through)."""
    if copy is None or type(copy) is bool:
        return copy
    if isinstance(copy, np._CopyMode):
        return {np._CopyMode.ALWAYS: True, np._CopyMode.IF_NEEDED: None}.get(copy, False)
    if isinstance(copy, str):
        raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None "
                         "instead.")
    return bool(copy)


def _has_layout(a, order):
    """Whether ``a`` already has the layout ``order`` asks for (NumPy then makes no copy)."""
    if order not in ("C", "F"):
        return True
    if order == "C" and a._base is None and flags.root_order(a) is None:
        return True
    layout = flags.numpy_layout(a).flags
    return layout.c_contiguous if order == "C" else layout.f_contiguous


@np_doc(np.asarray)
def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    return place(array(a, dtype, copy=copy, order=order), device)


@np_doc(np.asanyarray)
def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    return asarray(a, dtype, device=device, copy=copy)


@np_doc(np.ascontiguousarray)
def ascontiguousarray(a, dtype=None, *, like=None):
    return array(a, dtype, copy=None, order="C", ndmin=1)


@np_doc(np.asfortranarray)
def asfortranarray(a, dtype=None, *, like=None):
    return array(a, dtype, copy=None, order="F", ndmin=1)


@np_doc(np.copy)
def copy(a, order="K", subok=False):
    if order != "K":
        _check_order(order, np.copy, probe.Spec((0,), np.int8))
    return array(a, copy=True, order=order)


@np_doc(np.astype)
def astype(x, dtype, /, *, copy=True, device=None):
    dtype = dtypes.canonical(dtype)
    if not isinstance(x, ndarray):
        np.astype(x, dtype)  # NumPy's own TypeError for what it does not take (wording varies)
        if not isinstance(x, np.generic):
            raise TypeError(f"Input should be a NumPy array. It is a {type(x)} instead.")
        x = storage.mark_scalar(array(x))  # a NumPy scalar NumPy takes: its astype is a scalar
    if dtype == x.dtype and not copy and devices.check(device) is None:
        return x
    if x.dtype.kind == "f" and dtype.kind in "iu":
        check_cast(x._value, dtype)
    warn_complex_to_real(x.dtype, dtype)
    if x.dtype != dtype and device is None and lazy.recording():
        out = lazy.adopt(ndarray._wrap(lazy.call(
            cast_kernel(dtype.char), (lazy.operand(x),), x.shape, dtype,
            cast_check(dtype) if x.dtype.kind == "f" and dtype.kind in "iu" else None)))
        storage.scalar_like(out, x)
        return flags.lay_out(out, flags.copy_order(x, "K"))
    out = ndarray._wrap(cast(x._value, dtype))
    storage.scalar_like(out, x)  # a NumPy scalar's astype is a scalar, an array's an array
    return place(flags.lay_out(out, flags.copy_order(x, "K")), device)


@caches.kernel_cache
def _fill_kernel(dtype):
    """The fill kernel of a dtype (by its type code): one executable per shape, tracked by
    ``tnp._core.engine.caches`` (a program making arrays of ever-new shapes, as NumPy's test
    generators do, prunes this kernel's executables, not all of JAX's)."""
    return jit(lambda value, shape, rule: devices.constrain(jnp.full(shape, value, dtype), rule),
               static_argnums=(1, 2))


def _check_order(order, fn=np.empty, *args):
    """NumPy's ValueError/TypeError for an ``order`` it rejects (``fn`` probed on a 0-size
    placeholder; by default NumPy's rule for creation from a shape)."""
    if order != "C":
        probe.call(fn, *(args or (0,)), order=order)


def _out_of_memory(shape, dtype):
    """NumPy's MemoryError (its ``_ArrayMemoryError`` where NumPy has it) for an allocation of
    ``shape`` and ``dtype`` that the device refused."""
    try:
        from numpy._core._exceptions import _ArrayMemoryError
        return _ArrayMemoryError(tuple(shape), np.dtype(dtype))
    except Exception:  # noqa: BLE001 - NumPy's private class moved: the public one
        return MemoryError(f"Unable to allocate an array with shape {tuple(shape)} and data "
                           f"type {np.dtype(dtype)}")


_SMALL_FILL = 4096  # elements: a filled array this small is NumPy's, uploaded


def _fill(value, shape, dtype):
    """The filled array; the device's out-of-memory error becomes NumPy's MemoryError. In the
    mode "device", a small one is made by NumPy and uploaded: no kernel compiled for each new
    shape (a program making arrays of many small shapes compiled one per shape, ~60 ms each).
    (In the mode "auto" a small result is NumPy's on the host, or placed as its input is.)"""
    if (tiers.MODE == "device" and math.prod(shape) <= _SMALL_FILL
            and not isinstance(value, JaxArray) and not in_trace()):
        return tiers.new_root(np.full(shape, value, dtype))._as_array()
    try:
        return ndarray._wrap(_fill_kernel(dtype.char)(value, shape, devices.policy()))._as_array()
    except jax.errors.JaxRuntimeError as e:
        if "RESOURCE_EXHAUSTED" in str(e):
            raise _out_of_memory(shape, dtype) from None
        raise


def _filled(shape, value, dtype):
    return _fill(value, _check_shape(shape, dtype), dtype)


@np_doc(np.zeros, result_size=_shape_size)
def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    _check_order(order)
    return flags.lay_out(place(_filled(shape, 0, dtypes.canonical(
        float if dtype is None else dtype)), device), order)


@np_doc(np.ones, result_size=_shape_size)
def ones(shape, dtype=None, order="C", *, device=None, like=None):
    _check_order(order)
    return flags.lay_out(place(_filled(shape, 1, dtypes.canonical(
        float if dtype is None else dtype)), device), order)


@np_doc(np.empty, result_size=_shape_size,
        notes="The contents are zeros (XLA has no uninitialised memory).")
def empty(shape, dtype=None, order="C", *, device=None, like=None):
    _check_order(order)
    return flags.lay_out(place(_filled(shape, 0, dtypes.canonical(
        float if dtype is None else dtype)), device), order)


def _fill_value(fill_value, dtype):
    """NumPy's conversion of a fill value to ``dtype`` (its OverflowError etc.), as an operand."""
    if isinstance(fill_value, (ndarray, JaxArray)):
        return cast(to_jax(fill_value), dtype)
    tmp = np.empty(np.shape(fill_value), dtype)
    np.copyto(tmp, fill_value, casting="unsafe")
    return tmp


@np_doc(np.full, result_size=_shape_size)
def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if dtype is None:
        dtype = np.asarray(fill_value).dtype if not isinstance(fill_value, ndarray) \
            else fill_value.dtype
    dtype = dtypes.canonical(dtype)
    shape = _check_shape(shape, dtype)
    _check_order(order)
    return flags.lay_out(place(_fill(_fill_value(fill_value, dtype), shape, dtype), device), order)


def _like_order(a, order, shape):
    """'F' where NumPy's ``*_like`` of ``a`` lays its result out in Fortran order, 'C' or an
    order of the axes (``flags.mark_order``): 'A' follows a Fortran-ordered ``a``; 'K' (with
    ``a``'s number of dimensions) follows ``a``'s layout, a non-contiguous one as NumPy's 'K'
    copy of it."""
    if not isinstance(order, str) or order.upper() not in ("A", "K"):
        return order
    layout = flags.numpy_layout(a) if isinstance(a, ndarray) else (
        a if isinstance(a, np.ndarray) else None)
    if layout is None:
        return "C"
    c, f = layout.flags.c_contiguous, layout.flags.f_contiguous
    if order.upper() == "A" or c or f:
        return "F" if f and not c and (order.upper() == "A" or shape is None
                                       or len(shape) == layout.ndim) else "C"
    if shape is not None and len(shape) != layout.ndim:
        return "C"
    return flags.k_order(layout)


def _like_shape_dtype(a, dtype, shape):
    dt = dtypes.canonical(dtype) if dtype is not None else (
        a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype)
    dtypes.check_supported(np.dtype(dt))
    return (np.shape(a) if shape is None else _check_shape(shape, dt)), np.dtype(dt)


def _like(r, a, order, shape, subok):
    """The new array ``r`` of a ``*_like`` of ``a``: laid out as NumPy's and, with ``subok``,
    of ``a``'s subclass of tnp.ndarray (its ``__array_finalize__`` called, as NumPy does)."""
    if subok and isinstance(a, ndarray):
        r = as_type_of(r, a)
    return flags.lay_out(r, _like_order(a, order, shape))


@np_doc(np.zeros_like, result_size=_like_size)
def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(a, dtype, shape)
    return _like(place(_filled(shape, 0, dt), device), a, order, shape, subok)


@np_doc(np.ones_like, result_size=_like_size)
def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(a, dtype, shape)
    return _like(place(_filled(shape, 1, dt), device), a, order, shape, subok)


@np_doc(np.empty_like, result_size=_like_size, notes="The contents are zeros.")
def empty_like(prototype, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(prototype, dtype, shape)
    return _like(place(_filled(shape, 0, dt), device), prototype, order, shape, subok)


@np_doc(np.full_like, result_size=_full_like_size)
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    shape, dt = _like_shape_dtype(a, dtype, shape)
    return _like(place(_fill(_fill_value(fill_value, dt), shape, dt), device), a, order, shape,
                 subok)


@functools.partial(jit, static_argnums=(2, 3, 4))
def _arange_kernel(first, second, n, dtype, rule):
    """NumPy's arange fill: ``a[0]``, ``a[1]`` as given, ``a[i] = a[0] + i * (a[1] - a[0])``
    computed in the dtype (float16 in float32, as NumPy's HALF_fill)."""
    dtype = np.dtype(dtype)
    work = np.dtype(np.float32) if dtype == np.float16 else dtype
    first, second = jnp.asarray(first, dtype), jnp.asarray(second, dtype)
    f, s = numpy_cast(first, work), numpy_cast(second, work)
    # XLA on CPU contracts this multiply-add into an FMA where NumPy rounds the product first:
    # results can differ by half an ulp of the largest magnitude involved.
    y = numpy_cast(f + jnp.arange(n, dtype=work) * (s - f), dtype)
    return devices.constrain(y.at[:2].set(jnp.stack([first, second])[:min(n, 2)]), rule)


_INT_SAFE = 2 ** 62  # Python ints this small make an int64 arange with no overflow check


def _probe_stop(start, stop):
    """A stop of ``stop``'s type equal to ``start``: NumPy then decides dtype and errors cheaply."""
    if type(stop) is bool:
        return stop
    try:
        return type(stop)(start)
    except (TypeError, ValueError, OverflowError):
        return stop


def _arange_length(start, stop, step):
    with np.errstate(all="ignore"):
        q = (stop - start) / step
    if isinstance(q, (complex, np.complexfloating)):
        parts = (q.real, q.imag)
    else:
        parts = (q,)
    if any(math.isnan(p) for p in parts):
        raise ValueError("arange: cannot compute length")
    if any(math.isinf(p) for p in parts):
        raise ValueError("Maximum allowed size exceeded")
    if len(parts) == 1 and parts[0] == 0 and stop != start:
        # NumPy (real quotients only): a quotient that underflowed to 0 is 1 step
        return 0 if math.copysign(1, parts[0]) < 0 else 1
    return max(0, min(math.ceil(p) for p in parts))


def _check_int_items(values, dt):
    """NEP 50 as NumPy's arange applies it: Python numbers stored into an integer dtype must fit."""
    if dt.kind in "iu":
        for v in values:
            if type(v) in (int, float):
                dtypes.check_python_int(int(v), dt)


_REAL = (int, float, np.integer, np.floating)


# The parameters NumPy's C code parses (its published signature shows ``start`` as
# positional-only; ``start=`` and ``stop=`` alone are taken too)
_ARANGE = inspect.Signature([
    inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
    for n in ("start", "stop", "step", "dtype")] + [
    inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None) for n in ("device", "like")])


def _arange_args(args, kwargs):
    """``(start_or_stop, stop, step, dtype, device)`` of an ``arange`` call, as NumPy reads it
    (its TypeError for arguments it does not take)."""
    try:
        b = _ARANGE.bind(*args, **kwargs).arguments
    except TypeError:
        np.arange(*args, **kwargs)  # NumPy's own TypeError
        raise
    start, stop = b.get("start"), b.get("stop")
    if "start" in b and start is None:
        np.arange(*args, **kwargs)  # NumPy's own TypeError for a start of None
    if stop is None and not args:
        raise TypeError("arange() requires stop to be specified.")
    if start is None:
        start, stop = stop, None
    return start, stop, b.get("step"), b.get("dtype"), b.get("device")


def _arange_size(*args, **kwargs):
    """``arange``'s ``result_size``: known for real numbers."""
    start_or_stop, stop, step = _arange_args(args, kwargs)[:3]
    start, stop = (0, start_or_stop) if stop is None else (start_or_stop, stop)
    step = 1 if step is None else step
    if type(start) is int and type(stop) is int and type(step) is int and step:
        return max(0, (stop - start) // step + ((stop - start) % step != 0))  # (the common call)
    if all(isinstance(v, _REAL) for v in (start, stop, step)) and step:
        return _arange_length(start, stop, step)
    return None


@numpy_signature
@np_doc(np.arange, result_size=_arange_size)
def arange(*args, **kwargs):
    start_or_stop, stop, step, dtype, device = _arange_args(args, kwargs)
    return place(_arange(start_or_stop, stop, step, dtype), device)


def _arange(start_or_stop, stop, step, dtype):
    if stop is None:
        start, stop = 0, start_or_stop
    else:
        start = start_or_stop
    step = 1 if step is None else step
    if dtype is None and type(start) is type(stop) is type(step) is int and step and all(
            -_INT_SAFE < v < _INT_SAFE for v in (start, stop, step)):
        # The common call, Python ints well inside int64: NumPy's dtype is int64, its length
        # that of Python's range, and its values exact (no probe needed).
        n = len(range(start, stop, step))
        check_size(n, np.int64)
        return ndarray._wrap(_arange_kernel(start, start + step, n, "q", devices.policy()))
    for v in (start, stop, step):
        if isinstance(v, ndarray) and v.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    start, stop, step = (v.item() if isinstance(v, ndarray) else v for v in (start, stop, step))
    dt = dtypes.check_supported(np.arange(start, _probe_stop(start, stop), step,
                                          dtype=dtype).dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    n = _arange_length(start, stop, step)
    check_size(n, dt)
    if dt.kind == "b":
        return array(np.arange(start, stop, step, dtype=dt))
    _check_int_items((start, start + step) if n > 1 else (start,) if n else (), dt)
    with np.errstate(all="ignore"):
        first = np.asarray(start).astype(dt)
        second = np.asarray(start + step).astype(dt) if n > 1 else first
    return ndarray._wrap(_arange_kernel(first, second, n, dt.char, devices.policy()))
