"""Searching and selecting: where, nonzero, argwhere, flatnonzero, extract, select, piecewise,
choose, compress, take, take_along_axis, searchsorted.

Sync points (eager only; under a JAX trace they raise ``TnpTracingError``): the output shape of
``nonzero``/``argwhere``/``flatnonzero``/``extract``/``compress``/1-argument ``where``, and the
out-of-bounds checks of ``take``/``take_along_axis``/``choose`` in ``mode='raise'``.
"""
import collections.abc
import functools

from .._core.engine.jaxload import jit, jnp, lax, JaxArray, Tracer
import numpy as np

from .._core.rules import dtypes, probe
from .._core.array import masked, write
from .._core.numerics.casting import cast, numpy_cast
from .._core.rules.errors import TnpTracingError
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import (ArrayLike, ArrayLikeSeq, ArrayOrScalar, OutArray,
                                        normalize, normalize_axis, to_jax)
from .._core.dispatch.np_doc import np_doc, numpy_signature
from .._core.engine import syncs
from .creation import asarray, zeros_like
from .reshaping import ravel
from .sorting import less

__all__ = ["where", "nonzero", "argwhere", "flatnonzero", "extract", "select", "piecewise",
           "choose", "compress", "take", "take_along_axis", "searchsorted"]


def concrete(x, what, alternative):
    """Raise TnpTracingError when ``x`` is traced: ``what`` needs its concrete value."""
    if isinstance(x, Tracer):
        raise TnpTracingError(f"tnp.{what} needs concrete values (a data-dependent shape or an "
                              f"index check) and cannot run under a JAX trace; use {alternative}")


count_true = jit(lambda a: jnp.count_nonzero(a))  # the count of a nonzero/unique result


def _indices(a, n, form):
    """The ``n`` nonzero positions of ``a`` as int64 in ``form``: ``"tuple"`` (``nonzero``),
    ``"flat"`` (of the raveled ``a``), ``"rows"`` (``argwhere``: one row per position; of a 0-d
    ``a``, rows of no column)."""
    if form == "rows" and a.ndim == 0:
        return jnp.zeros((n, 0), np.int64)
    flat = form == "flat"
    idx = tuple(numpy_cast(i, np.int64) for i in jnp.nonzero(jnp.ravel(a) if flat else a, size=n))
    return idx[0] if flat else jnp.stack(idx, axis=1) if form == "rows" else idx


_nonzero_sized = jit(_indices, static_argnums=(1, 2))


def positions(a, form="tuple"):
    """``a``'s nonzero positions (``_indices``): the count is a sync point, then one kernel per
    count, tiered as every ``jit`` kernel (a count never seen runs on NumPy: no compile)."""
    concrete(a, "nonzero", "jnp.nonzero(x, size=...) or tnp.where(cond, x, y)")
    return _nonzero_sized(a, syncs.count(count_true(a)), form)


@np_doc(np.nonzero, notes="Sync point: the number of nonzero elements is read from the device. "
                           "Of a device array: bucketed values (see ``masked.nonzero``).")
def nonzero(a):
    if masked.positions_apply(a):
        if a.ndim == 0:
            _nonzero(a)  # NumPy's ValueError
        return masked.nonzero(a)
    return _nonzero(a)


@normalize(jit=False)
def _nonzero(a: ArrayLike):
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return positions(a)


@np_doc(np.flatnonzero, notes="Sync point (as nonzero); of a device array, a bucketed value.")
def flatnonzero(a):
    if masked.positions_apply(a):
        return masked.nonzero(a, flat=True)[0]
    return _flatnonzero(a)


@normalize(jit=False)
def _flatnonzero(a: ArrayLike):
    return positions(a, "flat")


@np_doc(np.argwhere, notes="Sync point (as nonzero).")
def argwhere(a):
    if masked.positions_apply(a):  # (read on the host: no kernel per count)
        positions, _ = masked.host_positions(a, flat=a.ndim == 0)
        rows = np.stack(positions, axis=1) if a.ndim else np.zeros((len(positions[0]), 0),
                                                                   np.intp)
        return masked.placed(rows.astype(np.intp))
    return _argwhere(a)


@normalize(jit=False)
def _argwhere(a: ArrayLike):
    return positions(a, "rows")


def _compacted(condition, a):
    """``a.ravel()[condition]`` for a device ``condition`` (``masked.positions_apply``), as
    ``x[m]`` is kept (a masked value, bucketed when its length is asked; of a bucketed ``a``, a
    compaction staying bucketed): by the boolean mask ``condition != 0`` where it has ``a``'s
    size and both are plain or both bucketed, else by ``condition``'s bucketed flat positions
    (``masked.nonzero``: NumPy's ``IndexError`` for a true lane past ``a``'s end)."""
    a = asarray(a)
    flat = a if a.ndim == 1 else ravel(a)
    if condition.size == flat.size and type(condition) is type(flat):
        mask = condition if condition.dtype == np.bool_ else condition != 0
        return flat[mask if mask.ndim == 1 else ravel(mask)]
    return flat[masked.nonzero(condition, flat=True)[0]]


@np_doc(np.extract, notes="Sync point (as nonzero); of a device condition, kept as ``x[m]``.")
def extract(condition, arr):
    if masked.positions_apply(condition):
        return _compacted(condition, arr)
    return _extract(condition, arr)


@normalize(jit=False)
def _extract(condition: ArrayLike, arr: ArrayLike):
    idx = positions(condition, "flat")
    check_bounds(idx, arr.size, 0, "take")
    return _take_kernel(arr, idx, None, "raise")


@normalize
def _where3(condition: ArrayLike, x: ArrayOrScalar, y: ArrayOrScalar, dt):
    return jnp.where(numpy_cast(condition, bool), jnp.asarray(x, dt), jnp.asarray(y, dt))


@numpy_signature  # NumPy's C code tells x=None from x not given
@np_doc(np.where, notes="One argument: sync point (as nonzero).")
def where(condition, x=np._NoValue, y=np._NoValue, /):
    if x is np._NoValue and y is np._NoValue:
        return nonzero(asarray(condition))
    if x is np._NoValue or y is np._NoValue:
        raise ValueError("either both or neither of x and y should be given")
    for v in (x, y):
        if isinstance(v, (str, bytes)):  # a text value, not a dtype name: NumPy's own dtype
            raise dtypes.unsupported_dtype_error(np.asarray(v).dtype)
    dt = dtypes.result_type(x, y)
    if _where_rejects_out_of_range_ints():
        dtypes.check_python_int(x, dt)
        dtypes.check_python_int(y, dt)
    for v in (x, y):
        dtypes.check_python_float(v, dt)
    try:
        return _where3(condition, x, y, dt)
    except (ValueError, TypeError):
        # NumPy's broadcast error (class and message) for operands that do not broadcast
        probe.call(np.where, *(probe.Spec(np.shape(v), bool) for v in (condition, x, y)))
        raise


@functools.cache
def _where_rejects_out_of_range_ints():
    """Whether the installed NumPy's where raises OverflowError for a Python int that does not
    fit the result dtype (NumPy >= 2.5) instead of wrapping it (as 2.4 does): asked once."""
    try:
        probe.call(np.where, probe.Spec((0,), bool), probe.Spec((0,), np.int8), 128)
    except OverflowError:
        return True
    return False


@normalize
def _select_kernel(conds: ArrayLikeSeq, choices: ArrayLikeSeq, default: ArrayOrScalar, dt):
    shape = jnp.broadcast_shapes(*(c.shape for c in conds + choices), jnp.shape(default))
    result = jnp.broadcast_to(jnp.asarray(default, dt), shape)
    for cond, choice in zip(conds[::-1], choices[::-1]):
        result = jnp.where(cond, numpy_cast(choice, dt), result)
    return result


@np_doc(np.select)
def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    keys = [c if type(c) in (int, float, complex) else asarray(c)
            for c in list(choicelist) + [default]]
    try:
        dt = dtypes.result_type(*keys)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [asarray(c, dtype=dt) for c in keys[:-1]]
    return _select_kernel(conds, choices, keys[-1], dt)


@np_doc(np.piecewise, notes="Eager: the functions get x[cond] (a boolean-mask sync point).")
def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    n2 = len(funclist)
    # a 0-d array condition (tnp's stand-in for NumPy's scalar ``x > 3``) is a scalar one
    scalar = np.isscalar(condlist) or (isinstance(condlist, (ndarray, np.ndarray))
                                       and condlist.ndim == 0)
    first = None if scalar else condlist[0]
    is_seq = isinstance(first, (list, np.ndarray)) or (isinstance(first, ndarray) and first.ndim)
    if scalar or (not is_seq and x.ndim != 0):
        condlist = [condlist]
    conds = cast(jnp.stack([to_jax(c) for c in condlist]), bool)
    n = len(conds)
    if n == n2 - 1:
        conds = jnp.concatenate([conds, ~jnp.any(conds, axis=0, keepdims=True)], axis=0)
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(conds, funclist):
        cond = asarray(cond)
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def _mode(mode):
    """NumPy's clip-mode parsing (its own error for a bad mode), as 'raise', 'wrap' or 'clip'."""
    probe.call(np.take, probe.Spec((1,), np.float64), (0,), mode=mode)
    return {"r": "raise", "w": "wrap", "c": "clip"}[str(mode)[0].lower()]


_out_of_bounds = jit(lambda idx, n: jnp.any((idx < -n) | (idx >= n)))
_first_bad = jit(lambda idx, n: idx.ravel()[jnp.argmax(((idx < -n) | (idx >= n)).ravel())])


def check_bounds(idx, n, axis, what):
    """IndexError as NumPy's for an index array out of ``[-n, n)`` (a sync point)."""
    if idx.size == 0:
        return
    concrete(idx, what, "mode='wrap' or mode='clip'")
    if bool(_out_of_bounds(idx, n)):
        raise IndexError(f"index {int(_first_bad(idx, n))} is out of bounds for axis {axis} "
                         f"with size {n}")


def _take_impl(a, idx, axis, mode):
    if axis is None:  # of the raveled ``a``
        a, axis = jnp.ravel(a), 0
    n = a.shape[axis]
    idx = numpy_cast(idx, np.int64)
    if mode == "wrap":
        idx = jnp.mod(idx, max(n, 1))
    elif mode == "clip":
        idx = jnp.clip(idx, 0, max(n - 1, 0))
    else:
        idx = jnp.where(idx < 0, idx + n, idx)
    return jnp.take(a, idx, axis=axis, mode="clip")


_take_kernel = jit(_take_impl, static_argnums=(2, 3))


def _take_raise(a, idx, axis):
    check_bounds(idx, a.shape[axis], axis, "take")
    return _take_kernel(a, idx, axis, "raise")


@np_doc(np.take, notes="mode='raise': sync point (the bounds check reads the device).")
@normalize(jit=False)
def take(a: ArrayLike, indices: ArrayLike, axis=None, out: OutArray = None, mode="raise"):
    mode = _mode(mode)
    if axis is None:
        n, where = a.size, 0
    elif isinstance(axis, (bool, np.bool_)):  # no integer to NumPy
        raise TypeError("an integer is required for the axis")
    else:
        axis = where = normalize_axis(axis, a.ndim)
        n = a.shape[axis]
    if indices.dtype.kind not in "biuf":
        raise TypeError(f"Cannot cast array data from {indices.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    if n == 0 and indices.size:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "raise":
        check_bounds(cast(indices, np.int64), n, where, "take")
    return _take_kernel(a, indices, axis, mode)


@normalize
def _take_along_kernel(arr: ArrayLike, indices: ArrayLike, axis):
    n = arr.shape[axis]
    idx = jnp.where(indices < 0, indices + n, indices)
    return jnp.take_along_axis(arr, idx, axis=axis, mode="clip")


@np_doc(np.take_along_axis, notes="Sync point: the bounds check reads the device.")
def take_along_axis(arr, indices, axis=-1):
    arr, indices = asarray(arr), asarray(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr, axis = arr.ravel(), 0
    elif indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis(axis, arr.ndim)
    np.broadcast_shapes(arr.shape[:axis] + arr.shape[axis + 1:],
                        indices.shape[:axis] + indices.shape[axis + 1:])
    check_bounds(indices._value, arr.shape[axis], axis, "take_along_axis")
    return _take_along_kernel(arr, indices, axis)


@normalize
def _choose_kernel(a: ArrayLike, choices: ArrayLikeSeq, mode, dt):
    n = len(choices)
    a = a.astype(np.int64) if a.dtype == np.bool_ else a  # (NumPy casts bool safely to intp)
    if mode == "wrap":
        a = jnp.mod(a, n)
    elif mode == "clip":
        a = jnp.clip(a, 0, n - 1)
    return jnp.choose(a, [numpy_cast(c, dt) for c in choices], mode="clip")


_choice_bad = jit(lambda a, n: jnp.any((a < 0) | (a >= n)))


@np_doc(np.choose, notes="mode='raise': sync point (the bounds check reads the device).")
def choose(a, choices, out=None, mode="raise"):
    a = asarray(a)
    mode = _mode(mode)
    if not np.can_cast(a.dtype, np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('int64') according "
                        "to the rule 'safe'")
    weak = [c if type(c) in dtypes.WEAK_PLACEHOLDER else None for c in choices]  # NEP 50
    choices = [asarray(c) for c in choices]
    if not choices:
        raise ValueError("0-length sequence.")
    if len(choices) > 63:  # NumPy's iterator takes at most 64 operands, ``a`` one of them
        raise ValueError("Need at least 0 and at most 64 array objects.")
    dt = dtypes.result_type(*(c if w is None else w for c, w in zip(choices, weak)))
    np.broadcast_shapes(a.shape, *(c.shape for c in choices))
    if mode == "raise" and a.size:
        concrete(a._value, "choose", "mode='wrap' or mode='clip'")
        if bool(_choice_bad(a._value, len(choices))):
            raise ValueError("invalid entry in choice array")
    result = _choose_kernel(a, choices, mode, dt)
    if out is None:
        return result
    write.assign(out, result, readonly="output array is read-only")
    return out


@np_doc(np.compress, notes="Sync point (as nonzero).")
def compress(condition, a, axis=None, out=None):
    condition = asarray(condition)
    if condition.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if out is None and masked.positions_apply(condition) and (
            axis is None or type(axis) is int and axis in (0, -1) and asarray(a).ndim == 1):
        return _compacted(condition, a)
    idx = positions(cast(condition._value, bool))[0]
    return take(a, idx, axis=axis, out=out)


def search(a, v, right, bad=None):
    """Insertion points of ``v`` in the sorted 1-D ``a`` (NumPy's order, NaNs last): a
    vectorised binary search. With ``bad`` (a bool per position of ``a``), also whether a
    search looked at a bad position (NumPy's sorter bounds check, made where it looks)."""
    n = a.shape[0]
    lo = jnp.zeros(v.shape, np.int64)
    hit = jnp.zeros((), bool)
    if n == 0:
        return lo if bad is None else (lo, hit)

    def step(_, c):
        lo, hi, hit = c
        mid = (lo + hi) // 2
        am = a[jnp.clip(mid, 0, n - 1)]
        go_right = ~less(v, am) if right else less(am, v)
        active = lo < hi
        if bad is not None:
            hit = hit | jnp.any(active & bad[jnp.clip(mid, 0, n - 1)])
        return (jnp.where(active & go_right, mid + 1, lo),
                jnp.where(active & ~go_right, mid, hi), hit)
    lo, _, hit = lax.fori_loop(0, n.bit_length() + 1, step,
                               (lo, jnp.full(v.shape, n, np.int64), hit))
    return lo if bad is None else (lo, hit)


@normalize
def _searchsorted_kernel(a: ArrayLike, v: ArrayOrScalar, sorter: ArrayLike | None, right, dt):
    a, v = numpy_cast(a, dt), jnp.asarray(v, dt)
    if sorter is None:
        return search(a, v, right)
    n = a.shape[0]
    # (an unsigned sorter compared in int64: its values past int64's range are out of range)
    bad = (sorter < 0) | (sorter >= n) if sorter.dtype != np.uint64 else sorter >= n
    a = jnp.take(a, numpy_cast(sorter, np.int64), mode="clip")
    return search(a, v, right, bad)


@np_doc(np.searchsorted)
def searchsorted(a, v, side="left", sorter=None):
    a = asarray(a)
    if type(v) is int and not -2**63 <= v < 2**64:
        # No integer dtype holds it: NumPy compares it as a Python object, so it lies past
        # every element of an integer array (a float array takes it as a float).
        if a.dtype.kind not in "fc":
            probe.call(np.searchsorted, probe.Spec((0,) * a.ndim, a.dtype), 0, side=side)
            return ndarray._wrap(jnp.asarray(np.intp(a.shape[0] if v > 0 else 0)))
        v = float(v)
    if not isinstance(v, (ndarray, JaxArray)):
        v = asarray(v)  # Python scalars too: NumPy's searchsorted promotes them as arrays
    dt = dtypes.result_type(a, v)
    right = bool(np.searchsorted(np.array([0]), np.array([0]), side=side)[0])
    probe.call(np.searchsorted, probe.Spec((0,) * a.ndim, a.dtype), 0)
    if sorter is not None:
        sorter = asarray(sorter)
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if sorter.shape != a.shape:
            raise ValueError("sorter.size must equal a.size")
        r, hit = _searchsorted_kernel(a, v, sorter, right, dt)
        # NumPy's bounds check of the sorter indices its search looks at: a sync (skipped
        # under a JAX trace, as index bounds are)
        hit = hit._value
        if not isinstance(hit, Tracer) and syncs.check(hit):
            raise ValueError("Sorter index out of range.")
        return r
    return _searchsorted_kernel(a, v, sorter, right, dt)
