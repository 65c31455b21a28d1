"""NumPy's dtype routines, taking tnp arrays (by their dtype) and weak Python scalars."""
import numpy as np

from .._core.rules import probe
from .._core.array.ndarray import ndarray
from .._core.dispatch.np_doc import np_doc

__all__ = ["result_type", "promote_types", "can_cast", "min_scalar_type", "issubdtype",
           "isdtype", "common_type", "finfo", "iinfo", "dtype", "mintypecode", "typename"]

dtype = np.dtype


def _dtype_or_value(x):
    """A tnp/JAX array stands for its dtype (NumPy 2 promotion is value-independent); a scalar
    type (``np.float64``) is a dtype-like as it is (its ``dtype`` attribute is a descriptor)."""
    if (hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, type)
            and not isinstance(x, (np.ndarray, np.generic))):
        return np.dtype(x.dtype)
    return x


@np_doc(np.result_type)
def result_type(*arrays_and_dtypes):
    return np.result_type(*(_dtype_or_value(x) for x in arrays_and_dtypes))


@np_doc(np.promote_types)
def promote_types(type1, type2, /):
    return np.promote_types(type1, type2)


@np_doc(np.can_cast)
def can_cast(from_, to, casting="safe"):
    return np.can_cast(_dtype_or_value(from_), to, casting)


@np_doc(np.min_scalar_type, notes="A tnp array is read to the host (a sync point).")
def min_scalar_type(a, /):
    return np.min_scalar_type(a.__array__() if hasattr(a, "__array__") and not isinstance(
        a, np.ndarray) and hasattr(a, "_value") else a)


@np_doc(np.issubdtype)
def issubdtype(arg1, arg2):
    return np.issubdtype(arg1, arg2)


@np_doc(np.isdtype)
def isdtype(dtype, kind):
    return np.isdtype(dtype, kind)


@np_doc(np.common_type)
def common_type(*arrays):
    return probe.call(np.common_type, *(probe.Spec((0,), _dtype_or_value(a))
                                        if hasattr(a, "_value") else a for a in arrays))


finfo = np.finfo
iinfo = np.iinfo


@np_doc(np.mintypecode)
def mintypecode(typechars, typeset="GDFgdf", default="d"):
    # tnp arrays contribute their type character (no data leaves the device)
    chars = [t.dtype.char if isinstance(t, ndarray) else t for t in typechars]
    return np.mintypecode(chars, typeset, default)


@np_doc(np.typename)
def typename(char):
    return np.typename(char)
