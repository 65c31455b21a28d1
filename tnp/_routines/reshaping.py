"""Routines that NumPy answers with a view: tnp returns a view (a lens over the same root)."""
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from .._core.rules import probe
from .._core.array.flags import numpy_layout, root_order
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import normalize_axes
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["reshape", "ravel", "transpose", "swapaxes", "moveaxis", "squeeze", "expand_dims",
           "matrix_transpose", "permute_dims"]


def _reshape_view(a, shape):
    return a._view(("reshape", (a.shape, tuple(shape))), (), shape)


_shapes = {}  # (shape as Python ints, size) -> NumPy's resolved shape


def _resolve_shape(shape, size):
    if type(shape) is tuple and all(type(s) is int for s in shape):
        got = _shapes.get((shape, size))
        if got is not None:
            return got
        key = (shape, size)
    else:
        key = None
    if isinstance(shape, (int, np.integer)) and type(shape) is not bool:
        shape = (shape,)
    # NumPy resolves -1 and raises its own error for a bad shape, on a placeholder (a bool is
    # no integer to it: its TypeError)
    got = probe.call(np.reshape, probe.Spec((size,), np.int8), shape if isinstance(
        shape, (bool, np.bool_)) else tuple(s if isinstance(s, (bool, np.bool_))
                                            else operator.index(s) for s in shape)).shape
    if key is not None:
        if len(_shapes) >= probe.CACHE_SIZE:
            _shapes.clear()
        _shapes[key] = got
    return got


@np_doc(np.reshape)
def reshape(a, /, shape, order="C", *, copy=None):
    a = a if type(a) is ndarray else asarray(a)
    if order not in ("C", None):
        order = _numpy_order(order, np.reshape, (0,))
    if order == "A":  # Fortran order for an array laid out so (and not also C-contiguous)
        layout = numpy_layout(a).flags
        order = "F" if layout.f_contiguous and not layout.c_contiguous else "C"
    shape = _resolve_shape(shape, a.size)
    if order == "F":  # NumPy's F-order reshape is the C-order one of the transposes
        return transpose(reshape(transpose(a), tuple(reversed(shape)), copy=copy))
    if copy:
        return _reshape_view(a.copy(), shape)  # as NumPy: a view of the copy
    if _c_contiguous_chain(a):
        return _reshape_view(a, shape)
    try:  # NumPy decides view or copy, on the array's layout replayed on a placeholder
        numpy_layout(a).reshape(shape, copy=False)
    except ValueError:
        if copy is False:
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        return _reshape_view(a.copy(), shape)
    return _reshape_view(a, shape)


def _numpy_order(order, fn, *args):
    """``order`` as NumPy reads it (one upper-case letter), after NumPy's own ValueError or
    TypeError for one it rejects (``fn`` probed on a 0-size placeholder)."""
    probe.call(fn, probe.Spec((0,), np.int8), *args, order=order)
    return order.upper() if isinstance(order, str) else order


def _c_contiguous_chain(a):
    """Whether ``a`` is a C-ordered root or a chain of reshapes of one (C-contiguous: any
    reshape of it is a view), decided without replaying its layout."""
    if root_order(a._root) is not None:
        return False
    return a._base is None or all(kind == "reshape" for kind, _ in a._chain()[0])


@np_doc(np.ravel)
def ravel(a, order="C"):
    a = asarray(a)
    if order != "C":
        order = _numpy_order(order, np.ravel)
    if order in ("A", "K") and a.ndim > 1:
        layout = numpy_layout(a)
        if order == "A":
            order = "F" if layout.flags.f_contiguous and not layout.flags.c_contiguous else "C"
        elif not layout.flags.c_contiguous:  # 'K': memory order, axes by decreasing stride
            perm = sorted(range(a.ndim), key=lambda i: -abs(layout.strides[i]))
            if perm != list(range(a.ndim)):
                return ravel(transpose(a, perm))
    if order == "F":
        return ravel(transpose(a))
    if not (_c_contiguous_chain(a) or numpy_layout(a).flags.c_contiguous):
        # NumPy's ravel is a view only of contiguous data (not of ``a[::2]``, which a reshape
        # could view): a copy, that owns its data
        return _reshape_view(a, (a.size,)).copy()
    return _reshape_view(a, (a.size,))


@np_doc(np.transpose)
def transpose(a, axes=None):
    a = a if type(a) is ndarray else asarray(a)
    if axes is None:
        perm = tuple(range(a.ndim))[::-1]
    else:
        if len(axes) != a.ndim:
            raise ValueError("axes don't match array")
        perm = tuple(normalize_axis_index(operator.index(ax), a.ndim) for ax in axes)
        if len(set(perm)) != len(perm):
            raise ValueError("repeated axis in transpose")
    return a._view(("transpose", perm), (), tuple(a.shape[p] for p in perm))


@np_doc(np.permute_dims, name="permute_dims")
def permute_dims(a, axes=None):
    return transpose(a, axes)


@np_doc(np.matrix_transpose)
def matrix_transpose(x, /):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional, but it is "
                         f"{x.ndim}-dimensional")
    return swapaxes(x, -1, -2)


@np_doc(np.swapaxes)
def swapaxes(a, axis1, axis2):
    a = asarray(a)
    # NumPy's normaliser: its errors name the argument ("axis2: axis 3 is out of bounds ...")
    i = normalize_axis_index(operator.index(axis1), a.ndim, "axis1")
    j = normalize_axis_index(operator.index(axis2), a.ndim, "axis2")
    perm = list(range(a.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


@np_doc(np.moveaxis)
def moveaxis(a, source, destination):
    a = asarray(a)
    # NumPy's own axis normaliser: its errors name the argument ("source: axis 3 is ...")
    src = normalize_axis_tuple(source, a.ndim, "source")
    dst = normalize_axis_tuple(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


@np_doc(np.squeeze)
def squeeze(a, axis=None):
    a = asarray(a)
    if axis is None:
        axes = tuple(i for i, n in enumerate(a.shape) if n == 1)
    else:
        axes = normalize_axes(axis, a.ndim)
        if any(a.shape[i] != 1 for i in axes):
            raise ValueError("cannot select an axis to squeeze out which has size not equal "
                             "to one")
    return _reshape_view(a, tuple(n for i, n in enumerate(a.shape) if i not in axes))


@np_doc(np.expand_dims)
def expand_dims(a, axis):
    a = asarray(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = a.ndim + len(axes)
    axes = normalize_axes(tuple(axes), out_ndim)
    shape, it = [], iter(a.shape)
    for i in range(out_ndim):
        shape.append(1 if i in axes else next(it))
    return _reshape_view(a, tuple(shape))
