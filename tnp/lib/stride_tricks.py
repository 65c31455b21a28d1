"""``numpy.lib.stride_tricks``: sliding_window_view, as_strided.

XLA has no strided views: the windows are gathered into a new, read-only array (a copy, so it
costs window-size times the memory of a NumPy view). A host-tier array's windows are NumPy's,
copied on the host (the same read-only copy, without the device). ``writeable=True`` gives a
view instead, as ``as_strided`` does (writes reach the array; reads gather): NumPy's strides
over the bytes of the array's root (the lens "strided")."""
import functools

from .._core.engine.jaxload import jit, jnp
import numpy as np

from .._core.dispatch import tiers
from .._core.rules import probe
from .._core.dispatch.fallback import module_getattr as _module_getattr, numpy_fallback
from .._core.array import storage
from .._core.array.flags import numpy_layout, root_placeholder
from .._core.array.ndarray import ndarray
from .._core.array.subclasses import as_type_of, finalize
from .._core.dispatch.np_doc import np_doc
from .._routines.creation import asarray

__all__ = ["sliding_window_view", "as_strided"]


@functools.partial(jit, static_argnums=(1, 2))
def _windows(x, window_shape, axis):
    for ax, w in zip(axis, window_shape):
        n = x.shape[ax] - w + 1
        idx = jnp.arange(n)[:, None] + jnp.arange(w)[None, :]
        x = jnp.moveaxis(jnp.take(x, idx, axis=ax), ax + 1, -1)
    return x


@np_doc(np.lib.stride_tricks.sliding_window_view, namespace="lib.stride_tricks",
        notes="A read-only copy, not a strided view (writeable=True: a strided view).")
def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    x = asarray(x)
    window_shape = tuple(int(w) for w in (window_shape if np.iterable(window_shape) else
                                          (window_shape,)))
    # NumPy's checks and result shape, on a zero-stride placeholder of x's shape
    ph = probe.call(np.lib.stride_tricks.sliding_window_view, probe.Spec(x.shape, bool),
                    window_shape, axis)
    if writeable:
        r = _strided_view(x, lambda layout: np.lib.stride_tricks.sliding_window_view(
            layout, window_shape, axis), subok, x.flags.writeable)
        if r is None:
            raise ValueError("tnp: sliding_window_view(writeable=True) of an array laid out "
                             "in a permuted order is not supported; pass a C-ordered copy")
        return r
    if x._on_host:
        r = tiers.new_root(np.lib.stride_tricks.sliding_window_view(
            x._host(), window_shape, axis).copy())
    else:
        if axis is None:
            axis = tuple(range(x.ndim))
        else:
            axis = tuple(a % x.ndim for a in (axis if np.iterable(axis) else (axis,)))
        out = (_windows(x._value, window_shape, axis) if 0 not in ph.shape
               else jnp.zeros(ph.shape, x.dtype))
        r = ndarray._wrap(out.reshape(ph.shape))
    if subok:  # a subclass's windows are of its class
        r = as_type_of(r, x)
    storage.set_writeable(r, False)
    return r


_numpy_as_strided = numpy_fallback(np.lib.stride_tricks.as_strided,
                                   "lib.stride_tricks.as_strided")


@np_doc(np.lib.stride_tricks.as_strided, namespace="lib.stride_tricks", host_tier=False,
        notes="A view (writes reach the array; reads gather): NumPy's strides over the bytes "
              "of the array's root. Strides reaching outside the root's bytes (undefined in "
              "NumPy), a root laid out in a permuted order or an object dtype: a copy, "
              "through NumPy.")
def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    a = asarray(x) if not isinstance(x, ndarray) else x
    r = _strided_view(a, lambda layout: np.lib.stride_tricks.as_strided(layout, shape, strides),
                      subok, writeable and a.flags.writeable)
    if r is None:
        return _numpy_as_strided(x, shape, strides, subok, writeable)
    return r


def _strided_view(x, strided, subok, writeable):
    """The view of ``x``'s root that ``ph = strided(layout)`` is of ``x``'s NumPy layout (a
    NumPy view over the same memory, NumPy's checks done): the lens "strided" over the root's
    bytes, at the offset and strides ``ph`` has there; of ``x``'s class with ``subok``. None
    where the root's bytes are not in C order or ``ph`` reaches outside them, or the dtype
    holds objects (no byte view of references)."""
    root = x._root
    base = root_placeholder(root)
    if not base.flags.c_contiguous or x.dtype.hasobject:
        return None
    ph = strided(numpy_layout(x, base))
    start = ph.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    if ph.size:
        lo = start + sum(min(0, (n - 1) * s) for n, s in zip(ph.shape, ph.strides))
        hi = start + sum(max(0, (n - 1) * s) for n, s in zip(ph.shape, ph.strides))
        if lo < 0 or hi + ph.itemsize > base.nbytes:
            return None
    octets = root.reshape(-1).view(np.uint8)
    cls = type(x) if subok else ndarray
    v = octets._view(("strided", (start, ph.shape, ph.strides, x.dtype)), (), ph.shape,
                     x.dtype, writeable, cls=cls)
    if cls is not ndarray:
        finalize(v, x)
    return v


__getattr__ = _module_getattr(np.lib.stride_tricks, "lib.stride_tricks", globals())
