"""``tnp.ndarray``'s storage: a mutable NumPy array whose data lives in a ``jax.Array``.

An ndarray is either a *root*, owning a ``jax.Array`` buffer (the device tier) or a
``numpy.ndarray`` one (the host tier, see ``tiers``), or a *view*: its root plus a chain
of lenses (see ``lenses``) that reads the view's value from the root and writes through to it.
A view caches its value until its root's version changes. All writes go through ``write.assign``.
This module holds what the array is (its buffer, views, value, attributes, conversions to host
values); its NumPy face (indexing, operators, methods) is attached from above by
``tnp._core.methods``, so that the write path and indexing can build on this class.
"""
import math

from ..engine.jaxload import jax, on_load, ArrayImpl as _ArrayImpl, JaxArray
import numpy as np

from ..rules import dtypes
from ..engine import devices, lenses, syncs, tracing
from . import roots, storage

_SET_CLASS = object.__dict__["__class__"].__set__  # (``_adopt``: past a masked value's own)

class ndarray:
    __slots__ = ("_buf", "_base", "_lens", "_dyn", "_shape", "_dtype", "_version", "_cache",
                 "_writeable", "_exported", "_trace", "_rshape", "_scalar", "_hview", "__weakref__")
    __array_priority__ = 100.0
    __hash__ = None
    _pending_host = False  # a ``pending_class``'s value of host data: ``numpy_value`` makes it

    # ---- construction (internal) ------------------------------------------------------------
    @classmethod
    def _wrap(cls, buf, writeable=True):
        """A new root owning ``buf``: a jax.Array (no copy, no checks: also takes tracers), or a
        read-only numpy.ndarray that owns its memory (the host tier: ``tiers.new_root``)."""
        self = object.__new__(cls)
        self._buf = buf
        self._base = None
        self._lens = self._dyn = ()
        self._shape = getattr(buf, "shape", ())
        dt = getattr(buf, "dtype", None)
        self._dtype = dtypes.CANONICAL.get(dt, dt)  # JAX may report uint64 as 'Q' or 'L'
        # A 0-d result stands for the NumPy scalar NumPy would return (it prints as one);
        # creation routines and views make real 0-d arrays (``as_array``).
        self._scalar = self._shape == ()
        self._version = 0
        self._cache = None
        self._writeable = writeable
        self._exported = False
        self._trace = tracing.current_trace()  # writes under another trace are refused
        self._rshape = None
        self._hview = None
        return self

    @classmethod
    def _wrap_host(cls, buf, dtype, writeable=True):
        """A new host-tier root: ``buf`` is a read-only NumPy view of the array the root owns
        (``buf.base``, written only by the write path: ``tiers.new_root``), ``dtype`` its
        canonical dtype."""
        self = object.__new__(cls)
        self._buf = buf
        self._base = self._rshape = self._hview = self._cache = self._trace = None
        self._lens = self._dyn = ()
        self._shape = buf.shape
        self._dtype = dtype
        self._scalar = self._exported = False
        self._version = 0
        self._writeable = writeable
        return self

    @classmethod
    def _wrap_pending(cls, record, dtype, trace=None):
        """A new value of ``cls``, a ``pending_class`` (its storage made when first asked),
        ``record`` what it is made from (in the ``_cache`` slot)."""
        self = object.__new__(cls)
        self._lens = self._dyn = ()
        self._dtype = dtype
        self._version = 0
        self._cache = record
        self._writeable = True
        self._exported = self._scalar = False
        self._trace = trace
        self._rshape = self._hview = None
        return self

    def _view(self, lens, dyn, shape, dtype=None, writeable=True, cls=None):
        """A view of this array through one more lens (of class ``cls``, default this one's: a
        subclass's ``__array_finalize__`` is called with this array, as NumPy does)."""
        root = self._base if self._base is not None else self  # (a masked value materialised:
        v = object.__new__(cls or type(self))  # its class is ``ndarray`` after)
        chain, dyns = self._chain()
        v._buf = None
        v._base = root
        v._lens = chain + (lens,)
        v._dyn = dyns + (dyn,)
        v._rshape = root._shape
        v._shape = tuple(shape)
        v._dtype = self._dtype if dtype is None else dtype
        v._version = 0
        v._cache = None
        v._writeable = (self._writeable and writeable and lens[0] not in lenses.READ_ONLY_KINDS)
        if not self._writeable:  # (NumPy's ``_warn_on_write`` passes to views)
            storage.inherit_warn_on_write(v, self, writeable and lens[0] not in
                                          lenses.READ_ONLY_KINDS)
        v._exported = False
        v._trace = None
        v._scalar = False
        v._hview = None
        if cls is None and type(self) is not ndarray:  # (``view(type)`` calls it itself)
            finalize(v, self)
        return v

    def _host_view(self, hv, lenses):
        """A view of this host-tier array that NumPy made: ``hv``, a NumPy view of the root's
        buffer, serves reads on the host; the lenses from this array to the view (the device
        path and writes need them), ``lenses()`` as ``(lenses, dynamic operands)`` from this
        array's shape now, are made when first asked (``_chain``)."""
        root = self._base if self._base is not None else self
        v = object.__new__(type(self))
        v._buf = None
        v._base = root
        v._lens = None  # not made yet: ``_chain``
        v._dyn = ()
        v._rshape = root._shape
        v._shape = hv.shape
        v._dtype = self._dtype
        v._version = 0
        v._cache = None
        v._writeable = self._writeable
        if not self._writeable:
            storage.inherit_warn_on_write(v, self, True)
        v._exported = False
        v._trace = None
        v._scalar = False
        # (the parent only where it is not the root, which ``_base`` holds: a view of a root
        # holds one reference to it, as NumPy's does)
        v._hview = (root._buf, hv, None if self is root else self, lenses)
        if type(self) is not ndarray:
            finalize(v, self)
        return v

    def _adopt(self, root):
        """This object (a masked value, ``masked``, asked for its shape or data) becomes a plain
        root holding the new root ``root``'s buffer (its compacted value); returns self."""
        _SET_CLASS(self, ndarray)
        self._buf = root._buf
        self._base = self._rshape = self._hview = self._cache = None
        self._lens = self._dyn = ()
        self._shape = root._shape
        self._scalar = False
        return self

    def _as_array(self):
        """This array marked as an array, not a stand-in for a NumPy scalar (returns self)."""
        self._scalar = False
        return self

    def _chain(self):
        """This view's lenses and dynamic operands from its root's buffer. If the root's shape
        was set since (``a.shape = ...``), a reshape lens from the new shape is put first."""
        root = self._base
        if root is None:
            return (), ()
        if self._lens is None:  # a host view's lenses, made on first use (``_host_view``)
            _, _, parent, lenses = self._hview
            lens, dyns = lenses()
            if parent is not None:  # else from the root's shape when the view was made
                chain, pdyns = parent._chain()
                self._rshape = parent._rshape
                lens, dyns = chain + lens, pdyns + dyns
            self._dyn = dyns  # before ``_lens``: a thread that sees the lenses sees these too
            self._lens = lens
        if self._rshape != root._shape:
            self._lens = (("reshape", (root._shape, self._rshape)),) + self._lens
            self._dyn = ((),) + self._dyn
            self._rshape = root._shape
            self._cache = None
        return self._lens, self._dyn

    @property
    def _root(self):
        return self if self._base is None else self._base

    @property
    def _value(self):
        """The array's value as a jax.Array (for a view: read through its lenses, cached)."""
        root = self._base
        if root is None:
            b = self._buf
            if type(b) is _ArrayImpl:
                return b
            return self._device_copy() if type(b) is np.ndarray else roots.buffer(self)
        chain, dyns = self._chain()
        c = self._cache
        version = root._version  # before the buffer: a cache is never labelled newer than it
        if c is not None and c[0] == version:
            return c[1]
        if self._dtype not in dtypes.SUPPORTED:  # a host root's bytes seen as a host dtype
            raise dtypes.unsupported_dtype_error(self._dtype)
        b = root._buf
        if type(b) is not _ArrayImpl:
            b = root._device_copy() if type(b) is np.ndarray else roots.buffer(root)
        v = lenses.get_kernel(chain)(b, dyns)
        self._cache = (version, v)
        return v

    # ---- the host tier: a root whose buffer is a numpy.ndarray ------------------------------
    @property
    def _on_host(self):
        return type(self._root._buf) is np.ndarray

    def _device_copy(self):
        """A host root's value on the device, copied once per version (so a small array used
        in a loop with device arrays moves once)."""
        version = self._version
        v = self._snapshot()
        if type(v) is np.ndarray:
            with tracing.outside_trace():  # concrete, even when first needed under a trace
                v = jax.device_put(v)
            self._cache = (version, v)
        return v

    def _snapshot(self):
        """A host root's value at its version for a device computation: its device copy once
        made (``_device_copy``), else a private NumPy copy (the write path changes the root's
        array in place), cached per version. A lazy graph takes the copy as an operand: the
        compiled call moves it, cheaper than ``jax.device_put`` on a CPU client that has just
        run a large computation (~200 us against ~30)."""
        c = self._cache
        version = self._version
        if c is not None and c[0] == version:
            return c[1]
        host = self._buf
        if host.dtype not in dtypes.SUPPORTED:
            raise dtypes.unsupported_dtype_error(host.dtype)
        syncs.record("to_device", host)
        v = dtypes.native(host_copy(host))
        self._cache = (version, v)
        return v

    def _host(self):
        """The array's value as a NumPy array: for the host tier, the root's buffer or a NumPy
        view of it through the lenses (read-only: writes go through ``write``); otherwise a
        copy from the device (a sync)."""
        root = self._root
        b = root._buf
        if type(b) is np.ndarray:
            if root is self:
                return b
            h = self._hview
            if h is not None and h[0] is b:  # NumPy's view, of the buffer the root still has
                return h[1]
            return lenses.host_get(*self._chain(), b)
        syncs.record("to_numpy", self)
        c = self._cache
        if root is not self and (c is None or c[0] != root._version) and (
                math.prod(root._shape) <= HOST_READ_ROOT):
            # a view read from its root's host copy, through NumPy views: no kernel for the
            # lenses (a strided read x[::k] of each size would compile one)
            return lenses.host_get(*self._chain(), devices.to_host(root._value))
        return devices.to_host(self._value)

    # ---- attributes -------------------------------------------------------------------------


    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def size(self):
        return math.prod(self._shape)

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self._dtype.itemsize


    @property
    def base(self):
        return self._base

    @property
    def data(self):
        """The underlying ``jax.Array`` (zero copy; for a view, its current value)."""
        return self._value

    @property
    def device(self):
        if type(self._root._buf) is np.ndarray:
            return "cpu"  # the host tier: NumPy's own answer
        v = self._value
        return v.device if hasattr(v, "device") else None

    @property
    def sharding(self):
        return self._value.sharding










    # ---- indexing ---------------------------------------------------------------------------


    # ---- Python protocol --------------------------------------------------------------------
    def __len__(self, /):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self, /):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    def _scalar_host(self):
        """The single element on the host: a named sync point."""
        if self.size != 1:
            return np.zeros(self._shape, self._dtype)  # NumPy raises its own error on this
        if type(self._root._buf) is np.ndarray:
            return self._host()
        syncs.record("scalar", self)
        return devices.to_host(self._value)

    def _number(self):
        """The single element on the host (a sync), as NumPy converts it: a stand-in for a
        NumPy scalar as that scalar (``float()`` of a complex scalar warns and drops the
        imaginary part, of a complex array raises), else as a NumPy array."""
        host = self._scalar_host()
        return host[()] if self._scalar else host

    def __bool__(self, /):
        return bool(self._number())

    def __int__(self, /):
        return int(self._number())

    def __float__(self, /):
        return float(self._number())

    def __complex__(self, /):
        return complex(self._number())

    def __format__(self, /, spec):
        if self.ndim == 0:
            return format(self._scalar_host()[()], spec)
        return format(np.asarray(self), spec)

    def __repr__(self, /):
        if self._scalar:  # NumPy returned a scalar here: print as NumPy prints it
            return repr(self.__array__()[()])
        return repr(self.__array__())

    def __str__(self, /):
        return str(self.__array__())

    def __jax_array__(self):
        return self._value

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        """DLPack export, the Array API's signature. A consumer of DLPack 1.x
        (``max_version >= (1, 0)``, as ``numpy.from_dlpack`` asks) gets a versioned capsule for
        an array on the CPU (through NumPy's zero-copy view of the buffer, flagged read-only:
        tnp's buffers are immutable underneath, a write replaces them); any other request gets
        JAX's unversioned capsule (DLPack 0.x, what a consumer asking for ``(0, x)`` reads).
        On the CPU only ``stream=None`` is accepted, as NumPy's own ``__dlpack__`` says.
        A host-tier array is NumPy's own export of its memory (read-only; to a DLPack 0.x
        consumer, which cannot be told so, of a copy)."""
        self._root._exported = True  # a consumer may hold the buffer: never donate it
        if self._on_host:
            h = self._host()
            if max_version is None or tuple(max_version)[0] < 1:
                h = h.copy()
            return h.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                                copy=copy)
        value = self._value
        on_cpu = all(d.platform == "cpu" for d in value.devices())
        if on_cpu and stream is not None:
            raise RuntimeError("tnp only supports stream=None for an array on the CPU.")
        if max_version is not None and tuple(max_version)[0] < 1:
            max_version = None  # the unversioned (0.x) capsule
        if (on_cpu and max_version is not None
                and (dl_device is None or tuple(dl_device) == (1, 0))):
            host = np.from_dlpack(value)
            return host.__dlpack__(max_version=max_version, dl_device=dl_device, copy=copy)
        try:
            return value.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                                    copy=copy)
        except RuntimeError:
            if dl_device is None or tuple(dl_device) == tuple(value.__dlpack_device__()):
                raise
            # the Array API's (and NumPy's) error for a device the producer cannot export to
            raise BufferError(f"unsupported device requested: {tuple(dl_device)}") from None

    def __dlpack_device__(self, /):
        return self._host().__dlpack_device__() if self._on_host else (
            self._value.__dlpack_device__())

    # ---- methods with their own signatures (others are generated below) -------------------











    # Files and pickles hold the NumPy array of the same data (NumPy reads them as its own).













# ---- host values of operands (the host tier and its write path) ----------------------------
def device_copy(data, dtype=None, ndmin=0):
    """``np.array(data, dtype, ndmin=ndmin)`` on the device, from a private copy: JAX may alias
    an aligned NumPy array's memory on a CPU, and whoever owns ``data`` may change it in place
    while the device value is still in use. (``tiers.new_root`` owns its array, and gives
    it to JAX without this copy.) Laid out as a new array of its shape (``devices.layout``)."""
    return devices.put(dtypes.native(host_copy(data, dtype, ndmin)))


def host_copy(data, dtype=None, ndmin=0, copy=None, ndmax=0):
    """``np.array(data, dtype, ndmin=ndmin, copy=copy, ndmax=ndmax)`` (``copy`` True or None:
    NumPy passes ``copy=`` to an ``__array__`` only when it is asked for, so ``asarray`` of an
    older class's ``__array__(self)`` does not warn), as an array that nothing else holds."""
    host = np.array(data, dtype=dtype, ndmin=ndmin, copy=copy,
                    **({"ndmax": ndmax} if ndmax else {}))  # (a NumPy without ndmax: default)
    if copy or type(data) in _FRESH or (
            type(data) is np.ndarray and not np.may_share_memory(host, data)):
        return host
    return host.copy()


_FRESH = frozenset({list, tuple, int, float, complex, bool})  # NumPy parses these into new arrays


def refused_array_method(exc):
    """Whether NumPy's ValueError ``exc`` is its refusal of what an ``__array__`` returned."""
    return "__array__ method not producing an array" in str(exc)


def protocol_array(x, dtype=None, copy=None):
    """The tnp array that ``x.__array__`` returns, called as NumPy calls it (``dtype`` when
    given, ``copy=`` when not None), or None. Asked only after NumPy refused ``x``
    (``refused_array_method``): a class written for ``import tnp as np`` returns a tnp array
    where NumPy's protocol wants its own ndarray."""
    if getattr(type(x), "__array__", None) is None:
        return None
    args = () if dtype is None else (dtype,)
    r = x.__array__(*args) if copy is None else x.__array__(*args, copy=copy)
    return r if isinstance(r, ndarray) else None


def refused_protocol_array(x, error, dtype=None, copy=None):
    """The tnp array behind ``x`` where NumPy's parse of ``x`` failed with ``error`` because
    ``x.__array__`` returned one (``protocol_array``); re-raises ``error`` otherwise."""
    got = protocol_array(x, dtype, copy) if refused_array_method(error) else None
    if got is None:
        raise error
    return got


_PLAIN = frozenset({int, float, complex, bool, str, type(None), slice, np.dtype})


HOST_READ_ROOT = 1 << 17  # elements: a device view read to the host pulls a root this small


class OnDevice(Exception):
    """``numpy_value`` met a device array and was not asked to copy it."""


def pending_class(name, module, doc, make, shape, host=False):
    """A subclass of ``ndarray`` whose values have no storage until it is first asked
    (``masked.MaskedValue``, the dispatch layer's ``host_pieces.PiecesValue``): its buffer and
    base are properties that call ``make(value)``, which makes the value a plain ``ndarray`` in
    place (``ndarray._adopt``); its shape is ``shape(value)`` until then; ``__class__`` says
    ``ndarray`` (no slots of its own, so that the class can change in place); ``host``: its
    data is on the host (``numpy_value`` makes it, as an ordinary host array's buffer)."""
    def storage(attr):
        return property(lambda v: getattr(make(v), attr))

    def shape_of(v):
        return shape(v) if type(v) is not ndarray else v._shape  # (made by another thread)
    return type(name, (ndarray,), {
        "__doc__": doc, "__module__": module, "__qualname__": name, "__slots__": (),
        "__class__": property(lambda v: ndarray), "_buf": storage("_buf"),
        "_base": storage("_base"), "_shape": property(shape_of), "_pending_host": host})


def finalize(new, obj):
    """NumPy's call of the ``__array_finalize__`` of ``new``'s class (a subclass of tnp.ndarray)
    with ``obj``, the array ``new`` was made from: taken from the class (a property there is
    not callable: Python's TypeError), skipped when it is tnp.ndarray's own or None."""
    func = getattr(type(new), "__array_finalize__", None)
    if func is not None and func is not ndarray.__array_finalize__:
        func(new, obj)


def numpy_value(x, pull=False, depth=0):
    """``x`` as NumPy takes it: a host-tier array's value (its buffer, or a NumPy view of it), a
    device array as ``OnDevice`` or, with ``pull``, a copy from the device (a sync); a
    subclass's instance as ``OnDevice`` too unless ``pull`` (its type, ``__array_finalize__``
    and overrides are kept by tnp's implementation, not by NumPy on its buffer), but not tnp's
    own value of host data kept in pieces (``_pending_host``: joined, its buffer); lists and
    tuples element by element (two levels deep and 64 long at most, unless the first element is
    a tnp array, as in a list of arrays: longer data is NumPy's to convert, through
    ``__array__``); anything else as it is."""
    t = type(x)
    if t in _PLAIN:
        return x
    if t is ndarray or isinstance(x, ndarray):
        if t is not ndarray and not pull and not t._pending_host:
            raise OnDevice
        root = x._base
        if root is None:
            b = x._buf
            if type(b) is np.ndarray:
                return b
        elif type(root._buf) is np.ndarray:
            return x._host()
        if pull:
            return x._host()
        raise OnDevice
    if t is list or t is tuple:
        if depth >= 2 or len(x) > 64 and not isinstance(x[0], ndarray):
            return x
        conv, same = [], True
        for v in x:
            c = numpy_value(v, pull, depth + 1)
            same = same and c is v
            conv.append(c)
        return x if same else t(conv)
    if isinstance(x, JaxArray):
        if pull:
            return np.asarray(x)
        raise OnDevice
    return x


# ---- JAX pytree: the leaf is the array's value ------------------------------------------
def _flatten(a):
    return (a._value,), None


def _unflatten(_, leaves):
    return ndarray._wrap(leaves[0])


on_load(lambda: jax.tree_util.register_pytree_node(ndarray, _flatten, _unflatten))
