"""Array properties as functions: ``shape``, ``ndim``, ``size`` (no data is touched)."""
import numpy as np

from .._core.rules import probe
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["shape", "ndim", "size"]


def _shape_of(a):
    s = getattr(a, "shape", None)
    return tuple(s) if s is not None and not isinstance(a, type) else asarray(a).shape


@np_doc(np.shape)
def shape(a):
    return _shape_of(a)


@np_doc(np.ndim)
def ndim(a):
    return len(_shape_of(a))


@np_doc(np.size)
def size(a, axis=None):
    s = _shape_of(a)
    if axis is None:
        return int(np.prod(s, dtype=np.int64))
    return probe.call(np.size, probe.Spec(s, np.int8), axis)  # NumPy's: an int, tuple or error
