"""The one NumPy probe: NumPy itself, run on placeholder arrays, decides result dtypes, shapes
and errors.

A ``Spec`` stands for an array operand by its shape and dtype. ``call(fn, *args, **kwargs)``
replaces every ``Spec`` in the arguments (nested in tuples too) by a placeholder of that shape
and dtype that holds no data (one element seen through zero strides, so any shape costs nothing),
runs NumPy's ``fn`` with warnings silenced and NumPy's error state at 'ignore', and returns the
result with every array replaced by its ``Spec``. NumPy's exception propagates unchanged: its
class and message are what tnp raises. Answers are cached (bounded, started afresh when full) by function, specs and
the other arguments; unhashable arguments (lists are made tuples first) run uncached.

Which shape to ask about is the caller's question, not a second placeholder policy:
``like(x)`` is the operand's own shape (exact errors, messages and result shapes); ``small(x)``
keeps each dimension's 0, 1 or "more" (2) — for questions whose answer depends on nothing else
(the result dtype of a reduction, the validity of an axis), so the cache does not grow with
array sizes; ``unit(x)`` makes every dimension 1, for a question about the result dtype alone
that must raise no error about shapes. An ``Out`` spec is a writeable placeholder, for NumPy's
checks of ``out=``; a ``One`` spec holds ones instead of zeros (weights that must not sum to 0).
The cache key holds the arguments' types too (0, 0.0 and False are equal keys, not answers).
"""
import warnings

import numpy as np
from numpy.lib.stride_tricks import as_strided

CACHE_SIZE = 4096


class Spec(tuple):
    """An array operand: ``(shape, dtype)``."""
    __slots__ = ()

    def __new__(cls, shape, dtype):
        return tuple.__new__(cls, (tuple(shape), dtype if isinstance(dtype, np.dtype)
                                   else np.dtype(dtype)))

    @property
    def shape(self):
        return self[0]

    @property
    def dtype(self):
        return self[1]

    def __repr__(self):
        return f"{type(self).__name__}({self[0]}, {self[1]})"


class Out(Spec):
    """A writeable ``out=`` operand (a third element keeps it apart from a ``Spec`` in caches)."""
    __slots__ = ()

    def __new__(cls, shape, dtype):
        return tuple.__new__(cls, (tuple(shape), np.dtype(dtype), "out"))


class One(Spec):
    """An operand whose elements are all 1 (weights, which NumPy requires not to sum to 0)."""
    __slots__ = ()

    def __new__(cls, shape, dtype):
        return tuple.__new__(cls, (tuple(shape), np.dtype(dtype), "one"))


def like(x, dtype=None):
    """The spec of array ``x`` (anything with ``shape`` and ``dtype``), its own shape."""
    return Spec(x.shape, x.dtype if dtype is None else dtype)


def small(x, dtype=None):
    """The spec of ``x`` with every dimension of 2 or more made 2."""
    return Spec(tuple(n if n < 2 else 2 for n in x.shape), x.dtype if dtype is None else dtype)


def unit(x, dtype=None):
    """The spec of ``x`` with every dimension made 1 (its rank kept): for a question about the
    result dtype only, where NumPy must raise no error about the operands' shapes."""
    return Spec((1,) * len(x.shape), x.dtype if dtype is None else dtype)


def placeholder(spec):
    """A data-free NumPy array for ``spec``: zeros (ones for a ``One``), read-only unless it is
    an ``Out``."""
    shape, dtype = spec[0], spec[1]
    base = (np.ones if isinstance(spec, One) else np.zeros)(1, dtype)
    if base.dtype.hasobject:
        return as_strided(base, shape, (0,) * len(shape), writeable=isinstance(spec, Out))
    ph = np.ndarray(shape, base.dtype, base, 0, (0,) * len(shape))  # cheaper than as_strided
    ph.flags.writeable = isinstance(spec, Out)
    return ph


def _placeholders(x):
    if isinstance(x, Spec):
        return placeholder(x)
    if type(x) is tuple:
        return tuple(_placeholders(v) for v in x)
    return x


def _specs(r):
    if isinstance(r, np.ndarray) or isinstance(r, np.generic):
        return Spec(np.shape(r), r.dtype)
    if isinstance(r, tuple):
        vals = [_specs(v) for v in r]
        return type(r)(*vals) if hasattr(r, "_fields") else tuple(vals)
    if isinstance(r, list):
        return [_specs(v) for v in r]
    return r


def _run(fn, args, kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        r = fn(*_placeholders(args), **{k: _placeholders(v) for k, v in kwargs})
    return _specs(r)


_SCALARS = (bool, int, float, complex)
_cache = {}  # key -> answer; started afresh past CACHE_SIZE entries
_MISSING = object()


def key(x):
    """A cache key for an argument (also for callers that cache what NumPy decided): lists as tuples (NumPy sees them so, ``_hashable``), and the
    type of every Python scalar in it (0, 0.0, False and 0j are equal keys, but NumPy's answers
    for them differ)."""
    t = type(x)
    if t is tuple or t is list:
        return tuple([key(v) for v in x])
    if t in _SCALARS:
        return (t, x)
    return x


def _hashable(x):
    if isinstance(x, (list, tuple)) and not isinstance(x, Spec):
        return tuple(_hashable(v) for v in x)
    return x


def call(fn, *args, **kwargs):
    """NumPy's ``fn(*args, **kwargs)`` on placeholders for the ``Spec``s among the arguments:
    the result with arrays as ``Spec``s, or NumPy's exception."""
    try:
        k = (fn, key(args), key(tuple(kwargs.items())) if kwargs else ())
        r = _cache.get(k, _MISSING)
    except TypeError:  # an unhashable argument: asked uncached
        k, r = None, _MISSING
    if r is _MISSING:
        r = _run(fn, _hashable(args), tuple((n, _hashable(v)) for n, v in kwargs.items()))
        if k is not None:
            if len(_cache) >= CACHE_SIZE:
                _cache.clear()
            _cache[k] = r
    return r


def dtype_of(fn, *args, **kwargs):
    """The dtype of NumPy's (single-array) result of ``fn`` on the placeholders."""
    r = call(fn, *args, **kwargs)
    return r.dtype if isinstance(r, Spec) else np.asarray(r).dtype
