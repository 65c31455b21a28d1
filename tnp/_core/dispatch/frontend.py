"""The one front end: how every public tnp function is entered.

``np_doc`` turns each implementation into an *entry*: the public callable, which knows the NumPy
function it stands for. Every call of a public function passes through one, so that what must
hold for every call is decided here, once:

- **Errors are NumPy's.** An exception that escapes an implementation from inside JAX (its
  text is JAX's, its class often not NumPy's) is replaced by the one NumPy raises for the same
  call: NumPy is run on placeholders of the arguments' real shapes and dtypes (the probe), and,
  where the error depends on the data, on host copies of the arguments. If NumPy accepts the call,
  the original exception propagates (a tnp bug, chained for the report). The device running out
  of memory is a MemoryError, as in NumPy.
- **Where a call runs**: a call whose array inputs all live on the host (``tiers``) runs
  NumPy's own function there (``host.call``); any device input runs the implementation. A
  creation routine declares its result's size (``np_doc(result_size=...)``): a large one is
  made by the implementation on the device directly.

Arguments are converted by the implementation, with the one normaliser's annotations and
converters (``normalize``). A ufunc object is entered through its own ``__call__`` and methods,
which ask the host tier first and NumPy for the error of a failing call the same way. Classes
registered with ``np_doc`` (``vectorize``, ``ndindex``, ...) are not wrapped: an entry function
would break ``isinstance`` and subclassing; their methods call entries.
"""
from collections.abc import Iterator
import functools
import os
import types

from ..engine.jaxload import jax, loaded, JaxArray, Tracer
import numpy as np

from ..rules import dtypes, probe
from . import host, subclass_results, tiers
from ..array.ndarray import ndarray
from ..array.subclasses import DEFINED



@functools.cache
def _jax_dirs():
    import jaxlib
    return tuple(os.path.dirname(m.__file__) + os.sep for m in (jax, jaxlib))


def from_jax(exc):
    """Whether ``exc`` was raised inside JAX or XLA (its message is JAX's own text)."""
    if not loaded():  # no JAX code has run
        return False
    if isinstance(exc, jax.errors.JaxRuntimeError):
        return True
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename.startswith(_jax_dirs())


REPLAY_LIMIT = 1 << 24  # elements: NumPy asked about larger arrays could run for long


def _as_spec(x, name=None):
    if isinstance(x, ndarray) or isinstance(x, JaxArray):
        if x.size > REPLAY_LIMIT:
            raise _Unasked
        return (probe.Out if name == "out" else probe.Spec)(x.shape, x.dtype)
    if type(x) in (list, tuple):
        return type(x)(_as_spec(v, name) for v in x)
    return x


def _as_host(x, name=None):
    if isinstance(x, ndarray):
        if type(x._root._buf) is not np.ndarray and isinstance(x._value, Tracer):
            raise _Unasked  # (a host-tier array is never traced: no device copy of it made)
        return np.array(x) if name == "out" else np.asarray(x)
    if type(x) in (list, tuple):
        return type(x)(_as_host(v, name) for v in x)
    return x


class _Unasked(Exception):
    """NumPy is not asked: an argument is traced (no host copy) or too large."""


def numpy_exception(numpy_fn, args, kwargs):
    """NumPy's exception for ``numpy_fn(*args, **kwargs)`` with tnp arrays among the arguments:
    asked first on placeholders of their shapes and dtypes (no data moves), then on host copies
    (``out=`` copied, so nothing the caller holds is written). None if NumPy accepts the call,
    or is not asked (a traced argument, or one of more than ``REPLAY_LIMIT`` elements)."""
    try:
        try:
            probe.call(numpy_fn, *_as_spec(args),
                       **{k: _as_spec(v, k) for k, v in kwargs.items()})
        except ValueError as e:
            if "read-only" not in str(e):  # a function that writes an argument: ask on copies
                raise
        host_args = _as_host(args)
        host_kwargs = {k: _as_host(v, k) for k, v in kwargs.items()}
        with np.errstate(all="ignore"):
            numpy_fn(*host_args, **host_kwargs)
    except _Unasked:
        return None
    except Exception as e:  # noqa: BLE001 - whatever NumPy raises is the answer
        return e
    return None


_NO_ITERATOR = frozenset({int, float, bool, complex, str, tuple, list, type(None), type})


def _result_size(result_size, args, kwargs):
    """A creation call's element count from its arguments (``result_size``), None where unknown
    (then NumPy decides, and a bad argument gets NumPy's error). An iterator among them (a
    generator as ``indices``' shape) is not read: that would consume the caller's argument,
    which the call itself then reads; its size is unknown."""
    for a in args:
        if type(a) not in _NO_ITERATOR and isinstance(a, Iterator):
            return None
    for v in kwargs.values():
        if type(v) not in _NO_ITERATOR and isinstance(v, Iterator):
            return None
    try:
        return result_size(*args, **kwargs)
    except (TypeError, ValueError, OverflowError):
        return None


def unbound_like(fn, numpy_obj):
    """``fn``, tnp's public callable for ``numpy_obj``, held so that it binds as a method where
    NumPy's does: NumPy's functions written in C (``array``, ``zeros``, ``arange``...) do not,
    so a class attribute ``array = np.array`` is called without ``self``; tnp's Python function
    is then held as a ``staticmethod`` object (callable, never bound), with the C function's
    ``__text_signature__`` where it has one (``inspect.signature`` reads tnp's function)."""
    if (isinstance(fn, types.FunctionType) and callable(numpy_obj)
            and not isinstance(numpy_obj, type) and not hasattr(type(numpy_obj), "__get__")):
        held = staticmethod(fn)
        text = getattr(numpy_obj, "__text_signature__", None)
        if text and not hasattr(numpy_obj, "__signature__"):
            held.__text_signature__ = text
        return held
    return fn


def device_or_numpy(numpy_fn, impl, args, kwargs):
    """``impl`` (the device implementation), or NumPy's ``numpy_fn`` on the host when the
    device refuses a NumPy-only dtype (``dtypes.UnsupportedDtype``; ``host.unsupported``)."""
    try:
        return impl(*args, **kwargs)
    except dtypes.UnsupportedDtype:
        return host.unsupported(numpy_fn, args, kwargs)


def host_or_device(numpy_fn, impl, args, kwargs, ask_host=True):
    """The one host-or-device sequence of a call: NumPy's own function on the host tier when
    ``ask_host`` and ``host.call`` takes the call (every array input on the host), else
    ``device_or_numpy``. Entries, ufunc methods and array methods all run it; a ufunc's
    ``__call__`` asks the host its own faster way, then calls ``device_or_numpy``."""
    if ask_host:
        r = host_call(numpy_fn, args, kwargs)
        if r is not host.DECLINED:
            return r
        if tiers.following:  # the device runs it: large host operands go along
            tiers.follow(*args, *kwargs.values())
    return device_or_numpy(numpy_fn, impl, args, kwargs)


def host_call(numpy_fn, args, kwargs):
    """``host.call``; where it declines for device arrays beside a NumPy subclass's array
    (``numpy_subclass_among``), NumPy's function on their host copies (``host.call``'s
    ``unsupported`` conversion)."""
    r = host.call(numpy_fn, args, kwargs)
    if r is host.DECLINED and numpy_subclass_among(args, kwargs):
        r = host.call(numpy_fn, args, kwargs, unsupported=True)
    return r


def numpy_subclass_among(args, kwargs):
    """Whether an argument (or an element of a list or tuple argument) is of a subclass of
    ``numpy.ndarray`` (``numpy.ma.MaskedArray``, ``numpy.matrix``): NumPy's own function then
    runs on the host in every placement (its result NumPy's, of that class), as it does on the
    host tier; device arrays among the
    arguments are copied to the host for it (a sync: NumPy's subclass keeps its meaning, a
    mask is never ignored)."""
    for a in args:
        t = type(a)
        if t is list or t is tuple:  # a sequence of arrays (``concatenate``'s), one level
            if any(type(e) is not np.ndarray and isinstance(e, np.ndarray) for e in a[:64]):
                return True
        elif t is not np.ndarray and isinstance(a, np.ndarray):
            return True
    return bool(kwargs) and numpy_subclass_among(tuple(kwargs.values()), {})


def entry(impl, numpy_fn, host_tier=True, result_size=None, host_fn=None):
    """The public callable for ``impl``, the tnp implementation of NumPy's ``numpy_fn``.
    ``host_tier=False``: never run NumPy's function in its place (``tnp.random``: tnp's own
    streams and state; ``tnp.load``...: the implementation is NumPy's call, its results placed).
    ``result_size``: a creation routine's element count from its arguments (``creation.elements``
    and its kin), so that a large result is made by ``impl`` on the device, not by NumPy on the
    host and then copied (``tiers.made_on_device``). Its ``device`` attribute: the same
    entry past the host-tier question, for a caller that asked it and was declined (an array
    method: ``tnp._core.methods.host_tier``), so that no call asks it twice. ``host_fn``: what
    the host runs in ``numpy_fn``'s place, for arguments ``host.call`` does not convert whole
    (``block``'s lists nested deeper than ``numpy_value`` reads, in which NumPy would find tnp
    arrays and hand the call back to this entry). For a NumPy function that keeps a subclass
    argument's class (``subclass_results.KEEPS``), the entry's results take it."""
    host_fn = host_fn or numpy_fn
    keeps = subclass_results.KEEPS.get(numpy_fn)  # NumPy's function keeps a subclass's class
    defined = DEFINED

    @functools.wraps(impl)
    def call(*args, **kwargs):
        try:
            if not host_tier:
                r = impl(*args, **kwargs)
            else:
                r = host.DECLINED
                ask_host = tiers.routing or numpy_subclass_among(args, kwargs)
                if ask_host and result_size is not None and tiers.HOSTED:
                    size = _result_size(result_size, args, kwargs)
                    if size is not None:  # a creation routine: made where its size says
                        ask_host = False
                        if not tiers.made_on_device(size):
                            r = host.create(host_fn, args, kwargs)
                if r is host.DECLINED:
                    r = host_or_device(host_fn, impl, args, kwargs, ask_host)
        except Exception as e:
            numpy_exc = _numpy_error(e, numpy_fn, args, kwargs)
            if numpy_exc is None:
                raise
        else:
            if keeps is not None and defined[0]:
                return subclass_results.keep(r, keeps, args, kwargs)
            return r
        raise numpy_exc from None  # NumPy's error alone, without JAX's text as its context

    @functools.wraps(impl)
    def device(*args, **kwargs):
        try:
            if not host_tier:
                r = impl(*args, **kwargs)
            else:
                r = device_or_numpy(host_fn, impl, args, kwargs)
        except Exception as e:
            numpy_exc = _numpy_error(e, numpy_fn, args, kwargs)
            if numpy_exc is None:
                raise
        else:
            if keeps is not None and defined[0]:
                return subclass_results.keep(r, keeps, args, kwargs)
            return r
        raise numpy_exc from None

    call.device = device  # the entry past the host-tier question, asked by its caller
    return call


def _numpy_error(exc, numpy_fn, args, kwargs):
    """The exception an entry raises in place of ``exc`` (None: ``exc`` itself): NumPy's for
    the same call where ``exc`` comes from JAX (``numpy_exception``), MemoryError where the
    device ran out of memory."""
    if not from_jax(exc):
        return None
    if "RESOURCE_EXHAUSTED" in str(exc):  # never asked of NumPy: it would allocate too
        return MemoryError(f"{numpy_fn.__name__}: the device is out of memory")
    return numpy_exception(numpy_fn, args, kwargs)
