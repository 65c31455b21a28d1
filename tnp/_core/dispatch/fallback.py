"""The one fallback path: NumPy names tnp does not implement natively.

``numpy_fallback(name)`` wraps ``numpy.<name>``: tnp arguments go to the host as NumPy arrays, NumPy
runs, array results come back as tnp arrays (placed by ``tiers.new_root``: a NumPy-only dtype
on the host), and a ``TnpFallbackWarning`` is issued once per name. ``USED`` counts fallback calls
per name (``python -m tnp run --compare`` reports them).
"""
import collections
import functools
import warnings

from ..engine.jaxload import jax
import numpy as np

from . import frontend, tiers
from ..engine import syncs
from ..rules.errors import TnpFallbackWarning, TnpTracingError
from ..array import storage
from ..array.ndarray import ndarray, protocol_array

USED = collections.Counter()
_warned = set()


_PLAIN = frozenset({int, float, complex, bool, str, type(None)})


def to_numpy_tree(x, scalars=False):
    """``x`` with every tnp array (also in lists, tuples, namedtuples and dicts) copied to a
    NumPy array; with ``scalars``, a 0-d stand-in for a NumPy scalar becomes that NumPy scalar."""
    if type(x) in _PLAIN:
        return x
    if isinstance(x, ndarray):
        return x.__array__()[()] if scalars and x._scalar else x.__array__()
    if isinstance(x, (list, tuple)) and type(x) in (list, tuple):
        return type(x)(to_numpy_tree(v, scalars) for v in x)
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):  # a namedtuple (slogdet's, ...)
        return type(x)(*(to_numpy_tree(v, scalars) for v in x))
    if isinstance(x, dict):
        return {k: to_numpy_tree(v, scalars) for k, v in x.items()}
    if hasattr(type(x), "__array__") and not isinstance(x, (np.ndarray, np.generic)):
        got = protocol_array(x)  # a class written for ``import tnp as np``
        return x if got is None else to_numpy_tree(got, scalars)
    return x


def from_numpy_tree(x, inputs):
    """NumPy's result ``x`` of a call on ``inputs`` as tnp values: each array (also in lists,
    tuples and namedtuples) a new tnp array placed by ``tiers.new_root``; anything else,
    NumPy's array subclasses included, as it is. An array that is one of the arrays in
    ``inputs`` (a user's own, which ``new_root`` must not take over and make read-only) or
    that came earlier in ``x`` is copied first."""
    return _from_numpy(x, _array_ids(inputs, set()))


def _array_ids(x, ids):
    if type(x) is np.ndarray:
        ids.add(id(x))
    elif type(x) in (list, tuple):
        for v in x:
            _array_ids(v, ids)
    elif type(x) is dict:
        _array_ids(tuple(x.values()), ids)
    return ids


def _from_numpy(x, taken):
    if type(x) is np.ndarray:
        if id(x) in taken:
            x = x.copy()
        taken.add(id(x))
        r = tiers.new_root(x)
        if not x.shape:  # NumPy's 0-d array, not its scalar: a 0-d array on the device too
            storage.mark_scalar(r, False)
        return r
    if type(x) in (list, tuple):
        return type(x)(_from_numpy(v, taken) for v in x)
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # namedtuple results
        return type(x)(*(_from_numpy(v, taken) for v in x))
    return x


def _warn(qualname):
    USED[qualname] += 1
    syncs.note_fallback(qualname)
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
        try:
            host_args, host_kwargs = to_numpy_tree(args), to_numpy_tree(kwargs)
        except jax.errors.TracerArrayConversionError:
            raise TnpTracingError(
                f"numpy.{qualname} is not implemented natively in tnp, and its fallback "
                f"(NumPy on the host) cannot run on traced values under jit/vmap/grad") from None
        return from_numpy_tree(numpy_obj(*host_args, **host_kwargs), (args, kwargs))
    fallback.__tnp_fallback__ = True
    return frontend.entry(fallback, numpy_obj)  # NumPy's own errors: the entry passes them


def is_fallback(obj):
    return getattr(obj, "__tnp_fallback__", False)


def module_getattr(numpy_module, prefix, namespace):
    """A module ``__getattr__`` sending names that ``numpy_module`` has, but the tnp module
    lacks, through the fallback path."""
    def __getattr__(name):
        if name.startswith("__") or not hasattr(numpy_module, name):
            modname = "tnp." + prefix if prefix else "tnp"
            raise AttributeError(f"module '{modname}' has no attribute '{name}'")
        numpy_obj = getattr(numpy_module, name)
        obj = frontend.unbound_like(
            numpy_fallback(numpy_obj, f"{prefix}.{name}" if prefix else name), numpy_obj)
        namespace[name] = obj
        return obj
    return __getattr__
