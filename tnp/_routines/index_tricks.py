"""Index tricks: diag/tril/triu/mask indices, ravel_multi_index, unravel_index, and the index
expression objects r_, c_, s_, index_exp.

Index counts of tril/triu come from the static ``n, m, k`` (float ones, which NumPy accepts
through its arange-based mask, are answered by NumPy's mask of those static sizes). NumPy
validates the arguments of ravel_multi_index/unravel_index on empty placeholders.
Sync points: the bounds checks of ``ravel_multi_index(mode='raise')`` and ``unravel_index``.
"""
import builtins
import functools
import operator
import sys

from .._core.engine.jaxload import jit, jnp
import numpy as np

from .._core.numerics.casting import numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import ArrayLike, ArrayLikeSeq, normalize
from .._core.dispatch.np_doc import np_doc
from .._core.rules import probe
from .._core.engine import syncs
from .creation import arange, array, asarray, ones
from .joining import concatenate
from .ranges import linspace
from .searching import concrete, nonzero

__all__ = ["diag_indices", "diag_indices_from", "tril_indices", "tril_indices_from",
           "triu_indices", "triu_indices_from", "mask_indices", "ravel_multi_index",
           "unravel_index", "r_", "c_", "s_", "index_exp"]

_INTP = np.dtype(np.intp)


@np_doc(np.diag_indices)
def diag_indices(n, ndim=2):
    idx = arange(n)
    return (idx,) * ndim


@np_doc(np.diag_indices_from)
def diag_indices_from(arr):
    arr = asarray(arr)
    if not arr.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    if not builtins.all(d == arr.shape[0] for d in arr.shape[1:]):
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def _tril_count(n, m, k):
    """Elements on and below diagonal ``k`` of an n x m matrix."""
    return builtins.sum(builtins.min(builtins.max(i + k + 1, 0), m) for i in range(n))


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _tri_kernel(n, m, k, upper, count):
    mask = jnp.tri(n, m, k - 1 if upper else k, dtype=bool)
    r, c = jnp.nonzero(~mask if upper else mask, size=count)
    return numpy_cast(r, _INTP), numpy_cast(c, _INTP)


def _tri_indices(n, k, m, upper):
    try:
        n, k = operator.index(n), operator.index(k)
        m = n if m is None else operator.index(m)
    except TypeError:  # float sizes/offsets: NumPy's own arange-based mask (static arguments)
        mask = np.tri(n, m, k - 1 if upper else k, dtype=bool)
        return tuple(asarray(i) for i in np.nonzero(~mask if upper else mask))
    np.tri(builtins.min(n, 0), builtins.min(m, 0), k)  # NumPy's errors for negative sizes
    n, m = builtins.max(n, 0), builtins.max(m, 0)
    count = n * m - _tril_count(n, m, k - 1) if upper else _tril_count(n, m, k)
    return tuple(ndarray._wrap(x) for x in _tri_kernel(n, m, k, upper, count))


@np_doc(np.tril_indices)
def tril_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, False)


@np_doc(np.triu_indices)
def triu_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, True)


def _check_2d(arr):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


@np_doc(np.tril_indices_from)
def tril_indices_from(arr, k=0):
    arr = _check_2d(arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


@np_doc(np.triu_indices_from)
def triu_indices_from(arr, k=0):
    arr = _check_2d(arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


@np_doc(np.mask_indices, notes="Sync point (as nonzero).")
def mask_indices(n, mask_func, k=0):
    a = asarray(mask_func(ones((n, n), int), k))
    return nonzero(a != 0)


def _strides(dims, order):
    strides, step = [], 1
    for d in (reversed(dims) if order == "C" else dims):
        strides.append(step)
        step *= d
    return strides[::-1] if order == "C" else strides


_MODES = {0: "clip", 1: "wrap", 2: "raise"}


def _order(order):
    """'C' or 'F' (NumPy has already rejected anything else)."""
    return "C" if order is None else order[0].upper()


@normalize
def _ravel_kernel(idx: ArrayLikeSeq, dims, modes, order):
    idx = jnp.broadcast_arrays(*[numpy_cast(i, _INTP) for i in idx])
    out = jnp.zeros(idx[0].shape, _INTP)
    bad = jnp.zeros((), bool)
    for i, d, mode, s in zip(idx, dims, modes, _strides(dims, order)):
        if mode == "wrap":
            i = jnp.mod(i, d)
        elif mode == "clip":
            i = jnp.clip(i, 0, d - 1)
        else:
            bad = bad | jnp.any((i < 0) | (i >= d))
        out = out + i * s
    return out, bad


@np_doc(np.ravel_multi_index, notes="Sync point: mode='raise' reads the bounds check from the "
                                    "device.")
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    if any(isinstance(i, (list, tuple)) and not i for i in multi_index):
        # an empty Python sequence: NumPy's own error (it names the dtype it inferred)
        probe.call(np.ravel_multi_index, multi_index, dims, mode=mode, order=order)
    idx = [asarray(i) for i in multi_index]
    dims = (operator.index(dims),) if not isinstance(dims, (tuple, list)) and np.ndim(dims) == 0 \
        else tuple(operator.index(d) for d in dims)
    np.broadcast_shapes(*(i.shape for i in idx))
    # NumPy's errors (on empty index arrays: none of them depends on the values; with a zero
    # dimension, the real shapes decide: any index at all is an error)
    probe.call(np.ravel_multi_index, tuple(
        probe.like(i) if 0 in dims else probe.Spec((0,), i.dtype) for i in idx), dims,
        mode=mode, order=order)
    modes = tuple(mode) if isinstance(mode, (tuple, list)) else (mode,) * len(dims)
    modes = tuple(_MODES.get(m, m) for m in modes)
    out, bad = _ravel_kernel(idx, dims, modes, _order(order))
    if "raise" in modes:
        concrete(bad._value, "ravel_multi_index", "mode='wrap' or mode='clip'")
        if syncs.check(bad._value):
            raise ValueError("invalid entry in coordinates array")
    return out


@normalize
def _unravel_kernel(indices: ArrayLike, dims, order):
    i = numpy_cast(indices, _INTP)
    size = int(np.prod(dims, dtype=np.int64))
    bad = jnp.any((i < 0) | (i >= size))
    out = []
    for d in (reversed(dims) if order == "C" else dims):
        out.append(i % d if d else i)
        i = i // d if d else i
    return tuple(out[::-1] if order == "C" else out), bad


@np_doc(np.unravel_index, notes="Sync point: the bounds check is read from the device.")
def unravel_index(indices, shape, order="C"):
    if isinstance(indices, (list, tuple)) and not indices:
        # an empty Python sequence: NumPy's own error (it names the dtype it inferred)
        probe.call(np.unravel_index, indices, shape, order=order)
    indices = asarray(indices)
    empty_shape = np.ndim(shape) != 0 and len(shape) == 0
    # NumPy's errors on an empty index array (none depends on the values); shape () takes
    # a 0-d index and checks bounds before refusing any other
    if not empty_shape:
        probe.call(np.unravel_index, probe.Spec((0,), indices.dtype), shape, order=order)
    dims = (operator.index(shape),) if np.ndim(shape) == 0 else tuple(
        operator.index(d) for d in shape)
    out, bad = _unravel_kernel(indices, dims, _order(order))
    concrete(bad._value, "unravel_index", "jnp.unravel_index")
    if syncs.check(bad._value):
        host = np.asarray(indices).ravel()
        size = int(np.prod(dims, dtype=np.int64))
        first = host[(host < 0) | (host >= size)][0]
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    if empty_shape:
        probe.call(np.unravel_index, probe.Spec(indices.shape, indices.dtype), (), order=order)
    return out


def _concatenator_item(item, ndmin, trans1d):
    """One entry of an r_/c_ expression as a tnp array (``None`` result-type info for arrays)."""
    if isinstance(item, slice):
        start = 0 if item.start is None else item.start
        step = 1 if item.step is None else item.step
        if isinstance(step, (np.complexfloating, complex)):
            obj = linspace(start, item.stop, num=int(abs(step)))
        else:
            obj = arange(start, item.stop, step)
        if ndmin > 1:
            obj = array(obj, copy=None, ndmin=ndmin)
            if trans1d != -1:
                obj = obj.swapaxes(-1, trans1d)
        return obj
    item_ndim = np.ndim(item) if not isinstance(item, ndarray) else item.ndim
    obj = array(item, copy=None, ndmin=ndmin)
    if trans1d != -1 and item_ndim < ndmin:
        k2, k1 = ndmin - item_ndim, trans1d
        if k1 < 0:
            k1 += k2 + 1
        axes = list(range(ndmin))
        obj = obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
    return obj


class _AxisConcatenator:
    """NumPy's AxisConcatenator grammar, building tnp arrays with tnp's concatenate."""
    __slots__ = ("axis", "matrix", "ndmin", "trans1d")

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis, self.matrix, self.ndmin, self.trans1d = axis, matrix, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):  # NumPy's matrix builder: a NumPy matrix (tnp has none)
            frame = sys._getframe().f_back
            return np.bmat(key, frame.f_globals, frame.f_locals)
        if not isinstance(key, tuple):
            key = (key,)
        trans1d, ndmin, matrix, axis = self.trans1d, self.ndmin, self.matrix, self.axis
        objs, types = [], []
        col = False
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                    continue
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            if type(item) in np.ScalarType:
                objs.append(item)
                types.append(item)
                continue
            obj = _concatenator_item(item, ndmin, trans1d)
            objs.append(obj)
            types.append(obj.dtype)
        if types:
            final = np.result_type(*types)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=final) for o in objs]
        res = concatenate(tuple(objs), axis=axis)
        if matrix:  # NumPy's matrix class (a host copy: tnp has no matrix type)
            oldndim = res.ndim
            res = np.matrix(np.asarray(res))
            if oldndim == 1 and col:
                res = res.T
        return res

    def __len__(self):
        return 0


@np_doc(np.r_, name="r_", notes="The 'r'/'c' directives and string expressions return NumPy's "
                               "matrix (tnp has no matrix type).")
class RClass(_AxisConcatenator):
    __slots__ = ()

    def __init__(self):
        super().__init__(0)


@np_doc(np.c_, name="c_", notes="As r_.")
class CClass(_AxisConcatenator):
    __slots__ = ()

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()
# Pure-Python index expressions (no array data): fresh instances of NumPy's own class.
s_ = np.lib._index_tricks_impl.IndexExpression(maketuple=False)
index_exp = np.lib._index_tricks_impl.IndexExpression(maketuple=True)
