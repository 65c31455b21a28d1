"""``tnp.ufunc``: NumPy's universal functions on JAX.

Loop dtypes come from NumPy itself (``numpy.ufunc.resolve_dtypes`` with NEP 50 weak Python
scalars) and every call's validity (casting errors, missing loops, empty reductions, bad axes)
from NumPy run once on tiny placeholder arrays of the same dtypes; all of it is cached per dtype
signature, so the hot path is a dict lookup and one compiled kernel call. ``out=`` and ``where=``
write through the one write path; so does ``at`` (it computes the root's new value and assigns it).

Value checks that NumPy makes are documented sync points, done eagerly and skipped under a JAX
trace: integer ``power`` with a negative exponent (ValueError), and the floating-point error
checks that ``tnp.errstate``/``seterr`` ask for with mode 'raise' (see ``tnp._routines.errstate``).
"""
import functools
import inspect
import operator
import re
import warnings

from ..engine.jaxload import jax, jnp, lax, jcore as _jcore, ArrayImpl, JaxArray, Tracer
import numpy as np

from ..engine import caches, lazy, tracing
from ..rules import dtypes, probe
from ..dispatch import host, placement
from ..array import write
from ..numerics.fperr import (INT_FOLDS, check_cast as _check_cast, errcheck as _errcheck,
                              flags as _fp_flags, int_fold_flags)
from ..array.ndarray import ndarray
from ..numerics.casting import cast, numpy_cast
from ..dispatch.normalize import (normalize_axes, out_arrays, out_tuple, single_out, to_jax,
                                  where_mask)

_COMPARISONS = frozenset({"equal", "not_equal", "less", "less_equal", "greater",
                          "greater_equal"})
# Binary ufuncs whose reduction may use XLA's tree reduction (associative and commutative).
_TREE_REDUCE = frozenset({"bitwise_and", "bitwise_or", "bitwise_xor", "logical_and",
                          "logical_or", "logical_xor", "fmax", "fmin"})
_NO_VALUE = np._NoValue
_EXACT_INT = 2**53  # Python ints the fast path takes lie within it (``_fast_key``)


def _core_ndims(signature):
    """Number of core dimensions of each operand of a gufunc signature ("(n),(n)->()" -> [1,1,0])."""
    if not signature:
        return None
    ins, outs = signature.split("->")
    return [0 if not g.strip() else len(g.split(",")) for g in re.findall(r"\(([^)]*)\)", ins)]


def _is_tracer(x):
    return isinstance(x, Tracer)


def _cast_in(x, dt):
    """Cast an operand to its loop dtype (the one cast: bool converts so that XLA keeps
    ``0 * inf`` NaN)."""
    return numpy_cast(jnp.asarray(x), dt)


_BY_NUMPY = {}  # NumPy ufunc -> the tnp ufunc implementing it (each registers itself)


def _by_name(name):
    """The tnp ufunc named ``name`` (unpickling): the one implementing NumPy's of that name."""
    return _BY_NUMPY[getattr(np, name)]


def for_numpy(np_ufunc):
    """The tnp ufunc for a NumPy ufunc object (None if there is none)."""
    return _BY_NUMPY.get(np_ufunc)


def _host_tier(method):
    """A ufunc method that runs NumPy's own for inputs on the host (``tnp._core.dispatch.host``)."""
    names = list(inspect.signature(method).parameters)
    at = names.index("out") - 1 if "out" in names else None  # (``self`` not in ``args``)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if at is not None and len(args) > at and args[at] is Ellipsis:
            raise TypeError("out=... is only allowed as a keyword argument.")
        numpy_method = getattr(self._np, method.__name__)
        if placement.routing:
            r = host.call(numpy_method, args, kwargs)
            if r is not host.DECLINED:
                return r
        try:
            return method(self, *args, **kwargs)
        except dtypes.UnsupportedDtype:
            return host.unsupported(numpy_method, args, kwargs)
    return call


_CALL_KEYWORDS = frozenset({"out", "where", "casting", "order", "dtype", "subok", "signature",
                            "sig"})


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


@functools.cache
def _where_without_out_message():
    """NumPy's own text of its UserWarning for ``where=`` without ``out=`` (it differs between
    NumPy versions)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.negative(np.zeros(1), where=np.ones(1, bool))
    return next(str(w.message) for w in caught if w.category is UserWarning)


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
        _BY_NUMPY[np_ufunc] = self
        self.__name__ = np_ufunc.__name__
        # NumPy's signature for ``inspect`` (None where NumPy has none: inspect reads __call__)
        self.__signature__ = getattr(np_ufunc, "__signature__", None)
        self.__numpy__ = np_ufunc
        self._core = _core_ndims(np_ufunc.signature)
        self._resolve = functools.lru_cache(maxsize=None)(self._resolve_uncached)
        self._kernel = caches.kernel_cache(self._kernel_uncached)  # bounded: tnp._core.engine.caches
        self._fast = caches.KernelTable()  # input dtypes -> kernel, for calls on tnp arrays
        self._method_kernel = caches.kernel_cache(self._method_kernel_uncached)
        self._reduced = caches.KernelTable()  # plain reductions resolved: reduce_resolved

    nin, nout, nargs, ntypes, types, identity, signature = map(
        _numpy_attribute, ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature"))

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        """Pickled by name, as NumPy's ufuncs are: unpickling gives tnp's ufunc itself."""
        return _by_name, (self.__name__,)

    # ---- dtype resolution (NumPy decides; cached) ------------------------------------------
    def _specs(self, keys):
        """Probe operands for promotion keys: weak Python scalars as themselves, arrays as
        empty specs (the core dimensions of a gufunc as ones)."""
        return tuple(dtypes.WEAK_PLACEHOLDER[k] if k in dtypes.WEAK_PLACEHOLDER else
                     probe.Spec((0,) if self._core is None else (1,) * self._core[i], k)
                     for i, k in enumerate(keys))

    def _resolve_uncached(self, keys, out_dtypes, dtype, signature, casting):
        specs = self._specs(keys)
        kwargs = {"casting": casting}
        if dtype is not None:
            kwargs["dtype"] = dtype
        if signature is not None:
            kwargs["signature"] = signature
        res = probe.call(self._np, *specs, **kwargs)  # NumPy's own error for an invalid call
        res = res if self.nout > 1 else (res,)
        if out_dtypes is not None:
            outs = tuple(probe.Out(r.shape, dt if dt is not None else r.dtype)
                         for r, dt in zip(res, out_dtypes))
            probe.call(self._np, *specs, out=outs, **kwargs)
        sig = signature
        if dtype is not None and sig is None:
            sig = (None,) * self.nin + (dtype,) * self.nout
        kw = {"casting": casting} if sig is None else {"casting": casting, "signature": sig}
        loop = self._np.resolve_dtypes(tuple(keys) + (None,) * self.nout, **kw)
        for k in keys:  # NumPy accepts the call; XLA must hold its dtypes
            if isinstance(k, np.dtype):
                dtypes.check_supported(k)
        # canonical type codes: this cache's keys do not tell NumPy's equal codes apart ('l' and
        # 'q' are one int64 to a dict), and NumPy's conversions do (its OverflowError for a
        # Python int names C long for 'l', not for 'q')
        return (tuple(map(dtypes.canonical, loop[:self.nin])),
                tuple(dtypes.canonical(r.dtype) for r in res))

    # ---- compiled kernels ----------------------------------------------------------------
    def _kernel_uncached(self, in_dtypes, out_dtypes, check):
        impl = self._impl

        def kernel(*xs):
            xs = [_cast_in(x, dt) for x, dt in zip(xs, in_dtypes)]
            r = impl(*xs)
            r = r if isinstance(r, tuple) else (r,)
            r = tuple(numpy_cast(v, dt) for v, dt in zip(r, out_dtypes))
            return (r, _fp_flags(self.__name__, xs, r)) if check else (r, None)
        return jax.jit(kernel)

    # ---- call ------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if placement.routing:  # the host tier, for inputs on the host
            r = host.operands(self._np, args) if not kwargs and len(args) == self.nin else None
            if r is None:
                r = self._override_call(args, kwargs)
                if r is not _NO_OVERRIDE:
                    return r
                hargs, hkwargs = args, kwargs
                if self.nin < len(args) <= self.nargs and "out" not in kwargs:  # positional out
                    hargs = args[:self.nin]
                    hkwargs = dict(kwargs, out=args[self.nin:] + (None,) * (
                        self.nargs - len(args)))
                r = host.call(self._np, hargs, hkwargs)
            if r is not host.DECLINED:
                return r
        # The hot path: tnp arrays only, no keywords, a loop seen before (``_fast``, filled by
        # ``_call``) and no error state to check: one dict lookup and the compiled kernel.
        try:
            if not kwargs and len(args) == self.nin:
                keys = tuple(map(_fast_key, args))
                kernel = self._fast.get(keys)
                if kernel is not None and _errcheck.modes() is None:
                    if lazy.on and self.nout == 1:  # recorded: a new root holding its node
                        node = _node(kernel, args, self._core is not None)
                        if node is not None:
                            return lazy.adopt(ndarray._wrap(node))
                    try:
                        results = kernel(*(a._value if type(a) is ndarray else a
                                           for a in args))[0]
                    except (TypeError, ValueError, IndexError, OverflowError):  # mismatched shapes,
                        return self._call(*args)  # an int past the dtype: NumPy's error
                    if self.nout == 1:
                        return ndarray._wrap(results[0])
                    return tuple(ndarray._wrap(r) for r in results)
            return self._call(*args, **kwargs)
        except dtypes.UnsupportedDtype:  # a NumPy-only dtype: NumPy's loop, on the host
            return host.unsupported(self._np, args, kwargs)

    def resolve_dtypes(self, dtypes, *, signature=None, casting=None, reduction=False):
        """NumPy's loop dtypes for ``dtypes`` (tnp's loops are NumPy's)."""
        kw = {k: v for k, v in (("signature", signature), ("casting", casting)) if v is not None}
        return self._np.resolve_dtypes(dtypes, reduction=reduction, **kw)

    def _default_loop(self, keys, out_dts):
        """Whether ``out_dts`` are the loop's own output dtypes (an ``out=`` of another dtype
        makes another kernel, which the fast table, keyed by the inputs, must not hold)."""
        return self._resolve(tuple(keys), None, None, None, "same_kind")[1] == out_dts

    def record_inplace(self, target, other):
        """``target op= other`` recorded lazily (``lazy``) when the target is writeable, on the
        device, and the call's loop, seen before, gives the target's dtype and shape (no cast,
        no broadcast of the target): its root then holds a pending node (``write``). Returns
        whether it did; the caller holds the root's lock."""
        root = target._root
        if (not target._writeable or self.nout != 1 or self._core is not None
                or _errcheck.modes() is not None
                or type(root._buf) is not lazy.Node and type(root._buf) is not ArrayImpl):
            return False
        kernel = self._fast.get((_fast_key(target), _fast_key(other)))
        if kernel is None:
            return False
        node = _node(kernel, (target, other))
        if node is None or node.dtype != target._dtype or node.shape != target._shape:
            return False
        write.rebind_pending(target, node)
        node = None  # a flush outputs the nodes held outside its graph: this one is not
        lazy.bound(root)
        return True

    def _override_call(self, args, kwargs):
        """NEP 13 for a call: the result of an operand's own ``__array_ufunc__``, given the
        inputs and the keywords as NumPy passes them (``out`` a tuple, positional outputs
        included, left out when all None), or ``_NO_OVERRIDE``."""
        ins, outs = args[:self.nin], args[self.nin:]
        out = kwargs.get("out")
        if not kwargs.keys() <= _CALL_KEYWORDS:  # the call raises NumPy's (Python's) TypeError
            return _NO_OVERRIDE
        if not _overriding(ins + outs + (out if type(out) is tuple else (out,))
                           + (kwargs.get("where"),)):
            return _NO_OVERRIDE
        if len(args) > self.nargs or len(ins) < self.nin:
            self._np(*[0] * len(args))  # NumPy's own TypeError for the wrong argument count
        if "sig" in kwargs and kwargs.get("signature") is not None:
            raise TypeError("cannot specify both 'sig' and 'signature'")
        if outs and "out" in kwargs:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        if "out" in kwargs:
            outs = out_tuple(out, self.nout)
        kw = {k: v for k, v in kwargs.items() if k != "out"}
        if any(o is not None for o in outs):
            kw["out"] = tuple(outs) + (None,) * (self.nout - len(outs))
        return _dispatch(self, "__call__", ins, kw)

    def _call(self, *args, **kwargs):
        """NEP 13 first: an overriding operand's ``__array_ufunc__`` is given the keywords as
        passed."""
        r = self._override_call(args, kwargs)
        return self._call_bound(*args, **kwargs) if r is _NO_OVERRIDE else r

    def _call_bound(self, *args, out=_NO_VALUE, where=True, casting="same_kind", order="K",
                    dtype=None, subok=True, signature=None, sig=_NO_VALUE):
        if out is _NO_VALUE:
            if where is not True and len(args) <= self.nin:
                warnings.warn(_where_without_out_message(), UserWarning, stacklevel=4)
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
        wrap = _array_wrap(args)
        big = [a for a in args if type(a) is int and not -2**63 <= a < 2**63]
        if big and (any(not 0 <= a < 2**64 for a in big) or all(
                type(a) in dtypes.PY_SCALARS for a in args)):
            # a Python int no int64/uint64 holds, or past int64 among Python scalars only:
            # NumPy's loop on the host (object, uint64) or its OverflowError
            raise dtypes.unsupported_dtype_error(np.dtype(object))
        recording = (out is None and where is True and self.nout == 1 and lazy.recording())
        ops, keys = _operands(args, recording)
        outs = out_arrays(out, self.nout)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        in_dts, out_dts = self._resolve(
            tuple(keys), None if outs is None else tuple(
                None if o is None else o.dtype for o in outs), dtype,
            _hashable_signature(signature), casting)
        wh = None if where is True else where_mask(where)
        pending = None  # errstate's flags, reported after ``out=`` is written (as NumPy does)
        const = self._python_scalars(ops, keys, in_dts)
        if const is not None:
            results = (jnp.full(np.broadcast_shapes(*(np.shape(o) for o in ops)), const),)
        else:
            if self.__name__ == "power" and in_dts[1].kind in "iu":
                _check_int_power(lazy.value(ops[1]), in_dts[1])
            check = _errcheck.modes() if not any(_is_tracer(o) for o in ops) else None
            kernel = self._kernel(in_dts, out_dts, check is not None)
            if (check is None and (outs is None or lazy.on and self._default_loop(keys, out_dts))
                    and dtype is None and signature is None
                    and casting == "same_kind" and all(_fast_key(a) is not None for a in args)
                    and not (self.__name__ == "power" and in_dts[1].kind in "iu")):
                self._fast[tuple(map(_fast_key, args))] = kernel
            if recording:  # pending operands: the call is recorded, or they are computed
                node = lazy.record(kernel, ops, self._core is not None) if check is None else None
                if node is not None:
                    r = lazy.adopt(ndarray._wrap(node))
                    return r if wrap is None else wrap(r, (self, args, 0), r.ndim == 0)
                ops = [lazy.value(o) for o in ops]
            if check is not None:  # NumPy's input casts: a float to an integer loop
                for o, dt in zip(ops, in_dts):
                    if getattr(o, "dtype", dt).kind in "fc" and dt.kind in "iu":
                        _check_cast(o, dt)
            try:
                results, flags = kernel(*ops)
            except (TypeError, ValueError, IndexError):  # (JAX's gufuncs index core dims)
                self._numpy_error(ops, outs, wh)
                raise
            if check is not None and not _is_tracer(flags[0]):
                if wh is not None:  # only the elements written count, as in NumPy's loop
                    flags = _fp_flags(self.__name__, [jnp.where(wh, to_jax(x), 1) for x in ops],
                                      [jnp.where(wh, r, 1) for r in results])
                pending = check, flags
        if wh is not None and not _fits(results[0].shape, wh.shape):
            self._numpy_error(ops, outs, wh)
        if outs is None:
            if pending is not None:
                _errcheck.report(self.__name__, *pending)
            if wrap is not None:
                res = [wrap(ndarray._wrap(r), (self, args, i), r.ndim == 0)
                       for i, r in enumerate(results)]
                return res[0] if self.nout == 1 else tuple(res)
            if self.nout == 1:
                return ndarray._wrap(results[0])
            return tuple(ndarray._wrap(r) for r in results)
        for o, r in zip(outs, results):
            if o is not None and not _fits(o.shape, r.shape, () if wh is None else wh.shape):
                self._numpy_error(ops, outs, wh)
        ops = None  # ``a *= s``: the write may donate ``a``'s old buffer only if none holds it
        for o, r in zip(outs, results):
            if o is not None:
                write.assign(o, r, where=wh)
        if pending is not None:
            _errcheck.report(self.__name__, *pending)
        if self.nout == 1:
            return outs[0]
        return tuple(o if o is not None else ndarray._wrap(r) for o, r in zip(outs, results))

    def _numpy_error(self, ops, outs=None, where=None):
        """Raise NumPy's error for a call whose shapes do not fit (operands, gufunc core
        dimensions, ``out=``, ``where=``): the probe on placeholders of the real shapes, only
        on this failure path."""
        kw = {}
        if outs is not None:
            kw["out"] = tuple(None if o is None else probe.Out(o.shape, o.dtype) for o in outs)
        if where is not None:
            kw["where"] = probe.Spec(where.shape, where.dtype)
        probe.call(self._np, *(o if type(o) in dtypes.WEAK_PLACEHOLDER else probe.Spec(
            np.shape(o), o.dtype) for o in ops), **kw)

    def _python_scalars(self, ops, keys, in_dts):
        """Convert weak Python scalars to their loop dtype (NEP 50: OverflowError when an int
        does not fit). A comparison of an integer array with an int outside its dtype's range
        is constant, as in NumPy 2: the constant is returned (None otherwise; a bool array's
        loop is the default int's, which raises)."""
        for i, k in enumerate(keys):
            if k is int:
                dt = in_dts[i]
                if dt.kind in "iu":
                    info = np.iinfo(dt)
                    v = ops[i]
                    if (self.__name__ in _COMPARISONS and not info.min <= v <= info.max
                            and getattr(keys[1 - i], "kind", None) in ("i", "u")):
                        above = (v > info.max) != (i == 0)
                        return (self.__name__ == "not_equal" or
                                (above and self.__name__ in ("less", "less_equal")) or
                                (not above and self.__name__ in ("greater", "greater_equal")))
                    dtypes.check_python_int(v, dt)
                    ops[i] = np.asarray(v, dt)
                elif dt.kind in "fc":
                    ops[i] = float(ops[i])
        return None

    # ---- methods ---------------------------------------------------------------------------
    def _binary_method(self, name):
        if self.nin != 2 or self.nout != 1:
            getattr(self._np, name)(*[np.zeros(1)] * (2 if name == "reduceat" else 1))

    def _method_kernel_uncached(self, method, static):
        return jax.jit(functools.partial(_METHODS[method], self, static))

    @_host_tier
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
               where=True):
        self._binary_method("reduce")
        x = lazy.operand(array) if type(array) is ndarray and lazy.recording() else _array(array)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        kw = {"axis": axis, "dtype": dtype, "keepdims": keepdims}
        if initial is not _NO_VALUE:
            kw["initial"] = _scalar(initial)
        r = self.reduce_resolved(self._np.reduce, x, axis, out, keepdims, initial, where, kw)
        wrap = None if out is not None else _array_wrap((array,))
        return r if wrap is None else wrap(r, None, r.ndim == 0)

    def reduce_resolved(self, numpy_fn, x, axis, out, keepdims, initial, where, kw):
        """The one reduction engine (``ufunc.reduce``, ``sum``, ``prod``, ``min``, ``max`` and
        the nan-variants' fronts): NumPy's ``numpy_fn(x, **kw)`` on a placeholder decides the
        result dtype and errors; the reduction runs in that dtype (the one cast converts ``x``).
        A plain call (no ``out``, ``where``, ``initial`` or error state) seen before is one
        lookup of its kernel, keyed by everything NumPy decided from. ``x`` may be a pending
        node (``lazy``): with no ``out`` or error state, the result is pending too."""
        plain = (out is None and where is True and initial is _NO_VALUE
                 and _errcheck.modes() is None)
        if plain:
            try:
                key = (numpy_fn, x.shape, x.dtype, probe.key(tuple(kw.items())))
                kern = self._reduced.get(key)
            except TypeError:  # unhashable arguments: resolved every time
                plain = False
            else:
                if kern is not None:
                    return _plain_reduce(*kern, x)
        out = single_out(out)
        res = probe.call(numpy_fn, probe.small(x), **kw)  # NumPy's errors for the arguments
        if x.ndim == 0 and axis is not None and not isinstance(axis, tuple):
            axis = ()  # NumPy takes axis 0 (or -1) of a 0-d array (the probe refused others)
        axes = normalize_axes(axis, x.ndim)
        want = tuple(1 if i in axes else n for i, n in enumerate(x.shape)
                     if keepdims or i not in axes)
        wh = None if where is True else where_mask(where)
        res_dt = _method_dtype(numpy_fn, x, kw, wh, out, want, res)
        if out is not None and kw.get("dtype") is None:
            # the loop NumPy reduces with into ``out`` (logical_and's is bool's for an int
            # ``out``): the result is cast to ``out``'s dtype as it is written
            res_dt = dtypes.canonical(self._np.resolve_dtypes(
                (res_dt, x.dtype, None), reduction=True, casting="unsafe")[2])  # (probed above)
        if self.__name__ == "power" and res_dt.kind in "iu" and len(axes) == 1:
            _check_int_power(jnp.moveaxis(lazy.value(x), axes[0], 0)[1:], res_dt)
        init_h = _scalar(initial)
        static = (axes, res_dt, bool(keepdims), init_h,
                  init_h is not _NO_VALUE and init_h is not None)
        kern = self._method_kernel("reduce", static)
        if plain and self.__name__ != "power":  # (power checks its exponents every call)
            self._reduced[key] = (kern, want, res_dt)
        if out is None and _errcheck.modes() is None and lazy.recording():
            return lazy.adopt(ndarray._wrap(lazy.call(kern, (x, wh), want, res_dt)))
        xv = lazy.value(x)  # (a pending operand computed once: the kernel and the check)
        r = kern(xv, wh)
        result = _finish(r, out)
        self._check_fp("reduce", static, xv, wh, r)
        return result

    @_host_tier
    def accumulate(self, array, axis=0, dtype=None, out=None):
        self._binary_method("accumulate")
        x = _array(array)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        return self.accumulate_resolved(self._np.accumulate, x, axis, out,
                                        {"axis": axis, "dtype": dtype})

    def accumulate_resolved(self, numpy_fn, x, axis, out, kw, include_initial=False,
                            out_message="return arrays must be of ArrayType"):
        """The one accumulation engine (``ufunc.accumulate``, ``cumsum``, ``cumprod``,
        ``cumulative_*`` and the nan-variants' fronts); ``axis=None`` accumulates the flattened
        array, as ``cumsum`` does."""
        out = single_out(out, out_message)
        res = probe.call(numpy_fn, probe.small(x), **kw)  # NumPy's errors for the arguments
        if axis is None:
            x, ax = x.reshape(-1), 0
        else:
            ax = normalize_axes(axis, x.ndim)[0]
        want = list(x.shape)
        want[ax] += bool(include_initial)
        res_dt = _method_dtype(numpy_fn, x, kw, None, out, tuple(want), res)
        if self.__name__ == "power" and res_dt.kind in "iu":
            _check_int_power(jnp.moveaxis(x, ax, 0)[1:], res_dt)
        static = (ax, res_dt, bool(include_initial))
        r = self._method_kernel("accumulate", static)(x)
        result = _finish(r, out)
        self._check_fp("accumulate", static, x, None, r)
        return result

    def _check_fp(self, method, static, x, where, r):
        """``errstate``'s 'raise' checks of a reduction or accumulation, after ``out=`` is
        written as in NumPy (a sync; skipped by default and under a JAX trace)."""
        check = _errcheck.modes()
        if check is not None and not _is_tracer(r) and (
                static[1].kind in "fc" or static[1].kind in "iu" and self.__name__ in INT_FOLDS
                and (method == "accumulate" or len(static[0]) == 1)):
            found = self._method_kernel(method + "_flags", static)(x, where, r)
            _errcheck.report(method, check, found)

    @_host_tier
    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Segment reductions; the indices are read on the host (a sync for device indices)."""
        self._binary_method("reduceat")
        x = _array(array)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        out = single_out(out)
        given = indices.__array__() if isinstance(indices, ndarray) else indices
        # NumPy's errors for bad indices, axis, dtype and out, on placeholders of the real
        # shapes; the indices as NumPy converts them (Python data straight to intp: [] is no
        # float64 array it would refuse)
        res = probe.call(self._np.reduceat, probe.like(x), given, axis=axis, dtype=dtype)
        idx = np.asarray(given).astype(np.intp, casting="unsafe")
        res_dt = dtypes.check_supported(res.dtype)
        if out is not None:
            probe.call(self._np.reduceat, probe.like(x), idx, axis=axis, dtype=dtype,
                       out=probe.Out(res.shape, out.dtype))
        ax = normalize_axes(axis, x.ndim)[0]
        n = x.shape[ax]
        pieces = []
        xm = cast(jnp.moveaxis(x, ax, 0), res_dt)
        for j, start in enumerate(idx.tolist()):
            stop = idx[j + 1] if j + 1 < len(idx) else n
            seg = xm[start:stop] if start < stop else xm[start:start + 1]
            pieces.append(self._method_kernel("fold", (res_dt,))(seg))
        result = jnp.moveaxis(jnp.stack(pieces), 0, ax) if pieces else jnp.zeros(
            x.shape[:ax] + (0,) + x.shape[ax + 1:], res_dt)
        return _finish(result, out)

    @_host_tier
    def outer(self, A, B, /, **kwargs):
        if self.nin != 2:
            self._np.outer(np.zeros(1), np.zeros(1))  # NumPy's own error
        a, b = _array(A), _array(B)
        if a.ndim + b.ndim > 64:  # NumPy's dimension limit (XLA has none): NumPy's ValueError
            probe.call(self._np.outer, probe.Spec(a.shape, a.dtype), probe.Spec(b.shape, b.dtype))
        a = a.reshape(a.shape + (1,) * b.ndim)
        return self(ndarray._wrap(a), ndarray._wrap(b), **kwargs)

    @_host_tier
    def at(self, a, indices, b=None, /):
        """Unbuffered in-place ``a[indices] = ufunc(a[indices], b)``: repeated indices apply
        repeatedly. The new value of ``a`` is computed on the device and written through
        ``write.assign``."""
        if not isinstance(a, ndarray):
            raise TypeError("tnp ufunc.at needs a tnp.ndarray as its first argument")
        if self._core is not None:
            raise TypeError(f"{self.__name__}.at does not support ufunc with non-trivial "
                            f"signature: {self.__name__} has signature {self.signature}.")
        if (b is None) != (self.nin == 1):
            raise ValueError("second operand needed for ufunc" if b is None else
                             "second operand provided when ufunc is unary")
        ops, keys = _operands((a,) + (() if b is None else (b,)))
        in_dts, out_dts = self._resolve(tuple(keys), (a.dtype,), None, None, "unsafe")
        self._python_scalars(ops, keys, in_dts)
        pos = ndarray._wrap(jnp.arange(a.size, dtype=np.int64).reshape(a.shape))[indices]._value
        if b is not None and not _fits(pos.shape, np.shape(ops[1])):
            raise ValueError("array is not broadcastable to correct shape")  # NumPy's error
        vals = () if b is None else (jnp.broadcast_to(_cast_in(ops[1], in_dts[1]), pos.shape),)
        kern = self._method_kernel("at", (in_dts, a.dtype))
        write.assign(a, kern(a._value, pos, *vals))


# ---- method bodies (jitted once per static argument set) ---------------------------------
def _fold(uf, dt, x, mask=None, init=None):
    """Left fold of ``uf`` over axis 0 of ``x`` (NumPy's order); masked elements are skipped."""
    def step(c, v):
        new = numpy_cast(uf._impl(c, v[0]), dt)
        return (new if mask is None else jnp.where(v[1], new, c)), None
    xs = (x, x if mask is None else mask)
    if init is None:  # NumPy demands an identity or an initial value for a masked reduction
        carry, xs = x[0], (x[1:], xs[1][1:])
    else:
        carry = jnp.broadcast_to(numpy_cast(jnp.asarray(init), dt), x.shape[1:])
    carry, _ = lax.scan(step, carry, xs)
    return carry


def reduce_body(uf, static, x, where):
    """The reduction engine's body: ``uf.reduce`` over ``axes`` in ``dt`` (inside a kernel)."""
    axes, dt, keepdims, initial, has_initial = static
    x = _cast_in(x, dt)
    name = uf.__name__
    ident = uf.identity
    if where is not None:
        where = jnp.broadcast_to(where, x.shape)
    # float16: NumPy's sums accumulate in float32 (pairwise) and round once; its products
    # round at every step (the fold below)
    half = dt == np.float16
    if axes and ((name == "add" or name == "multiply" and not half) or (
            name in ("maximum", "minimum") and dt.kind != "c")):
        fn = {"add": jnp.sum, "multiply": jnp.prod, "maximum": jnp.max, "minimum": jnp.min}[name]
        kw = {"initial": initial} if has_initial else {}
        if where is not None:
            kw["where"] = where
        if name in ("add", "multiply"):
            kw["dtype"] = np.dtype(np.float32) if half else dt
        if name == "add" and has_initial and dt.kind in "fc":
            # XLA's sum starts at +0.0, which turns a sum of -0.0s into +0.0; -0.0 is the
            # identity that keeps every sign (XLA's reduce needs an identity to start from)
            acc = kw["dtype"]
            neg_zero = -jnp.zeros((), acc)
            xv = x.astype(acc) if where is None else jnp.where(where, x.astype(acc), neg_zero)
            r = lax.reduce(xv, neg_zero, lax.add, axes) + numpy_cast(
                jnp.asarray(initial), dt).astype(acc)
        else:
            r = fn(x, axis=axes, **kw)
    elif axes and name in _TREE_REDUCE and (ident is not None or dt.kind in "fc"):
        init = numpy_cast(jnp.asarray(np.nan if ident is None else ident), dt)
        xv = x if where is None else jnp.where(where, x, init)
        r = lax.reduce(xv, init, lambda p, q: numpy_cast(uf._impl(p, q), dt), axes)
        if has_initial:
            r = numpy_cast(uf._impl(numpy_cast(jnp.asarray(initial), dt), r), dt)
    else:
        rest = [i for i in range(x.ndim) if i not in axes]
        perm = list(axes) + rest
        n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
        xt = jnp.transpose(x, perm).reshape((n,) + tuple(x.shape[i] for i in rest))
        mt = None
        if where is not None:
            mt = jnp.transpose(where, perm).reshape(xt.shape)
        r = _fold(uf, dt, xt, mt, initial if has_initial else ident)
    if keepdims:
        r = jnp.expand_dims(r, axes)
    return numpy_cast(r, dt)


def _accumulate_body(uf, static, x):
    ax, dt, include_initial = static
    x = _cast_in(x, dt)
    name = uf.__name__
    if name in ("add", "multiply") and dt.kind != "c" and dt != np.float16:
        # XLA's cumulative sum/product (complex ones stay sequential below, so that signed zeros
        # come out as NumPy's; float16 ones too, rounded at every step as NumPy's). XLA's sum
        # starts from +0: in NumPy's order a prefix of -0.0s sums to -0.0.
        r = (jnp.cumsum if name == "add" else jnp.cumprod)(x, axis=ax, dtype=dt)
        if name == "add" and dt.kind == "f" and x.shape[ax]:
            r = lax.cond(_any_neg_zero(jnp.take(x, 0, axis=ax)),
                         functools.partial(_leading_neg_zeros, ax=ax), lambda x, r: r, x, r)
    elif dt.kind in "biu" and (name in _TREE_REDUCE or name in ("maximum", "minimum")):
        r = lax.associative_scan(lambda p, q: numpy_cast(uf._impl(p, q), dt), x, axis=ax)
    elif x.shape[ax] == 0:
        r = x
    else:
        xm = jnp.moveaxis(x, ax, 0)

        def step(c, v):
            new = numpy_cast(uf._impl(c, v), dt)
            return new, new
        _, ys = lax.scan(step, xm[0], xm[1:])
        r = jnp.moveaxis(jnp.concatenate([xm[:1], ys]), 0, ax)
    if include_initial:
        shape = list(r.shape)
        shape[ax] = 1
        r = jnp.concatenate([jnp.full(shape, uf.identity, dt), r], axis=ax)
    return r


def _any_neg_zero(x):
    return jnp.any((x == 0) & jnp.signbit(x))


def _leading_neg_zeros(x, r, ax):
    """``r`` (a cumulative sum of ``x`` along ``ax``) with the leading run of -0.0s of ``x``
    kept -0.0, as NumPy's sequential sum gives them (XLA's starts from +0)."""
    other = (x != 0) | ~jnp.signbit(x)
    first = jnp.where(jnp.any(other, axis=ax, keepdims=True),
                      jnp.argmax(other, axis=ax, keepdims=True), x.shape[ax])
    lead = lax.broadcasted_iota(first.dtype, x.shape, ax) < first
    return jnp.where(lead, jnp.asarray(-0.0, r.dtype), r)


def _fold_body(uf, static, seg):
    (dt,) = static
    return _fold(uf, dt, seg)


def _at_body(uf, static, a, pos, *vals):
    in_dts, a_dt = static
    flat = a.reshape(-1)
    pos = pos.reshape(-1)
    vals = tuple(v.reshape(-1) for v in vals)
    name = uf.__name__
    if name in ("add", "multiply", "maximum", "minimum") and a_dt.kind not in "bc" and \
            in_dts[0] == a_dt and vals and vals[0].dtype == a_dt:
        ref = flat.at[pos]
        op = {"add": ref.add, "multiply": ref.multiply, "maximum": ref.max,
              "minimum": ref.min}[name]
        return op(vals[0]).reshape(a.shape)

    def step(f, k):
        i = pos[k]
        args = (_cast_in(f[i], in_dts[0]),) + tuple(_cast_in(v[k], d) for v, d in
                                                    zip(vals, in_dts[1:]))
        r = uf._impl(*args)
        return f.at[i].set(numpy_cast(r, a_dt)), None
    flat, _ = lax.scan(step, flat, jnp.arange(pos.shape[0]))
    return flat.reshape(a.shape)


def _reduce_flags(uf, static, x, where, r):
    """``fperr.flags`` of ``reduce_body``'s result ``r``: per result element, over the input
    elements reduced into it (masked-out ones read as 1, which sets no flag)."""
    axes, dt, keepdims = static[:3]
    x = _cast_in(x, dt)
    if where is not None:
        x = jnp.where(where, x, jnp.ones((), dt))
    if dt.kind in "iu":  # (one axis: NumPy reduces the integer divisions over one only)
        return int_fold_flags(uf.__name__, x, _accumulate_body(uf, (axes[0], dt, False), x),
                              axes[0])

    def along(v, every):
        return (jnp.all if every else jnp.any)(v, axis=axes, keepdims=keepdims)
    return _fp_flags(uf.__name__, [x], [r], along)


def _accumulate_flags(uf, static, x, where, r):
    """``fperr.flags`` of ``_accumulate_body``'s result ``r``: per result element, over the
    input elements up to it."""
    ax, dt, include_initial = static
    x = _cast_in(x, dt)
    if include_initial:
        r = lax.slice_in_dim(r, 1, None, axis=ax)
    if dt.kind in "iu":
        return int_fold_flags(uf.__name__, x, r, ax)

    def along(v, every):
        v = v.astype(np.int8)
        return (lax.cummin if every else lax.cummax)(v, axis=ax).astype(bool)
    return _fp_flags(uf.__name__, [x], [r], along)


_METHODS = {"reduce": reduce_body, "accumulate": _accumulate_body, "fold": _fold_body,
            "at": _at_body, "reduce_flags": _reduce_flags,
            "accumulate_flags": _accumulate_flags}


# ---- argument helpers -------------------------------------------------------------------
_NO_OVERRIDE = object()
_SCALAR_PRIORITY = -1000000.0  # NumPy's NPY_SCALAR_PRIORITY


def _default_ufunc_method(f):
    return f is ndarray.__array_ufunc__ or f is np.ndarray.__array_ufunc__


def _overriding(objs):
    """NEP 13: the objects among ``objs`` whose type has an ``__array_ufunc__`` of its own (not
    a tnp or NumPy ndarray's), one per type, subclasses before their superclasses, otherwise in
    order; NumPy's TypeError for a type that opts out (``__array_ufunc__ = None``)."""
    found = []
    for o in objs:
        t = type(o)
        if t is ndarray or t in dtypes.PY_SCALARS or o is None or any(
                type(f) is t for f in found):
            continue
        f = getattr(t, "__array_ufunc__", _NO_OVERRIDE)
        if f is _NO_OVERRIDE or _default_ufunc_method(f):
            continue
        if f is None:
            raise TypeError(f"operand '{t.__name__}' does not support ufuncs "
                            f"(__array_ufunc__=None)")
        at = next((i for i, g in enumerate(found) if issubclass(t, type(g))), len(found))
        found.insert(at, o)
    return found


def overridden(inputs, kwargs):
    """Whether an operand of a call (inputs, ``out=``, ``where=``) has an ``__array_ufunc__`` of
    its own: then the array's own ``__array_ufunc__`` returns NotImplemented, as NumPy's does."""
    out = kwargs.get("out")
    outs = out if type(out) is tuple else (out,)
    return bool(_overriding(tuple(inputs) + outs + (kwargs.get("where"),)))


def _dispatch(uf, method, inputs, kwargs):
    """NEP 13: the first result other than NotImplemented of the overriding operands'
    ``__array_ufunc__`` (``_overriding``'s order), or NumPy's TypeError."""
    outs = kwargs.get("out", ())
    for o in _overriding(inputs + outs + (kwargs.get("where"),)):
        r = type(o).__array_ufunc__(o, uf, method, *inputs, **kwargs)
        if r is not NotImplemented:
            return r
    shown = ", ".join([repr(a) for a in inputs] + [f"{k}={v!r}" for k, v in kwargs.items()])
    names = ", ".join(f"'{type(a).__name__}'" for a in inputs + outs if a is not None)
    raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__({uf!r}, "
                    f"{method!r}, {shown}): {names}")


def _array_wrap(inputs):
    """NumPy's choice of the ``__array_wrap__`` a result goes through: that of the input of
    the highest ``__array_priority__`` (the first of equals; one of priority 0 before an
    array's) among inputs other than arrays and scalars; None for the result as it is."""
    wrap, priority = _NO_OVERRIDE, None
    for a in inputs:
        t = type(a)
        if t is ndarray or isinstance(a, (ndarray, np.ndarray)):
            if priority is None or priority < 0.0:
                wrap, priority = None, 0.0
        elif t in dtypes.PY_SCALARS or isinstance(a, np.generic):
            if priority is None or priority < _SCALAR_PRIORITY:
                wrap, priority = None, _SCALAR_PRIORITY
        else:
            w = getattr(a, "__array_wrap__", None)
            if w is None:
                continue
            p = float(getattr(a, "__array_priority__", 0.0))
            if priority is None or priority < p or (p == 0.0 and wrap is None):
                wrap, priority = w, p
    return None if wrap is _NO_OVERRIDE else wrap


def _operands(args, pending=False):
    """The call's operands as values and their dtype keys; ``pending``: a tnp array's value may
    be a pending node (``lazy.operand``)."""
    ops, keys = [], []
    for a in args:
        t = type(a)
        if t is ndarray:
            ops.append(lazy.operand(a) if pending else a._value)
            keys.append(a._dtype)
        elif t is bool:
            ops.append(np.bool_(a))
            keys.append(np.dtype(np.bool_))
        elif t in dtypes.WEAK_PLACEHOLDER:
            ops.append(a)
            keys.append(t)
        else:
            try:
                v = to_jax(a)
            except TypeError:  # a dtype XLA cannot hold: NumPy decides the call's error
                v = np.asarray(a)
            ops.append(v)
            keys.append(np.dtype(v.dtype))
    return ops, keys


def _array(x):
    return x._value if isinstance(x, ndarray) else to_jax(x)


def _scalar(v):
    if v is _NO_VALUE or v is None:
        return v
    if isinstance(v, ndarray):
        v = v.__array__()
    return np.asarray(v).item() if not isinstance(v, (bool, int, float, complex)) else v


def _method_dtype(numpy_fn, x, kw, where, out, want, res):
    """The result dtype of a reduction or accumulation (``res``: NumPy's result on a small
    placeholder of ``x``), with NumPy's errors for ``where=`` and ``out=``: NumPy on
    placeholders of small shapes decides; where the real shapes do not fit (``out`` is not
    exactly ``want``, ``where`` does not broadcast to ``x``), NumPy on placeholders of the real
    shapes raises its own error."""
    if where is None and out is None:
        return dtypes.canonical(res.dtype if isinstance(res, probe.Spec) else
                                np.asarray(res).dtype)
    small_kw, real_kw = dict(kw), dict(kw)
    fits = True
    if where is not None:
        small_kw["where"], real_kw["where"] = probe.small(where), probe.like(where)
        try:
            fits = np.broadcast_shapes(where.shape, x.shape) == tuple(x.shape)
        except ValueError:
            fits = False
    if out is not None:
        # the shape of NumPy's result on the small placeholder (one longer on the axis with
        # ``include_initial``, which ``probe.small(out)`` would cut to 2)
        small_kw["out"] = probe.Out(res[0] if isinstance(res, probe.Spec) else np.shape(res),
                                    out.dtype)
        real_kw["out"] = probe.Out(out.shape, out.dtype)
        fits = fits and tuple(out.shape) == want
    if not fits:
        probe.call(numpy_fn, probe.like(x), **real_kw)
        raise ValueError("operands could not be broadcast together")
    return dtypes.canonical(probe.dtype_of(numpy_fn, probe.small(x), **small_kw))


def _fits(out_shape, *shapes):
    """Whether arrays of ``shapes`` broadcast to ``out_shape`` (a ufunc's ``out=``)."""
    try:
        return np.broadcast_shapes(out_shape, *shapes) == tuple(out_shape)
    except ValueError:
        return False


def _finish(result, out):
    if out is None:
        return ndarray._wrap(result)
    write.assign(out, result)
    return out


def _check_int_power(exponent, dt):
    """NumPy refuses integer powers with negative exponents, the exponent as cast to the loop's
    integer dtype ``dt`` (``power(1.5, -0.5, dtype=int, casting='unsafe')`` is 1 ** 0; a sync
    for device arrays; skipped under a JAX trace)."""
    if _is_tracer(exponent):
        return
    if isinstance(exponent, JaxArray):
        neg = jnp.any(numpy_cast(exponent, dt) < 0)
        if _is_tracer(neg):
            return
    else:
        with np.errstate(invalid="ignore"):  # NumPy's cast of a NaN exponent: no warning
            neg = np.any(np.asarray(exponent).astype(dt) < 0)
    if neg:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _node(kernel, args, core=False):
    """The pending node of ``kernel`` on ``args`` (``lazy``), or None (under a JAX trace, or an
    operand that cannot be recorded)."""
    if not isinstance(tracing.current_trace(), _jcore.EvalTrace):
        return None
    return lazy.record(kernel, [lazy.read(a) if type(a) is ndarray else a for a in args], core)


def _plain_reduce(kern, shape, dtype, x):
    """A plain reduction seen before (``ufunc.reduce_resolved``): pending when recording."""
    if lazy.recording():
        return lazy.adopt(ndarray._wrap(lazy.call(kern, (x, None), shape, dtype)))
    return ndarray._wrap(kern(lazy.value(x), None))


def _fast_key(a):
    """What the ufunc fast path keys a call on: a tnp array's dtype, the type of a Python float
    or complex; for a Python int, what decides NumPy's loop and errors (NEP 50: a weak scalar,
    whose value decides only whether it fits the other operands' dtype: OverflowError, or a
    constant comparison): ``int`` in [0, 128), where it fits every dtype; else, for |a| < 2**53
    (exact in float64, the slow path's conversion for a float loop), the bit length of ``a``, or
    ``-1 -`` that of ``~a`` when negative (a signed dtype of n bits holds ``a`` when that length
    is under n, an unsigned one when ``a`` is not negative and its length at most n); None for
    anything else."""
    t = type(a)
    if t is ndarray:
        return a._dtype
    if t is float or t is complex:
        return t
    if t is int:
        if 0 <= a < 128:
            return int
        if 0 < a < _EXACT_INT:
            return a.bit_length()
        if -_EXACT_INT < a < 0:
            return -1 - (~a).bit_length()
    return None


def _hashable_signature(signature):
    if signature is None or isinstance(signature, (str, bytes)):  # (NumPy parses bytes too)
        return signature
    if not isinstance(signature, tuple):
        raise TypeError("the signature object to ufunc must be a string or a tuple.")
    return tuple(None if s is None else dtypes.canonical(s) for s in signature)
