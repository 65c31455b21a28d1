"""The one argument normaliser.

``@normalize`` reads a function's annotations and turns its arguments into canonical form before
the body runs: array-likes become ``jax.Array``s, dtypes become ``numpy.dtype``s, ``out=`` is checked
and written through the one write path. The body is plain jax.numpy code. Eagerly the body runs
as a cached compiled kernel: array parameters are dynamic operands, everything else is static (so
``axis=0`` and ``axis=1`` are two kernels; an array of a new shape is a new kernel, keyed by JAX).
Results (pytrees of jax arrays) come back as tnp ndarrays.
"""
import functools
import inspect
import operator
import typing

from ..engine.jaxload import jax, jit, JaxArray
import numpy as np
from numpy.exceptions import AxisError

from ..engine import caches, lazy
from ..numerics import casting
from ..rules import dtypes, probe
from ..array import write
from ..array.ndarray import device_copy, ndarray, refused_protocol_array


class ArrayLike:
    """Annotation: any array-like, converted to a ``jax.Array`` (Python scalars become strong)."""


class ArrayOrScalar:
    """Annotation: an array-like, but a Python scalar stays a weak scalar (NEP 50)."""


class ArrayLikeSeq:
    """Annotation: a sequence of array-likes, converted to a tuple of ``jax.Array``s."""


class DTypeLike:
    """Annotation: a dtype-like or None, converted to a ``numpy.dtype`` (or None)."""


class OutArray:
    """Annotation: ``out=``: None or a tnp ndarray; the result is written into it."""


class NDArray:
    """Annotation: a parameter that must stay a tnp ndarray (it is written in place)."""


def to_jax(x, dtype=None, ndmin=0):
    """Any array-like as a ``jax.Array``: tnp and JAX arrays stay on the device (zero copy);
    anything else is parsed by NumPy (so nested lists and mixed Python scalars get NumPy's
    dtype) and put on the device. ``dtype`` converts as NumPy does; ``ndmin`` as ``np.array``."""
    if isinstance(x, ndarray):
        v = x._value
    elif isinstance(x, JaxArray):
        dtypes.check_supported(np.dtype(x.dtype))
        v = x
    else:  # the caller may change theirs while the computation still runs
        try:
            return device_copy(x, dtype, ndmin)
        except ValueError as e:  # an ``__array__`` (of a class written for tnp) gave a tnp array
            return to_jax(refused_protocol_array(x, e), dtype, ndmin)
    if dtype is not None:
        v = casting.cast(v, dtype)
    if v.ndim < ndmin:
        v = v.reshape((1,) * (ndmin - v.ndim) + v.shape)
    return v


def to_jax_or_scalar(x):
    if type(x) in dtypes.WEAK_PLACEHOLDER:
        return x
    return to_jax(x)


def _convert_dtype(x):
    return None if x is None else dtypes.canonical(x)


def out_tuple(out, nout):
    """``out=`` as a tuple of ``nout`` entries, with NumPy's errors for its form (not its
    entries: ``out_arrays`` checks those)."""
    if not isinstance(out, tuple):
        if nout > 1:
            raise TypeError("'out' must be a tuple of arrays")
        out = (out,)
    if len(out) != nout:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    return out


def out_arrays(out, nout=1, message="return arrays must be of ArrayType",
               readonly="output array is read-only"):
    """The one check of ``out=``, with NumPy's rules and errors: None, or a tuple of ``nout``
    entries, each a tnp ndarray or None. ``message`` is the TypeError NumPy's function gives
    for an ``out`` that is no array (its wording differs between NumPy's families), ``readonly``
    its ValueError for a read-only one (checked before anything is computed). A
    ``numpy.ndarray`` cannot be written by the device: TypeError, saying so."""
    if out is None or out is Ellipsis:  # ``out=...``: an array result (tnp's always is)
        return None
    out = out_tuple(out, nout)
    if all(o is None for o in out):
        return None
    for o in out:
        if o is Ellipsis:
            raise TypeError("must use `...` as `out=...` and not per-operand/in a tuple")
        if isinstance(o, np.ndarray):
            raise TypeError("out must be a tnp.ndarray (a numpy.ndarray cannot be written in "
                            "place on the device: pass a tnp array and copy it back)")
        if o is not None and not isinstance(o, ndarray):
            raise TypeError(message)
    write.check_writeable(out, readonly)
    return out


def single_out(out, message="return arrays must be of ArrayType",
               readonly="output array is read-only"):
    """``out_arrays`` for a function with one output: the tnp array or None."""
    out = out_arrays(out, 1, message, readonly)
    return None if out is None else out[0]


def where_mask(where):
    """``where=`` as NumPy converts it, as a bool ``jax.Array``: None is False, Python data
    converts to bool directly, an array's dtype must cast to bool under the rule 'safe'
    (NumPy's TypeError otherwise)."""
    if where is None:
        where = False
    if isinstance(where, (ndarray, JaxArray, np.ndarray, np.generic)):
        dt = np.dtype(where.dtype)
        if dt != np.bool_:
            probe.call(np.ndarray.astype, probe.Spec((0,), dt), np.bool_, casting="safe")
        return to_jax(where)
    return to_jax(np.asarray(where, dtype=bool))


def _optional(conv):
    def c(x):
        return None if x is None else conv(x)
    return c


_CONVERTERS = {
    ArrayLike: to_jax,
    ArrayOrScalar: to_jax_or_scalar,
    ArrayLikeSeq: lambda xs: tuple(to_jax(x) for x in xs),
    DTypeLike: _convert_dtype,
    OutArray: single_out,
    NDArray: lambda x: x,
}


def _converter(annotation):
    if annotation in _CONVERTERS:
        return _CONVERTERS[annotation]
    args = typing.get_args(annotation)
    if args and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and inner[0] in _CONVERTERS:
            return _optional(_CONVERTERS[inner[0]])
    return None


def wrap_result(result):
    if isinstance(result, JaxArray):  # the common case, without a tree traversal
        return ndarray._wrap(result)
    return jax.tree_util.tree_map(
        lambda x: ndarray._wrap(x) if isinstance(x, JaxArray) else x, result)


def _fast_binder(sig):
    """``sig.bind(...)`` + ``apply_defaults`` as a list of values in parameter order, for
    signatures without ``*args``/``**kwargs`` (inspect's binder costs ~10 µs a call)."""
    params = list(sig.parameters.values())
    index = {p.name: i for i, p in enumerate(params) if p.kind != p.POSITIONAL_ONLY}
    n_positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    empty = inspect.Parameter.empty
    defaults = [p.default for p in params]

    def bind(args, kwargs):
        if len(args) > n_positional:
            sig.bind(*args, **kwargs)  # raises Python's own TypeError
        vals = list(args) + defaults[len(args):]
        for k, v in kwargs.items():
            i = index.get(k)
            if i is None or i < len(args):
                sig.bind(*args, **kwargs)  # unknown or repeated argument: Python's TypeError
            vals[i] = v
        for v in vals:
            if v is empty:
                sig.bind(*args, **kwargs)  # a required argument is missing: Python's TypeError
        return vals
    return bind


def hashable(x):
    """Lists and tuples (nested) as tuples: a static argument or cache key NumPy accepts as a
    sequence (``axis=[0, 1]``)."""
    if isinstance(x, (list, tuple)):
        return tuple(hashable(v) for v in x)
    return x




def _kernel_table(positional, name, n, static, dynamic):
    """A caller ``kernel(vals)`` that runs ``positional(*vals)`` as a compiled kernel: one
    ``jax.jit`` per tuple of static values (the static values baked in, so each call passes
    only the arrays: JAX's static-argument hashing costs more than this table's lookup).
    Unhashable static values (after lists become tuples) run the body eagerly. Each static
    value is keyed with its type: 0, 0.0, False and ``np.longdouble(0)`` are equal, and
    hash alike, but NumPy's results for them differ."""
    kernels = caches.KernelTable()  # bounded (e.g. ever-new floats): tnp._core.engine.caches

    def make(key):
        def body(*arrays):
            vals = [None] * n
            for i, (v, _) in zip(static, key):
                vals[i] = v
            for i, v in zip(dynamic, arrays):
                vals[i] = v
            return positional(*vals)
        body.__name__ = name
        k = kernels[key] = jit(body)
        return k

    def kernel(vals, pending=False):
        """``pending``: ``vals`` may hold pending nodes (``lazy``); the result may be one."""
        key = tuple([(vals[i], type(vals[i])) for i in static])
        try:
            k = kernels.get(key)
        except TypeError:
            key = tuple([(hashable(vals[i]), type(vals[i])) for i in static])
            try:
                k = kernels.get(key)
            except TypeError:
                return positional(*map(lazy.value, vals) if pending else vals)
        if k is None:
            k = make(key)
        args = [vals[i] for i in dynamic]
        if pending:
            node = lazy.call(k, args)
            if node is not None:
                return node
            args = [lazy.value(v) for v in args]
        return k(*args)
    return kernel


def normalize(fn=None, *, jit=True):
    """Decorate a jax.numpy-level implementation with tnp's argument normalisation.

    ``jit=False`` for bodies with data-dependent shapes or host work (they run eagerly). The
    body's signature and annotations are read at its first call (``_Plan``), not when a
    routine family is imported: a call the host tier answers never runs the body."""
    if fn is None:
        return functools.partial(normalize, jit=jit)
    planned = []  # the body's ``_Plan``, made by the first call

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        plan = planned[0] if planned else _first_plan(planned, fn, jit)
        if plan.has_var:
            bound = plan.sig.bind(*args, **kwargs)
            bound.apply_defaults()
            for n, c in zip(plan.names, plan.convs):
                if c is not None and n in bound.arguments:
                    bound.arguments[n] = c(bound.arguments[n])
            out = bound.arguments.get("out")
            if out is not None:
                bound.arguments["out"] = None
            result = fn(*bound.args, **bound.kwargs)
        else:
            kernel, out_index, one_array = plan.kernel, plan.out_index, plan.one_array
            vals = plan.bind(args, kwargs)
            pending = (kernel is not None and lazy.recording()
                       and (out_index is None or vals[out_index] is None))
            for i, c in plan.conv_items:
                v = vals[i]
                vals[i] = lazy.operand(v) if pending and type(v) is ndarray and (
                    i in one_array) else c(v)
            out = None
            if out_index is not None:
                out, vals[out_index] = vals[out_index], None
            result = plan.positional(*vals) if kernel is None else kernel(vals, pending)
            if type(result) is lazy.Node:
                return lazy.adopt(ndarray._wrap(result))
        if out is not None:
            write.assign(out, result)
            return out
        return wrap_result(result)

    wrapper.__tnp_impl__ = fn  # (its signature: ``fn``'s, through ``__wrapped__``)
    return wrapper


def _first_plan(planned, fn, jit):
    """``fn``'s ``_Plan``, kept in ``planned`` (two threads' first calls may both make one:
    equal plans, the first kept)."""
    plan = _Plan(fn, jit)
    planned.append(plan)
    return planned[0]


class _Plan:
    """How a ``normalize`` body is called: its parameters' converters (from its annotations),
    a fast binder, and the compiled-kernel table of its static arguments."""

    __slots__ = ("sig", "names", "convs", "has_var", "out_index", "positional", "kernel",
                 "bind", "conv_items", "one_array")

    def __init__(self, fn, jit):
        self.sig = sig = inspect.signature(fn)
        hints = typing.get_type_hints(fn)
        params = list(sig.parameters.values())
        self.names = names = [p.name for p in params]
        self.convs = convs = [_converter(hints.get(n)) for n in names]
        array_kinds = (ArrayLike, ArrayOrScalar, ArrayLikeSeq)
        is_array = [hints.get(n) in array_kinds or any(
            a in array_kinds for a in typing.get_args(hints.get(n))) for n in names]
        self.has_var = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)
        self.out_index = names.index("out") if "out" in names else None
        static = [i for i, a in enumerate(is_array) if not a]
        # The body is called with every argument positionally; keyword-only ones are passed
        # on by name.
        n_pos = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        kw_names = names[n_pos:]

        def positional(*vals):
            return fn(*vals[:n_pos], **dict(zip(kw_names, vals[n_pos:])))

        self.positional = positional
        self.kernel = _kernel_table(positional, fn.__name__, len(names), static,
                                    [i for i in range(len(names)) if i not in static]) if (
            jit and not self.has_var) else None
        self.bind = None if self.has_var else _fast_binder(sig)
        self.conv_items = [(i, c) for i, c in enumerate(convs) if c is not None]
        # the parameters a pending array (``lazy``) is passed to as it is: one array each
        self.one_array = {i for i, n in enumerate(names) if hints.get(n) in (
            ArrayLike, ArrayOrScalar) or typing.get_args(hints.get(n)) in (
                (ArrayLike, type(None)), (ArrayOrScalar, type(None)))}


def normalize_axis(axis, ndim):
    """NumPy's axis normalisation with its AxisError."""
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim


def normalize_axes(axis, ndim):
    """None -> all axes; int or tuple -> tuple of non-negative axes (AxisError, repeated-axis ValueError)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(operator_index(a), ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
        return axes
    return (normalize_axis(operator_index(axis), ndim),)


def operator_index(x):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer") from None
