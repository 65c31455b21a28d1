"""The array's NumPy methods (``a.astype``, ``a.reshape``, ``a.sum``, ...). A method NumPy's
own would run the same is on the host tier NumPy's (``host_tier.method``); the rest are tnp's
own (views, exports, pickling, in-place resizing). Methods that are a routine with the array as
first argument (``routines.DELEGATED``) call that routine's entry."""
import functools
import math
import operator
import sys

from ..engine.jaxload import jax, jit, jnp
import numpy as np

from ..engine import devices, distributed, lenses, syncs
from ..rules import dtypes, probe
from ..array import masked, storage, write
from ..array.flags import copy_order, lay_out, numpy_layout
from ..array.ndarray import ndarray
from ..dispatch.frontend import device_or_numpy
from . import host_tier
from .routines import DELEGATED, past_host, tnp
from ..array.subclasses import as_type_of, finalize

_type = type  # the builtin, where a NumPy parameter is named ``type``


def _on_host_tier(fn):
    """Attach ``fn`` as the method of its name, on the host tier NumPy's own."""
    fn.__qualname__ = f"ndarray.{fn.__name__}"
    setattr(ndarray, fn.__name__, host_tier.method(fn.__name__, fn))
    return fn


def _own(fn):
    """Attach ``fn`` as the method of its name, tnp's own on either tier: NumPy's would run
    differently (tnp's view, export and pickling protocols), or it is a view or the array
    itself, which the host tier declines (``reshape``, ``transpose``, a real array's ``conj``),
    or it counts the references to its array (``resize``: a wrapper's frame would hold one
    more)."""
    fn.__qualname__ = f"ndarray.{fn.__name__}"
    setattr(ndarray, fn.__name__, fn)
    return fn


@_on_host_tier
def astype(self, /, dtype, order="K", casting="unsafe", subok=True, copy=True):
    if self._scalar and np.dtype(dtype) == object:  # NumPy's scalar: its Python object
        return self._scalar_host()[()].astype(object, order=order, casting=casting)
    target = dtypes.canonical(dtype)
    # NumPy's errors for order= and casting=, from its astype on a placeholder
    probe.call(np.ndarray.astype, probe.Spec((0,), self._dtype), target, order=order,
               casting=casting)
    r = tnp.astype(self, target, copy=copy)  # laid out as 'K' says
    return r if r is self or order in ("K", "k") else lay_out(r, copy_order(self, order))


@_on_host_tier
def copy(self, /, order="C"):
    return as_type_of(tnp.copy(self, order=order), self)  # NumPy's method keeps a subclass


@_own
def reshape(self, /, *shape, order="C", copy=None):
    if not shape:
        raise TypeError("reshape() takes exactly 1 argument (0 given)")
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        shape = shape[0]
    if type(self._root._buf) is not np.ndarray:  # the device: the host tier would decline
        return past_host.reshape(self, shape, order=order, copy=copy)
    if order == "C" and copy is None:  # host tier: NumPy's view
        r = self._host().reshape(shape)
        old = self._shape
        return host_tier.result(self, r, lambda: ((("reshape", (old, r.shape)),), ((),)))
    return tnp.reshape(self, shape, order=order, copy=copy)


@_own
def transpose(self, /, *axes):
    if not axes:  # ``a.transpose()``; an explicit ``()`` is NumPy's to refuse
        axes = None
    elif len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
        axes = axes[0]  # one sequence (an array too) or None
    if type(self._root._buf) is not np.ndarray:  # the device: the host tier would decline
        return past_host.transpose(self, axes)
    r = self._host().transpose(axes)  # host tier: NumPy's view
    n = len(self._shape)
    return host_tier.result(self, r, lambda: ((("transpose", host_tier.permutation(n, axes)),),
                                              ((),)))


@_own
def view(self, /, dtype=None, type=None):
    """A view; with another ``dtype``, of the same bytes reinterpreted (writes go through);
    with ``type`` (or an array class as the first argument, as NumPy reads it), of that
    class: ``tnp.ndarray`` or a subclass (its ``__array_finalize__`` is called, as NumPy
    does). tnp holds bool as 0/1, so bytes other than 0 and 1 read as bool come back as 1."""
    if isinstance(dtype, _type) and issubclass(dtype, (ndarray, np.ndarray)):
        if type is not None:
            raise ValueError("Cannot specify output type twice.")
        dtype, type = None, dtype
    if type is not None and not (isinstance(type, _type) and issubclass(type, ndarray)):
        if isinstance(type, _type) and issubclass(type, np.ndarray):
            raise TypeError(f"tnp: a view of a tnp array is a tnp.ndarray (or a subclass "
                            f"of it), not {type.__module__}.{type.__qualname__}")
        raise ValueError("Type must be a sub-type of ndarray type")
    if dtype is None or np.dtype(dtype) == self._dtype:
        v = self._view(("reshape", (self._shape, self._shape)), (), self._shape, cls=type)
    else:  # a device array seen as a NumPy-only dtype: NumPy's view of its host copy
        v = device_or_numpy(np.ndarray.view, functools.partial(_bytes_view, cls=type),
                            (self, dtype), {})
    if type is not None:
        finalize(v, self)
    return v


def _bytes_view(a, dtype, cls=None):
    """The view of ``a``'s bytes as ``dtype``, through the bitcast lens. Where ``a``'s root is
    on the host tier, ``dtype`` may be any NumPy dtype (a structured or void view of float
    rows, to find unique rows: NumPy reads the bytes there); on the device, one XLA holds
    (``dtypes.canonical``, else ``UnsupportedDtype``)."""
    if type(a._root._buf) is np.ndarray:
        dt = np.dtype(dtype)
        target = dtypes.CANONICAL.get(dt, dt)
    else:
        target = dtypes.canonical(dtype)
    shape = numpy_layout(a).view(target).shape  # NumPy's shape and errors
    return a._view(("bitcast", (target, shape)), (), shape, target, cls=cls)


@_on_host_tier
def getfield(self, /, dtype, offset=0):
    """A view of ``dtype`` values read from each element's bytes at ``offset``."""
    target = dtypes.canonical(dtype)
    numpy_layout(self).getfield(target, offset)  # NumPy's errors
    return self._view(("field", (target, offset)), (), self._shape, target)


@_on_host_tier
def setfield(self, /, val, dtype, offset=0):
    self.getfield(dtype, offset)[...] = val


@_on_host_tier
def fill(self, /, value):
    write.assign(self, value)


@_on_host_tier
def item(self, /, *args):
    if not args:
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        syncs.record("item", self)
        return devices.to_host(self._value).item()
    if len(args) == 1 and isinstance(args[0], (int, np.integer)):
        return tnp.ravel(self)[args[0]].item()
    if len(args) > 1 and len(args) != self.ndim:
        raise ValueError("incorrect number of indices for array")
    return self[args[0] if len(args) == 1 else args].item()


@_on_host_tier
def tolist(self, /):
    return self.__array__().tolist()


@_own
def tobytes(self, /, order="C"):
    return self.__array__().tobytes(order)


@_own
def tofile(self, fid, /, sep="", format="%s"):
    host = self.__array__()
    with distributed.file_for_writer(fid) as f:  # (process 0's, in a run of several)
        host.tofile(f, sep, format)


@_own
def dump(self, /, file):
    host = self.__array__()
    with distributed.file_for_writer(file) as f:
        host.dump(f)


@_own
def dumps(self, /):
    return self.__array__().dumps()


@_on_host_tier
def byteswap(self, /, inplace=False):
    swapped = ndarray._wrap(_byteswapped(self._value))
    storage.scalar_like(swapped, self)
    if not inplace:
        return swapped
    write.check_writeable((self,), "array to be byte-swapped is read-only")
    write.assign(self, swapped)
    return self


@_own
def conjugate(self, out=None, /):
    """NumPy's: a real numeric array is its own conjugate (``a.conj() is a``), or is copied
    into ``out``."""
    kind = self._dtype.kind
    if kind in "cO":
        return tnp.conjugate(self) if out is None else tnp.conjugate(self, out)
    if kind not in "biuf":
        raise TypeError("cannot conjugate non-numeric dtype")
    if out is None:
        return self
    tnp.copyto(out, self)
    return out


ndarray.conj = conjugate


@_on_host_tier
def flatten(self, /, order="C"):
    return tnp.ravel(self, order=order).copy()


@_on_host_tier
def sort(self, /, axis=-1, kind=None, order=None, *, stable=None, descending=np._NoValue):
    axis = operator.index(axis)  # NumPy's method takes no axis=None: its TypeError
    write.check_writeable((self,), "sort array is read-only")  # before sorting
    write.assign(self, tnp.sort(self, axis=axis, kind=kind, order=order, stable=stable,
                                descending=descending))


@_on_host_tier
def partition(self, /, kth, axis=-1, kind="introselect", order=None):
    axis = operator.index(axis)  # NumPy's method takes no axis=None: its TypeError
    write.check_writeable((self,), "partition array is read-only")  # before partitioning
    write.assign(self, tnp.partition(self, kth, axis=axis, kind=kind, order=order))


@_on_host_tier
def compress(self, /, condition, axis=None, out=None):
    return tnp.compress(condition, self, axis=axis, out=out)


@_own
def setflags(self, /, write=None, align=None, uic=None):
    if write:
        root = self._base if self._base is not None else self
        if storage.read_only_source(root) or self._base is not None and not (
                root._writeable or storage.warns_on_write(root)):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        storage.set_writeable(self, True)
    elif write is not None:
        storage.set_writeable(self, False)


@_own
def resize(self, /, *new_shape, refcheck=True):
    """In place, as NumPy: new elements are zeros. ``refcheck`` counts Python references to
    this array (names, containers, views hold one each), as NumPy does; with
    ``refcheck=False`` views taken before the resize must not be used (undefined in NumPy)."""
    refcheck = operator.index(refcheck)  # NumPy's TypeError for a refcheck not an integer
    if len(new_shape) == 1 and (new_shape[0] is None or not isinstance(
            new_shape[0], (int, np.integer))):
        new_shape = new_shape[0]  # ``resize(())`` and ``resize([])``: to 0-d
    elif not new_shape:
        return None  # ``resize()``: nothing to do
    if new_shape is None:
        return None
    shape = (operator.index(new_shape),) if isinstance(new_shape, (int, np.integer)) \
        else tuple(operator.index(n) for n in new_shape)
    if not (self.flags.c_contiguous or self.flags.f_contiguous):
        raise ValueError("resize only works on single-segment arrays")
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions not allowed")
    if math.prod(shape) == self.size:  # NumPy's: the same bytes, no reallocation: any array
        if shape != self._shape:  # (a view too) takes the shape in place
            self.shape = shape
        return None
    if self._base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if refcheck and sys.getrefcount(self) > _RESIZE_REFS:
        raise ValueError("cannot resize an array that references or is referenced\n"
                         "by another object in this way.\nUse the np.resize function to "
                         "get a new resized copy or\n set refcheck=False to disable this "
                         "check")
    if not self._writeable:
        raise ValueError("resize only works on single-segment arrays")
    if self._on_host:  # NumPy's own resize (zeros; None in objects) of a private copy
        owner = self._host().copy()
        owner.resize(shape, refcheck=False)
        buf = owner.view()
        buf.setflags(write=False)  # (as every host root's buffer: written by the write path)
        write.replace_root(self, buf)
    else:
        write.replace_root(self, _resized(self._value, shape))
    return None


# References to an array held only by the caller's name, seen inside ``ndarray.resize``.
_RESIZE_REFS = 3


@_on_host_tier
def clip(self, /, min=np._NoValue, max=np._NoValue, out=None, **kwargs):
    """NumPy's method: either bound alone (``a.clip(3)``) or none (a copy), unlike the
    function."""
    return tnp.clip(self, None if min is np._NoValue else min,
                    None if max is np._NoValue else max, out, **kwargs)


@_on_host_tier
def choose(self, /, *choices, out=None, mode="raise"):
    """NumPy's method: the choices as one sequence, or as the positional arguments."""
    return tnp.choose(self, choices[0] if len(choices) == 1 else choices, out, mode)


@_own
def to_device(self, device, /, *, stream=None):
    if not isinstance(device, (str, jax.Device)):
        raise TypeError(f"to_device() argument 1 must be str, not {type(device).__name__}")
    if stream is not None:
        raise ValueError("The stream argument in to_device() is not supported")
    return devices.place(self, device)


@functools.partial(jit, static_argnums=1)
def _resized(buf, shape):
    n = int(np.prod(shape, dtype=np.int64))
    flat = buf.reshape(-1)[:n]
    return jnp.zeros(n, buf.dtype).at[:flat.shape[0]].set(flat).reshape(shape)


_byteswapped = jit(lenses.byteswapped)


# ---- methods that are the routine with the array as first argument -------------------------
# the function calls a subclass's own method (NumPy's ``_wrapreduction``): the method reduces
# the array itself (a subclass's override calling this one through ``super()`` ends here)
_WRAPPED_REDUCTIONS = frozenset({"sum", "prod", "max", "min"})


def _delegate(name):
    """The method ``name``: on the host tier NumPy's own (no detour), else the routine's entry
    past the host-tier question (``routines.past_host``: the method asked it)."""
    if name in _WRAPPED_REDUCTIONS:
        def method(self, *args, **kwargs):
            if type(self) is not ndarray:
                self = self.view(ndarray)
            return getattr(past_host, name)(self, *args, **kwargs)
    else:
        def method(self, *args, **kwargs):
            return getattr(past_host, name)(self, *args, **kwargs)
    method.__name__ = name
    method.__qualname__ = f"ndarray.{name}"
    call = host_tier.method(name, method)
    # its signature is NumPy's method's (NumPy's method or the routine takes the arguments),
    # which ``inspect.signature`` reads through ``__wrapped__`` when asked
    call.__wrapped__ = getattr(np.ndarray, name)
    return call


for _name in DELEGATED:
    setattr(ndarray, _name, _delegate(_name))


def _bucketed_reduction(name):
    """The reduction method ``name`` of a masked value: the routine's, which masks a bucketed
    value's padding (``masked.reduction``) instead of materialising it first."""
    def method(self, *args, **kwargs):
        return getattr(past_host, name)(self, *args, **kwargs)
    method.__name__ = name
    method.__qualname__ = f"ndarray.{name}"
    method.__wrapped__ = getattr(np.ndarray, name)
    return method


for _name in ("sum", "mean", "min", "max", "any", "all"):
    setattr(masked.MaskedValue, _name, _bucketed_reduction(_name))
