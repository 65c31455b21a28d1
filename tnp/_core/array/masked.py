"""Masked and bucketed values: ``x[m]`` for a boolean mask ``m`` of ``x``'s whole shape, on the
device, kept full size until its shape is asked, then held padded to a size bucket.

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

A compaction that lives on (``z, c, idx = z[keep], c[keep], idx[keep]`` over a shrinking active
set) has a new length every iteration. When its length is asked, or it meets another value of
another layout, a masked value is *bucketed* (``bucketize``: the mask's count read, a named sync
point, and the compaction gathered into a buffer padded to ``bucket(n)``, its true length ``n``
beside it): one mechanism, a masked value being the bucket of the full size whose lanes a mask
picks, a bucketed value the bucket whose lanes are the first ``n``. Its ``shape``, ``len`` and
``size`` are then known without a sync; its kernels are built per bucket, not per count:
a ufunc of bucketed values of one bucket and length (and scalars) is computed on the padded
buffers (``ufunc_call``), a compaction of one by a bucketed boolean mask of its layout and a
read ``a[i]`` by a bucketed integer ``i`` (or a tuple of them, one per axis of ``a``) are
bucketed again (``getitem``), the reductions mask the padding (``reduction``), and ``a[i] = v``
by such an ``i`` drops the padding lanes (``setitem``, ``write.assign_lanes``). Anything else
materialises it: ``buf[:n]`` as an ordinary array. ``nonzero`` and ``flatnonzero`` of a device
array make bucketed integer values directly (``nonzero``: the positions read on the host,
padded and placed, their host copy kept for the bounds checks), ``unique`` of numeric or
boolean values a bucketed value of its sorted distinct values (``unique``), and
``concatenate`` of compactions a bucketed value of their buffers end to end
(``concatenate``).

A masked value is an ``ndarray`` subclass with no slots of its own (so that it can become an
``ndarray`` in place): its record (``_Pending``) is in the ``_cache`` slot, and its buffer and
base are properties that materialise it, its shape one that buckets it. ``type()`` shows the
subclass until then; ``__class__`` says ``ndarray``.
"""
import functools
import math
import threading

import numpy as np

from ..engine import devices, lazy, syncs, tracing
from ..engine.jaxload import jax, jit, jnp, jcore as _jcore, on_load
from ..numerics.casting import numpy_cast
from ..numerics.fperr import errcheck as _errcheck
from . import indexing, write
from .ndarray import ndarray, pending_class

_LOCK = threading.RLock()
_SCALARS = (bool, int, float, complex, np.generic)
_NO_VALUE = np._NoValue
seen = [False]  # whether a masked value was ever made (the hooks' one check before)
STEPS = 4  # buckets per octave: sizes round(2 ** (k / STEPS))


class _Pending:
    """A masked or bucketed value's record. Masked (``length`` None): ``full``, a tnp root of
    the full-size values; ``mask``, the mask's value when taken (a pending node or a concrete
    array); ``source`` and ``version``: the mask array given and its root's version then (what
    ``_layout`` compares). Bucketed: ``full``, a 1-D tnp root of the bucket's size whose first
    ``length`` lanes are the values (the rest padding, never shown); ``positions``, for a
    boolean one, its true lanes' positions once read (``_positions``); ``lanes``, for an
    integer one, its true lanes on the host once read or made there (``_lanes``)."""
    __slots__ = ("full", "mask", "source", "version", "length", "positions", "lanes")

    def __init__(self, full, mask=None, source=None, version=None, length=None, lanes=None):
        self.full, self.mask, self.source, self.version = full, mask, source, version
        self.length, self.positions, self.lanes = length, None, lanes


def bucket(n, cap):
    """The bucket of ``n`` values: the smallest size ``round(2 ** (k / STEPS)) >= n`` (at most
    18% padding at ``STEPS`` 4), at most ``cap`` (the buffer compacted from, itself a bucket or
    an array's whole size: the sizes a loop meets stay few)."""
    k = max(0, math.floor(STEPS * math.log2(n)) - 1) if n > 1 else 0
    while round(2 ** (k / STEPS)) < n:
        k += 1
    return min(round(2 ** (k / STEPS)), cap)


def _shape(v):
    """A masked value's shape: its true length, bucketed first (no further sync after)."""
    return (bucketize(v)._cache.length,)


MaskedValue = pending_class(
    "MaskedValue", __name__, "``x[m]`` before its data is asked (see the module docstring).",
    lambda v: materialise(v), _shape)


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
    return _new(_Pending(ndarray._wrap(_operand(x)), _operand(mask), mask, mask._root._version),
                x._dtype)


def _new(rec, dtype):
    seen[0] = True
    return MaskedValue._wrap_pending(rec, dtype, tracing.current_trace())


def _host(value, point):
    """A device value (a tnp root, a pending node, a jax array) read on the host: the named
    sync point ``point``."""
    value = value._value if isinstance(value, ndarray) else lazy.value(value)
    syncs.record(point, value)
    return devices.to_host(value)


_last = [(None, None)]  # the last mask whose positions were read, with its positions


def _positions(rec):
    """The positions of a boolean masked or bucketed value's true lanes in the flattened full
    buffer (of a masked value's mask), read on the host once (``z[k], c[k], idx[k]`` read the
    mask ``k`` once)."""
    if rec.length is not None:
        if rec.positions is None:
            rec.positions = np.flatnonzero(_host(rec.full, "mask")[:rec.length])
        return rec.positions
    mask, positions = _last[0]
    if mask is not rec.mask:
        positions = np.flatnonzero(_host(rec.mask, "mask"))
        _last[0] = rec.mask, positions
    return positions


def _lanes(rec):
    """An integer bucketed value's true lanes on the host (for bounds checks), read once (sync
    point "bounds") unless made there (``nonzero``)."""
    if rec.lanes is None:
        rec.lanes = _host(rec.full, "bounds")[:rec.length]
    return rec.lanes


def _padded(positions, b):
    """``positions`` padded with 0 (a lane never shown) to the bucket size ``b``."""
    padded = np.zeros(b, np.intp)
    padded[:len(positions)] = positions
    return padded


_gather = jit(lambda full, positions: full.reshape(-1)[positions])


def _compact(full, positions):
    """A bucketed record of ``full``'s values at ``positions`` (of its flattened buffer): one
    gather per full size and bucket (the positions padded with 0, a lane never shown)."""
    n = len(positions)
    return _Pending(ndarray._wrap(_gather(full._value, _padded(positions, bucket(n, full.size)))),
                    length=n)


def bucketize(v):
    """The masked value ``v`` bucketed in place (its record replaced; a bucketed one as it is):
    the mask's count (sync point "mask") and one gather per bucket. Returns ``v``."""
    with _LOCK:
        if type(v) is MaskedValue and v._cache.length is None:
            rec = v._cache
            v._cache = _compact(rec.full, _positions(rec))
    return v


def materialise(v):
    """The masked or bucketed value ``v`` as NumPy's compacted array, in place (it becomes a
    plain root: ``ndarray._adopt``): a masked one by the mask's count (sync point "mask") and
    the compaction, a bucketed one as its first ``length`` lanes, cut on the host (no kernel
    per length; its host lanes when known: no sync; a device slice where a host round trip
    costs more is the next step). Returns
    ``v``."""
    with _LOCK:
        if type(v) is MaskedValue:
            rec = v._cache
            if rec.length is None:
                mask = lazy.value(rec.mask)
                plan = indexing.parse(rec.full._shape, mask)
                value = indexing.gather_kernel(plan.struct)(rec.full._value, plan.dyn)
                v._adopt(ndarray._wrap(value))
            else:
                lanes = rec.lanes if rec.lanes is not None else _host(rec.full, "to_numpy")
                v._adopt(placed(np.array(lanes[:rec.length])))
    return v


def placed(host):
    """The NumPy array ``host`` placed on the device as a tnp root (a transfer, no kernel)."""
    with tracing.outside_trace():
        return ndarray._wrap(jax.device_put(host))


def positions_apply(a):
    """Whether the positions of ``a``'s nonzero elements (``nonzero``, ``flatnonzero``,
    ``argwhere``, ``compress``, ``extract``) are read here: ``a`` a masked or bucketed value or a
    plain device-tier array, no JAX trace active."""
    return (type(a) is MaskedValue or type(a) is ndarray and not a._on_host) and isinstance(
        tracing.current_trace(), _jcore.EvalTrace)


def host_positions(a, flat=False):
    """NumPy's ``nonzero(a)`` (of ``a`` raveled: ``flat``) for ``a`` of ``positions_apply``,
    read on the host (sync point "shape", the count and the positions at once; a masked value
    bucketed first: the nonzero ones of its first ``length`` lanes), and the bucket cap,
    ``a``'s size."""
    with _LOCK:
        if type(a) is MaskedValue:
            rec = bucketize(a)._cache
            return (_positions(rec),), rec.full.size
    host = _host(a, "shape")
    return np.nonzero(host.ravel() if flat else host), a.size


def nonzero(a, flat=False):
    """NumPy's ``nonzero(a)`` (``flatnonzero(a)``: ``flat``) for ``a`` of ``positions_apply``:
    bucketed int64 values of one layout, one per axis. The positions are read on the host
    (``host_positions``), padded with 0 to ``bucket(n, a.size)`` and placed on the device (a
    transfer: no kernel per count or bucket), and kept on the host beside them for the bounds
    checks of the reads and writes they index (``_lanes``: no further sync)."""
    positions, cap = host_positions(a, flat)
    b = bucket(len(positions[0]), cap)
    return tuple(_new(_Pending(placed(_padded(p, b)), length=len(p),
                               lanes=p.astype(np.intp, copy=False)), np.dtype(np.intp))
                 for p in positions)


def unique_applies(a):
    """Whether ``unique(a)`` (no axis) is a bucketed value here: ``a`` of
    ``positions_apply``, of a numeric or boolean dtype, not empty."""
    return positions_apply(a) and a._dtype.kind in "biufc" and a.size > 0


def unique(a, distinct):
    """NumPy's ``unique(a)`` for ``a`` of ``unique_applies``, bucketed values of one layout:
    ``distinct(buffer, n)`` gives the sorted distinct values of the buffer's first ``n`` lanes
    (in a buffer of its size), their count, a list of further results per distinct value
    (first indices, counts) and a result per lane (the inverse) or None, by one kernel per
    buffer size and dtype (the routine's: NumPy's order and equality); ``a``'s buffer is its
    own, or a masked value's bucket. The count is read (sync point "shape") and the first
    ``bucket(count)`` lanes of each result per value kept (one slice per pair of buckets).
    Returns the values, the further results and the result per lane (of ``a``'s layout: a
    bucketed value of ``a``'s length, or an array of ``a``'s shape) or None."""
    with _LOCK:
        full, n = (bucketize(a)._cache.full, a._cache.length) if type(a) is MaskedValue else (
            a, a.size)
    values, count, more, per_lane = distinct(full._value, n)
    count = syncs.count(count)
    b = bucket(count, full.size)
    if per_lane is not None:
        per_lane = _new(_Pending(ndarray._wrap(per_lane), length=n), np.dtype(per_lane.dtype)) \
            if type(a) is MaskedValue else ndarray._wrap(per_lane).reshape(a._shape)
    return (*(_new(_Pending(ndarray._wrap(_head(v, b)), length=count), np.dtype(dt))
              for v, dt in zip([values, *more], [a._dtype, *(m.dtype for m in more)])),
            per_lane)


_head = jit(lambda values, b: values[:b], static_argnums=(1,))


def joins(arrays):
    """Whether ``concatenate(arrays)`` along their one axis is a bucketed value here: a masked
    or bucketed value among ``arrays``, the others 1-D device-tier arrays, no JAX trace
    active."""
    return any(type(a) is MaskedValue for a in arrays) and all(
        type(a) is MaskedValue or type(a) is ndarray and len(a._shape) == 1
        and not a._on_host for a in arrays) and isinstance(tracing.current_trace(),
                                                           _jcore.EvalTrace)


def concatenate(arrays, dtype):
    """NumPy's ``concatenate(arrays)`` for ``arrays`` of ``joins``, cast to ``dtype``: a
    bucketed value whose buffer is the operands' buffers (buckets, or a plain array's whole
    size) end to end, each written at the sum of the true lengths before it (one kernel per
    tuple of buffer sizes and dtypes; no sync past the masked ones' counts)."""
    with _LOCK:
        parts = [(bucketize(a)._cache.full, a._cache.length) if type(a) is MaskedValue
                 else (a, a.size) for a in arrays]
    full = _joined(tuple(f._value for f, _ in parts), tuple(n for _, n in parts), dtype)
    return _new(_Pending(ndarray._wrap(full), length=sum(n for _, n in parts)), dtype)


@functools.partial(jit, static_argnums=(2,))
def _joined(fulls, lengths, dtype):
    out = jnp.zeros(sum(f.shape[0] for f in fulls), dtype)
    start = 0
    for f, n in zip(fulls, lengths):  # (a later buffer overwrites an earlier one's padding)
        out = jax.lax.dynamic_update_slice(out, numpy_cast(f, dtype), (start,))
        start = start + n
    return out


def elementwise(a, fn):
    """``fn`` (an elementwise function of a tnp array) of the masked or bucketed value ``a``:
    computed on its full buffer (the padding lanes too, never shown), a value of its layout."""
    rec = a._cache
    r = fn(rec.full)
    return _new(_Pending(r, rec.mask, rec.source, rec.version, rec.length), r._dtype)


def filled(a):
    """The masked or bucketed value ``a``'s values as a 1-D tnp array of its bucket whose
    padding lanes hold its lane 0's value (the same set of values: ``isin``'s test values; one
    kernel per bucket), or None when it is empty."""
    rec = bucketize(a)._cache
    return ndarray._wrap(_fill(rec.full._value, rec.length)) if rec.length else None


def _layout(args, keep_masked=True):
    """The record of the masked values among ``args`` when they share one layout and the others
    are scalars (Python or NumPy scalars, 0-d tnp arrays), else None. One layout: masked
    values of one mask (the same mask array at the same version: they stay masked when
    ``keep_masked``), or bucketed values of one bucket and length (masked ones bucketed first:
    ``x[m1] + y[m2]`` of equal counts is NumPy's elementwise sum)."""
    recs = []
    for a in args:
        if type(a) is MaskedValue:
            recs.append(a._cache)
        elif not (isinstance(a, _SCALARS) or (type(a) is ndarray and a._shape == ())):
            return None
    if not recs:
        return None
    r = recs[0]
    if keep_masked and r.length is None and r.source._root._version == r.version and all(
            q.length is None and q.source is r.source and q.version == r.version for q in recs):
        return r
    recs = [bucketize(a)._cache for a in args if type(a) is MaskedValue]
    r = recs[0]
    if all(q.length == r.length and q.full._shape == r.full._shape for q in recs):
        return r
    return None


def _materialise_all(args):
    for a in args:
        if type(a) is MaskedValue:
            materialise(a)


def _kept(uf, args):
    """The shared record when ``uf(*args)`` stays masked or bucketed: one output, no core
    signature, no error state in mode 'raise' (its checks read every element), no integer
    ``power`` whose exponent is masked (NumPy's negative-exponent check reads the values
    written only)."""
    if (uf.nout != 1 or uf._core is not None or len(args) != uf.nin
            or _errcheck.modes() is not None):
        return None
    if uf.__name__ in ("power", "float_power") and len(args) == 2 and type(
            args[1]) is MaskedValue and args[1]._dtype.kind in "iub":
        return None
    return _layout(args)


def _full(a):
    return a._cache.full if type(a) is MaskedValue else a


def ufunc_call(uf, args, kwargs):
    """``uf(*args, **kwargs)`` when an operand is a masked value: a masked or bucketed value of
    the operands' layout computed on their full buffers when the call stays so (``_kept``),
    else None, the masked operands materialised first (the caller then makes the ordinary
    call)."""
    rec = None if kwargs else _kept(uf, args)
    if rec is None:
        _materialise_all(args)
        return None
    with np.errstate(all="ignore"):  # (lanes outside the mask would warn: none is reported)
        r = uf(*map(_full, args))
    return _new(_Pending(r, rec.mask, rec.source, rec.version, rec.length), r._dtype)


def inplace(uf, v, other, fallback):
    """``v op= other`` on the masked value ``v`` (``uf``: op's ufunc): ``v``'s full values
    replaced by ``uf``'s result cast to ``v``'s dtype when the call stays masked and NumPy's
    ``same_kind`` rule allows the cast; otherwise ``fallback(v, other)`` (the ordinary in-place
    operator) on the materialised operands, with NumPy's result or error. Returns ``v``."""
    rec = _kept(uf, (v, other))
    if rec is not None:
        rec = v._cache  # (``_kept`` may have bucketed it)
        with np.errstate(all="ignore"):
            r = uf(rec.full, _full(other))
        if np.can_cast(r._dtype, v._dtype, "same_kind"):
            rec.full = r if r._dtype == v._dtype else r.astype(v._dtype)
            rec.positions = rec.lanes = None
            return v
    _materialise_all((v, other))
    return fallback(v, other)


def among(index):
    """Whether the index ``index`` is a masked value or a tuple holding one."""
    return type(index) is MaskedValue or type(index) is tuple and any(
        type(i) is MaskedValue for i in index)


def _integer_index(index):
    """The records of ``index`` when it is a masked integer value or a tuple of them of one
    layout (bucketed first), else None."""
    values = index if type(index) is tuple else (index,)
    if not values or any(type(i) is not MaskedValue or i._dtype.kind not in "iu"
                         for i in values):
        return None
    if _layout(values, keep_masked=False) is None:
        return None
    return [i._cache for i in values]


def _checked(recs, shape):
    """The bucketed integer indices ``recs`` (one per axis of ``shape``) with their true lanes
    in bounds on the host (``_lanes``; NumPy's ``IndexError`` for the first axis that is not)."""
    for axis, (rec, size) in enumerate(zip(recs, shape)):
        indexing.check_bounds(_lanes(rec), size, axis)
    return recs


def getitem(x, index):
    """``x[index]`` when ``x`` or ``index`` is a masked value, a bucketed value when: ``index``
    is a boolean one of ``x``'s layout (both bucketed first; the true lanes' positions read on
    the host, sync point "mask"; one gather per pair of buckets); or ``index`` an integer one,
    or a tuple of them of one layout (``nonzero``'s), one per axis of ``x``, a device root with
    no empty axis (bucketed first; the true lanes bounds-checked on the host, ``_lanes``,
    NumPy's ``IndexError``; one gather per shape and bucket, the padding lanes clamped), of
    ``index``'s layout. Else None, both materialised (the caller indexes as NumPy does)."""
    if isinstance(tracing.current_trace(), _jcore.EvalTrace):
        if type(x) is MaskedValue and type(index) is MaskedValue and index._dtype == np.bool_:
            rec = _layout((x, index), keep_masked=False)
            if rec is not None:
                return _new(_compact(x._cache.full, _positions(index._cache)), x._dtype)
        elif type(x) is ndarray and not x._on_host and all(x._shape):
            recs = _integer_index(index)
            if recs is not None and len(recs) == len(x._shape):
                full = _take(x._value, *(r.full._value for r in _checked(recs, x._shape)))
                return _new(_Pending(ndarray._wrap(full), length=recs[0].length), x._dtype)
    _materialise_all((x,) + (index if type(index) is tuple else (index,)))
    return None


_take = jit(lambda x, *index: x[tuple(jnp.clip(jnp.where(i < 0, i + n, i), 0, n - 1)
                                      for i, n in zip(index, x.shape))])


def setitem(target, index, value):
    """``target[index] = value`` when ``value`` or ``index`` is a masked value (or a tuple of
    them); returns whether it wrote (else all are materialised and the caller writes as NumPy
    does). Written here: ``x[m] = x[m]``-like values (``value`` masked by ``index``, unchanged
    since, the target of the mask's shape: ``write.assign_masked``); ``a[i] = v`` with ``i`` a
    masked or bucketed integer value or a tuple of them of one layout (``nonzero``'s), one per
    axis of ``a``, a device root, and ``v`` a scalar or a value of ``i``'s layout:
    ``write.assign_lanes``, the padding lanes dropped, NumPy's ``IndexError`` for a true lane
    out of bounds (checked on the host, ``_lanes``)."""
    if type(value) is MaskedValue and type(index) is not MaskedValue:
        rec = value._cache
        if (rec.length is None and index is rec.source
                and rec.source._root._version == rec.version
                and _errcheck.modes() is None and target._shape == rec.full._shape):
            write.assign_masked(target, rec.full, rec.mask)
            return True
    if (type(target) is ndarray and target._base is None and not target._on_host
            and isinstance(tracing.current_trace(), _jcore.EvalTrace)):
        recs = _integer_index(index)
        indices = index if type(index) is tuple else (index,)
        if (recs is not None and len(recs) == len(target._shape)
                and _layout(indices + (value,), keep_masked=False) is not None):
            write.assign_lanes(target, [r.full for r in _checked(recs, target._shape)],
                               recs[0].length, _full(value))
            return True
    _materialise_all((value,) + (index if type(index) is tuple else (index,)))
    return False


def reduction(a, axis, where, idempotent=False):
    """The operand and ``where`` of a whole reduction (``sum``, ``mean``, ``any``, ``all``;
    ``min``, ``max``: ``idempotent``) of the masked value ``a``: its bucket's buffer with
    ``where`` true on its true lanes (the padding reduced as the identity; for an idempotent
    reduction, the padding lanes set to the first true lane's value, one kernel per bucket),
    when ``where`` is not given and ``axis`` names its one axis; else ``a`` materialised."""
    if type(a) is MaskedValue and (where is _NO_VALUE or where is True) and (
            axis is None or axis in (0, -1, (0,), (-1,))):
        rec = bucketize(a)._cache
        if not idempotent:
            return rec.full, np.arange(rec.full.size) < rec.length
        if rec.length:
            return ndarray._wrap(_fill(rec.full._value, rec.length)), where
    _materialise_all((a,))
    return a, where


_fill = jit(lambda full, n: jnp.where(jnp.arange(full.shape[0]) < n, full, full[0]))
