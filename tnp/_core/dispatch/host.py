"""The host tier's execution: a call whose array inputs all live on the host runs NumPy's own
function on them, so its results, warnings, errors and scalars are NumPy's by construction.

``call`` runs a call here when it may (no device array among its arguments, and a host array
among them or the placement mode ``"auto"``; under a JAX trace never) and returns DECLINED
otherwise. Inputs are passed as read-only NumPy arrays (root buffers, or NumPy views of them
through a view's lenses); the tnp arrays of ``out=`` are written by NumPy in place, under their
roots' locks (``write.writing``). Array results are placed by ``tiers.new_root`` (a large
result goes to the device); NumPy's scalars are returned as they are (the device tier's 0-d
stand-ins exist to keep a value on the device). A call that NumPy answers with a view of an
input, or refuses because it would write an input, is declined too: the tnp implementation runs
instead (it makes tnp views, and writes through the one write path).
"""
import ast
import functools
import inspect
import math
import re
import types

import numpy as np

from ..engine import lenses
from . import host_threads, stand_ins, tiers
from ..array import storage, write
from ..array.ndarray import OnDevice, ndarray, numpy_value, refused_array_method
from ..engine.tracing import in_trace

DECLINED = object()


_SCALARS = frozenset({int, float, complex, bool})


def operands(numpy_fn, args):
    """For a ufunc call without keywords (the operators' case: results are new arrays):
    ``numpy_fn(*args)``'s result (arrays placed) when every argument is a host array (a root, or
    a view NumPy made) or a Python scalar and nothing is traced; DECLINED when a tnp array is
    not on the host (as ``call`` declines it) or the inputs broadcast to a result the placement
    rule puts on the device (``tiers.made_on_device``: the device computes it, rather than
    NumPy and then a copy); None otherwise (``call`` decides)."""
    vals = []
    shape = mixed = None  # the first array's shape; whether another's differs
    for a in args:
        t = type(a)
        if t is ndarray:
            root = a._base
            if root is None:
                b = a._buf
                if type(b) is not np.ndarray:
                    return DECLINED
            else:  # a view NumPy made, of the buffer its root still has (``_host_view``)
                b = root._buf
                if type(b) is not np.ndarray:
                    return DECLINED
                h = a._hview
                if h is None or h[0] is not b:
                    return None
                b = h[1]
            if shape is None:
                shape, size = a._shape, b.size
            elif a._shape != shape:
                mixed = True
        elif t in _SCALARS:
            b = a
        else:
            return None
        vals.append(b)
    # Python scalars alone run here in the modes "auto" and "sharded" only
    if (shape is None and not tiers.HOSTED) or in_trace():
        return None
    if mixed and tiers.made_on_device(_result_size(numpy_fn, vals)):
        return DECLINED
    r = None
    if shape is not None and not mixed and size >= host_threads.SPLIT_AT:
        r = host_threads.split_call(numpy_fn, vals, shape, size)
    if r is None:
        r = numpy_fn(*vals)
    if type(r) is np.ndarray:
        return tiers.new_root(r)
    if type(r) is tuple:
        return tuple(tiers.new_root(v) if type(v) is np.ndarray else v for v in r)
    return r


def _result_size(numpy_fn, vals):
    """Elements of the result of host operands of different shapes: their broadcast shape's
    or, for a ufunc with a core signature (``matmul``), the loop dimensions broadcast times
    the output's core dimensions; 0 where NumPy cannot say (it raises its error itself). Small
    operands answer at once with a bound under the threshold: the product of their sizes
    (no dimension is 0), which neither a broadcast nor a contraction exceeds (for ``matmul``,
    divided by the contracted dimension squared)."""
    bound = 1
    for v in vals:
        if type(v) is np.ndarray:
            bound *= v.size
    if 0 < bound < tiers.THRESHOLD:
        return bound
    if numpy_fn is np.matmul and len(vals) == 2 and type(vals[0]) is np.ndarray and vals[0].ndim:
        k = vals[0].shape[-1]  # contracted: the sizes' product counts it twice
        if k and bound // (k * k) < tiers.THRESHOLD:
            return bound // (k * k)
    sig = numpy_fn.signature
    try:
        if sig is None:
            return math.prod(np.broadcast_shapes(*(v.shape for v in vals
                                                   if type(v) is np.ndarray)))
        ins, out = _core_dims(sig)
        sizes, loop = {}, ()
        for v, (dims, required) in zip(vals, ins):
            shape = v.shape if type(v) is np.ndarray else ()
            if len(shape) < len(dims):  # missing optional dimensions (matmul's 1-d operands)
                dims = required
            k = len(shape) - len(dims)
            if k < 0:
                return 0
            if shape[:k] != loop:
                loop = np.broadcast_shapes(loop, shape[:k])
            for d, n in zip(dims, shape[k:]):
                sizes[d] = n
        n = math.prod(loop)
        for d in out:
            n *= sizes.get(d, 1)
        return n
    except (ValueError, RuntimeError):  # (NumPy broadcasts at most 32 dimensions here)
        return 0


@functools.cache
def _core_dims(signature):
    """A core signature's dimension names: per input (all, and those not optional), and the
    output's."""
    ins, out = signature.split("->")
    groups = [[d for d in g.split(",") if d] for g in re.findall(r"\(([^)]*)\)", ins + out)]
    return ([([d.rstrip("?") for d in g], [d for d in g if not d.endswith("?")])
             for g in groups[:-1]], [d.rstrip("?") for d in groups[-1]])


def _has_array(args, kwargs):
    def any_array(x, depth):  # (a NumPy subclass's array too: NumPy's function runs on it)
        if isinstance(x, ndarray) or isinstance(x, np.ndarray) and type(x) is not np.ndarray:
            return True
        return (type(x) is list or type(x) is tuple) and depth < 3 and len(x) <= 64 and any(
            any_array(v, depth + 1) for v in x)
    return any_array(args, 0) or any_array(tuple(kwargs.values()), 0)


def unsupported(numpy_fn, args, kwargs):
    """A call the device refused for its dtype (``dtypes.UnsupportedDtype``: a NumPy-only
    dtype among its inputs or its result) runs here whatever the placement mode, device inputs
    copied to the host (a sync); under a JAX trace the error stands."""
    r = call(numpy_fn, args, kwargs, unsupported=True)
    if r is DECLINED:
        raise
    return r


_CREATION_PLAIN = frozenset({int, float, bool, complex, str, type(None), type})


def _plain(x):
    """Whether ``x`` is a creation routine's argument that holds no array: a number, a string,
    a dtype (class or instance), None, or a short tuple/list of Python ints (a shape)."""
    t = type(x)
    if t in _CREATION_PLAIN or isinstance(x, (np.dtype, np.generic)):
        return True
    return (t is tuple or t is list) and len(x) <= 64 and all(type(v) is int for v in x)


def create(numpy_fn, args, kwargs):
    """A creation routine's call (``zeros``, ``arange``...) whose result the placement rule
    keeps on the host (``frontend.entry`` decided from its ``result_size``): NumPy's result,
    placed, without ``call``'s conversion of the arguments when none of them can hold an array;
    otherwise ``call``."""
    for a in args:
        if not _plain(a):
            return call(numpy_fn, args, kwargs)
    if kwargs and not (all(map(_plain, kwargs.values()))
                       and kwargs.get("device", "cpu") in ("cpu", None)):
        return call(numpy_fn, args, kwargs)
    if in_trace():
        return DECLINED  # traced: the implementation records it
    r = numpy_fn(*args, **kwargs)
    return tiers.new_root(r) if type(r) is np.ndarray else _wrap(r, args, kwargs)


@functools.lru_cache(maxsize=512)
def _out_position(numpy_fn):
    """The position of ``numpy_fn``'s ``out`` parameter and the names of the parameters from
    there on that can be given by keyword (a C method's text signature, which may hide varargs:
    ``a.choose(c1, c2, c3)``, the last position only), or None (none, or no signature)."""
    text = getattr(numpy_fn, "__text_signature__", None)
    if type(text) is str and "out" not in text:
        return None  # (its name would be in the text)
    params = _parameters(numpy_fn, text)
    if params is None:
        return None
    for i, (name, kind) in enumerate(params):
        if name == "out":
            if kind is not _POSITIONAL_OR_KEYWORD:
                return None
            if isinstance(numpy_fn, types.MethodDescriptorType):
                return i, ("out",)
            names = []
            for q, k in params[i:]:
                if k is not _POSITIONAL_OR_KEYWORD:
                    break
                names.append(q)
            return i, tuple(names)
    return None


_POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD


def _parameters(numpy_fn, text):
    """``numpy_fn``'s parameters as (name, kind) as ``inspect.signature`` gives them, None
    where it has none. A C function's text signature ``text`` is read by ``ast`` (inspect's
    reading of one tokenizes it: 7 ms at a program's first, for the tokenizer's pattern), its
    leading ``$self`` or ``$module`` kept or dropped as inspect does."""
    if type(text) is not str:
        try:
            return [(p.name, p.kind) for p in inspect.signature(numpy_fn).parameters.values()]
        except (TypeError, ValueError):
            return None
    try:
        a = ast.parse(f"def f{text.replace('$', '', 1)}: pass").body[0].args
    except SyntaxError:
        return None
    P = inspect.Parameter
    params = ([(x.arg, P.POSITIONAL_ONLY) for x in a.posonlyargs]
              + [(x.arg, P.POSITIONAL_OR_KEYWORD) for x in a.args]
              + ([(a.vararg.arg, P.VAR_POSITIONAL)] if a.vararg else [])
              + [(x.arg, P.KEYWORD_ONLY) for x in a.kwonlyargs]
              + ([(a.kwarg.arg, P.VAR_KEYWORD)] if a.kwarg else []))
    if text.startswith("($"):  # the bound object: dropped where bound, else positional only
        if getattr(numpy_fn, "__self__", None) is not None:
            return params[1:]
        params[0] = (params[0][0], P.POSITIONAL_ONLY)
    return params


def call(numpy_fn, args, kwargs, unsupported=False):
    """NumPy's ``numpy_fn(*args, **kwargs)`` on the host values of the arguments, its results
    as tnp arrays, when the call runs on the host; DECLINED otherwise. ``unsupported``: see
    ``unsupported``. An ``out`` given as a positional argument is taken as ``out=``
    (written as one: ``isposinf(x, out)``), the arguments after it by their names."""
    if len(args) > 1 and not (kwargs and "out" in kwargs):
        pos = _out_position(numpy_fn)
        if pos is not None and pos[0] < len(args) and len(args) - pos[0] <= len(pos[1]):
            i, names = pos
            args, kwargs = args[:i], dict(kwargs, **dict(zip(names, args[i:])))
    conv = _host_value if unsupported else numpy_value
    try:
        hargs, hkwargs = _values(args, kwargs, unsupported, conv)
    except OnDevice:  # a device array; or, to ``numpy_value`` (the hot path), a subclass's
        if conv is _host_value:  # array, which ``_host_value`` gives as its stand-in
            return DECLINED
        try:
            hargs, hkwargs = _values(args, kwargs, False, _host_value)
        except OnDevice:
            return DECLINED
    if not tiers.HOSTED and not unsupported and not _has_array(args, kwargs):
        return DECLINED  # Python data only: placed on the device by the implementation
    if kwargs and kwargs.get("device", "cpu") not in ("cpu", None):
        return DECLINED  # ``device=`` a jax.Device: the device tier, whatever the mode
    if in_trace():
        return DECLINED  # traced: the implementation records it
    out = kwargs.get("out") if kwargs else None
    try:
        if out is not None and out is not Ellipsis:
            return _run_writing(numpy_fn, hargs, hkwargs, out, unsupported)
        if _is_ufunc_at(numpy_fn):
            return _run_writing_inputs(numpy_fn, args, hargs, hkwargs)
        result = numpy_fn(*hargs, **hkwargs)
    except OnDevice:  # a device array as ``out``
        return DECLINED
    except ValueError as e:
        if out is None and "read-only" in str(e):  # NumPy writes an input: it does so under
            return _run_writing_inputs(numpy_fn, args, hargs, hkwargs)  # the write path
        if refused_array_method(e):  # an argument's ``__array__`` returned a tnp array: the
            return DECLINED  # implementation takes it (``protocol_array``)
        raise
    if type(result) is np.ndarray:
        if _shares(result, hargs, hkwargs):  # (asarray: an input itself)
            return _shared(result, args, hargs) if unsupported else DECLINED
        return tiers.new_root(result)
    if isinstance(result, np.generic):
        return result
    try:
        return _wrap(result, hargs, hkwargs)
    except _View:
        if not unsupported:
            return DECLINED
        return _wrap(result, hargs, hkwargs, lambda r: _shared(r, args, hargs))


def _values(args, kwargs, pull, conv):
    """The arguments as NumPy takes them (``conv``: ``numpy_value`` or ``_host_value``)."""
    hargs = list(map(conv, args)) if not pull else [conv(a, True) for a in args]
    hkwargs = {}
    for k, v in kwargs.items():  # (_NoValue: not given; ``out=None`` is NumPy's to see: a
        if (k != "out" or v is None or v is Ellipsis) and (  # ufunc's where= warns without
                v is not np._NoValue):  # it; ``out=...``: a 0-d result stays an array)
            hkwargs[k] = conv(v, pull)
    return hargs, hkwargs


def _host_value(x, pull=False):
    """``numpy_value(x, pull)``; an array of a user's subclass of tnp.ndarray (not tnp's own
    masked value, whose ``__class__`` says ndarray) on the host as its NumPy stand-in
    (``stand_ins.stand_in``), so that NumPy keeps the subclass where it keeps its own."""
    t = type(x)
    if t is ndarray or not isinstance(x, ndarray) or x.__class__ is ndarray:
        return numpy_value(x, pull)
    if not pull and type(x._root._buf) is not np.ndarray:
        raise OnDevice
    return stand_ins.stand_in(x, numpy_value(x, True))


def numpy_operand(x):
    """``x`` as a NumPy function run on the host takes it (a device array copied; an array of a
    user's subclass as its stand-in): what a callback called by NumPy's function returns."""
    return _host_value(x, True)


def _shared(r, args, hargs):
    """A result of a call only NumPy can run (a NumPy-only dtype) sharing memory with an input:
    the tnp input itself where NumPy returned it; a NumPy view of it (``trim_zeros`` of an
    object array) as a copy, which tnp cannot make a view of its input here (writes to the
    result do not reach the input)."""
    for a, h in zip(args, hargs):
        if r is h and isinstance(a, ndarray):
            return a
    if isinstance(r, stand_ins.StandIn):
        return stand_ins.from_stand_in(r.copy(order="K"))
    return tiers.new_root(r.copy(order="K"))


class _View(Exception):
    """NumPy's result shares memory with an input."""


def _shares(r, hargs, hkwargs):
    """Whether the NumPy array ``r`` is one of the inputs or a view of one."""
    if r.base is None:  # a fresh array, unless it is an input itself
        for h in hargs:
            if r is h:
                return True
        for h in hkwargs.values():
            if r is h:
                return True
        return False
    chain = set()  # ``r`` and the objects its memory is borrowed from
    b = r
    while b is not None:
        chain.add(id(b))
        b = getattr(b, "base", None)
    return _reaches(hargs, chain) or _reaches(hkwargs.values(), chain)


def _reaches(xs, chain):
    """Whether an array among ``xs`` (in lists and tuples too), or an object its memory is
    borrowed from, is in ``chain`` (ids)."""
    for x in xs:
        if type(x) is list or type(x) is tuple:
            if _reaches(x, chain):
                return True
        elif isinstance(x, np.ndarray):
            while x is not None:
                if id(x) in chain:
                    return True
                x = getattr(x, "base", None)
    return False


def _wrap(r, hargs, hkwargs, shared=None, made=None):
    """NumPy's results as tnp arrays; one sharing memory with an input raises ``_View``, or is
    ``shared(r)`` where given. An array NumPy returns twice is one tnp array, returned twice
    (``made``: id -> tnp array)."""
    if type(r) is np.ndarray:
        if _shares(r, hargs, hkwargs):
            if shared is None:
                raise _View
            return shared(r)
        if made is None:
            return tiers.new_root(r)
        t = made.get(id(r))
        if t is None:
            t = made[id(r)] = tiers.new_root(r)
        return t
    if isinstance(r, stand_ins.StandIn):  # NumPy kept a subclass of tnp.ndarray
        if _shares(r, hargs, hkwargs):
            if shared is None:
                raise _View
            return shared(r)
        return stand_ins.from_stand_in(r)
    made = {} if made is None else made
    if type(r) is list or type(r) is tuple:  # rebuilt only around arrays (``item`` of an
        conv = [_wrap(v, hargs, hkwargs, shared, made) for v in r]  # object array: the list)
        return r if all(c is v for c, v in zip(conv, r)) else type(r)(conv)
    if isinstance(r, tuple) and hasattr(r, "_fields"):  # namedtuple results
        return type(r)(*(_wrap(v, hargs, hkwargs, shared, made) for v in r))
    return r


def wrap_new(r):
    """A NumPy result sharing no memory with a tnp array: an array as a new tnp array, a NumPy
    scalar as itself (on the host tier NumPy's scalars are returned as NumPy returns them); an
    array of a subclass's stand-in as an array of the subclass."""
    if isinstance(r, stand_ins.StandIn):
        return stand_ins.from_stand_in(r)
    return tiers.new_root(r) if type(r) is np.ndarray else r


def _writeable_value(o, owner):
    """The tnp array ``o`` as NumPy writes it (an ``out=``, or the input an in-place routine
    writes): its root's own array, or a view of it; read-only where ``o`` is (its flag, or a
    read-only view such as ``broadcast_to``'s), so that NumPy refuses the write with its own
    error, as it does for a read-only array of its own."""
    if not o._writeable:
        storage.warned_write(o)  # NumPy's ``_warn_on_write``: it warns, then o is writeable
    v = owner if o._base is None else lenses.host_get(*o._chain(), owner, o._writeable)
    if o._writeable:
        return v
    v = v.view()
    v.flags.writeable = False
    return v


def inplace(numpy_fn, target, other):
    """``target op= other`` (``numpy_fn``: op's NumPy ufunc) on the host tier: NumPy's ufunc
    writing the target's own memory (a root's array, or a view of it) under its root's lock, as
    ``call`` writes an ``out=``, with NumPy's errors and warnings; returns ``target``, or
    DECLINED where ``target`` is not a writeable host-tier array of tnp's own class or
    ``other`` is not a host-tier array or a Python or NumPy scalar (the caller runs the ufunc
    with ``out=``)."""
    if type(target) is not ndarray or not target._writeable or in_trace():
        return DECLINED
    root = target._root
    if type(root._buf) is not np.ndarray:
        return DECLINED
    if type(other) is ndarray:
        try:
            other = numpy_value(other)
        except OnDevice:
            return DECLINED
    elif not (type(other) in _SCALARS or isinstance(other, np.generic)):
        return DECLINED
    with write.writing(root) as owner:
        t = _writeable_value(target, owner)
        numpy_fn(t, other, out=t)
    return target


def _run_into_device_outs(numpy_fn, hargs, hkwargs, out, outs):
    """A call only NumPy can run (its inputs' dtypes) writing ``out`` arrays of which some live
    on the device: NumPy writes host copies of them (so that what it leaves unwritten, with
    ``where=``, keeps its values), then each is assigned to its tnp array; nothing is written
    when NumPy raises."""
    houts = tuple(np.array(numpy_value(o, pull=True)) if isinstance(o, ndarray) else o
                  for o in outs)  # (a NumPy ``out`` NumPy writes itself)
    result = numpy_fn(*hargs, out=houts if type(out) is tuple else houts[0], **hkwargs)
    for o, h in zip(outs, houts):
        if isinstance(o, ndarray):
            write.assign(o, h)
    return _written(outs, result)


def _is_ufunc_at(numpy_fn):
    """Whether ``numpy_fn`` is a ufunc's ``at``: it writes its first argument without NumPy's
    read-only check (NumPy writes even a read-only array), so that refusal cannot send it to
    the write path as it does the other in-place routines: it goes there from the start."""
    return getattr(numpy_fn, "__name__", None) == "at" and type(
        getattr(numpy_fn, "__self__", None)) is np.ufunc


def _run_writing_inputs(numpy_fn, args, hargs, hkwargs):
    """NumPy's call that writes an array argument in place: NumPy's routines write their first
    (``place``, ``put``, ``copyto``, ``fill_diagonal``, ``ufunc.at``...). Where it is a
    host-tier array, NumPy writes the root's own array (or a view of it) under the root's lock;
    DECLINED where it is not (a device array: the implementation writes it through the write
    path)."""
    target = args[0] if args else None
    if not isinstance(target, ndarray) or type(target._root._buf) is not np.ndarray:
        return DECLINED
    with write.writing(target._root) as owner:
        wargs = [_writeable_value(target, owner), *hargs[1:]]
        result = numpy_fn(*wargs, **hkwargs)
    return _wrap(result, wargs, hkwargs, lambda r: _shared(r, args, wargs))


def _written(outs, result):
    """What a call writing ``outs`` returns: the tnp arrays written (NumPy returned its ``out``
    arrays; in a tuple, a result with no ``out`` given is a new array)."""
    if type(result) is tuple:
        return tuple(o if o is not None else wrap_new(r) for o, r in zip(outs, result))
    return outs[0] if outs[0] is not None else wrap_new(result)  # (``out=(None,)``)


def _run_writing(numpy_fn, hargs, hkwargs, out, unsupported):
    """NumPy's call writing ``out``: tnp host arrays under their roots' locks, a NumPy array
    (a ``numpy.ndarray`` or a subclass: NumPy's memory, not tnp's) by NumPy itself, as NumPy
    writes it and returns it."""
    outs = out if type(out) is tuple else (out,)
    if any(o is not None and not isinstance(o, (ndarray, np.ndarray)) for o in outs):
        return DECLINED  # the implementation gives tnp's error for a foreign ``out``
    if any(isinstance(o, ndarray) and type(o).__array_wrap__ is not ndarray.__array_wrap__
           for o in outs):
        return DECLINED  # an ``out`` returned through its class's own ``__array_wrap__``
    touts = [o for o in outs if isinstance(o, ndarray)]
    if any(type(o._root._buf) is not np.ndarray for o in touts):
        if not unsupported:
            return DECLINED  # a device ``out``: the device implementation writes it
        return _run_into_device_outs(numpy_fn, hargs, hkwargs, out, outs)
    roots = {id(o._root): o._root for o in touts}
    held = [write.writing(r) for r in roots.values()]
    owners = {}
    for key, w in zip(roots, held):
        owners[key] = w.__enter__()
    try:
        houts = tuple(_writeable_value(o, owners[id(o._root)]) if isinstance(o, ndarray) else o
                      for o in outs)
        result = numpy_fn(*hargs, out=houts if type(out) is tuple else houts[0], **hkwargs)
    finally:
        for w in reversed(held):
            w.__exit__()
    return _written(outs, result)
