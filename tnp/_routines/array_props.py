"""Array properties as functions: ``shape``, ``ndim``, ``size``, ``isfortran`` (no data is
touched), and ``iterable``."""
import numpy as np

from .._core.rules import probe
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["shape", "ndim", "size", "isfortran", "iterable"]


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


@np_doc(np.isfortran)
def isfortran(a):
    flags = a.flags
    return flags.f_contiguous and not flags.c_contiguous


@np_doc(np.iterable)
def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True
