"""The one fallback path: NumPy names tnp does not implement natively.

``numpy_fallback(name)`` wraps ``numpy.<name>``: tnp arguments go to the host as NumPy arrays, NumPy
runs, numeric array results come back as tnp arrays, and a ``TnpFallbackWarning`` is issued once
per name. ``USED`` counts fallback calls per name (``python -m tnp run --compare`` reports them).
"""
import collections
import functools
import warnings

import numpy as np

from .errors import TnpFallbackWarning

USED = collections.Counter()
_warned = set()


def to_numpy_tree(x):
    from .ndarray import ndarray
    if isinstance(x, ndarray):
        return x.__array__()
    if isinstance(x, (list, tuple)) and type(x) in (list, tuple):
        return type(x)(to_numpy_tree(v) for v in x)
    if isinstance(x, dict):
        return {k: to_numpy_tree(v) for k, v in x.items()}
    return x


def from_numpy_tree(x):
    from .dtypes import SUPPORTED
    from .ndarray import ndarray
    if type(x) is np.ndarray and x.dtype in SUPPORTED:
        import jax
        return ndarray._wrap(jax.device_put(x))
    if type(x) in (list, tuple):
        return type(x)(from_numpy_tree(v) for v in x)
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # namedtuple results
        return type(x)(*(from_numpy_tree(v) for v in x))
    return x


def _warn(qualname):
    USED[qualname] += 1
    if qualname not in _warned:
        _warned.add(qualname)
        warnings.warn(f"tnp.{qualname} is not implemented natively on JAX: it ran through "
                      f"NumPy on the host (converted in and out)", TnpFallbackWarning,
                      stacklevel=3)


def numpy_fallback(numpy_obj, qualname):
    """A tnp-level callable running ``numpy_obj`` through the fallback path."""
    if not callable(numpy_obj) or isinstance(numpy_obj, type):
        return numpy_obj  # classes, constants, modules are NumPy's own

    @functools.wraps(numpy_obj)
    def fallback(*args, **kwargs):
        _warn(qualname)
        return from_numpy_tree(numpy_obj(*to_numpy_tree(args), **to_numpy_tree(kwargs)))
    fallback.__tnp_fallback__ = True
    return fallback


def is_fallback(obj):
    return getattr(obj, "__tnp_fallback__", False)
