"""``ndarray.flags``, ``strides``, memory overlap and ``ndarray.flat`` for tnp arrays.

Layout questions are answered by NumPy itself: a tnp view's lens chain is replayed on a
zero-data NumPy placeholder of its root (a C-contiguous array over a one-element buffer, built
with ``as_strided``; nothing of the root's size is allocated), so ``flags``, ``strides`` and
``shares_memory`` report what NumPy reports for the same program.
"""
import warnings
import weakref

import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import indexing, storage, write
from ..engine import lenses
from ..rules import probe
from .ndarray import ndarray

# Roots laid out in an axis order other than C's (``order='F'`` creations and copies, 'K'
# copies of views whose axes are permuted): the order of their axes in memory, the slowest
# first. Their placeholder has the strides NumPy gives such an array, so flags, strides and
# every view's layout follow NumPy. The values are the same whatever the order (a jax.Array has
# no layout); only what NumPy reports of the memory differs. Keyed by id (an ndarray is
# unhashable), weakly.
_ORDER = {}


def mark_order(a, perm):
    """Lay out the root ``a`` (a fresh array, not yet seen by anyone) with its axes in memory
    in the order ``perm`` (the slowest first); returns ``a``. C's order needs no mark."""
    perm = tuple(perm)
    if a._base is None:
        key = id(a)
        if perm == tuple(range(len(a._shape))):
            if root_order(a) is not None:
                del _ORDER[key]
        else:
            _ORDER[key] = (weakref.ref(a, lambda _, k=key: _ORDER.pop(k, None)), perm)
    return a


def mark_fortran(a):
    """Lay out the root ``a`` (fresh) in Fortran order; returns ``a``. Arrays of fewer than 2
    dimensions are both C and F contiguous: nothing to mark."""
    return mark_order(a, range(len(a._shape))[::-1]) if len(a._shape) > 1 else a


def lay_out(a, order):
    """The new root ``a`` laid out in ``order``: 'C', 'F' or an order of the axes
    (``copy_order``, ``mark_order``); returns ``a``."""
    if type(order) is tuple:
        return mark_order(a, order)
    if isinstance(order, str) and order.upper() == "F":
        return mark_fortran(a)
    return mark_order(a, range(len(a._shape))) if _ORDER else a


def root_order(root):
    """The order of ``root``'s axes in memory (the slowest first), or None for C's."""
    entry = _ORDER.get(id(root)) if _ORDER else None
    return entry[1] if entry is not None and entry[0]() is root else None


def k_order(layout):
    """'C', 'F', or the order of the axes in memory (the slowest first) of NumPy's 'K' copy of
    the NumPy array ``layout`` (its own copy of the layout, at most 2 long on each axis)."""
    small = as_strided(layout, tuple(min(n, 2) for n in layout.shape), layout.strides)
    x = np.empty_like(small, order="K")
    if x.flags.c_contiguous:
        return "C"
    if x.flags.f_contiguous:
        return "F"
    return tuple(int(i) for i in np.argsort([-st for st in x.strides], kind="stable"))


def copy_order(a, order):
    """'C', 'F' or an order of the axes (``mark_order``): the layout of NumPy's copy of ``a``
    with ``order`` ('C', 'F', 'A', 'K'; 'K' follows the order of the strides of a
    non-contiguous ``a``)."""
    if order in ("C", "F"):
        return order
    perm = root_order(a._root)
    if a._base is None and perm is None:
        return "C"
    if perm is None and all(k != "transpose" for k, _ in a._chain()[0]):
        return "C"  # slices and reshapes of C-ordered data are never F- without C-contiguous
    layout = numpy_layout(a)
    if order == "K" and not (layout.flags.c_contiguous or layout.flags.f_contiguous):
        return k_order(layout)
    return "F" if layout.flags.f_contiguous and not layout.flags.c_contiguous else "C"


def c_strides(shape, itemsize):
    """The strides NumPy gives a new C-contiguous array of ``shape``."""
    if 0 in shape:
        return np.empty(shape, np.int8).strides  # NumPy's own answer for empty arrays
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def root_placeholder(root):
    """A NumPy array with the root's shape, dtype and layout, over a one-element buffer."""
    dt = root._dtype
    perm = root_order(root)
    if perm is None:
        return as_strided(np.zeros(1, dt), root._shape, c_strides(root._shape, dt.itemsize),
                          writeable=False)
    shape = tuple(root._shape[i] for i in perm)
    x = as_strided(np.zeros(1, dt), shape, c_strides(shape, dt.itemsize), writeable=False)
    return x.transpose(np.argsort(perm))


def _replay_index(x, static, los):
    spans, steps, _, kinds = static
    items, d = [], 0
    for k in kinds:
        if k == "n":
            items.append(None)
            continue
        lo, span, step = los[d], spans[d], steps[d]
        if k == "i":
            items.append(lo)
        elif step > 0:
            items.append(slice(lo, lo + span, step))
        else:
            items.append(slice(lo + span - 1, lo - 1 if lo else None, step))
        d += 1
    return x[tuple(items)]


def _replay(x, kind, static, dyn):
    if kind == "index":
        return _replay_index(x, static, dyn)
    if kind == "transpose":
        return x.transpose(static)
    if kind == "reshape":
        try:
            return x.reshape(static[1], copy=False)
        except ValueError:  # a reshape NumPy would copy (only ``flat`` builds one): fresh data
            return as_strided(np.zeros(1, x.dtype), static[1],
                              c_strides(static[1], x.dtype.itemsize), writeable=False)
    if kind in ("real", "imag"):
        return getattr(x, kind)
    if kind == "diagonal":
        return np.diagonal(x, *static)
    if kind == "strided":
        return lenses.strided_host(x, *static)
    if kind == "broadcast":
        return np.broadcast_to(x, static)
    if kind == "bitcast":
        return x.view(static[0])
    if kind == "field":
        return x.getfield(*static)
    raise AssertionError(kind)


def numpy_layout(a, root_ph=None):
    """The NumPy placeholder array laid out as ``a`` would be in NumPy (for flags and overlap)."""
    x = root_placeholder(a._root) if root_ph is None else root_ph
    for (kind, static), dyn in zip(*a._chain()):
        x = _replay(x, kind, static, dyn)
    return x


def overlap(a, b, exact):
    """``shares_memory`` (exact) / ``may_share_memory`` of two tnp arrays."""
    if a._root is not b._root:
        return False
    ph = root_placeholder(a._root)
    x, y = numpy_layout(a, ph), numpy_layout(b, ph)
    return bool(np.shares_memory(x, y) if exact else np.may_share_memory(x, y))


class Flags:
    """The flags NumPy would report for the same program."""

    def __init__(self, arr):
        self._arr = arr

    @property
    def writeable(self):
        if not self._arr._writeable and storage.warns_on_write(self._arr):
            warnings.warn("future versions will not create a writeable array from "
                          "broadcast_array. Set the writable flag explicitly to avoid this "
                          "warning.", FutureWarning, stacklevel=2)
            return True
        return self._arr._writeable

    @writeable.setter
    def writeable(self, value):
        self._arr.setflags(write=value)

    @property
    def _writeable_no_warn(self):
        return self._arr._writeable or storage.warns_on_write(self._arr)

    def _set_warn_on_write(self, value):
        if not value:
            raise ValueError("cannot clear '_warn_on_write', set writeable True to clear this "
                             "private flag")
        if not self._writeable_no_warn:
            raise ValueError("cannot set '_warn_on_write' flag when 'writable' is False")
        storage.set_warn_on_write(self._arr)

    _warn_on_write = property(None, _set_warn_on_write)  # (write-only, as NumPy's)

    @property
    def owndata(self):
        return self._arr._base is None

    @property
    def c_contiguous(self):
        return numpy_layout(self._arr).flags.c_contiguous

    @property
    def f_contiguous(self):
        return numpy_layout(self._arr).flags.f_contiguous

    @property
    def contiguous(self):
        return self.c_contiguous

    @property
    def fortran(self):
        return self.f_contiguous

    @property
    def aligned(self):
        return numpy_layout(self._arr).flags.aligned

    writebackifcopy = False

    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    @property
    def behaved(self):
        return self.aligned and self.writeable

    @property
    def carray(self):
        return self.behaved and self.c_contiguous

    @property
    def farray(self):  # NumPy's test: any of F_CONTIGUOUS, ALIGNED, WRITEABLE, and not C
        return (self.f_contiguous or self.aligned or self.writeable) and not self.c_contiguous

    _NAMES = {"WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata", "O": "owndata",
              "C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
              "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved",
              "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray",
              "FA": "farray"}

    def __getitem__(self, key):
        if key not in self._NAMES:
            raise KeyError("Unknown flag")
        return getattr(self, self._NAMES[key])

    def __setitem__(self, key, value):
        if self._NAMES.get(key) != "writeable":
            raise ValueError("tnp: only the WRITEABLE flag can be set")
        self.writeable = value

    _SHOWN = ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned", "writebackifcopy")

    def __repr__(self):
        return "".join(f"  {k.upper()} : {getattr(self, k)}\n" for k in self._SHOWN)

    def __eq__(self, other):  # NumPy's: the same flags (and unhashable)
        if not isinstance(other, Flags):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self._SHOWN)

    __hash__ = None


class FlatIter:
    """``a.flat``: reads give copies (as NumPy's flatiter); writes go through to ``a`` in C order."""

    def __init__(self, arr):
        if len(arr.shape) > 32:  # NumPy's flat iterator's limit
            raise RuntimeError("this function only supports up to 32 dimensions but the array "
                               f"has {len(arr.shape)}.")
        self.base = arr

    def __delitem__(self, index):
        raise TypeError("Cannot delete iterator elements")

    def _flat(self):
        a = self.base
        return a._view(("reshape", (a.shape, (a.size,))), (), (a.size,))

    def _numpy_index(self, index, setting):
        """``index`` as NumPy's flatiter reads it. Forms other than a slice go first through
        NumPy's flatiter on a data-free placeholder (tnp arrays in the index as placeholders of
        their shape and dtype): NumPy's errors and deprecation warnings. Then the deprecated
        forms are read as NumPy reads them: a 0-d Python bool as 0 (True) or nothing (False),
        float indices as integers; a flat iterator as its array."""
        if isinstance(index, (slice, type(Ellipsis))):
            return index

        def host(x):
            if isinstance(x, FlatIter):  # NumPy's own flat iterator of a placeholder
                return probe.placeholder(probe.Spec(x.base.shape, x.base.dtype)).flat
            if isinstance(x, ndarray):
                return probe.placeholder(probe.Spec(x.shape, x.dtype))
            return x
        spec = (probe.Out if setting else probe.Spec)((self.base.size,), self.base.dtype)
        ph = probe.placeholder(spec).flat
        idx = tuple(host(v) for v in index) if type(index) is tuple else host(index)
        if setting:
            ph[idx] = 0
        else:
            ph[idx]  # noqa: B018 - NumPy's errors and warnings only
        if isinstance(index, bool):
            return 0 if index else slice(0, 0)
        if isinstance(index, FlatIter):  # an empty one of any dtype selects nothing, as ``[]``
            return index._flat() if index.base.size else []
        if isinstance(index, (float, np.floating)) or (type(index) is list and
                                        np.asarray(index).dtype.kind == "f"):
            return np.asarray(index).astype(np.intp)[()]
        return index

    def __getitem__(self, index):
        r = self._flat()[self._numpy_index(index, False)]
        # a copy, never a view (on the host tier an element is NumPy's scalar)
        return r.copy() if isinstance(r, ndarray) and r._base is not None else r

    def __setitem__(self, index, value):
        """NumPy's flatiter assignment: ``value`` is repeated (or cut) to the selected length."""
        if not self.base._writeable:
            raise ValueError("underlying array is read-only")
        index = self._numpy_index(index, True)
        flat = self._flat()
        n = int(np.prod(indexing.parse(flat.shape, index).shape, dtype=np.int64))
        v = write.cyclic(value, n, flat.dtype)
        if v is not None:
            write.assign(flat, v, index=index)

    def __len__(self):
        return self.base.size

    _index = 0

    @property
    def index(self):
        return self._index

    @property
    def coords(self):
        return tuple(int(i) for i in np.unravel_index(self._index, self.base.shape))

    def __iter__(self):
        return self  # NumPy's flatiter is its own iterator

    def __next__(self):
        i = self._index
        if i >= self.base.size:
            raise StopIteration
        self._index = i + 1
        return self._flat()[i]

    def __array__(self, dtype=None, copy=None):
        """A host copy, writeable where NumPy's is (NumPy's is the array itself, a view, for a
        writeable C-contiguous base; a read-only copy otherwise)."""
        r = self._flat().__array__(dtype, copy=copy)
        flags = self.base.flags
        if not (flags.c_contiguous and flags.writeable):
            r.flags.writeable = False
        return r

    def copy(self):
        return self._flat().copy()
