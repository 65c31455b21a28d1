"""Sorting: sort, argsort, lexsort, partition, argpartition, sort_complex.

Order is NumPy's: NaNs last, ``-0.0 == 0.0``, complex lexicographic with NumPy's NaN classes
(``R+Rj < R+nanj < nan+Rj < nan+nanj``). Every sort is stable (a valid answer for every ``kind``).
``descending=True`` (NumPy >= 2.5) reverses the order within each NaN class; NaNs stay last.
"""

from .._core.engine.jaxload import jnp, lax
import numpy as np
from numpy.exceptions import AxisError

from .._core.rules import probe
from .._core.numerics.casting import numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import ArrayLike, ArrayLikeSeq, normalize, normalize_axis
from .._core.dispatch.np_doc import np_doc, numpy_signature
from .creation import asarray

__all__ = ["sort", "argsort", "lexsort", "partition", "argpartition", "sort_complex"]


def _real_key(x):
    x = jnp.where(x == 0, jnp.zeros((), x.dtype), x)  # -0.0 sorts with 0.0
    return jnp.where(jnp.isnan(x), jnp.full((), jnp.nan, x.dtype), x)  # positive NaN: last


def sort_keys(x, descending=False):
    """Keys whose lexicographic order (lax.sort) is NumPy's sort order of ``x``."""
    if x.dtype.kind in "biu":
        return [~x if descending else x]  # ~ reverses the order of every bool and integer dtype
    flip = jnp.negative if descending else (lambda v: v)
    if x.dtype.kind == "f":
        return [_real_key(flip(x))]
    re, im = jnp.real(x), jnp.imag(x)
    nre, nim = jnp.isnan(re), jnp.isnan(im)
    cls = numpy_cast(nre, jnp.int8) * 2 + numpy_cast(nim, jnp.int8)
    zero = jnp.zeros((), re.dtype)
    return [cls, _real_key(flip(jnp.where(nre, zero, re))),
            _real_key(flip(jnp.where(nim, zero, im)))]


def less(x, y):
    """NumPy's sort order ``x < y`` (elementwise, broadcasting)."""
    kx, ky = sort_keys(x), sort_keys(y)
    lt = jnp.zeros(jnp.broadcast_shapes(x.shape, y.shape), bool)
    eq = jnp.ones_like(lt)
    for a, b in zip(kx, ky):
        if a.dtype.kind == "f":
            a_lt_b = (a < b) | (~jnp.isnan(a) & jnp.isnan(b))
            a_eq_b = (a == b) | (jnp.isnan(a) & jnp.isnan(b))
        else:
            a_lt_b, a_eq_b = a < b, a == b
        lt = lt | (eq & a_lt_b)
        eq = eq & a_eq_b
    return lt


def _argsort(a, axis, descending):
    keys = sort_keys(a, descending)
    idx = lax.broadcasted_iota(np.int64, a.shape, axis)
    return lax.sort((*keys, idx), dimension=axis, is_stable=True, num_keys=len(keys))[-1]


def _sort(a, axis, descending=False):
    if a.dtype.kind in "biu" and not descending:
        return lax.sort(a, dimension=axis)
    keys = sort_keys(a, descending)
    return lax.sort((*keys, a), dimension=axis, is_stable=True, num_keys=len(keys))[-1]


@normalize
def _sort_kernel(a: ArrayLike, axis, arg, descending=False):
    if axis is None:
        a, axis = a.ravel(), 0
    return (_argsort if arg else _sort)(a, axis, descending)


def _sort_impl(a, axis, kind, order, stable, descending, arg):
    a = asarray(a)
    given = {} if descending is np._NoValue else {"descending": descending}
    # NumPy's argument errors (axis, kind, order, stable, descending with kind, and the unknown
    # keyword `descending` before NumPy 2.5), from NumPy run on a zero-size placeholder
    probe.call(np.argsort if arg else np.sort, probe.Spec((0,) * a.ndim, a.dtype), axis=axis,
               kind=kind, order=order, stable=stable, **given)
    if axis is not None:
        axis = normalize_axis(axis, a.ndim)
    return _sort_kernel(a, axis, arg, bool(given and descending))


# ``descending`` exists from NumPy 2.5 on; before that NumPy's own TypeError for it comes from
# the placeholder call in _sort_impl.
@numpy_signature
@np_doc(np.sort)
def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=np._NoValue):
    return _sort_impl(a, axis, kind, order, stable, descending, False)


@numpy_signature
@np_doc(np.argsort)
def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=np._NoValue):
    return _sort_impl(a, axis, kind, order, stable, descending, True)


@normalize
def _lexsort_kernel(keys: ArrayLikeSeq, axis):
    cols = [k for key in reversed(keys) for k in sort_keys(key)]
    idx = lax.broadcasted_iota(np.int64, keys[0].shape, axis)
    return lax.sort((*cols, idx), dimension=axis, is_stable=True, num_keys=len(cols))[-1]


@np_doc(np.lexsort)
def lexsort(keys, axis=-1):
    if isinstance(keys, (ndarray, np.ndarray)) or hasattr(keys, "__jax_array__"):
        keys = asarray(keys)
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(k.shape != keys[0].shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if keys[0].ndim == 0:
        r = probe.call(np.lexsort, tuple(probe.Spec((), k.dtype) for k in keys))
        return asarray(np.zeros(r.shape, r.dtype))  # the index of the one element
    return _lexsort_kernel(keys, normalize_axis(axis, keys[0].ndim))


def _partition_impl(a, kth, axis, kind, order, arg):
    a = asarray(a)
    n = a.size if axis is None else a.shape[normalize_axis(axis, a.ndim)] if a.ndim else None
    if n is None:
        raise AxisError(axis, 0)
    # NumPy checks kth (bounds, booleans), kind and order: run it on a placeholder of the axis
    # (an int8 copy of the axis's length; an array kth runs uncached)
    probe.call(np.partition, probe.Spec((n,), np.int8), kth, kind=kind, order=order)
    return _sort_kernel(a, None if axis is None else normalize_axis(axis, a.ndim), arg)


@np_doc(np.partition, notes="A full stable sort: a valid partition for every kth.")
def partition(a, kth, axis=-1, kind="introselect", order=None):
    return _partition_impl(a, kth, axis, kind, order, False)


@np_doc(np.argpartition, notes="A full stable argsort: a valid partition for every kth.")
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    return _partition_impl(a, kth, axis, kind, order, True)


@normalize
def _sort_complex_kernel(a: ArrayLike):
    dt = probe.dtype_of(np.sort_complex, probe.Spec((0,), a.dtype))
    return numpy_cast(_sort(a, a.ndim - 1), dt)


@np_doc(np.sort_complex)
def sort_complex(a):
    a = asarray(a)
    if a.ndim == 0:
        raise AxisError(-1, 0)
    return _sort_complex_kernel(a)
