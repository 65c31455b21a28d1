"""Printing: NumPy's formatting functions on host copies of tnp arrays.

tnp prints through NumPy (``repr(tnp_array)`` is NumPy's repr of the same data), so the print
options are NumPy's own: ``tnp.set_printoptions`` and ``numpy.set_printoptions`` set the same state.
Printing reads array data from the device: a documented sync point.
"""
import functools
import inspect

import numpy as np

from .._core.dispatch.fallback import to_numpy_tree
from .._core.dispatch.np_doc import np_doc

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "array2string", "array_repr",
           "array_str", "format_float_positional", "format_float_scientific", "base_repr",
           "binary_repr"]


def _scalar_host(x):
    """A 0-d tnp array stands for the NumPy scalar NumPy would have (e.g. ``a[0]``)."""
    x = to_numpy_tree(x)
    return x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x


def _on_host(numpy_fn, convert=to_numpy_tree):
    """NumPy's ``numpy_fn`` with NumPy's signature, tnp array arguments copied to the host."""
    @functools.wraps(numpy_fn)
    def fn(*args, **kwargs):
        return numpy_fn(*map(convert, args), **{k: convert(v) for k, v in kwargs.items()})
    fn.__module__ = __name__
    fn.__signature__ = inspect.signature(numpy_fn)
    del fn.__wrapped__
    return np_doc(numpy_fn, notes="Runs NumPy's own implementation; shares NumPy's print "
                  "options; array data is read from the device (a sync point).")(fn)


set_printoptions = _on_host(np.set_printoptions)
get_printoptions = _on_host(np.get_printoptions)
printoptions = _on_host(np.printoptions)
array2string = _on_host(np.array2string)
array_repr = _on_host(np.array_repr)
array_str = _on_host(np.array_str)
format_float_positional = _on_host(np.format_float_positional, _scalar_host)
format_float_scientific = _on_host(np.format_float_scientific, _scalar_host)
base_repr = _on_host(np.base_repr, _scalar_host)
binary_repr = _on_host(np.binary_repr, _scalar_host)
