"""Subclasses of ``tnp.ndarray``, as NumPy treats its own: a new array made like one is of its
class (``as_type_of``), and that class's ``__array_finalize__`` is called (``finalize``).
``DEFINED[0]``: whether a program has defined a subclass (tnp's own are not counted), so that
the entries' question of a result's class costs nothing until one exists."""
import numpy as np

from . import storage
from .ndarray import ndarray


def finalize(new, obj):
    """NumPy's call of the ``__array_finalize__`` of ``new``'s class (a subclass of tnp.ndarray)
    with ``obj``, the array ``new`` was made from: taken from the class (a property there is
    not callable: Python's TypeError), skipped when it is tnp.ndarray's own or None."""
    func = getattr(type(new), "__array_finalize__", None)
    if func is not None and func is not ndarray.__array_finalize__:
        func(new, obj)


def as_type_of(r, a):
    """The new root ``r`` as an array of ``a``'s class where that is a subclass of tnp.ndarray
    (its buffer moved to a root of that class, whose ``__array_finalize__`` is called with
    ``a``), as NumPy makes a new array like ``a``; else ``r``."""
    cls = type(a)
    if cls is ndarray:
        return r
    buf = r._buf
    out = cls._wrap_host(buf, r._dtype) if type(buf) is np.ndarray else cls._wrap(buf)
    storage.mark_scalar(out, False)
    finalize(out, a)
    return out


DEFINED = [False]


def _init_subclass(cls, **kwargs):
    super(ndarray, cls).__init_subclass__(**kwargs)
    if not cls.__module__.startswith("tnp."):
        DEFINED[0] = True


ndarray.__init_subclass__ = classmethod(_init_subclass)
