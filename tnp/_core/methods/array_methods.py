"""The NumPy face of ``tnp.ndarray``: its operators, methods and NumPy-facing properties,
attached to the class (``ndarray.py``, the array's storage) from above, as jax.numpy attaches
its array methods.

Every operation is implemented once, in the ``tnp`` namespace (bound by ``tnp/__init__`` through
``bind_namespace``, so this module imports nothing above ``tnp._core``); operators and methods
call it. Writes go through ``write.assign``; indexing through ``indexing`` plans.
"""
import functools
import operator
import sys

from ..engine.jaxload import jax, jit, jnp, ArrayImpl as _ArrayImpl
import numpy as np
from numpy._core._exceptions import _UFuncNoLoopError

from ..engine import devices, lazy, lenses, syncs
from ..rules import dtypes, probe
from ..dispatch import host, placement
from ..array import indexing, roots, write
from ..array.flags import Flags, FlatIter, copy_order, lay_out, numpy_layout
from .interop import array_function, array_ufunc
from ..array.ndarray import ndarray, numpy_value

_ns = None  # the tnp namespace, bound by tnp/__init__


_type = type  # the builtin, where a NumPy parameter is named ``type``


def bind_namespace(module):
    global _ns
    _ns = module


class _Methods:
    """The methods and properties attached to ``ndarray`` below (a class body, so that they
    read as the class's own)."""

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        """Without a buffer: zeros (README's diff-empty). With one: the array NumPy makes over
        the buffer's bytes (NumPy checks the arguments, on a placeholder of a tnp buffer's
        layout), a view (lens "strided") of a tnp buffer, writes reaching it; of another
        buffer, of a copy of its bytes, as ``frombuffer`` (README's diff-memory)."""
        if buffer is None:
            if strides is not None:  # NumPy's errors (its array is not kept)
                np.ndarray(shape, dtype, None, offset, strides, order)
            return _ns.zeros(shape, dtype)
        if isinstance(buffer, ndarray):
            host = np.ndarray(shape, dtype, numpy_layout(buffer), offset, strides, order)
            octets = buffer.reshape(-1).view(np.uint8)  # C-contiguous: NumPy's check
            writeable = buffer._writeable
        else:
            host = np.ndarray(shape, dtype, buffer, offset, strides, order)
            octets = placement.new_root(np.frombuffer(buffer, np.uint8).copy(), host.dtype)
            writeable = host.flags.writeable
        if not octets._on_host:
            dtypes.check_supported(host.dtype)  # the device holds the bytes: as ``view``
        return octets._view(("strided", (operator.index(offset), host.shape, host.strides,
                                         host.dtype)), (), host.shape, host.dtype, writeable,
                            cls=cls)

    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, value):
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
            chain, dyns = self._chain()
            self._lens = chain + (("reshape", (self._shape, shape)),)
            self._dyn = dyns + ((),)
            self._shape = shape
            self._cache = None
            self._hview = None  # NumPy's view has the old shape

    @property
    def strides(self):
        """The strides NumPy reports for the same array (a root is C-contiguous; views replay)."""
        return numpy_layout(self).strides

    @property
    def T(self):
        return self.transpose()

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return _ns.swapaxes(self, -1, -2)

    @property
    def real(self):
        if self._dtype.kind == "c":
            return self._view(("real", None), (), self._shape, _real_dtype(self._dtype))
        return self

    @real.setter
    def real(self, value):
        write.assign(self.real, value)

    @property
    def imag(self):
        if self._dtype.kind == "c":
            return self._view(("imag", None), (), self._shape, _real_dtype(self._dtype))
        return ndarray._wrap(jnp.zeros(self._shape, self._dtype), writeable=False)

    @imag.setter
    def imag(self, value):
        if self._dtype.kind != "c":
            probe.call(setattr, probe.Out((0,), self._dtype), "imag", 0)  # NumPy's TypeError
            raise TypeError("array does not have imaginary part to set")
        write.assign(self.imag, value)

    @property
    def flags(self):
        return Flags(self)

    @property
    def flat(self):
        return FlatIter(self)

    @flat.setter
    def flat(self, value):
        self.flat[...] = value

    def __getitem__(self, index):
        root = self._base
        if root is None and type(self._buf) is np.ndarray and type(index) is int and len(
                self._shape) == 1:  # the host tier's element loop, at NumPy's cost
            return self._buf[index]
        if type((self if root is None else root)._buf) is np.ndarray:  # host tier: NumPy's
            return _getitem_host(self, index)
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
        return ndarray._wrap(indexing.gather_kernel(plan.struct)(self._value, plan.dyn))

    def __setitem__(self, index, value):
        write.assign(self, value, index=index)

    def __round__(self, ndigits=None):
        if not self._scalar:  # NumPy's arrays have no __round__; its scalars do
            raise TypeError("type numpy.ndarray doesn't define __round__ method")
        return round(self._scalar_host()[()], ndigits)

    def __array_namespace__(self, *, api_version=None):
        return _ns

    def __array__(self, dtype=None, copy=None):
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

    def __reduce__(self):
        return (_from_host, (self.__array__(),))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return array_function(func, args, kwargs)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """NumPy's ``ndarray.__array_wrap__``: ``array`` (a tnp array, or a NumPy one, which
        becomes a tnp array) as an array of this array's class; its scalar where
        ``return_scalar`` and it is 0-d."""
        if isinstance(array, np.ndarray):
            array = _ns.asarray(array)
        elif not isinstance(array, ndarray):
            raise TypeError(f"__array_wrap__() argument 1 must be numpy.ndarray, not "
                            f"{_type(array).__name__}")
        if return_scalar and array.ndim == 0:
            return array[()]
        return array if _type(array) is _type(self) else array.view(_type(self))

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if self._scalar and np.dtype(dtype) == object:  # NumPy's scalar: its Python object
            return self._scalar_host()[()].astype(object, order=order, casting=casting)
        target = dtypes.canonical(dtype)
        # NumPy's errors for order= and casting=, from its astype on a placeholder
        probe.call(np.ndarray.astype, probe.Spec((0,), self._dtype), target, order=order,
                   casting=casting)
        r = _ns.astype(self, target, copy=copy)  # laid out as 'K' says
        return r if r is self or order in ("K", "k") else lay_out(r, copy_order(self, order))

    def copy(self, order="C"):
        return as_type_of(_ns.copy(self, order=order), self)  # NumPy's method keeps a subclass

    def reshape(self, *shape, order="C", copy=None):
        if not shape:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        if type(self._root._buf) is np.ndarray and order == "C" and copy is None:  # host tier
            r = self._host().reshape(shape)
            old = self._shape
            return _host_result(self, r, lambda: ((("reshape", (old, r.shape)),), ((),)))
        return _ns.reshape(self, shape, order=order, copy=copy)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
            axes = axes[0]
        axes = axes if axes != () else None
        if type(self._root._buf) is np.ndarray:  # host tier: NumPy's view
            r = self._host().transpose(axes)
            n = len(self._shape)
            return _host_result(self, r, lambda: ((("transpose", _permutation(n, axes)),), ((),)))
        return _ns.transpose(self, axes)

    def view(self, dtype=None, type=None):
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
        else:
            target = dtypes.canonical(dtype)
            shape = numpy_layout(self).view(target).shape  # NumPy's shape and errors
            v = self._view(("bitcast", (target, shape)), (), shape, target, cls=type)
        if type is not None:
            finalize(v, self)
        return v

    def __array_finalize__(self, obj, /):
        """NumPy's: nothing (a subclass's own is called where NumPy calls it: ``finalize``)."""
        return None

    def getfield(self, dtype, offset=0):
        """A view of ``dtype`` values read from each element's bytes at ``offset``."""
        target = dtypes.canonical(dtype)
        numpy_layout(self).getfield(target, offset)  # NumPy's errors
        return self._view(("field", (target, offset)), (), self._shape, target)

    def setfield(self, val, dtype, offset=0):
        self.getfield(dtype, offset)[...] = val

    def fill(self, value):
        write.assign(self, value)

    def item(self, *args):
        if not args:
            if self.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            syncs.record("item", self)
            return np.asarray(self._value).item()
        if len(args) == 1 and isinstance(args[0], (int, np.integer)):
            return _ns.ravel(self)[args[0]].item()
        if len(args) > 1 and len(args) != self.ndim:
            raise ValueError("incorrect number of indices for array")
        return self[args[0] if len(args) == 1 else args].item()

    def tolist(self):
        return self.__array__().tolist()

    def tobytes(self, order="C"):
        return self.__array__().tobytes(order)

    def tofile(self, fid, /, sep="", format="%s"):
        self.__array__().tofile(fid, sep, format)

    def dump(self, file):
        self.__array__().dump(file)

    def dumps(self):
        return self.__array__().dumps()

    def byteswap(self, inplace=False):
        swapped = ndarray._wrap(_byteswapped(self._value))
        swapped._scalar = self._scalar
        if not inplace:
            return swapped
        if not self._writeable:
            raise ValueError("array to be byte-swapped is read-only")
        write.assign(self, swapped)
        return self

    def __hash__(self):
        """A stand-in for a NumPy scalar hashes as that scalar (``{x[0]: 1}``); arrays are
        unhashable, as NumPy's."""
        if not self._scalar:
            raise TypeError(f"unhashable type: '{type(self).__name__}'")
        return hash(self._scalar_host()[()])

    def __contains__(self, value):
        """NumPy's: ``(a == value).any()`` (a sync)."""
        return bool(_ns.any(self == value))

    def conjugate(self, out=None, /):
        """NumPy's: a real numeric array is its own conjugate (``a.conj() is a``), or is copied
        into ``out``."""
        kind = self._dtype.kind
        if kind in "cO":
            return _ns.conjugate(self) if out is None else _ns.conjugate(self, out)
        if kind not in "biuf":
            raise TypeError("cannot conjugate non-numeric dtype")
        if out is None:
            return self
        _ns.copyto(out, self)
        return out

    conj = conjugate

    def flatten(self, order="C"):
        return _ns.ravel(self, order=order).copy()

    def sort(self, axis=-1, kind=None, order=None, *, stable=None, descending=np._NoValue):
        axis = operator.index(axis)  # NumPy's method takes no axis=None: its TypeError
        write.assign(self, _ns.sort(self, axis=axis, kind=kind, order=order, stable=stable,
                                    descending=descending))

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        axis = operator.index(axis)  # NumPy's method takes no axis=None: its TypeError
        write.assign(self, _ns.partition(self, kth, axis=axis, kind=kind, order=order))

    def compress(self, condition, axis=None, out=None):
        return _ns.compress(condition, self, axis=axis, out=out)

    def setflags(self, write=None, align=None, uic=None):
        if write:
            if self._base is not None and not self._base._writeable:
                raise ValueError("cannot set WRITEABLE flag to True of this array")
            self._writeable = True
        elif write is not None:
            self._writeable = False

    def resize(self, *new_shape, refcheck=True):
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
        if any(n < 0 for n in shape):
            raise ValueError("negative dimensions not allowed")
        if self._base is not None:
            raise ValueError("cannot resize this array: it does not own its data")
        if refcheck and sys.getrefcount(self) > _RESIZE_REFS:
            raise ValueError("cannot resize an array that references or is referenced\n"
                             "by another object in this way.\nUse the np.resize function to "
                             "get a new resized copy or\n set refcheck=False to disable this "
                             "check")
        if not self._writeable:
            raise ValueError("resize only works on single-segment arrays")
        write.replace_root(self, _resized(self._value, shape))
        return None

    def clip(self, min=np._NoValue, max=np._NoValue, out=None, **kwargs):
        """NumPy's method: either bound alone (``a.clip(3)``) or none (a copy), unlike the
        function."""
        return _ns.clip(self, None if min is np._NoValue else min,
                        None if max is np._NoValue else max, out, **kwargs)

    def choose(self, *choices, out=None, mode="raise"):
        """NumPy's method: the choices as one sequence, or as the positional arguments."""
        return _ns.choose(self, choices[0] if len(choices) == 1 else choices, out, mode)

    def __sizeof__(self):
        """NumPy's: the object, its shape and strides and, where the array owns its data (a
        root), its bytes."""
        return object.__sizeof__(self) + 16 * self.ndim + (
            self.nbytes if self._base is None else 0)

    def to_device(self, device, /, *, stream=None):
        if not isinstance(device, (str, jax.Device)):
            raise TypeError(f"to_device() argument 1 must be str, not {type(device).__name__}")
        return devices.place(self, device)

def finalize(new, obj):
    """NumPy's call of the ``__array_finalize__`` of ``new``'s class (a subclass of tnp.ndarray)
    with ``obj``, the array ``new`` was made from: taken from the class (a property there is
    not callable: Python's TypeError), skipped when it is tnp.ndarray's own or None."""
    func = getattr(_type(new), "__array_finalize__", None)
    if func is not None and func is not ndarray.__array_finalize__:
        func(new, obj)


def as_type_of(r, a):
    """The new root ``r`` as an array of ``a``'s class where that is a subclass of tnp.ndarray
    (its buffer moved to a root of that class, whose ``__array_finalize__`` is called with
    ``a``), as NumPy makes a new array like ``a``; else ``r``."""
    cls = _type(a)
    if cls is ndarray:
        return r
    buf = r._buf
    out = cls._wrap_host(buf, r._dtype) if _type(buf) is np.ndarray else cls._wrap(buf)
    out._scalar = False
    finalize(out, a)
    return out


def _host_tier(name, method):
    """``method`` of an array on the host: NumPy's own ``ndarray.<name>`` on its host value
    when the call runs there (``host.call``: an in-place method NumPy would run on the
    read-only buffer is declined and goes through the write path)."""
    numpy_method = getattr(np.ndarray, name)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if type(self._root._buf) is np.ndarray:
            r = host.call(numpy_method, (self,) + args, kwargs)
            if r is not host.DECLINED:
                return r
        try:
            return method(self, *args, **kwargs)
        except dtypes.UnsupportedDtype:  # a NumPy-only dtype asked for: NumPy's, on the host
            return host.unsupported(numpy_method, (self,) + args, kwargs)
    return call


# Methods NumPy's would run differently: tnp's own view, export and pickling protocols.
# (``resize`` counts the references to its array: a wrapper's frame would hold one more;
# ``reshape``, ``transpose`` and a real array's ``conj`` are views or the array itself, which
# the host tier declines: no detour for them.)
_TNP_ONLY = frozenset({"view", "to_device", "tobytes", "tofile", "dump", "dumps", "setflags",
                       "resize", "reshape", "transpose", "conj", "conjugate"})

for _name, _member in list(vars(_Methods).items()):
    if _name not in ("__module__", "__qualname__", "__dict__", "__weakref__", "__doc__"):
        if (isinstance(_member, type(_host_tier)) and not _name.startswith("_")
                and _name not in _TNP_ONLY and hasattr(np.ndarray, _name)):
            _member = _host_tier(_name, _member)
        setattr(ndarray, _name, _member)


# References to an array held only by the caller's name, seen inside ``ndarray.resize``.
_RESIZE_REFS = 3


@functools.partial(jit, static_argnums=1)
def _resized(buf, shape):
    n = int(np.prod(shape, dtype=np.int64))
    flat = buf.reshape(-1)[:n]
    return jnp.zeros(n, buf.dtype).at[:flat.shape[0]].set(flat).reshape(shape)


_byteswapped = jit(lenses.byteswapped)


@functools.partial(jit, static_argnums=1)
def _reshaped(buf, shape):
    return buf.reshape(shape)


def _real_dtype(dt):
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _from_host(arr):
    return _ns.asarray(arr)


# ---- methods that are the namespace function with the array as first argument -------------
_DELEGATED_METHODS = (
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "cumprod", "cumsum",
    "diagonal", "dot", "max", "mean", "min",
    "nonzero", "prod", "put", "ravel", "repeat", "round", "searchsorted", "squeeze", "std",
    "sum", "swapaxes", "take", "trace", "var")


# the function calls a subclass's own method (NumPy's ``_wrapreduction``): the method reduces
# the array itself (a subclass's override calling this one through ``super()`` ends here)
_WRAPPED_REDUCTIONS = frozenset({"sum", "prod", "max", "min"})


def _delegate(name):
    if name in _WRAPPED_REDUCTIONS:
        def method(self, *args, **kwargs):
            if type(self) is not ndarray:
                self = self.view(ndarray)
            return getattr(_ns, name)(self, *args, **kwargs)
    else:
        def method(self, *args, **kwargs):
            return getattr(_ns, name)(self, *args, **kwargs)
    method.__name__ = name
    method.__qualname__ = f"ndarray.{name}"
    return method


for _name in _DELEGATED_METHODS:  # on the host tier, NumPy's own method (no detour)
    setattr(ndarray, _name, _host_tier(_name, _delegate(_name)))

# ---- operators: each is the tnp ufunc of the same meaning ----------------------------------
_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
           "matmul": "matmul", "and": "bitwise_and", "or": "bitwise_or",
           "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift"}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
            "gt": "greater", "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}


def _getitem_host(a, index):
    """``a[index]`` for a host-tier array: NumPy's own result (and errors); a view NumPy makes
    is a tnp view of it (``_host_view``), anything else (an element, a copy) is placed as a new
    array."""
    if type(index) is str and a._dtype.names and index in a._dtype.fields:
        field, offset = a._dtype.fields[index][:2]  # a field: a view of its bytes
        if field.subdtype is None:
            return a._view(("field", (field, offset)), (), a._shape, field)
        return host.wrap_new(a._host()[index])  # a subarray field: NumPy's value, a copy
    shape = a._shape
    value = a._buf if a._base is None else a._host()
    return _host_result(a, value[numpy_value(index, pull=True)],
                        lambda: _index_lenses(shape, index))


def _index_lenses(shape, index):
    """The lens of the basic index ``index`` into an array of ``shape``."""
    plan = indexing.parse(shape, index)
    return (plan.lens,), (plan.dyn,)


def _host_result(a, r, lenses):
    """NumPy's result ``r`` of a call on the host array ``a``: a view of its root's buffer as a
    tnp view (``ndarray._host_view``), anything else as a new array or a scalar."""
    if type(r) is np.ndarray and r.base is not None and r.base is (
            a if a._base is None else a._base)._buf.base:
        return a._host_view(r, lenses)
    return host.wrap_new(r)


def _permutation(n, axes):
    """The axes permutation of ``transpose(axes)`` of an ``n``-d array (checked by NumPy)."""
    return tuple(range(n))[::-1] if axes is None else tuple(operator.index(x) % n for x in axes)


def _binary(ufunc_name):
    def op(self, other):
        return _ufunc(ufunc_name)(self, other)

    def rop(self, other):
        return _ufunc(ufunc_name)(other, self)

    def iop(self, other):
        with roots.lock_of(self._root):  # read and write at once, as NumPy's in-place loop
            uf = _ufunc(ufunc_name)
            if not (lazy.on and uf.record_inplace(self, other)):
                uf(self, other, out=self)
        return self
    return op, rop, iop


def _ufunc(name, _cache={}):
    """The tnp ufunc behind an operator (looked up in the namespace once)."""
    uf = _cache.get(name)
    if uf is None:
        uf = _cache[name] = getattr(_ns, name)
    return uf


for _op, _uf in _BINARY.items():
    _f, _rf, _if = _binary(_uf)
    setattr(ndarray, f"__{_op}__", _f)
    setattr(ndarray, f"__r{_op}__", _rf)
    setattr(ndarray, f"__i{_op}__", _if)


def _pow(self, other):
    # NumPy computes ``a ** 2`` (a Python int 2) as ``square(a)``: same values, but a bool ``a``
    # gives int8 (square's loop) where power gives int64.
    if type(other) is int and other == 2:
        return _ufunc("square")(self)
    return _ufunc("power")(self, other)


ndarray.__pow__ = _pow


def _compare(ufunc_name):
    def op(self, other):
        if ufunc_name in ("equal", "not_equal") and (
                other is None or isinstance(other, (str, bytes))) and not self._on_host:
            return _ns.full(self._shape, ufunc_name == "not_equal")  # NumPy's answer
        if ufunc_name in ("equal", "not_equal") and self._dtype.kind == "V":
            # void/structured arrays (host tier): ndarray's own ==/!= compares them field by
            # field (the ufuncs have no void loop)
            fn = operator.eq if ufunc_name == "equal" else operator.ne
            r = fn(numpy_value(self, pull=True), numpy_value(other, pull=True))
            return _ns.asarray(r) if isinstance(r, np.ndarray) else r
        if ufunc_name not in ("equal", "not_equal"):
            return getattr(_ns, ufunc_name)(self, other)
        try:
            return getattr(_ns, ufunc_name)(self, other)
        except _UFuncNoLoopError:  # NumPy's ==/!= without a loop: all False/True, broadcast
            shape = probe.call(np.equal, probe.Spec(self._shape, bool),  # NumPy's errors
                               probe.Spec(np.shape(other), bool)).shape
            r = _ns.full(shape, ufunc_name == "not_equal")
            return r[()] if shape == () else r
    return op



for _op, _uf in _COMPARE.items():
    setattr(ndarray, f"__{_op}__", _compare(_uf))


def _unary(ufunc_name):
    def op(self):
        return getattr(_ns, ufunc_name)(self)
    return op


for _op, _uf in _UNARY.items():
    setattr(ndarray, f"__{_op}__", _unary(_uf))


def _divmod(self, other):
    return _ns.divmod(self, other)


def _rdivmod(self, other):
    return _ns.divmod(other, self)


ndarray.__divmod__ = _divmod
ndarray.__rdivmod__ = _rdivmod
