"""Masked values: ``x[m]`` for a boolean mask ``m`` of ``x``'s whole shape, on the device, kept
full size until its shape is asked.

NumPy's ``x[m]`` is a compacted copy whose length is the mask's count: a data-dependent shape,
which on XLA is a sync (the count) and a compile per count. The classic masked update
``Z[I] = Z[I]**2 + C[I]`` needs neither: its compacted temporaries die in the statement. So
``x[m]`` (``take``) is a *masked value*: a tnp array holding ``x``'s full-size value (lazily,
as taken) and the mask, its shape not known yet. A ufunc whose operands are masked values of
the same mask (the same mask array at the same version) and scalars stays masked: computed
elementwise on the full arrays (``ufunc_call``; ``inplace`` for ``a op= b``, with NumPy's
``same_kind`` check of the result's cast). ``x[m] = v`` for such a value of the mask ``m``
(``setitem``) is ``x = where(m, v, x)`` (``write.assign_masked``): values outside the mask are
never written. Anything else (its shape, ``len``, printing, iteration, a reduction,
``np.asarray``, another mask, an error state in mode 'raise', a write of it elsewhere) first
*materialises* it (``materialise``: the mask's count, a named sync point, and the compaction),
after which it is an ordinary array (its class is ``ndarray`` again) with NumPy's values.

A masked value is an ``ndarray`` subclass with no slots of its own (so that it can become an
``ndarray`` in place): its record (``_Pending``) is in the ``_cache`` slot, and its buffer,
base and shape are properties that materialise it. ``type()`` shows the subclass until then;
``__class__`` says ``ndarray``.
"""
import threading

import numpy as np

from ..engine import lazy, tracing
from ..engine.jaxload import jax, jcore as _jcore, on_load
from ..numerics.fperr import errcheck as _errcheck
from . import indexing, write
from .ndarray import ndarray

_LOCK = threading.RLock()
_SCALARS = (bool, int, float, complex, np.generic)
seen = [False]  # whether a masked value was ever made (the ufunc hook's one check before)


class _Pending:
    """A masked value's record: ``full``, a tnp root of the full-size values; ``mask``, the
    mask's value when taken (a pending node or a concrete array); ``source`` and ``version``:
    the mask array given and its root's version then (what ``same`` compares)."""
    __slots__ = ("full", "mask", "source", "version")


def _storage(name):
    """A masked value's property ``name`` (a slot of ``ndarray``): materialised first."""
    def get(self):
        return getattr(materialise(self), name)
    return property(get)


class MaskedValue(ndarray):
    """``x[m]`` before its shape is asked (see the module docstring)."""
    __slots__ = ()
    __class__ = property(lambda self: ndarray)
    _buf = _storage("_buf")
    _base = _storage("_base")
    _shape = _storage("_shape")


def _flatten(v):
    return (materialise(v)._value,), None


# a pytree as ``ndarray`` is (JAX reads it as its compacted value)
on_load(lambda: jax.tree_util.register_pytree_node(MaskedValue, _flatten,
                                                   lambda _, leaves: ndarray._wrap(leaves[0])))


def _operand(a):
    """``a``'s value for recording (a pending node, a view read by a node) or, when not
    recording, its concrete value."""
    return lazy.operand(a) if lazy.recording() else a._value


def applies(x, index):
    """Whether ``x[index]`` is taken as a masked value: ``x`` a plain device-tier array (not
    0-d), ``index`` a boolean device-tier tnp array of its shape (a host mask is read on the
    host: no count to wait for), no JAX trace active."""
    return (type(index) is ndarray and type(x) is ndarray and index._dtype == np.bool_
            and index._shape == x._shape and x._shape != () and not index._on_host
            and isinstance(tracing.current_trace(), _jcore.EvalTrace))


def take(x, mask):
    """``x[mask]`` as a masked value (``applies``)."""
    rec = _Pending()
    rec.full = ndarray._wrap(_operand(x))
    rec.mask = _operand(mask)
    rec.source, rec.version = mask, mask._root._version
    return _new(rec, x._dtype)


def _new(rec, dtype):
    v = object.__new__(MaskedValue)
    v._lens = v._dyn = ()
    v._dtype = dtype
    v._version = 0
    v._cache = rec
    v._writeable = True
    v._exported = v._scalar = False
    v._trace = tracing.current_trace()
    v._rshape = v._hview = None
    seen[0] = True
    return v


def materialise(v):
    """The masked value ``v`` as NumPy's compacted array, in place (it becomes a plain root:
    ``ndarray._adopt``); the mask's count is a named sync point ("mask"). Returns ``v``."""
    with _LOCK:
        if type(v) is MaskedValue:
            rec = v._cache
            mask = lazy.value(rec.mask)
            plan = indexing.parse(rec.full._shape, mask)
            v._adopt(ndarray._wrap(indexing.gather_kernel(plan.struct)(rec.full._value,
                                                                       plan.dyn)))
    return v


def _record(args):
    """The record of the masked values among ``args`` when they all share one mask (the same
    mask array at the same version) and the others are scalars (Python or NumPy scalars, 0-d
    tnp arrays), else None."""
    rec = None
    for a in args:
        if type(a) is MaskedValue:
            r = a._cache
            if rec is None:
                rec = r
            elif r.source is not rec.source or r.version != rec.version:
                return None
        elif not (isinstance(a, _SCALARS) or (type(a) is ndarray and a._shape == ())):
            return None
    if rec is None or rec.source._root._version != rec.version:
        return None
    return rec


def _materialise_all(args):
    for a in args:
        if type(a) is MaskedValue:
            materialise(a)


def _kept(uf, args):
    """The shared record when ``uf(*args)`` stays masked: one output, no core signature, no
    error state in mode 'raise' (its checks read every element), no integer ``power`` whose
    exponent is masked (NumPy's negative-exponent check reads the values written only)."""
    if (uf.nout != 1 or uf._core is not None or len(args) != uf.nin
            or _errcheck.modes() is not None):
        return None
    if uf.__name__ in ("power", "float_power") and len(args) == 2 and type(
            args[1]) is MaskedValue and args[1]._dtype.kind in "iub":
        return None
    return _record(args)


def _full(a):
    return a._cache.full if type(a) is MaskedValue else a


def ufunc_call(uf, args, kwargs):
    """``uf(*args, **kwargs)`` when an operand is a masked value: a masked value computed on
    the full arrays when the call stays masked (``_kept``), else None, the masked operands
    materialised first (the caller then makes the ordinary call)."""
    rec = None if kwargs else _kept(uf, args)
    if rec is None:
        _materialise_all(args)
        return None
    with np.errstate(all="ignore"):  # (lanes outside the mask would warn: none is reported)
        r = uf(*map(_full, args))
    out = _Pending()
    out.full, out.mask, out.source, out.version = r, rec.mask, rec.source, rec.version
    return _new(out, r._dtype)


def inplace(uf, v, other, fallback):
    """``v op= other`` on the masked value ``v`` (``uf``: op's ufunc): ``v``'s full values
    replaced by ``uf``'s result cast to ``v``'s dtype when the call stays masked and NumPy's
    ``same_kind`` rule allows the cast; otherwise ``fallback(v, other)`` (the ordinary in-place
    operator) on the materialised operands, with NumPy's result or error. Returns ``v``."""
    rec = _kept(uf, (v, other))
    if rec is not None:
        with np.errstate(all="ignore"):
            r = uf(rec.full, _full(other))
        if np.can_cast(r._dtype, v._dtype, "same_kind"):
            rec.full = r if r._dtype == v._dtype else r.astype(v._dtype)
            return v
    _materialise_all((v, other))
    return fallback(v, other)


def setitem(target, index, value):
    """``target[index] = value`` when ``value`` is a masked value: a masked write
    (``write.assign_masked``) when ``index`` is its mask, unchanged since, and the target has
    the mask's shape; returns whether it wrote (else ``value`` is materialised and the caller
    writes it as NumPy does)."""
    rec = value._cache
    if (index is rec.source and rec.source._root._version == rec.version
            and _errcheck.modes() is None and target._shape == rec.full._shape):
        write.assign_masked(target, rec.full, rec.mask)
        return True
    materialise(value)
    return False
