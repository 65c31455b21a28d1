"""Subclasses of ``tnp.ndarray``, as NumPy treats its own: a new array made like one is of its
class (``as_type_of``), and that class's ``__array_finalize__`` is called (``finalize``).
``DEFINED[0]``: whether a program has defined a subclass (tnp's own are not counted), so that
the entries' question of a result's class costs nothing until one exists."""
import numpy as np

from . import storage
from .ndarray import finalize, ndarray


def as_type_of(r, a):
    """The new root ``r`` as an array of ``a``'s class where that is a subclass of tnp.ndarray
    (its buffer moved to a root of that class, whose ``__array_finalize__`` is called with
    ``a``), as NumPy makes a new array like ``a``; else ``r``."""
    return as_subclass(r, type(a), a)


def as_subclass(r, cls, obj):
    """The new root ``r`` as an array of ``cls`` (tnp.ndarray or a subclass of it), whose
    ``__array_finalize__`` is called with ``obj``."""
    if cls is ndarray:
        return r
    buf = r._buf
    out = cls._wrap_host(buf, r._dtype) if type(buf) is np.ndarray else cls._wrap(buf)
    storage.mark_scalar(out, False)
    finalize(out, obj)
    return out


def view_of_class(r, cls, obj):
    """A view of ``r`` as an array of ``cls`` (tnp.ndarray or a subclass of it) whose
    ``__array_finalize__`` is called with ``obj``: NumPy's view made by ``__array_wrap__``, or
    by a function keeping its argument's class, of an array that is already someone's view."""
    v = r._view(("reshape", (r._shape, r._shape)), (), r._shape, cls=cls)
    finalize(v, obj)
    return v


DEFINED = [False]


def _init_subclass(cls, **kwargs):
    super(ndarray, cls).__init_subclass__(**kwargs)
    if not cls.__module__.startswith("tnp."):
        DEFINED[0] = True


ndarray.__init_subclass__ = classmethod(_init_subclass)
