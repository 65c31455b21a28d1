"""Joining and reshaping by copy: concatenate and the stacks, block, tile, repeat, pad, roll,
resize, insert, delete, append, trim_zeros, unstack, concat (and NumPy 2.4's row_stack); rollaxis
and rot90
(views, as in NumPy).

Shapes come from shapes and host values (``repeats``, ``obj``, ``pad_width``); NumPy validates
them on tiny placeholders so its exception classes and messages are kept. Device values there
(``repeats``/``obj``/``shift`` given as tnp arrays) are sync points.
"""
import builtins
import math
import operator
import warnings

from .._core.engine.jaxload import jax, jit, jnp, JaxArray
import numpy as np
from numpy.exceptions import AxisError
from numpy.lib._arraypad_impl import _as_pairs

from .._core.rules import dtypes, probe
from .._core.array import flags, masked, write
from .._core.numerics.casting import cast, numpy_cast
from .._core.array.ndarray import ndarray, numpy_value
from .._core.dispatch.normalize import (ArrayLike, ArrayLikeSeq, normalize, normalize_axes,
                                        normalize_axis, single_out, to_jax)
from .._core.dispatch.np_doc import np_doc
from .._core.engine import syncs
from .creation import asarray, check_size, zeros
from .searching import concrete
from .reshaping import expand_dims, moveaxis, reshape, transpose

__all__ = ["concatenate", "stack", "vstack", "hstack", "dstack", "column_stack", "block", "tile",
           "repeat", "pad", "roll", "rollaxis", "rot90", "resize", "trim_zeros", "insert",
           "delete", "append", "unstack", "concat"]


def _host(x, what):
    """A host NumPy value for a shape-deciding argument (a sync point for device arrays)."""
    if isinstance(x, ndarray):
        concrete(x._value, what, "host (NumPy or Python) values for it")
        return np.asarray(x)
    if isinstance(x, JaxArray):
        concrete(x, what, "host (NumPy or Python) values for it")
    return x


@normalize
def _concat_kernel(arrays: ArrayLikeSeq, axis, dt):
    return jnp.concatenate([numpy_cast(a, dt) for a in arrays], axis=axis)


@np_doc(np.concatenate, notes="Of compactions (``x[m]``, ``unique``) and 1-D device arrays: a "
        "bucketed value (one kernel per tuple of buckets, not per length).")
def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    out = single_out(out, "'out' must be an array")
    if not hasattr(type(arrays), "__getitem__") or isinstance(arrays, dict):  # PySequence_Check
        raise TypeError("The first input argument needs to be a sequence")
    weak = [a if type(a) in dtypes.WEAK_PLACEHOLDER else None for a in arrays]  # NEP 50
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    probe_axis = axis  # (None: a Python scalar stays weak, as in NumPy's call)
    if axis is None:  # (a masked or bucketed value is 1-D: kept as it is)
        arrays, axis = [a if type(a) is masked.MaskedValue else a.ravel() for a in arrays], 0
    ax = axis
    if arrays[0].ndim:
        ax = normalize_axis(operator.index(axis), arrays[0].ndim)

    def ph_shape(shape):
        return tuple(0 if i == ax else n for i, n in enumerate(shape))
    # NumPy's checks (ndim, shapes, dtype, casting), cached, on placeholders whose joined axis has
    # length 0: the same errors (the joined axis's length is in none of them), no big result
    ph = tuple(probe.Spec(ph_shape(a.shape), a.dtype) for a in arrays)
    dt = probe.dtype_of(np.concatenate, tuple(p if w is None else w for p, w in zip(ph, weak)),
                        axis=probe_axis, dtype=dtype, casting=casting)
    if out is not None:
        shape = list(arrays[0].shape)
        shape[ax] = builtins.sum(a.shape[ax] for a in arrays)
        if tuple(shape) != out.shape:
            raise ValueError("Output array is the wrong shape")
        probe.call(np.concatenate, ph, axis=axis, out=probe.Out(ph_shape(out.shape), out.dtype),
                   casting=casting)
        write.assign(out, _concat_kernel(arrays, ax, dt))
        return out
    if masked.joins(arrays):  # a bucketed value (no kernel per length)
        return masked.concatenate(arrays, dtypes.canonical(dt))
    return _concat_kernel(arrays, ax, dtypes.canonical(dt))


@np_doc(np.stack)
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _check_sequence(arrays)
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    if builtins.any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(operator.index(axis), arrays[0].ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis=axis, out=out, dtype=dtype,
                       casting=casting)


def _atleast(a, n):
    a = asarray(a)
    if a.ndim >= n:
        return a
    if n == 3 and a.ndim == 2:
        return reshape(a, a.shape + (1,))
    if n == 3 and a.ndim == 1:
        return reshape(a, (1,) + a.shape + (1,))
    return reshape(a, (1,) * (n - a.ndim) + a.shape)


def _check_sequence(tup):
    if not hasattr(tup, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or '
                        'tuple.')


@np_doc(np.vstack)
def vstack(tup, *, dtype=None, casting="same_kind"):
    _check_sequence(tup)
    return concatenate([_atleast(a, 2) for a in tup], 0, dtype=dtype, casting=casting)


@np_doc(np.hstack)
def hstack(tup, *, dtype=None, casting="same_kind"):
    _check_sequence(tup)
    arrs = [_atleast(a, 1) for a in tup]
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


@np_doc(np.dstack)
def dstack(tup):
    _check_sequence(tup)
    return concatenate([_atleast(a, 3) for a in tup], 2)


@np_doc(np.column_stack)
def column_stack(tup):
    _check_sequence(tup)
    arrs = []
    for v in tup:
        a = asarray(v)
        arrs.append(reshape(a, (-1, 1)) if a.ndim < 2 else a)
    return concatenate(arrs, 1)


def _map_leaves(x, fn):
    if isinstance(x, list):
        return [_map_leaves(e, fn) for e in x]
    if isinstance(x, tuple):
        return x  # NumPy's block rejects tuples: keep them for its check
    return fn(x)


def _list_depth(x):
    return 1 + _list_depth(x[0]) if isinstance(x, list) else 0


def _leaves(x):
    return [l for e in x for l in _leaves(e)] if isinstance(x, list) else [x]


_TUPLE = object()  # a tuple in block's arguments, for the probe (which makes lists tuples)


def _block_specs(x):
    if isinstance(x, list):
        return [_block_specs(e) for e in x]
    return _TUPLE if isinstance(x, tuple) else probe.Spec(x.shape, bool)


def _block_arg(x):
    if x is _TUPLE:
        return ()  # NumPy's message for a tuple does not depend on its contents
    return [_block_arg(e) for e in x] if type(x) is tuple else x


def _np_block(arrays):
    return np.block(_block_arg(arrays))


def _host_block(arrays):
    """NumPy's ``block`` as the host tier runs it: on every leaf's host value, at any depth
    (``host.call`` converts two levels; a tnp array left deeper would send NumPy's call back
    to tnp's ``block`` through ``__array_function__``, endlessly); a device leaf raises
    ``OnDevice``, which declines the call."""
    return np.block(_map_leaves(arrays, numpy_value))


@np_doc(np.block, notes="Checked by NumPy on bool placeholders (cached by shapes).",
        host_fn=_host_block)
def block(arrays):
    arrays = _map_leaves(arrays, asarray)
    probe.call(_np_block, _block_specs(arrays))  # builds a bool result once per shapes
    leaves = _leaves(arrays)
    depth = _list_depth(arrays)
    ndim = builtins.max([depth] + [a.ndim for a in leaves])
    dt = dtypes.result_type(*leaves)

    def build(x, level):
        if not isinstance(x, list):
            return reshape(x, (1,) * (ndim - x.ndim) + x.shape)
        return concatenate([build(e, level + 1) for e in x], axis=-(depth - level), dtype=dt)
    if depth == 0:
        return build(arrays, 0).copy()
    return build(arrays, 0)


@normalize
def _tile_kernel(a: ArrayLike, reps):
    return jnp.tile(a, reps)


@np_doc(np.tile)
def tile(A, reps):
    try:
        tup = tuple(operator.index(r) for r in reps)
    except TypeError:
        tup = (operator.index(reps),)
    a = asarray(A)
    a = reshape(a, (1,) * (len(tup) - a.ndim) + a.shape)
    if builtins.any(t < 0 for t in tup):
        probe.call(np.tile, probe.unit(a, np.int8), tup)
    reps = (1,) * (a.ndim - len(tup)) + tup
    check_size(math.prod(n * r for n, r in zip(a.shape, reps)), a.dtype)  # NumPy's "too big"
    return _tile_kernel(a, (1,) * (a.ndim - len(tup)) + tup)


@normalize
def _repeat_kernel(a: ArrayLike, repeats: ArrayLike | None, scalar, axis, total):
    reps = scalar if repeats is None else repeats
    return jnp.repeat(a, reps, axis=axis, total_repeat_length=total)


@np_doc(np.repeat, notes="Device repeats are a sync point (they decide the shape).")
def repeat(a, repeats, axis=None):
    a = asarray(a)
    repeats = _host(repeats, "repeat")
    if axis is None:
        a, axis = a.ravel(), 0
    else:
        axis = normalize_axis(operator.index(axis), a.ndim)
    # the length NumPy's repeat gives (and its errors); an array of repeats runs uncached
    total = probe.call(np.repeat, probe.Spec((a.shape[axis],), np.int8), repeats).shape[0]
    reps = np.asarray(repeats)
    if reps.size == 1:
        return _repeat_kernel(a, None, int(reps.reshape(())), axis, total)
    return _repeat_kernel(a, reps.astype(np.int64), None, axis, total)


@normalize
def _pad_kernel(a: ArrayLike, pad_width, mode, kwargs):
    kw = dict(kwargs)
    if mode == "empty":
        mode = "constant"
    if a.dtype == bool and (mode in ("linear_ramp", "mean", "median") or
                            kw.get("reflect_type") == "odd"):
        # NumPy computes these in arithmetic and casts back to bool (nonzero -> True)
        return jnp.pad(numpy_cast(a, np.float64), pad_width, mode=mode, **kw) != 0
    return jnp.pad(a, pad_width, mode=mode, **kw)


_PAD_KWARGS = {"constant": ("constant_values",), "linear_ramp": ("end_values",),
               "maximum": ("stat_length",), "mean": ("stat_length",),
               "median": ("stat_length",), "minimum": ("stat_length",),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


@np_doc(np.pad, notes="A callable mode runs eagerly, one vector (a tnp view) at a time.")
def pad(array, pad_width, mode="constant", **kwargs):
    a = asarray(array)
    pad_width = np.asarray(_host(pad_width, "pad"))
    if pad_width.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    pw = tuple(tuple(int(v) for v in row) for row in _as_pairs(pad_width, a.ndim, as_index=True))
    if callable(mode):
        padded = ndarray._wrap(jnp.pad(a._value, pw))
        for axis in range(a.ndim):
            view = moveaxis(padded, axis, -1)
            for ind in np.ndindex(view.shape[:-1]):
                mode(view[ind], pw[axis], axis, kwargs)
        return padded
    # NumPy's own checks of the mode and its keywords, on a 1-element placeholder
    probe.call(np.pad, probe.unit(a), 0, mode=mode, **kwargs)
    if a.ndim == 0:
        return a.copy()  # nothing to pad: NumPy returns a copy
    if a.size == 0 and mode not in ("constant", "empty"):
        for axis, width in enumerate(pw):
            if a.shape[axis] == 0 and builtins.any(width):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        return zeros(tuple(n + b + e for n, (b, e) in zip(a.shape, pw)), a.dtype)
    kw = []
    for k in _PAD_KWARGS.get(mode, ()):
        if k not in kwargs:
            continue
        v = _host(kwargs[k], "pad")
        if k == "reflect_type":
            kw.append((k, v))
        elif k == "stat_length":
            kw.append((k, None if v is None else _pairs_int(v, a.ndim)))
        else:
            pairs = np.asarray(_as_pairs(v, a.ndim))
            if k == "constant_values":  # NumPy writes them into the array: cast as setitem does
                pairs = pairs.astype(a.dtype)
            kw.append((k, tuple(tuple(r) for r in pairs.tolist())))
    return _pad_kernel(a, pw, mode, tuple(kw))


def _pairs_int(v, ndim):
    return tuple(tuple(int(x) for x in row) for row in _as_pairs(v, ndim, as_index=True))


@normalize
def _roll_kernel(a: ArrayLike, shifts, axes):
    return jnp.roll(a, shifts, axes) if a.size else a


@np_doc(np.roll)
def roll(a, shift, axis=None):
    a = asarray(a)
    shift = _host(shift, "roll")
    if axis is None:
        return reshape(roll(a.ravel(), shift, 0), a.shape)
    axes = normalize_axes(axis, a.ndim) if not isinstance(axis, (tuple, list)) else tuple(
        normalize_axis(operator.index(ax), a.ndim) for ax in axis)
    b = np.broadcast(np.asarray(shift), np.asarray(axes))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = [0] * a.ndim
    for sh, ax in b:
        shifts[ax] += int(sh)
    # as NumPy, modulo each axis's length (a shift past int64, 2**100 or a uint64, is exact)
    shifts = tuple(s % n if n else 0 for s, n in zip(shifts, a.shape))
    return _roll_kernel(a, shifts, tuple(range(a.ndim)))


@np_doc(np.rollaxis)
def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    axis = normalize_axis(operator.index(axis), n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(a, axes)


def _flip(m, axis):
    return m[(slice(None),) * axis + (slice(None, None, -1),)]


@np_doc(np.rot90)
def rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    a0, a1 = axes[0] % m.ndim, axes[1] % m.ndim
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return _flip(_flip(m, a0), a1)
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return transpose(_flip(m, a1), perm)
    return _flip(transpose(m, perm), a1)


@normalize
def _resize_kernel(a: ArrayLike, shape, size):
    a = a.ravel()
    if a.size == 0 or size == 0:
        return jnp.zeros(shape, a.dtype)
    return jnp.tile(a, -(-size // a.size))[:size].reshape(shape)


@np_doc(np.resize)
def resize(a, new_shape):
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    new_shape = tuple(operator.index(n) for n in new_shape)
    if builtins.any(n < 0 for n in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    return _resize_kernel(asarray(a), new_shape, math.prod(new_shape))


_nonzero_bounds = jit(lambda a, axes: tuple(
    jnp.any(a != 0, axis=tuple(i for i in range(a.ndim) if i != ax)) for ax in axes),
    static_argnums=1)


@np_doc(np.trim_zeros, notes="Sync point for a device array: its bounds are read from the device.")
def trim_zeros(filt, trim="fb", axis=None):
    arr = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(arr.ndim)) if axis is None else normalize_axes(axis, arr.ndim)
    if not axes:
        return filt
    if arr._on_host:  # NumPy reads the bounds (NumPy's result is a view: tnp makes its own)
        h = arr._host()
        masks = [np.any(h != 0, axis=tuple(i for i in range(h.ndim) if i != ax))
                 for ax in range(h.ndim)]
    else:
        concrete(arr._value, "trim_zeros", "slicing with known bounds")
        masks = []
        for m in _nonzero_bounds(arr._value, tuple(range(arr.ndim))):
            syncs.record("shape", m)
            masks.append(np.asarray(m))
    sl = []
    for ax, m in enumerate(masks):
        nz = np.flatnonzero(m)
        if ax not in axes:
            sl.append(slice(None))
        elif nz.size == 0:
            sl.append(slice(0, 0))
        else:
            sl.append(slice(int(nz[0]) if "f" in trim else None,
                            int(nz[-1]) + 1 if "b" in trim else None))
    if len(sl) == 1:
        return filt[sl[0]] if not isinstance(filt, (JaxArray,)) else arr[sl[0]]
    return arr[tuple(sl)]


@normalize
def _gather_kernel(arr: ArrayLike, values: ArrayLike, perm: ArrayLike, axis):
    return jnp.take(jnp.concatenate([arr, numpy_cast(values, arr.dtype)], axis=axis), perm,
                    axis=axis)


def _gathered(arr, values, perm, axis):
    """``delete``'s and ``insert``'s result: ``arr`` and ``values`` along ``axis``, taken at
    ``perm``, laid out as NumPy's (Fortran order for a Fortran-only ``arr``, else C)."""
    return flags.lay_out(_gather_kernel(arr, values, perm, axis),
                         "F" if arr.flags.fnc else "C")


def _axis_of(arr, axis):
    if axis is None:
        arr = arr.ravel() if arr.ndim != 1 else arr
        return arr, arr.ndim - 1
    return arr, normalize_axis(operator.index(axis), arr.ndim)


@np_doc(np.delete, notes="A device obj is a sync point (it decides the shape).")
def delete(arr, obj, axis=None):
    arr, axis = _axis_of(asarray(arr), axis)
    obj = _host(obj, "delete")
    try:
        keep = np.delete(np.arange(arr.shape[axis]), obj)
    except IndexError:  # NumPy's message names the axis: ask it on a placeholder of arr
        np.delete(probe.placeholder(probe.Spec(arr.shape, np.int8)), obj, axis=axis)
        raise
    empty = jnp.zeros(arr.shape[:axis] + (0,) + arr.shape[axis + 1:], arr.dtype)
    return _gathered(arr, empty, keep.astype(np.int64), axis)


def _insert_error(arr, obj, vshape, axis):
    """NumPy's error for values that do not fit an insert, from NumPy's insert on placeholders
    of the same shapes (an error path: the placeholder result is all it allocates)."""
    np.insert(probe.placeholder(probe.Spec(arr.shape, np.int8)), obj,
              probe.placeholder(probe.Spec(vshape, np.int8)), axis=axis)


@np_doc(np.insert, notes="A device obj is a sync point (it decides the shape).")
def insert(arr, obj, values, axis=None):
    arr, axis = _axis_of(asarray(arr), axis)
    n = arr.shape[axis]
    obj = _host(obj, "insert")
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        indices = np.array(obj)
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or "
                             "scalar")
    vals = to_jax(values) if isinstance(values, (ndarray, JaxArray)) else \
        jax.device_put(np.array(values, dtype=arr.dtype))
    vals = cast(vals, arr.dtype)
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        index = operator.index(index) + (n if index < 0 else 0)
        vals = vals.reshape((1,) * (arr.ndim - vals.ndim) + vals.shape)
        if indices.ndim == 0:
            vals = jnp.moveaxis(vals, 0, axis)
        numnew = vals.shape[axis]
        shape = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
        try:
            vals = jnp.broadcast_to(vals, shape)
        except ValueError:
            _insert_error(arr, obj, np.shape(values), axis)
            raise
        perm = np.concatenate([np.arange(index), n + np.arange(numnew), np.arange(index, n)])
        return _gathered(arr, vals, perm.astype(np.int64), axis)
    if indices.size == 0 and not isinstance(obj, np.ndarray):
        indices = indices.astype(np.intp)
    if indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    indices = indices.astype(np.intp)
    indices[indices < 0] += n
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += np.arange(numnew)
    old_mask = np.ones(n + numnew, dtype=bool)
    old_mask[indices] = False
    perm = np.empty(n + numnew, np.int64)
    perm[old_mask] = np.arange(n)
    perm[indices] = n + np.arange(numnew)
    shape = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
    try:
        vals = jnp.broadcast_to(vals, jnp.broadcast_shapes(vals.shape, shape))
        vals = jnp.broadcast_to(vals, shape) if vals.shape != shape else vals
    except ValueError:
        _insert_error(arr, obj, np.shape(values), axis)
        raise
    return _gathered(arr, vals, perm, axis)


@np_doc(np.append)
def append(arr, values, axis=None):
    arr = asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = asarray(values).ravel()
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)


@np_doc(np.unstack)
def unstack(x, /, *, axis=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    m = moveaxis(x, axis, 0)
    return tuple(m[i] for i in range(m.shape[0]))


concat = concatenate  # as in NumPy 2, where ``np.concat is np.concatenate``

if "row_stack" in vars(np):  # NumPy 2.5 removed the alias (deprecated since 2.0)
    __all__.append("row_stack")

    @np_doc(np.row_stack, name="row_stack")
    def row_stack(tup, *, dtype=None, casting="same_kind"):
        warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                      DeprecationWarning, stacklevel=2)
        return vstack(tup, dtype=dtype, casting=casting)
