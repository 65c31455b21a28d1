"""The array's NumPy-facing properties: ``shape`` (settable, in place), ``strides``, ``T``,
``mT``, ``real`` and ``imag`` (views, settable), ``flags`` and ``flat``; the memory interfaces
``__array_interface__``, ``ctypes`` and (Python 3.12+) ``__buffer__`` of a host-tier array
(README's diff-memory)."""
import functools
import sys
import warnings
import weakref

from ..engine.jaxload import jit, jnp, Tracer
import numpy as np
from numpy._core._internal import _ctypes as _numpy_ctypes  # what ``numpy.ndarray.ctypes`` is

from ..engine import lenses, tracing
from ..rules import probe
from ..rules.errors import TnpTracingError
from ..array import storage, write
from ..array.flags import Flags, FlatIter, numpy_layout, root_order
from ..array.ndarray import ndarray
from .routines import tnp


def _shape(self):
    return self._shape


def _set_shape(self, value):
    """In place where NumPy allows it (no copy needed); views taken before stay valid."""
    ph = numpy_layout(self).view()
    ph.shape = value  # NumPy's errors; resolves -1
    shape = ph.shape
    if self._base is None:
        if self._on_host:
            write.reshape_host(self, shape)
        else:
            write.replace_root(self, _reshaped(self._value, shape))
    else:
        storage.reshape_view(self, shape)


def _strides(self):
    """The strides NumPy reports for the same array (a root is C-contiguous; views replay)."""
    return numpy_layout(self).strides


def _T(self):
    return self.transpose()


def _mT(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return tnp.swapaxes(self, -1, -2)


def _real(self):
    if self._dtype.kind == "c":
        return self._view(("real", None), (), self._shape, _real_dtype(self._dtype))
    return self


def _set_real(self, value):
    write.assign(self.real, value)


def _imag(self):
    if self._dtype.kind == "c":
        return self._view(("imag", None), (), self._shape, _real_dtype(self._dtype))
    return ndarray._wrap(jnp.zeros(self._shape, self._dtype), writeable=False)


def _set_imag(self, value):
    if self._dtype.kind != "c":
        probe.call(setattr, probe.Out((0,), self._dtype), "imag", 0)  # NumPy's TypeError
        raise TypeError("array does not have imaginary part to set")
    write.assign(self.imag, value)


def _flags(self):
    return Flags(self)


def _flat(self):
    return FlatIter(self)


def _set_flat(self, value):
    self.flat[...] = value


_STRIDES_DEPRECATED = ("Setting the strides on a NumPy array has been deprecated in NumPy "
                       "2.4.\nAs an alternative, you can create a new view using "
                       "np.lib.stride_tricks.as_strided.")


def _set_strides(self, value):
    """NumPy's deprecated ``a.strides = s``: its warning, and its checks against the memory of
    ``a``'s root; a view becomes the view of its root's bytes with those strides (the lens
    "strided", at the offset it has). An array owning its data keeps its own strides (tnp
    cannot make a root a view): others raise ValueError, as does an object dtype."""
    warnings.warn(_STRIDES_DEPRECATED, DeprecationWarning, stacklevel=2)
    root = self._base if self._base is not None else self
    mem = np.empty(root._shape, root._dtype)  # NumPy's memory of the root's extent
    layout = mem if self._base is None else lenses.host_get(*self._chain(), mem)
    view = layout.view()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        view.strides = value  # NumPy's errors
    if view.strides == layout.strides:
        return
    if self._base is None or self._dtype.hasobject or root_order(root) is not None:
        raise ValueError("tnp: an array that owns its data (or holds objects, or is laid out "
                         "in a permuted order) keeps its strides; make a new view with "
                         "numpy.lib.stride_tricks.as_strided")
    octets = root.reshape(-1).view(np.uint8)
    chain, dyns = octets._chain()
    start = view.__array_interface__["data"][0] - mem.__array_interface__["data"][0]
    storage.rechain_view(self, chain + (("strided", (start, view.shape, view.strides,
                                                     self._dtype)),), dyns + ((),))


ndarray.shape = property(_shape, _set_shape)
ndarray.strides = property(_strides, _set_strides)
ndarray.T = property(_T)
ndarray.mT = property(_mT)
ndarray.real = property(_real, _set_real)
ndarray.imag = property(_imag, _set_imag)
ndarray.flags = property(_flags)
ndarray.flat = property(_flat, _set_flat)


# ---- memory: the NumPy memory a host-tier array is -------------------------------------------
# The owners of memory whose address was handed out, kept while their root lives: the address
# stays valid when the root's buffer is replaced (a traced write moves a host root to the
# device), as a NumPy array's memory lives as long as the array. Keyed by the root's id (an
# ndarray is unhashable), weakly.
_HELD = {}


def _hold(root, owner):
    """Keep ``owner`` (a NumPy array) alive while ``root`` lives."""
    key = id(root)
    entry = _HELD.get(key)
    if entry is None or entry[0]() is not root:
        entry = _HELD[key] = (weakref.ref(root, lambda _, k=key: _HELD.pop(k, None)), [])
    if all(o is not owner for o in entry[1]):
        entry[1].append(owner)


def _memory(self):
    """The NumPy array of the memory this array is: a host-tier root's buffer, or NumPy's view
    of it for a view (so a view's address is its offset in its root's memory, as in NumPy).
    A device-tier array has none: its memory is XLA's, never written behind tnp's back, so the
    error is an AttributeError, and NumPy's conversion falls back to ``__array__`` (a copy)."""
    root = self._root
    buf = root._buf
    if type(buf) is not np.ndarray:
        if tracing.in_trace() and isinstance(self._value, Tracer):
            raise TnpTracingError(
                "a tnp array traced by JAX (jit/vmap/grad) has no memory address; read "
                "addresses outside the traced function")
        raise AttributeError(
            "a device-tier tnp array has no NumPy memory (its buffer is XLA's): "
            "__array_interface__, ctypes and the buffer protocol are a host-tier array's; "
            "numpy.asarray(a) is a host copy, or make the array on the host "
            "(tnp_ext.placement('auto'), README's diff-memory)")
    mem = self._host()
    _hold(root, mem if mem.base is None else mem.base)  # NumPy's base: the owner, one a root
    return mem


def _spelled(face):
    """The dtype NumPy reads back from an ``__array_interface__`` (``descr`` where it says more
    than ``typestr``)."""
    descr = face.get("descr")
    if not descr or descr == [("", face["typestr"])]:
        return np.dtype(face["typestr"])
    return np.dtype(descr)


def _array_interface(self):
    """NumPy's ``__array_interface__`` of the memory (``_memory``), read-only as the buffer tnp
    holds is: only tnp's write path writes a host array (under its lock, moving its version on,
    which the device copy and the views' caches follow), so NumPy's arrays made through it
    (``numpy.asarray(a)``) share the memory and see tnp's writes but cannot write it."""
    mem = _memory(self)
    face = dict(mem.__array_interface__)
    if _spelled(face) != mem.dtype:
        # a dtype the interface cannot spell (a structured one with an unnamed field reads back
        # as plain void, a user dtype as bytes): no interface, so NumPy converts through
        # ``__array__``, keeping the dtype
        raise AttributeError(f"__array_interface__ cannot describe the dtype {mem.dtype}")
    face["data"] = (face["data"][0], True)
    return face


def _ctypes(self):
    """NumPy's ``_ctypes`` object of the memory (``_memory``): ``data``, ``shape``,
    ``strides``, ``data_as``, made for this array, so that the pointers ``data_as`` makes hold
    it as NumPy's hold theirs. A raw pointer: C code writing through it bypasses the write
    path (README's diff-memory)."""
    return _numpy_ctypes(self, _memory(self).ctypes.data)


# PEP 3118's request flags (``inspect.BufferFlags``, Python 3.12)
_WRITABLE, _STRIDES, _C, _F, _ANY = 0x1, 0x18, 0x38, 0x58, 0x98


def _check_request(mem, flags):
    """NumPy's errors (``array_getbuffer``) for a request ``mem`` cannot meet: a contiguity it
    lacks, or writing (the memory is exported read-only: README's diff-memory)."""
    c, f = mem.flags.c_contiguous, mem.flags.f_contiguous
    if (flags & _C) == _C and not c or (flags & _STRIDES) != _STRIDES and not c:
        raise ValueError("ndarray is not C-contiguous")
    if (flags & _F) == _F and not f:
        raise ValueError("ndarray is not Fortran contiguous")
    if (flags & _ANY) == _ANY and not (c or f):
        raise ValueError("ndarray is not contiguous")
    if flags & _WRITABLE:
        raise ValueError("buffer source array is read-only")


def __buffer__(self, flags):
    """PEP 688's buffer export (Python 3.12+): NumPy's buffer of the memory (``_memory``),
    read-only, with NumPy's errors for a request it cannot meet; a device-tier array's is a
    BufferError (``_memory``'s reason). A void dtype whose PEP 3118 format NumPy cannot read
    back as it is (an object field after padding, a plain ``V4``) is a BufferError too, so
    that NumPy's conversion (which asks for the buffer first) goes on to
    ``__array_interface__`` or ``__array__`` and keeps the dtype."""
    try:
        mem = _memory(self)
    except AttributeError as e:
        raise BufferError(str(e)) from None
    _check_request(mem, flags)
    view = memoryview(mem)
    dt = mem.dtype
    if dt.kind == "V" or dt.hasobject:
        try:
            same = np.asarray(view).dtype == dt
        except (RuntimeError, ValueError, TypeError, NotImplementedError):
            same = False
        if not same:
            raise BufferError(f"the buffer format of the dtype {dt} does not read back as it")
    return view


ndarray.__array_interface__ = property(_array_interface)
ndarray.ctypes = property(_ctypes)
if sys.version_info >= (3, 12):  # a Python class exports a buffer from 3.12 on (PEP 688)
    ndarray.__buffer__ = __buffer__


def _numpy_read_only():
    """NumPy's ndarray attributes that refuse assignment (asked of NumPy: each set to its own
    value on an empty matrix)."""
    a = np.empty((0, 0))
    out = []
    for name, d in np.ndarray.__dict__.items():
        if type(d).__name__ == "getset_descriptor":
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    setattr(a, name, getattr(a, name))
            except AttributeError:
                out.append(name)
            except Exception:  # settable, refusing that value
                pass
    return out


def refuse_assignment():
    """``a.ndim = 3``, ``a.device = x``...: NumPy's AttributeError for its read-only attributes
    (Python's own names a property's missing setter). Called once every property is attached."""
    for name in _numpy_read_only():
        prop = ndarray.__dict__.get(name)
        if isinstance(prop, property) and prop.fset is None:
            setattr(ndarray, name, property(prop.fget, _refuse(name), doc=prop.__doc__))


def _refuse(name):
    def fset(self, value):
        raise AttributeError(f"attribute '{name}' of 'ndarray' objects is not writable")
    return fset


@functools.partial(jit, static_argnums=1)
def _reshaped(buf, shape):
    return buf.reshape(shape)


def _real_dtype(dt):
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt
