"""The array's Python and NumPy protocols: construction (``__new__``), indexing
(``__getitem__``, ``__setitem__``), conversion (``__array__``, ``__round__``, ``__index__``,
``__hash__``, ``__contains__``, ``__sizeof__``), a stand-in scalar's own methods
(``__getattr__``), copying and pickling (``__copy__``, ``__deepcopy__``, ``__reduce__``) and
NumPy's hooks
(``__array_ufunc__``, ``__array_function__``, ``__array_wrap__``, ``__array_finalize__``,
``__array_namespace__``)."""
import functools
import operator

from ..engine.jaxload import ArrayImpl as _ArrayImpl
import numpy as np

from ..engine import lenses
from ..engine.tracing import in_trace
from ..rules import dtypes
from ..dispatch import host_pieces, tiers
from ..array import indexing, masked, roots, storage, write
from ..array.flags import copy_order, numpy_layout
from ..array.ndarray import ndarray
from ..array.subclasses import as_type_of, view_of_class
from . import host_tier, routines
from .interop import array_function, array_ufunc
from .routines import tnp


_VOID = np.void  # (the host element loop's one check: a record is a view, not a copy)
_INTS = frozenset({int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                   np.uint64, np.intc, np.uintc, np.intp, np.uintp, np.longlong, np.ulonglong})
_NUMBERS = frozenset({int, float, complex, bool})


def _element(a, index):
    """Whether ``index`` names one element of ``a``, a host-tier root: an int (Python's or
    NumPy's) of a 1-D array, a tuple of ints one per axis (the host tier's element loop: NumPy's
    own indexing)."""
    return type(a._buf) is np.ndarray and (
        type(index) in _INTS and len(a._shape) == 1 or type(index) is tuple
        and len(index) == len(a._shape) and all(type(i) in _INTS for i in index))


_BASIC = _INTS | {slice, type(None), type(Ellipsis)}


def _basic(index):
    """Whether ``index`` is a slice, None, an int, Ellipsis or a tuple of them: NumPy's view
    (or its error, or an element where ints name one)."""
    if type(index) in _BASIC:
        return True
    if type(index) is not tuple:
        return False
    for i in index:
        if type(i) not in _BASIC:
            return False
    return True


def _protocol(fn):
    """Attach ``fn`` to ``ndarray`` under its name."""
    setattr(ndarray, fn.__name__, fn)
    return fn


@staticmethod
def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """Without a buffer: ``empty``'s array (zeros, README's diff-empty; None for objects, as
    NumPy fills them). With one: the array NumPy makes over
    the buffer's bytes (NumPy checks the arguments, on a placeholder of a tnp buffer's
    layout), a view (lens "strided") of a tnp buffer, writes reaching it; of another
    buffer, of a copy of its bytes, as ``frombuffer`` (README's diff-memory)."""
    if buffer is None:
        if strides is not None:  # NumPy's errors (its array is not kept)
            np.ndarray(shape, dtype, None, offset, strides, order)
        return tnp.empty(shape, dtype)
    if isinstance(buffer, ndarray):
        host = np.ndarray(shape, dtype, numpy_layout(buffer), offset, strides, order)
        octets = buffer.reshape(-1).view(np.uint8)  # C-contiguous: NumPy's check
        writeable = buffer._writeable
    else:
        host = np.ndarray(shape, dtype, buffer, offset, strides, order)
        octets = tiers.new_root(np.frombuffer(buffer, np.uint8).copy(), host.dtype)
        writeable = host.flags.writeable
    if not octets._on_host:
        dtypes.check_supported(host.dtype)  # the device holds the bytes: as ``view``
    return octets._view(("strided", (operator.index(offset), host.shape, host.strides,
                                     host.dtype)), (), host.shape, host.dtype, writeable,
                        cls=cls)


ndarray.__new__ = __new__


@_protocol
def __getitem__(self, /, index):
    if masked.seen[0] and (type(self) is masked.MaskedValue or masked.among(
            index)):  # a compaction of a bucketed value, a read by nonzero's: stay bucketed
        r = masked.getitem(self, index)
        if r is not None:
            return r
    root = self._base
    if root is None and _element(self, index):  # the host tier's element loop, at NumPy's cost
        r = self._buf[index]
        if type(r) is not _VOID or not self._writeable or r.dtype.names is None:
            return r
        return host_tier.record(self, index)  # a writeable array's record: a view of it
    buf = self._buf if root is None and type(self) is ndarray else None  # (read once)
    if type(buf) is np.ndarray and _basic(index):  # a view of a host root: NumPy's, at its cost
        r = buf[index]
        if type(r) is np.ndarray and r.base is buf.base:
            shape = self._shape
            return self._host_view(r, lambda: host_tier.index_lenses(shape, index))
    if type((self if root is None else root)._buf) is np.ndarray and not (
            tiers.following and tiers.follow(self, index)):  # host tier: NumPy's
        if type(index) is ndarray and root is None:  # x[mask] of large arrays: in pieces
            r = host_pieces.take(self, index)
            if r is not None:
                return r
        return host_tier.getitem(self, index)
    if masked.applies(self, index):  # x[mask]: full size until its shape is asked
        return masked.take(self, index)
    plan = indexing.parse(self._shape, index)
    if type(plan) is indexing.BasicPlan:
        if plan.scalar:
            chain, dyns = self._chain()
            b = self._root._buf
            if type(b) is not _ArrayImpl:
                b = roots.buffer(self._root)
            return ndarray._wrap(lenses.get_kernel(chain + (plan.lens,))(
                b, dyns + (plan.dyn,)))
        return self._view(plan.lens, plan.dyn, plan.shape)
    r = ndarray._wrap(indexing.gather_kernel(plan.struct)(self._value, plan.dyn))
    # NumPy keeps a subclass (not tnp's masked value, whose ``__class__`` says ndarray)
    return r if self.__class__ is ndarray else as_type_of(r, self)


@_protocol
def __setitem__(self, /, index, value):
    if (type(value) in _NUMBERS and type(self) is ndarray and self._base is None
            and self._writeable and _element(self, index) and not in_trace()):
        with write.writing(self) as owner:  # the element loop's write: NumPy's own setitem
            owner[index] = value
        return
    if tiers.following:  # a device value or index: a large host target goes to the device
        tiers.follow(self, value, index)
    if masked.seen[0]:
        if (type(value) is masked.MaskedValue or masked.among(index)) and masked.setitem(
                self, index, value):
            return  # x[mask] = f(x[mask], ...), a[bucketed] = v: a masked write
        if type(value) is host_pieces.PiecesValue and host_pieces.setitem(self, index, value):
            return  # the same on large host arrays, piece by piece
    if type(index) is ndarray and host_pieces.fills(self, index, value):
        return  # x[mask] = scalar on large host arrays, piece by piece
    write.assign(self, value, index=index)


@_protocol
def __round__(self, ndigits=None):
    if not self._scalar:  # NumPy's arrays have no __round__; its scalars do
        raise TypeError("type numpy.ndarray doesn't define __round__ method")
    return round(self._scalar_host()[()], ndigits)


@_protocol
def __array_namespace__(self, /, *, api_version=None):
    return routines.namespace()


@_protocol
def __array__(self, dtype=None, /, *, copy=None):
    """A host copy (a named sync), laid out as NumPy's copy of the same array
    (``numpy.array(a)``, order 'K'): F-contiguous where that is F- and not C-contiguous
    (``order='F'``, a transpose, their views), C-contiguous otherwise."""
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    if type(self._root._buf) is np.ndarray:  # the host tier: NumPy's own copy, order 'K'
        arr = np.array(self._host())  # (a copy: the buffer is written by tnp only)
    else:  # a copy of the device value (a sync): never JAX's read-only buffer itself
        arr = np.array(self._host(), order="F" if copy_order(self, "K") == "F" else "C")
    return arr if dtype is None else arr.astype(dtype, copy=False)


@_protocol
def __index__(self, /):
    """An integer array of one element as an int (a sync, as NumPy's). Otherwise NumPy's
    TypeError: for a stand-in for a NumPy scalar, that scalar's (``'numpy.float64' object
    cannot be interpreted as an integer``, from a zero of its dtype: no sync)."""
    if self._dtype.kind not in "iu":
        if self._scalar:
            operator.index(np.zeros((), self._dtype)[()])
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return operator.index(self._scalar_host())


@functools.cache
def _scalar_only(dtype):
    """The public attributes NumPy's scalar of ``dtype`` has and NumPy's arrays lack
    (``is_integer``, ``as_integer_ratio``, ``hex``, ``bit_count``, ``numerator``, ...)."""
    return frozenset(name for name in set(dir(np.zeros((), dtype)[()])) - set(dir(np.ndarray))
                     if not name.startswith("_"))


@_protocol
def __getattr__(self, name):
    """Called only where ordinary lookup fails: a stand-in for a NumPy scalar answers the
    scalar's own methods (``x.is_integer()``) from that scalar (a named sync: they need the
    value); arrays have none, as NumPy's."""
    if not name.startswith("_") and self._scalar and name in _scalar_only(self._dtype):
        return getattr(self._scalar_host()[()], name)
    prop = getattr(type(self), name, None)
    if isinstance(prop, property):  # its getter raised AttributeError: raise its own again
        prop.fget(self)
    raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


del __getattr__  # the array's only: as a module global it would be this module's (PEP 562)


@_protocol
def __copy__(self, /):
    """A copy; a stand-in for a NumPy scalar stays one (on the device: no sync)."""
    return storage.scalar_like(self.copy(), self)


@_protocol
def __deepcopy__(self, memo, /):
    """As ``__copy__`` for numbers (nothing deeper to copy); an object array's elements are
    deep-copied by NumPy's ``__deepcopy__`` (their own ``__deepcopy__``'s errors raised)."""
    if self._dtype.hasobject:
        return as_type_of(tiers.new_root(self._host().__deepcopy__(memo)), self)
    return storage.scalar_like(self.copy(), self)


@_protocol
def __reduce__(self, /):
    """Pickled through a host copy; a stand-in for a NumPy scalar pickles as that scalar and
    loads as it, what the host tier returns for it (NumPy's scalar pickles as itself)."""
    if self._scalar:
        return self._scalar_host()[()].__reduce__()
    return (_from_host, (self.__array__(),))


def _from_host(arr):
    return tnp.asarray(arr)


@_protocol
def __array_ufunc__(self, ufunc, method, /, *inputs, **kwargs):
    return array_ufunc(ufunc, method, inputs, kwargs)


@_protocol
def __array_function__(self, /, func, types, args, kwargs):
    return array_function(func, args, kwargs)


@_protocol
def __array_wrap__(self, array, context=None, return_scalar=False, /):
    """NumPy's ``ndarray.__array_wrap__``: ``array`` (a tnp array, or a NumPy one, which
    becomes a tnp array) as a view of this array's class whose ``__array_finalize__`` sees this
    array (NumPy's), or ``array`` itself where it is of that class; its scalar where
    ``return_scalar``, it is 0-d and this array is a plain tnp.ndarray (a subclass's stays a 0-d
    array of the subclass, as NumPy's does)."""
    if isinstance(array, np.ndarray):
        array = tnp.asarray(array)
    elif not isinstance(array, ndarray):
        raise TypeError(f"__array_wrap__() argument 1 must be numpy.ndarray, not "
                        f"{type(array).__name__}")
    if return_scalar and array.ndim == 0 and type(self) is ndarray:
        return array[()]
    return array if type(array) is type(self) else view_of_class(array, type(self), self)


@_protocol
def __array_finalize__(self, obj, /):
    """NumPy's: nothing (a subclass's own is called where NumPy calls it: ``finalize``)."""
    return None


@_protocol
def __hash__(self):
    """A stand-in for a NumPy scalar hashes as that scalar (``{x[0]: 1}``); arrays are
    unhashable, as NumPy's."""
    if not self._scalar:
        raise TypeError(f"unhashable type: '{type(self).__name__}'")
    return hash(self._scalar_host()[()])


@_protocol
def __contains__(self, /, value):
    """NumPy's: ``(a == value).any()`` (a sync)."""
    return bool(tnp.any(self == value))


@_protocol
def __sizeof__(self, /):
    """NumPy's: the object, its shape and strides and, where the array owns its data (a
    root), its bytes."""
    return object.__sizeof__(self) + 16 * self.ndim + (
        self.nbytes if self._base is None else 0)
