"""``tnp.ufunc``: NumPy's universal functions on JAX.

The class and its entry points: ``__call__`` and the methods (``reduce``, ``accumulate``,
``reduceat``, ``outer``, ``at``). Loop dtypes come from NumPy itself and every call's validity
from NumPy run once on tiny placeholder arrays of the same dtypes (``loops``); all of it is
cached per dtype signature, so the hot path (``fast_path``) is a dict lookup and one compiled
kernel call. ``out=`` and ``where=`` write through the one write path; so does ``at`` (it
computes the root's new value and assigns it; ``reductions``).

Where a call runs is decided as for every tnp function (``frontend.host_or_device``): NumPy's
own on the host tier when its inputs are there, else the device, and NumPy's on the host for a
dtype the device cannot hold. Value checks that NumPy makes are documented sync points, done
eagerly and skipped under a JAX trace: integer ``power`` with a negative exponent (ValueError),
and the floating-point error checks that ``tnp.errstate``/``seterr`` ask for with mode 'raise'
(see ``tnp._routines.errstate``).
"""
import functools
import inspect
import operator
import threading
import types
import warnings

from ..engine.jaxload import jnp
import numpy as np

from ..engine import caches, fpcheck, lazy
from ..rules import dtypes, probe
from ..dispatch import frontend, host, host_pieces, tiers
from ..array import masked, write
from ..numerics.fperr import check_cast as _check_cast, errcheck as _errcheck
from ..array.ndarray import ndarray
from ..dispatch.normalize import out_arrays, where_mask
from . import fast_path, loops, reduction_bodies, reductions, registry
from .loops import fits, is_tracer
from .overrides import NO_OVERRIDE, array_wrap, override_call

_NO_VALUE = np._NoValue
_RECORDED = object()  # ``_run``'s mark of a recorded call


def _host_tier(method):
    """A ufunc method entered as every tnp function is (``frontend.host_or_device``): NumPy's
    own method for inputs on the host (``tnp._core.dispatch.host``), else ``method``."""
    names = list(inspect.signature(method).parameters)
    at = names.index("out") - 1 if "out" in names else None  # (``self`` not in ``args``)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if at is not None and len(args) > at and args[at] is Ellipsis:
            raise TypeError("out=... is only allowed as a keyword argument.")
        return frontend.host_or_device(getattr(self._np, method.__name__),
                                       types.MethodType(method, self), args, kwargs,
                                       tiers.routing)
    return call


class _Doc:
    """A ufunc's ``__doc__``, as NumPy's: one set on the ufunc (``uf.__doc__ = ...``, kept in
    its ``__dict__``) or else its NumPy ufunc's; ``del uf.__doc__`` restores NumPy's."""

    def __init__(self, class_doc):
        self.class_doc = class_doc

    def __get__(self, obj, cls=None):
        if obj is None:
            return self.class_doc
        doc = obj.__dict__.get("__doc__")
        return obj._np.__doc__ if doc is None else doc

    def __set__(self, obj, value):
        obj.__dict__["__doc__"] = value

    def __delete__(self, obj):
        obj.__dict__.pop("__doc__", None)


class _Signature:
    """NumPy's signature of a tnp ufunc's NumPy ufunc, for ``inspect`` (None where NumPy has
    none, and for the class: inspect reads ``__call__``), built by NumPy when first asked
    rather than for each of the table's ufuncs when it is made (3 ms at a program's first ufunc
    call, most of the table's build)."""

    def __get__(self, obj, cls=None):
        return None if obj is None else getattr(obj._np, "__signature__", None)


def _numpy_attribute(name):
    """A read-only data attribute of NumPy's ufunc: the wrapped ufunc's value, NumPy's
    docstring."""
    return property(operator.attrgetter(f"_np.{name}"), doc=getattr(np.ufunc, name).__doc__)


class ufunc:
    __doc__ = _Doc("A NumPy ufunc implemented on JAX. ``impl`` maps loop-dtype jax arrays to "
                   "jax results.")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__doc__ = _Doc(cls.__dict__.get("__doc__"))  # its instances' docs: NumPy's

    def __init__(self, np_ufunc, impl):
        self._np = np_ufunc
        self._impl = impl
        registry.register(np_ufunc, self)
        self.__name__ = np_ufunc.__name__
        self.__numpy__ = np_ufunc
        self._core = loops.core_ndims(np_ufunc.signature)
        self._nin = np_ufunc.nin  # (``nin`` reads NumPy's ufunc: a property)

    _DEVICE_STATE = frozenset({"_resolve", "_kernel", "_fast", "_method_kernel", "_reduced",
                               "_device_call"})
    _device_lock = threading.Lock()

    def __getattr__(self, name):
        """The device side's caches, made at the first call that needs them (a program on the
        host tier never does; made for the table's 90 ufuncs at once, its build took 5-8 ms
        at a program's first ufunc call, 2.6 ms without)."""
        if name not in ufunc._DEVICE_STATE:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        with ufunc._device_lock:
            if "_device_call" not in self.__dict__:
                self._resolve = functools.lru_cache(maxsize=None)(
                    functools.partial(loops.resolve, self))
                # bounded: tnp._core.engine.caches
                self._kernel = caches.kernel_cache(functools.partial(loops.kernel, self))
                self._fast = caches.KernelTable()  # input dtypes -> kernel, for tnp arrays
                self._method_kernel = caches.kernel_cache(
                    functools.partial(reduction_bodies.method_kernel, self))
                self._reduced = caches.KernelTable()  # plain reductions: reduce_resolved
                self._device_call = fast_path.device_call(self)  # (after ``_fast``)
        return self.__dict__[name]

    __signature__ = _Signature()
    nin, nout, nargs, ntypes, types, identity, signature = map(
        _numpy_attribute, ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature"))

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        """Pickled by name, as NumPy's ufuncs are: unpickling gives tnp's ufunc itself."""
        return registry.by_name, (self.__name__,)

    # ---- call ------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if masked.seen[0]:  # an operand x[mask] kept full size or in pieces: the call may
            for a in args:  # stay so
                if type(a) is masked.MaskedValue:
                    r = masked.ufunc_call(self, args, kwargs)
                    if r is not None:
                        return r
                    break
                if type(a) is host_pieces.PiecesValue:
                    r = host_pieces.ufunc_call(self, args, kwargs)
                    if r is not None:
                        return r
                    break
        if tiers.routing or frontend.numpy_subclass_among(args, kwargs):  # the host tier, for
            # inputs on the host (a NumPy subclass's array: NumPy's loop, in every placement)
            r = host.operands(self._np, args) if not kwargs and len(args) == self._nin else None
            if r is None or (r is host.DECLINED and frontend.numpy_subclass_among(args, {})):
                r = override_call(self, args, kwargs)
                if r is not NO_OVERRIDE:
                    return r
                hargs, hkwargs = args, kwargs
                if self.nin < len(args) <= self.nargs and "out" not in kwargs:  # positional out
                    hargs = args[:self.nin]
                    hkwargs = dict(kwargs, out=args[self.nin:] + (None,) * (
                        self.nargs - len(args)))
                r = frontend.host_call(self._np, hargs, hkwargs)
            if r is not host.DECLINED:
                return r
            if tiers.following:  # the device runs it: large host operands go along
                tiers.follow(*args, kwargs.get("out"))
        # the device: the hot path (``fast_path``) or ``_call``; NumPy's loop on the host for a
        # NumPy-only dtype
        return frontend.device_or_numpy(self._np, self._device_call, args, kwargs)

    def resolve_dtypes(self, dtypes, *, signature=None, casting=None, reduction=False):
        """NumPy's loop dtypes for ``dtypes`` (tnp's loops are NumPy's)."""
        kw = {k: v for k, v in (("signature", signature), ("casting", casting)) if v is not None}
        return self._np.resolve_dtypes(dtypes, reduction=reduction, **kw)

    def _default_loop(self, keys, out_dts):
        """Whether ``out_dts`` are the loop's own output dtypes (an ``out=`` of another dtype
        makes another kernel, which the fast table, keyed by the inputs, must not hold)."""
        return self._resolve(tuple(keys), None, None, None, "same_kind")[1] == out_dts

    def record_inplace(self, target, other):
        """``target op= other`` recorded lazily (``fast_path.record_inplace``); whether it was."""
        return fast_path.record_inplace(self, target, other)

    def _call(self, *args, **kwargs):
        """NEP 13 first: an overriding operand's ``__array_ufunc__`` is given the keywords as
        passed."""
        r = override_call(self, args, kwargs)
        return self._call_bound(*args, **kwargs) if r is NO_OVERRIDE else r

    def _arguments(self, args, out, where, signature, sig):
        """The call's inputs, ``out`` (None, or outputs given positionally or by keyword) and
        ``signature`` (or its older name ``sig``), with NumPy's errors for bad ones."""
        if out is _NO_VALUE:
            if where is not True and len(args) <= self.nin:
                warnings.warn(loops.where_without_out_message(), UserWarning, stacklevel=7)
            out = None
        elif out is None and self.nout > 1:
            raise TypeError("'out' must be a tuple of arrays")
        if sig is not _NO_VALUE:  # NumPy's older name of ``signature``
            if signature is not None:
                raise TypeError("cannot specify both 'sig' and 'signature'")
            if sig is None:
                raise TypeError("the signature object to ufunc must be a string or a tuple.")
            signature = sig
        if len(args) != self.nin:
            if self.nin < len(args) <= self.nargs:
                if out is not None:
                    raise TypeError("cannot specify 'out' as both a positional and keyword "
                                    "argument")
                if any(a is Ellipsis for a in args[self.nin:]):
                    raise TypeError("out=... is only allowed as a keyword argument.")
                out = tuple(args[self.nin:]) + (None,) * (self.nargs - len(args))
                args = args[:self.nin]
            else:
                self._np(*[0] * len(args))  # NumPy's own TypeError for the wrong argument count
        return args, out, signature

    def _call_bound(self, *args, out=_NO_VALUE, where=True, casting="same_kind", order="K",
                    dtype=None, subok=True, signature=None, sig=_NO_VALUE):
        # (the user's frame is 7 up from ``_arguments``' warning: _call_bound, _call,
        # fast_path.device_call, frontend.device_or_numpy, __call__)
        scalar = out is not Ellipsis  # (``out=...``: arrays, never scalars, as NumPy's)
        args, out, signature = self._arguments(args, out, where, signature, sig)
        wrap = array_wrap(args) if subok else None
        loops.refuse_big_ints(args)
        recording = (out is None and where is True and self.nout == 1 and lazy.recording())
        ops, keys = loops.operands(args, recording)
        outs = out_arrays(out, self.nout)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        in_dts, out_dts = self._resolve(
            tuple(keys), None if outs is None else tuple(
                None if o is None else o.dtype for o in outs), dtype,
            loops.hashable_signature(signature), casting)
        wh = None if where is True else where_mask(where)
        pending = None  # errstate's flags, reported after ``out=`` is written (as NumPy does)
        const = loops.python_scalars(self.__name__, ops, keys, in_dts)
        if const is not None:
            results = (jnp.full(np.broadcast_shapes(*(np.shape(o) for o in ops)), const),)
        else:
            results, pending = self._run(args, ops, keys, outs, wh, in_dts, out_dts, dtype,
                                         signature, casting, recording)
            if pending is _RECORDED:  # ``results``: the new array holding the pending node
                return results if wrap is None else wrap(
                    results, (self, args, 0), scalar and results.ndim == 0)
        if wh is not None and not fits(results[0].shape, wh.shape):
            loops.numpy_error(self._np, ops, outs, wh)
        if outs is None:
            return self._new_results(args, results, wrap, pending, scalar)
        for o, r in zip(outs, results):
            if o is not None and not fits(o.shape, r.shape, () if wh is None else wh.shape):
                loops.numpy_error(self._np, ops, outs, wh)
        ops = None  # ``a *= s``: the write may donate ``a``'s old buffer only if none holds it
        for o, r in zip(outs, results):
            if o is not None:
                write.assign(o, r, where=wh)
        if pending is not None:
            self._report(pending)
        context = (self, (*args, *outs), 0)
        res = [_wrap_out(o, context) if o is not None else
               ndarray._wrap(r) if wrap is None else wrap(ndarray._wrap(r), context, False)
               for o, r in zip(outs, results)]
        return res[0] if self.nout == 1 else tuple(res)

    def _run(self, args, ops, keys, outs, wh, in_dts, out_dts, dtype, signature, casting,
             recording):
        """The loop's kernel on ``ops`` (the list updated in place to the values it ran on),
        remembered in the fast table for a plain call: ``(results, pending)``, ``pending``
        errstate's flags (None without checks), or ``(array, _RECORDED)`` when recorded."""
        if self.__name__ == "power" and in_dts[1].kind in "iu":
            loops.check_int_power(lazy.value(ops[1]), in_dts[1])
        traced = any(is_tracer(o) for o in ops)
        check = _errcheck.modes() if not traced else None
        kernel = self._kernel(in_dts, out_dts, check is not None)
        fast = (check is None and (outs is None or lazy.on and self._default_loop(keys, out_dts))
                and dtype is None and signature is None
                and casting == "same_kind" and all(fast_path.fast_key(a) is not None for a in args)
                and not (self.__name__ == "power" and in_dts[1].kind in "iu"))
        if fast:
            self._fast[tuple(map(fast_path.fast_key, args))] = kernel
        if recording:  # pending operands: the call is recorded, or they are computed
            # a call the fast path will take next time records as it will (its Python
            # scalars as they are), so the first call's graph is the later calls' graph
            node = (fast_path.record_node(kernel, args, self._core is not None) if fast else
                    lazy.record(kernel, ops, self._core is not None) if check is None else None)
            if node is not None:
                return lazy.adopt(ndarray._wrap(node)), _RECORDED
            ops[:] = [lazy.value(o) for o in ops]
        if check is not None:  # NumPy's input casts: a float to an integer loop
            for o, dt in zip(ops, in_dts):
                if getattr(o, "dtype", dt).kind in "fc" and dt.kind in "iu":
                    _check_cast(o, dt)
        # the lazy modes ('warn'...): the flags from this call's own kernel, kept pending
        watch = fpcheck.state(kernel.fp_check) if lazy.on and not traced else None
        args = ops
        if check is not None or watch is not None:
            kernel = self._kernel(in_dts, out_dts, True if wh is None else "where")
            args = ops if wh is None else [*ops, wh]
        try:
            results, flags = kernel(*args)
        except (TypeError, ValueError, IndexError):  # (JAX's gufuncs index core dims)
            loops.numpy_error(self._np, ops, outs, wh)
            raise
        if flags is None or is_tracer(flags):
            return results, None
        return results, (check, watch, flags)

    def _report(self, pending):
        """The floating-point errors of a call run eagerly (``_run``'s ``pending``: after its
        ``out=`` is written, as NumPy does): 'raise' at once (``errcheck.report``, a sync), the
        lazy modes kept until the next sync point (``fpcheck.eager``)."""
        modes, watch, flags = pending
        if modes is not None:
            _errcheck.report(self.__name__, modes, flags)
        if watch is not None:
            fpcheck.eager(watch, flags)

    def _new_results(self, args, results, wrap, pending, scalar=True):
        """The call's results as new arrays (no ``out=``), through ``wrap`` (``array_wrap``;
        ``scalar``: a 0-d result may become a scalar)."""
        if pending is not None:
            self._report(pending)
        if wrap is not None:
            res = [wrap(ndarray._wrap(r), (self, args, i), scalar and r.ndim == 0)
                   for i, r in enumerate(results)]
            return res[0] if self.nout == 1 else tuple(res)
        if self.nout == 1:
            return ndarray._wrap(results[0])
        return tuple(ndarray._wrap(r) for r in results)

    # ---- methods ---------------------------------------------------------------------------
    def _binary_method(self, name):
        if self.nin != 2 or self.nout != 1:
            getattr(self._np, name)(*[np.zeros(1)] * (2 if name == "reduceat" else 1))

    @_host_tier
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
               where=True):
        self._binary_method("reduce")
        x = (lazy.operand(array) if type(array) is ndarray and lazy.recording()
             else reductions.array(array))
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        kw = {"axis": axis, "dtype": dtype, "keepdims": keepdims}
        if initial is not _NO_VALUE:
            kw["initial"] = reductions.scalar(initial)
        r = self.reduce_resolved(self._np.reduce, x, axis, out, keepdims, initial, where, kw)
        wrap = None if out is not None and out is not Ellipsis else array_wrap((array,))
        return r if wrap is None else wrap(r, None, r.ndim == 0 and out is not Ellipsis)

    def reduce_resolved(self, numpy_fn, x, axis, out, keepdims, initial, where, kw):
        """The one reduction engine (``reductions.reduce_resolved``)."""
        return reductions.reduce_resolved(self, numpy_fn, x, axis, out, keepdims, initial,
                                          where, kw)

    @_host_tier
    def accumulate(self, array, axis=0, dtype=None, out=None):
        self._binary_method("accumulate")
        x = reductions.array(array)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        return self.accumulate_resolved(self._np.accumulate, x, axis, out,
                                        {"axis": axis, "dtype": dtype})

    def accumulate_resolved(self, numpy_fn, x, axis, out, kw, include_initial=False,
                            out_message="return arrays must be of ArrayType"):
        """The one accumulation engine (``reductions.accumulate_resolved``)."""
        return reductions.accumulate_resolved(self, numpy_fn, x, axis, out, kw,
                                              include_initial, out_message)

    @_host_tier
    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Segment reductions; the indices are read on the host (a sync for device indices)."""
        self._binary_method("reduceat")
        x = reductions.array(array)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        return reductions.reduceat(self, x, indices, axis, dtype, out)

    @_host_tier
    def outer(self, A, B, /, **kwargs):
        if self.nin != 2:
            self._np.outer(np.zeros(1), np.zeros(1))  # NumPy's own error
        a, b = reductions.array(A), reductions.array(B)
        if a.ndim + b.ndim > 64:  # NumPy's dimension limit (XLA has none): NumPy's ValueError
            probe.call(self._np.outer, probe.Spec(a.shape, a.dtype), probe.Spec(b.shape, b.dtype))
        a = a.reshape(a.shape + (1,) * b.ndim)
        r = self(ndarray._wrap(a), ndarray._wrap(b), **kwargs)
        wrap = (array_wrap((A, B)) if kwargs.get("out") is None and kwargs.get("subok", True)
                and type(r) is not tuple else None)  # the operands' class, as NumPy's
        return r if wrap is None else wrap(r, (self, (A, B), 0), r.ndim == 0)

    @_host_tier
    def at(self, a, indices, b=None, /):
        """Unbuffered in-place ``a[indices] = ufunc(a[indices], b)``: repeated indices apply
        repeatedly. The new value of ``a`` is computed on the device and written through
        ``write.assign`` (``reductions.at``)."""
        if not isinstance(a, ndarray):
            raise TypeError("tnp ufunc.at needs a tnp.ndarray as its first argument")
        if self._core is not None:
            raise TypeError(f"{self.__name__}.at does not support ufunc with non-trivial "
                            f"signature: {self.__name__} has signature {self.signature}.")
        if (b is None) != (self.nin == 1):
            raise ValueError("second operand needed for ufunc" if b is None else
                             "second operand provided when ufunc is unary")
        reductions.at(self, a, indices, b)


def _wrap_out(o, context):
    """An ``out=`` array as the call returns it: itself, or what its class's own
    ``__array_wrap__`` makes of it (NumPy calls the output's)."""
    if type(o) is ndarray or type(o).__array_wrap__ is ndarray.__array_wrap__:
        return o
    return o.__array_wrap__(o, context, False)
