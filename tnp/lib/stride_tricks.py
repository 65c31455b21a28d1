"""``numpy.lib.stride_tricks``: sliding_window_view.

XLA has no strided views: the windows are gathered into a new, read-only array (a copy, so it
costs window-size times the memory of a NumPy view). A host-tier array's windows are NumPy's,
copied on the host (the same read-only copy, without the device). ``writeable=True`` gives a
view instead (writes reach the array; reads gather): NumPy's strides over the bytes of a
C-contiguous array."""
import functools

from .._core.engine.jaxload import jit, jnp
import numpy as np

from .._core.dispatch import tiers
from .._core.rules import probe
from .._core.dispatch.fallback import module_getattr as _module_getattr
from .._core.array import storage
from .._core.array.flags import numpy_layout
from .._core.array.ndarray import ndarray
from .._core.array.subclasses import as_type_of
from .._core.dispatch.np_doc import np_doc
from .._routines.creation import asarray

__all__ = ["sliding_window_view"]


@functools.partial(jit, static_argnums=(1, 2))
def _windows(x, window_shape, axis):
    for ax, w in zip(axis, window_shape):
        n = x.shape[ax] - w + 1
        idx = jnp.arange(n)[:, None] + jnp.arange(w)[None, :]
        x = jnp.moveaxis(jnp.take(x, idx, axis=ax), ax + 1, -1)
    return x


@np_doc(np.lib.stride_tricks.sliding_window_view, namespace="lib.stride_tricks",
        notes="A read-only copy, not a strided view (writeable=True: a view of a "
              "C-contiguous array).")
def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    x = asarray(x)
    window_shape = tuple(int(w) for w in (window_shape if np.iterable(window_shape) else
                                          (window_shape,)))
    # NumPy's checks and result shape, on a zero-stride placeholder of x's shape
    ph = probe.call(np.lib.stride_tricks.sliding_window_view, probe.Spec(x.shape, bool),
                    window_shape, axis)
    if writeable:
        r = _writeable_windows(x, window_shape, axis)
    elif x._on_host:
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
    if not writeable:
        storage.set_writeable(r, False)
    return r


def _writeable_windows(x, window_shape, axis):
    """``writeable=True``: a view whose writes reach ``x`` (NumPy's strides over ``x``'s
    bytes: ``ndarray(shape, dtype, buffer=x, strides=...)``, the lens "strided"), for a
    C-contiguous ``x``; as writeable as ``x`` is."""
    if not x.flags.c_contiguous:
        raise ValueError("tnp: sliding_window_view(writeable=True) needs a C-contiguous array "
                         "(its windows are a strided view of its bytes); pass a copy, or "
                         "writeable=False for a read-only copy of the windows")
    w = np.lib.stride_tricks.sliding_window_view(numpy_layout(x), window_shape, axis)
    r = ndarray(w.shape, x.dtype, buffer=x, offset=0, strides=w.strides)
    storage.set_writeable(r, x.flags.writeable)
    return r


__getattr__ = _module_getattr(np.lib.stride_tricks, "lib.stride_tricks", globals())
