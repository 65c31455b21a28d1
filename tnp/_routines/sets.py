"""Set routines: unique and its array-API forms, isin, intersect1d, union1d, setdiff1d, setxor1d.

The number of distinct elements is a data-dependent shape: these are sync points (eager only,
``TnpTracingError`` under a JAX trace). Results are always sorted (NumPy's ``sorted=False`` only
allows any order, so sorted is a valid answer).
"""
import functools
import math

from .._core.engine.jaxload import jax, jit, jnp
import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple
from numpy.lib._arraysetops_impl import (UniqueAllResult, UniqueCountsResult,
                                         UniqueInverseResult)

from .._core.rules import dtypes, probe
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, normalize
from .._core.dispatch.np_doc import np_doc
from .._core.engine import syncs
from .._core.array import masked
from .creation import asarray
from .joining import concatenate
from .searching import concrete, count_true, positions, search
from .sorting import sort_keys

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin",
           "intersect1d", "union1d", "setdiff1d", "setxor1d"]


def _row_argsort(rows):
    """Stable lexicographic argsort of the rows of a 2-D array (NumPy's element order; a 1-D
    array's argsort as one column)."""
    cols = [k for j in range(rows.shape[1]) for k in sort_keys(rows[:, j])]
    idx = jnp.arange(rows.shape[0], dtype=np.int64)
    if not cols:
        return idx
    return jax.lax.sort((*cols, idx), is_stable=True, num_keys=len(cols))[-1]


def _same(a, b, equal_nan):
    """Whether consecutive sorted elements (rows, if 2-D) are equal."""
    eq = a == b
    if equal_nan and a.dtype.kind in "fc":
        eq = eq | (jnp.isnan(a) & jnp.isnan(b))
    return eq.all(axis=1) if eq.ndim == 2 else eq


@functools.partial(jit, static_argnums=(1, 2))
def _unique_mask(rows, equal_nan, by_rows):
    if not by_rows:  # the distinct elements of the raveled array
        rows = jnp.ravel(rows)
    perm = _row_argsort(rows if rows.ndim == 2 else rows[:, None])
    aux = rows[perm]
    mask = jnp.concatenate([jnp.ones(min(1, aux.shape[0]), bool),
                            ~_same(aux[1:], aux[:-1], equal_nan)])
    return perm, aux, mask


@functools.partial(jit, static_argnums=(3,))
def _unique_parts(perm, aux, mask, n):
    idx = numpy_cast(jnp.nonzero(mask, size=n)[0], np.int64)
    inverse = jnp.zeros(perm.shape, np.int64).at[perm].set(jnp.cumsum(mask) - 1)
    counts = jnp.diff(jnp.concatenate([idx, jnp.array([mask.shape[0]], np.int64)]))
    # each group's earliest element in input order (NumPy's hash-based unique keeps that one)
    first = jax.ops.segment_min(perm, jnp.cumsum(mask) - 1, num_segments=n)
    return aux[idx], perm[idx], inverse, counts, first


def _unique(ar, equal_nan, by_rows=False):
    """Sorted distinct elements (of the raveled ``ar``; its rows, ``by_rows``) of ``ar``, first
    indices, inverse, counts. The count is a sync point, then one kernel per count (tiered as
    every ``jit`` kernel: a count never seen runs on NumPy)."""
    concrete(ar, "unique", "jnp.unique(x, size=...)")
    perm, aux, mask = _unique_mask(ar, equal_nan, by_rows)
    return _unique_parts(perm, aux, mask, syncs.count(count_true(mask)))


_flat_take = jit(lambda ar, idx: jnp.ravel(ar)[idx])


@functools.partial(jit, static_argnums=1)
def _rows(ar, axis):
    """``ar``'s slices along ``axis`` as the rows of a 2-D array (``unique(axis=)``)."""
    moved = jnp.moveaxis(ar, axis, 0)
    return moved.reshape(moved.shape[0], math.prod(moved.shape[1:]))


@functools.partial(jit, static_argnums=(1, 2))
def _unrows(rows, shape, axis):
    """Distinct ``rows`` (``_rows``) back as slices along ``axis`` of an array of ``shape``."""
    moved = shape[axis:axis + 1] + shape[:axis] + shape[axis + 1:]
    return jnp.moveaxis(rows.reshape((rows.shape[0],) + moved[1:]), 0, axis)
_reshaped = jit(lambda x, shape: jnp.reshape(x, shape), static_argnums=1)  # (jnp: not at import)


def _distinct(ar):
    """What ``unique(ar)`` (no flags) gives: sorted, each value as first seen in ``ar``."""
    first = _unique(ar, True)[4]
    return _flat_take(ar, first)


@functools.partial(jit, static_argnums=(2, 3, 4))
def _distinct_padded(full, n, equal_nan, sorted_first, inverse):
    """What ``unique`` gives of ``full``'s first ``n`` lanes (raveled; ``n >= 1``), in buffers
    of ``full``'s size (lanes past the count unspecified): the values, their count, each one's
    index and its count, and with ``inverse`` each lane's value's position among them; one
    kernel per size, dtype and flags (``masked.unique``). Of equal values that differ (NaNs,
    signed zeros) the first seen, as NumPy's plain ``unique``, or with ``sorted_first`` the
    first in the stable sort, as NumPy's with further results. The other lanes take lane 0's
    value, so they sort after it among its equals (a stable sort), start no group of their own
    and are not counted."""
    x = jnp.ravel(full)
    lanes = jnp.arange(x.shape[0])
    x = jnp.where(lanes < n, x, x[0])
    perm, _, new = _unique_mask(x, equal_nan, False)
    real = perm < n
    new = new & real  # (unequal NaNs: a padding lane joins the group before it)
    group = jnp.cumsum(new) - 1
    at = lanes if sorted_first else perm  # each group's first sorted position, or first index
    pick = jnp.minimum(jax.ops.segment_min(at, group, num_segments=x.shape[0]),
                       x.shape[0] - 1)
    if sorted_first:
        pick = perm[pick]
    counts = jax.ops.segment_sum(real.astype(np.int64), group, num_segments=x.shape[0])
    where = jnp.zeros(x.shape, np.int64).at[perm].set(group) if inverse else None
    return x[pick], jnp.count_nonzero(new), pick.astype(np.int64), counts, where


@np_doc(np.unique, notes="Sync point: the number of distinct values is read from the device. "
        "Always sorted. Of a device array (no ``axis``), bucketed values (the inverse: of the "
        "input's layout).")
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    if axis is None and masked.unique_applies(ar):  # bucketed values
        def distinct(full, n):
            values, count, index, counts, inverse = _distinct_padded(
                full, n, bool(equal_nan), bool(return_index or return_inverse or return_counts),
                bool(return_inverse))
            return values, count, [r for r, asked in ((index, return_index),
                                                      (counts, return_counts)) if asked], inverse
        values, *more, inverse = masked.unique(ar, distinct)
        if return_inverse:
            more.insert(int(return_index), inverse)
        return (values, *more) if more else values
    return _unique_nd(ar, return_index, return_inverse, return_counts, axis, equal_nan)


@normalize(jit=False)
def _unique_nd(ar: ArrayLike, return_index, return_inverse, return_counts, axis, equal_nan):
    if axis is not None and ar.ndim == 1:
        normalize_axis_index(axis, 1)  # NumPy: a 1-d array along its axis is unique(axis=None)
        axis = None
    if axis is None:
        values, index, inverse, counts, first = _unique(ar, equal_nan)
        if return_inverse:
            inverse = _reshaped(inverse, ar.shape)
        if not (return_index or return_inverse or return_counts):
            values = _flat_take(ar, first)  # NumPy's hash-based path keeps the first seen
    else:
        try:  # NumPy's errors: its moveaxis's TypeError, its own AxisError
            axis = normalize_axis_tuple(axis, ar.ndim, "source")[0]
        except AxisError:
            raise AxisError(axis, ar.ndim) from None
        values, index, inverse, counts, _ = _unique(_rows(ar, axis), False, True)
        values = _unrows(values, ar.shape, axis)
    extra = [r for r, flag in ((index, return_index), (inverse, return_inverse),
                               (counts, return_counts)) if flag]
    return (values, *extra) if extra else values


@np_doc(np.unique_all)
def unique_all(x):
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


@np_doc(np.unique_counts)
def unique_counts(x):
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


@np_doc(np.unique_inverse)
def unique_inverse(x):
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


@np_doc(np.unique_values, notes="Sorted (NumPy's order here is unspecified).")
def unique_values(x):
    return unique(x, equal_nan=False)


@normalize
def _isin_kernel(element: ArrayLike, test: ArrayLike, invert, dt):
    e, t = numpy_cast(element, dt), numpy_cast(test.ravel(), dt)
    if t.size == 0:
        return jnp.full(e.shape, invert, bool)
    s = jax.lax.sort((*sort_keys(t), t), is_stable=True, num_keys=len(sort_keys(t)))[-1]
    i = jnp.clip(search(s, e, False), 0, t.size - 1)
    found = s[i] == e
    return ~found if invert else found


@np_doc(np.isin, notes="Sorts test_elements and binary-searches (every kind). With "
        "``kind='table'``, a sync point: NumPy's range check reads the test values' min and max. "
        "Of a bucketed value, a bucketed value of its layout.")
def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    element, test_elements = asarray(element), asarray(test_elements)
    probe.call(np.isin, probe.Spec((0,), element.dtype), probe.Spec((0,), test_elements.dtype),
               kind=kind)
    if (kind == "table" and test_elements.size and element.dtype.kind in "uib"
            and test_elements.dtype.kind in "uib"):
        # NumPy's table refuses a range of test values its dtype cannot hold (a RuntimeError):
        # it depends on their min and max only (a sync); NumPy is asked about those two
        lo, hi = int(test_elements.min()), int(test_elements.max())
        held = np.uint8 if test_elements.dtype.kind == "b" else test_elements.dtype
        if hi - lo > np.iinfo(held).max:
            probe.call(np.isin, probe.Spec((0,), element.dtype),
                       np.array([lo, hi], test_elements.dtype), kind=kind)
    dt = np.result_type(element.dtype, test_elements.dtype)
    if type(test_elements) is masked.MaskedValue:  # its bucket, the padding lanes a true value
        filled = masked.filled(test_elements)
        test_elements = masked.materialise(test_elements) if filled is None else filled
    if type(element) is masked.MaskedValue:  # a value of its layout
        return masked.elementwise(element, lambda full: _isin_kernel(
            full, test_elements, bool(invert), dt))
    return _isin_kernel(element, test_elements, bool(invert), dt)


@functools.partial(jit, static_argnums=(2,))
def _joined_sorted(ar1, ar2, dt):
    """The raveled ``ar1`` and ``ar2`` joined as ``dt``: its stable argsort, its sorted values
    and where consecutive sorted values are equal (NaNs never)."""
    aux = jnp.concatenate([numpy_cast(ar1.ravel(), dt), numpy_cast(ar2.ravel(), dt)])
    perm = _row_argsort(aux[:, None])
    aux = aux[perm]
    return perm, aux, aux[1:] == aux[:-1]


def _compress(x, mask):
    return _flat_take(x, _positions(mask))


def _positions(mask):
    concrete(mask, "set routine", "jnp's set routines with size=")
    return positions(mask, "flat")


@jit
def _pairs(aux, perm, at, n1):
    """``intersect1d``'s results from the equal pairs at ``at`` of the sorted joined values."""
    return aux[at], perm[at], perm[at + 1] - n1


@np_doc(np.intersect1d, notes="Sync point (as unique). Of device arrays of one dtype (no "
        "``assume_unique``), bucketed values: ``unique(ar1)`` where ``isin`` ``ar2``, with "
        "``return_indices`` each side's first indices where ``isin`` the other.")
def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    a, b = asarray(ar1), asarray(ar2)
    if not assume_unique and a.dtype == b.dtype and masked.unique_applies(a) and (
            masked.unique_applies(b) or not return_indices):
        # (NumPy: the adjacent equals of the sorted uniques; NaNs never equal)
        if not return_indices:
            u = unique(a)
            return u[isin(u, b)]
        (u1, i1), (u2, i2) = unique(a, return_index=True), unique(b, return_index=True)
        m1, m2 = isin(u1, u2, assume_unique=True), isin(u2, u1, assume_unique=True)
        return u1[m1], i1[m1], i2[m2]
    return _intersect1d(ar1, ar2, assume_unique, return_indices)


@normalize(jit=False)
def _intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique, return_indices):
    if not assume_unique and return_indices:
        ar1, ind1 = _unique(ar1.ravel(), True)[:2]
        ar2, ind2 = _unique(ar2.ravel(), True)[:2]
    elif not assume_unique:
        ar1, ar2 = _distinct(ar1.ravel()), _distinct(ar2.ravel())
    perm, aux, mask = _joined_sorted(ar1, ar2, dtypes.result_type(ar1, ar2))
    if not return_indices:
        return _compress(aux, mask)  # (the mask's lanes: the first of each equal pair)
    int1d, i1, i2 = _pairs(aux, perm, _positions(mask), ar1.size)
    if not assume_unique:
        i1, i2 = _flat_take(ind1, i1), _flat_take(ind2, i2)
    return int1d, i1, i2


@np_doc(np.union1d, notes="Sync point (as unique); of device arrays, a bucketed value.")
def union1d(ar1, ar2):
    return unique(concatenate((ar1, ar2), axis=None))


@np_doc(np.setdiff1d, notes="Sync point (as unique); of device arrays, a bucketed value.")
def setdiff1d(ar1, ar2, assume_unique=False):
    if assume_unique:
        ar1 = asarray(ar1).ravel()
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return ar1[isin(ar1, ar2, assume_unique=True, invert=True)]


@np_doc(np.setxor1d, notes="Sync point (as unique). Of device arrays, a bucketed value: the "
        "values counted once in the two sets joined.")
def setxor1d(ar1, ar2, assume_unique=False):
    a, b = asarray(ar1), asarray(ar2)
    if masked.unique_applies(a) and masked.unique_applies(b):
        if not assume_unique:
            a, b = unique(a), unique(b)
        # (NumPy: the elements unequal to both sorted neighbours; NaNs never equal)
        values, counts = unique(concatenate((a, b), axis=None), return_counts=True,
                                equal_nan=False)
        return values[counts == 1]
    return _setxor1d(a, b, assume_unique)


@normalize(jit=False)
def _setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique):
    if not assume_unique:
        ar1, ar2 = _distinct(ar1.ravel()), _distinct(ar2.ravel())
    _, aux, equal = _joined_sorted(ar1, ar2, dtypes.result_type(ar1, ar2))
    if aux.size == 0:
        return aux
    return _compress(aux, _unpaired(equal))


_unpaired = jit(lambda equal: ~(jnp.concatenate([jnp.zeros(1, bool), equal]) |
                                jnp.concatenate([equal, jnp.zeros(1, bool)])))
