"""Routines whose results NumPy documents as views: flips, split pieces, ``atleast_Nd``,
``diagonal`` (read-only), and the memory-overlap queries."""
import operator

import numpy as np

from .._core.rules import probe
from .._core.array.flags import overlap
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import normalize_axes
from .._core.dispatch.np_doc import np_doc
from .creation import asarray
from .reshaping import reshape

__all__ = ["flip", "fliplr", "flipud", "split", "array_split", "hsplit", "vsplit", "dsplit",
           "atleast_1d", "atleast_2d", "atleast_3d", "diagonal",
           "shares_memory", "may_share_memory"]


@np_doc(np.flip)
def flip(m, axis=None):
    m = asarray(m)
    axes = normalize_axes(axis, m.ndim)
    return m[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))]


@np_doc(np.fliplr)
def fliplr(m):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


@np_doc(np.flipud)
def flipud(m):
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


@np_doc(np.array_split)
def array_split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    n_total = ary.shape[axis]  # NumPy's IndexError for a bad axis
    axis = operator.index(axis) % ary.ndim
    try:
        points = [0, *indices_or_sections, n_total]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extra = divmod(n_total, sections)
        sizes = [0] + extra * [each + 1] + (sections - extra) * [each]
        points = np.cumsum(sizes).tolist()
    head = (slice(None),) * axis
    return [ary[head + (slice(points[i], points[i + 1]),)] for i in range(len(points) - 1)]


@np_doc(np.split)
def split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    try:
        len(indices_or_sections)
    except TypeError:
        if ary.shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


@np_doc(np.hsplit)
def hsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


@np_doc(np.vsplit)
def vsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


@np_doc(np.dsplit)
def dsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def _atleast(arys, n, index_for_ndim):
    res = []
    for a in arys:
        a = asarray(a)
        idx = index_for_ndim.get(a.ndim)
        res.append(reshape(a, (1,) * n) if a.ndim == 0 else a if idx is None else a[idx])
    return res[0] if len(res) == 1 else tuple(res)


@np_doc(np.atleast_1d)
def atleast_1d(*arys):
    return _atleast(arys, 1, {})


@np_doc(np.atleast_2d)
def atleast_2d(*arys):
    return _atleast(arys, 2, {1: (None, slice(None))})


@np_doc(np.atleast_3d)
def atleast_3d(*arys):
    return _atleast(arys, 3, {1: (None, slice(None), None), 2: (slice(None), slice(None), None)})


@np_doc(np.diagonal, notes="A read-only view, as NumPy's.")
def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    shape = probe.call(np.diagonal, probe.like(a), offset, axis1, axis2).shape  # NumPy's check
    static = (operator.index(offset), axis1 % a.ndim, axis2 % a.ndim)
    return a._view(("diagonal", static), (), shape)


def _overlap(a, b, exact, max_work):
    if isinstance(a, ndarray) and isinstance(b, ndarray):
        return overlap(a, b, exact and max_work != 0)
    if isinstance(a, ndarray) or isinstance(b, ndarray):
        a, b = _memory(a), _memory(b)
        if a is None or b is None:
            return False  # a device array's data is XLA's: it shares nothing with host memory
    fn = np.shares_memory if exact else np.may_share_memory
    return fn(a, b, max_work=max_work)


def _memory(x):
    """A tnp array's NumPy memory where it has one (a host-tier array: its root's buffer, or
    NumPy's view of it, which ``numpy.asarray`` shares), None on the device; anything else as
    it is."""
    if not isinstance(x, ndarray):
        return x
    return x._host() if type(x._root._buf) is np.ndarray else None


@np_doc(np.shares_memory, notes="Answers for tnp's own views as NumPy does for the same program.")
def shares_memory(a, b, /, max_work=-1):
    return _overlap(a, b, True, max_work)


@np_doc(np.may_share_memory, notes="Answers for tnp's own views as NumPy does for the same "
        "program.")
def may_share_memory(a, b, /, max_work=0):
    return _overlap(a, b, False, max_work)

