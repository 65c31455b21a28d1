"""Broadcasting: ``broadcast_to`` (a read-only view), ``broadcast_arrays``, ``broadcast_shapes``
and the ``broadcast`` object."""
import inspect

import numpy as np

from .._core.rules import probe
from .._core.array import storage
from .._core.array.ndarray import ndarray
from .._core.array.subclasses import finalize
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["broadcast_to", "broadcast_arrays", "broadcast_shapes", "broadcast"]


@np_doc(np.broadcast_to, host_tier=False,  # (tnp's view on either tier: nothing copied)
        notes="A read-only view, as NumPy's.")
def broadcast_to(array, shape, subok=False):
    array = asarray(array)
    shape = probe.call(np.broadcast_to, probe.like(array), shape).shape  # NumPy's check
    kept = subok and type(array) is not ndarray  # a subclass's view, only with ``subok``
    v = array._view(("broadcast", shape), (), shape, cls=None if kept else ndarray)
    if kept:
        finalize(v, array)
    return v


@np_doc(np.broadcast_arrays, host_tier=False,  # (tnp's views on either tier)
        notes="Broadcast results are views, writeable with NumPy's warnings, as NumPy's.")
def broadcast_arrays(*args, subok=False):
    args = [asarray(a) for a in args]
    shape = np.broadcast_shapes(*(a.shape for a in args))
    return tuple(_stretched(a, shape, subok) if a.shape != shape else
                 a if subok or type(a) is ndarray else  # a subclass's array as a plain view:
                 a._view(("reshape", (a.shape, a.shape)), (), a.shape, cls=ndarray)
                 for a in args)


def _stretched(a, shape, subok):
    """``broadcast_to``'s view of ``a``, writeable where ``a`` is, with NumPy's
    ``_warn_on_write`` mark (a write warns, as reading its ``writeable`` flag does)."""
    v = broadcast_to(a, shape, subok)
    if a.flags._writeable_no_warn:
        storage.set_writeable(v, True)
        storage.set_warn_on_write(v)
    return v


@np_doc(np.broadcast_shapes)
def broadcast_shapes(*args):
    return np.broadcast_shapes(*args)


@np_doc(np.broadcast, notes="Iteration (``next``, ``index``, ``iters``, ``reset``) is a sync "
                            "point: the arrays come to the host once, on first use, and NumPy's "
                            "broadcast object walks them (elements are NumPy scalars).")
class broadcast:
    __signature__ = inspect.Signature([inspect.Parameter("arrays",
                                                         inspect.Parameter.VAR_POSITIONAL)])

    def __init__(self, *arrays, **kwargs):
        if kwargs:
            raise ValueError("keyword arguments not accepted.")
        flat = []
        for a in arrays:
            flat.extend(a._arrays if isinstance(a, broadcast) else [asarray(a)])
        self._arrays = flat
        layout = np.broadcast(*[probe.placeholder(probe.like(a)) for a in flat])  # NumPy's checks
        self.shape, self.ndim, self.numiter, self.size = (
            layout.shape, layout.ndim, layout.numiter, layout.size)
        self._host = None

    @property
    def nd(self):
        return self.ndim

    def _iter(self):
        if self._host is None:
            self._host = np.broadcast(*[np.asarray(a) for a in self._arrays])
        return self._host

    @property
    def index(self):
        return 0 if self._host is None else self._host.index

    @property
    def iters(self):
        return tuple(_BroadcastIter(it, a) for it, a in zip(self._iter().iters, self._arrays))

    def reset(self, /):
        if self._host is not None:
            self._host.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iter())


class _BroadcastIter:
    """One of ``broadcast.iters``: NumPy's iterator over the host copy, ``base`` the tnp array."""

    def __init__(self, it, base):
        self._it, self.base = it, base

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def __getattr__(self, name):
        return getattr(self._it, name)
