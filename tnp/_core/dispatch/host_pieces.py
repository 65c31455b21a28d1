"""Large host-tier compactions kept in pieces: ``Z[I] = Z[I]**2 + C[I]`` on every core.

NumPy runs each step of a masked update on one core: the compactions ``Z[I]`` and ``C[I]``,
the arithmetic on them, the masked write. ``host_threads`` splits a ufunc over the cores, but a
compaction split in pieces has to be joined into one array (a copy as long as the gather), so
splitting the steps one by one gains nothing; split the whole statement and it runs 1.8x faster
on two cores (1000x1000 complex, measured). So a compaction is kept in its pieces until
something needs it whole:

- ``x[m]`` of a host-tier root ``x`` (C order, numeric) by a boolean host-tier root ``m`` of its
  shape, of at least ``host_threads.SPLIT_AT`` elements, is a *pieces value* when the mask
  holds at least ``MIN_KEPT`` true elements: NumPy's own boolean indexing of each of ``k``
  contiguous pieces of the flattened arrays (``host_threads.pieces``), each on its thread, taken
  now as NumPy's copy is (later writes to ``x`` or ``m`` do not reach it). Its length is the
  pieces' total, so its ``shape``, ``len`` and ``size`` are known.
- A ufunc of pieces values of one layout (taken by the same mask array at the same version: the
  same pieces) and Python or NumPy scalars, with one output, no core signature and no keyword,
  is a pieces value: NumPy's loop on each piece (``host_threads.each_piece``: an error recorded
  in a piece makes the call again, whole, for NumPy's own reporting), on the threads where
  ``host_threads`` would split the call, else one piece after another on the calling thread (a
  cheap loop over pieces of 2e5 elements is no faster on two threads).
- ``x[m] = v`` for a pieces value ``v`` of the mask ``m`` (``x`` a host-tier root of ``m``'s
  shape, in C order, ``v``'s dtype cast safely to ``x``'s) writes each piece of ``v`` into its
  piece of ``x`` on the threads, through the one write path (``write.writing``); so does
  ``x[m] = scalar`` (``fills``) of such arrays.
- Anything else *joins* it (``join``: ``np.concatenate`` of the pieces, NumPy's compacted array
  placed by ``tiers.new_root``), in place: it is an ordinary array after (its class ``ndarray``).
  A join copies as much as the gather did (``x[m]`` then joined: 1.1-1.3x NumPy's time), so
  each program site learns (``_SITES``): after a join of a value computed from its compaction,
  the site's next ``x[m]`` is NumPy's own; after a write piece by piece, it stays in pieces.

A pieces value is of a ``pending_class``, as ``masked.MaskedValue`` is (its record in the
``_cache`` slot; its buffer and base properties that join it).
"""
import sys
import threading

import numpy as np

from ..array import masked, write
from ..array.ndarray import ndarray, pending_class
from ..engine.jaxload import jax, on_load
from ..engine.tracing import in_trace
from . import host_threads, tiers

MIN_KEPT = 1 << 16  # true elements below which a compaction is joined at once: its pieces'
# steps would cost more in hand-offs than they gain (benchmarks/cases/host_threads.py)
_LOCK = threading.RLock()
_NUMERIC = frozenset("biufc")
_SCALARS = frozenset({bool, int, float, complex})


class _Pieces:
    """A pieces value's record: ``pieces``, its values per piece (1-D NumPy arrays);
    ``bounds``, the pieces' limits in the flattened mask; ``source``, the mask array given, and
    ``version``, its root's version then (the layout ``_records`` compares); ``sites``, the
    program sites of the compactions it was computed from (``_SITES``)."""
    __slots__ = ("pieces", "bounds", "source", "version", "sites")

    def __init__(self, pieces, bounds, source, version, sites):
        self.pieces, self.bounds, self.source, self.version = pieces, bounds, source, version
        self.sites = sites


# What became of the last pieces value taken at each program site (its code and instruction:
# ``x[m]`` in a loop is one site): True, written piece by piece; False, joined, which costs a
# copy as long as the gather (1.1-1.3x NumPy's ``x[m]`` measured), so that site's next
# compactions are NumPy's own. A site not seen yet takes pieces.
_SITES = {}


_MAX_SITES = 4096  # (a program making code at run time: the table starts again past it)


def _site():
    """The program site of the ``x[m]`` being taken (the caller of ``__getitem__``; None when
    no Python code called it)."""
    try:
        f = sys._getframe(3)
    except ValueError:
        return None
    if len(_SITES) > _MAX_SITES:
        _SITES.clear()
    return f.f_code, f.f_lasti


def _learn(rec, kept):
    for site in rec.sites:
        _SITES[site] = kept


PiecesValue = pending_class(
    "PiecesValue", __name__, "``x[m]`` of large host arrays, in pieces (see the module "
    "docstring).", lambda v: join(v), lambda v: (sum(len(p) for p in v._cache.pieces),), True)


# a pytree as ``ndarray`` is (JAX reads its joined value)
on_load(lambda: jax.tree_util.register_pytree_node(
    PiecesValue, lambda v: ((join(v)._value,), None),
    lambda _, leaves: ndarray._wrap(leaves[0])))


def _flat_host(a):
    """The host root ``a``'s own values, flattened (a view), or None where ``a`` is not a
    C-ordered host-tier root."""
    if type(a) is not ndarray or a._base is not None:
        return None
    b = a._buf
    if type(b) is not np.ndarray or not b.flags.c_contiguous:
        return None
    return b.reshape(-1)


def take(x, index):
    """``x[index]`` as a pieces value, or None where it is not one (see the module docstring;
    the caller indexes as NumPy does)."""
    if (type(index) is not ndarray or index._dtype != np.bool_ or index._shape != x._shape
            or x._dtype.kind not in _NUMERIC):
        return None
    size = x.size
    if size < host_threads.SPLIT_AT or in_trace():
        return None
    flat, mask = _flat_host(x), _flat_host(index)
    if flat is None or mask is None:
        return None
    site = _site()
    if _SITES.get(site) is False:
        return None
    version = index._version  # (before the gather: a write of the mask meanwhile is seen)
    k = host_threads.pieces(size, costly=True)
    bounds = tuple(size * i // k for i in range(k + 1))
    pieces, _ = host_threads.each_piece(
        lambda i: flat[bounds[i]:bounds[i + 1]][mask[bounds[i]:bounds[i + 1]]], k)
    if sum(map(len, pieces)) < MIN_KEPT:
        return tiers.new_root(np.concatenate(pieces))
    return _new(_Pieces(tuple(pieces), bounds, index, version, (site,)), x._dtype)


def _new(rec, dtype):
    masked.seen[0] = True  # (the hooks' one check before looking for one)
    return PiecesValue._wrap_pending(rec, dtype)


def join(v):
    """The pieces value ``v`` as NumPy's compacted array, in place (it becomes a plain root:
    ``ndarray._adopt``). Returns ``v``."""
    with _LOCK:
        if type(v) is PiecesValue:
            _learn(v._cache, False)
            v._adopt(tiers.new_root(np.concatenate(v._cache.pieces)))
    return v


def _join_all(values):
    for a in values:
        if type(a) is PiecesValue:
            join(a)


def _records(values):
    """The records of ``values`` (None for each that is not a pieces value) when the pieces
    values among them share one layout (one mask array at one version, unchanged since) and
    the others are Python or NumPy scalars, else None. (Under the lock: a record, once taken,
    stays whole when another thread joins its value.)"""
    with _LOCK:
        recs = [a._cache if type(a) is PiecesValue else None for a in values]
    first = None
    for a, r in zip(values, recs):
        if r is not None:
            if first is None:
                first = r
                if r.source._version != r.version:
                    return None
            elif r.source is not first.source or r.version != first.version:
                return None
        elif not (type(a) in _SCALARS or isinstance(a, np.generic)):
            return None
    return recs if first is not None else None


def ufunc_call(uf, args, kwargs):
    """``uf(*args, **kwargs)`` with a pieces value among ``args``: a pieces value computed piece
    by piece where the call keeps one (see the module docstring), else None, the pieces values
    joined first (the caller then makes the ordinary call)."""
    np_uf = uf._np
    recs = None
    if not kwargs and np_uf.nout == 1 and np_uf.signature is None and len(args) == np_uf.nin:
        recs = _records(args)
    if recs is not None:
        operands = [None if r is None else r.pieces for r in recs]
        rec = next(r for r in recs if r is not None)
        k = len(rec.pieces)
        costly = host_threads.costly(np_uf, [a if p is None else p[0]
                                             for a, p in zip(args, operands)])
        pieces, errors = host_threads.each_piece(  # (on the threads where a split call would be)
            lambda i: np_uf(*(a if p is None else p[i] for a, p in zip(args, operands))), k,
            host_threads.pieces(sum(map(len, rec.pieces)), costly) >= k)
        if not errors and all(type(p) is np.ndarray and p.dtype.kind in _NUMERIC
                              for p in pieces):
            sites = tuple({s for r in recs if r is not None for s in r.sites})
            return _new(_Pieces(tuple(pieces), rec.bounds, rec.source, rec.version, sites),
                        pieces[0].dtype)
    _join_all(args)
    return None


def fills(target, index, value):
    """``target[index] = value`` for a Python scalar ``value`` and a boolean host-tier root
    ``index`` of the shape of ``target``, a C-ordered, writeable host-tier root of a numeric
    dtype and of at least ``host_threads.SPLIT_AT`` elements: written here piece by piece, on
    the threads (``value`` converted first by NumPy's own setitem of one element: its errors
    and warnings, once, before anything is written); returns whether it wrote."""
    if (type(value) not in _SCALARS or index._dtype != np.bool_ or index._shape != target._shape
            or target.size < host_threads.SPLIT_AT or not target._writeable
            or target._dtype.kind not in _NUMERIC or in_trace()):
        return False
    mask = _flat_host(index)
    if mask is None or _flat_host(target) is None:
        return False
    one = np.empty(1, target._dtype)
    one[np.ones(1, np.bool_)] = value
    fill = one[0]
    size = target.size
    k = host_threads.pieces(size, costly=True)
    bounds = [size * i // k for i in range(k + 1)]
    with write.writing(target) as owner:
        flat = owner.reshape(-1)

        def put(i):
            lo, hi = bounds[i], bounds[i + 1]
            flat[lo:hi][mask[lo:hi]] = fill
        host_threads.each_piece(put, k)
    return True


def setitem(target, index, value):
    """``target[index] = value`` for a pieces value ``value``: written here piece by piece when
    ``index`` is its mask, unchanged since, and ``target`` a C-ordered host-tier root of the
    mask's shape whose dtype ``value``'s casts to safely; returns whether it wrote (else
    ``value`` is joined and the caller writes as NumPy does)."""
    with _LOCK:
        rec = value._cache if type(value) is PiecesValue else None
    if rec is None:  # (joined by another thread meanwhile)
        return False
    if (index is rec.source and index._version == rec.version and target._shape == index._shape
            and np.can_cast(value._dtype, target._dtype, "safe") and target._writeable
            and _flat_host(target) is not None and not in_trace()):
        mask = _flat_host(index)
        bounds = rec.bounds
        with write.writing(target) as owner:
            flat = owner.reshape(-1)

            def put(i):
                lo, hi = bounds[i], bounds[i + 1]
                flat[lo:hi][mask[lo:hi]] = rec.pieces[i]
            host_threads.each_piece(put, len(bounds) - 1)
        _learn(rec, True)
        return True
    join(value)
    return False
