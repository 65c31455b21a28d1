"""Functional programming: apply_along_axis, apply_over_axes, vectorize.

``vectorize`` runs the Python function once on the first element (as NumPy does, to find the
output dtypes when ``otypes`` is not given: a one-element sync point), then over all elements
through ``jax.vmap`` on tnp 0-d arrays; a function that does not trace (Python control flow on
values, host-only calls) runs element by element on the host instead, as in NumPy. Where an
operand or an output type is one XLA cannot hold (objects, strings, datetimes), NumPy's own
vectorize runs on host copies.
"""
import math
import re

from .._core.engine.jaxload import jax, jnp, JaxArray
import numpy as np

from .._core.rules import dtypes
from .._core.numerics.casting import cast
from .._core.dispatch.fallback import from_numpy_tree, to_numpy_tree
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import normalize_axis, to_jax
from .._core.dispatch import host, subclass_results
from .._core.dispatch.np_doc import np_doc
from .creation import asarray
from .reshaping import expand_dims, moveaxis

__all__ = ["apply_along_axis", "apply_over_axes", "vectorize", "frompyfunc"]


def _numpy_apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """NumPy's ``apply_along_axis`` on the host tier: ``func1d`` is given each slice as a tnp
    array (a copy), as the program's other code sees arrays, and its result goes back to NumPy
    as NumPy takes it."""
    def on_tnp(x, *a, **k):
        r = func1d(host.wrap_new(x.copy()), *a, **k)
        return host.numpy_operand(r) if isinstance(r, ndarray) else r
    return np.apply_along_axis(on_tnp, axis, arr, *args, **kwargs)


@np_doc(np.apply_along_axis, host_fn=_numpy_apply_along_axis,
        notes="Calls func1d once per 1-d slice, as NumPy does, with tnp arrays.")
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = asarray(arr)
    axis = normalize_axis(axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    batch = moved.shape[:-1]
    if any(n == 0 for n in batch):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    flat = moved.reshape((math.prod(batch), moved.shape[-1]))  # (a 0-length slice too)
    given = [func1d(flat[i], *args, **kwargs) for i in range(flat.shape[0])]
    res = [asarray(r) for r in given]
    dt = res[0].dtype
    out = jnp.stack([cast(r._value, dt) for r in res]).reshape(batch + res[0].shape)
    perm = (tuple(range(axis)) + tuple(range(len(batch), out.ndim))
            + tuple(range(axis, len(batch))))
    out = asarray(jnp.transpose(out, perm))
    first = given[0]  # NumPy's result is wrapped by the first slice's result's class
    if isinstance(first, ndarray) and type(first) is not ndarray:
        return first.__array_wrap__(out, None, False)
    return out


@np_doc(np.apply_over_axes)
def apply_over_axes(func, a, axes):
    val = asarray(a)
    n = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = asarray(func(val, axis))
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _host(x):
    return x.__array__() if isinstance(x, ndarray) else x


class _ObjectUfunc:
    """NumPy's object ufunc from ``frompyfunc`` with tnp operands brought to the host: its
    results are object arrays, which XLA cannot hold, so they stay NumPy arrays."""

    def __init__(self, uf):
        self._uf = uf

    def __call__(self, *args, **kwargs):
        return self._uf(*[_host(a) for a in args], **kwargs)

    def __getattr__(self, name):
        attr = getattr(self._uf, name)
        if name in ("reduce", "accumulate", "reduceat", "outer"):
            return lambda *args, **kw: attr(*[_host(a) for a in args], **kw)
        return attr

    def __repr__(self):
        return repr(self._uf)


@np_doc(np.frompyfunc, notes="A sync point: operands go to the host and the results are NumPy "
                             "object arrays (XLA holds no Python objects).")
def frompyfunc(func, /, nin, nout, **kwargs):
    return _ObjectUfunc(np.frompyfunc(func, nin, nout, **kwargs))


_PY_TYPE = {"b": np.bool_, "i": np.int64, "u": np.uint64, "f": np.float64, "c": np.complex128}
_DIM = r"\(\s*(?:\w+(?:\s*,\s*\w+)*)?\s*\)"
_SIG = rf"^{_DIM}(?:\s*,\s*{_DIM})*\s*->\s*{_DIM}(?:\s*,\s*{_DIM})*$"


def _parse_signature(signature):
    if not re.match(_SIG, signature.replace(" ", "")):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = signature.replace(" ", "").split("->")

    def dims(part):
        return [tuple(d for d in g.split(",") if d) for g in re.findall(r"\(([^)]*)\)", part)]
    return dims(ins), dims(outs)


def _first_scalar(x):
    """What NumPy's vectorize hands the function to find otypes: the first element, a NumPy scalar
    (one-element sync point)."""
    return np.asarray(x.ravel()[0])[()]


def _concrete_call(fn, vals):
    with jax.ensure_compile_time_eval():
        return fn(*vals)


def _held_on_device(x):
    """Whether vectorize's operand ``x`` has a dtype XLA holds (not objects, strings, dates)."""
    if isinstance(x, ndarray):
        return x.dtype in dtypes.SUPPORTED
    if isinstance(x, (bool, int, float, complex)):
        return True
    return isinstance(x, JaxArray) or np.asarray(x).dtype in dtypes.SUPPORTED


def _device_types(otypes):
    return otypes is None or all(np.dtype(c) in dtypes.SUPPORTED for c in otypes)


def _update_dim_sizes(sizes, shape, core_dims):
    """NumPy's check of an argument's or a result's ``shape`` against the signature's
    ``core_dims``, recording the size of each core dimension first seen in ``sizes``."""
    if not core_dims:
        return
    if len(shape) < len(core_dims):
        raise ValueError(f"{len(shape)}-dimensional argument does not have enough dimensions "
                         f"for all core dimensions {core_dims!r}")
    for d, n in zip(core_dims, shape[len(shape) - len(core_dims):]):
        if sizes.setdefault(d, n) != n:
            raise ValueError(f"inconsistent size for core dimension {d!r}: {n!r} vs "
                             f"{sizes[d]!r}")


@np_doc(np.vectorize)
class vectorize:
    def __init__(self, pyfunc=np._NoValue, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if pyfunc is not np._NoValue and not callable(pyfunc):
            raise TypeError("pyfunc must be callable")
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        if pyfunc is not np._NoValue and hasattr(pyfunc, "__name__"):
            self.__name__ = pyfunc.__name__
        self._in_and_out_core_dims = None if signature is None else _parse_signature(signature)
        self.__doc__ = (pyfunc.__doc__ if doc is None and pyfunc is not np._NoValue else doc)
        if isinstance(otypes, str):
            for char in otypes:
                if char not in np.typecodes["All"]:
                    raise ValueError(f"Invalid otype specified: {char}")
        elif otypes is not None and not isinstance(otypes, str):
            # NumPy's list of dtypes (a datetime keeps its unit), 'S'/'U' as their characters
            otypes = [d.char if d.char in "SU" else d for d in map(np.dtype, otypes)]
        self.otypes = otypes
        self.excluded = set() if excluded is None else set(excluded)

    def __call__(self, *args, **kwargs):
        if self.pyfunc is np._NoValue:  # @vectorize(otypes=...) applied to its function
            self.pyfunc = args[0]
            self.__name__ = args[0].__name__
            if self.__doc__ is None:
                self.__doc__ = args[0].__doc__
            return self
        excluded = self.excluded
        if not kwargs and not excluded:
            func, vargs = self.pyfunc, list(args)
        else:
            inds = [i for i in range(len(args)) if i not in excluded]
            names = [k for k in kwargs if k not in excluded]
            fixed = list(args)

            def func(*vals):
                a = list(fixed)
                for i, v in zip(inds, vals[:len(inds)]):
                    a[i] = v
                kw = dict(kwargs)
                kw.update(zip(names, vals[len(inds):]))
                return self.pyfunc(*a, **kw)
            vargs = [args[i] for i in inds] + [kwargs[k] for k in names]
        if not (all(_held_on_device(a) for a in vargs) and _device_types(self.otypes)):
            return self._on_host(args, kwargs, self.otypes)
        if self.signature is not None:
            r = self._vectorize_core(func, vargs)
        else:
            r = self._vectorize_elementwise(func, vargs, args, kwargs)
        return subclass_results.keep(r, "all", vargs, {})  # NumPy's: a subclass's class

    def _on_host(self, args, kwargs, otypes):
        """NumPy's own vectorize, where an operand or an output type is one XLA cannot hold
        (objects, strings, datetimes): on host copies, its results tnp arrays placed by
        ``tiers.new_root`` (a NumPy-only dtype stays on the host)."""
        numpy_vectorize = np.vectorize(self.pyfunc, otypes=otypes, excluded=self.excluded,
                                       cache=self.cache, signature=self.signature)
        hargs, hkwargs = to_numpy_tree(list(args)), to_numpy_tree(kwargs)
        return from_numpy_tree(numpy_vectorize(*hargs, **hkwargs), hargs)

    def _vectorize_elementwise(self, func, args, call_args, call_kwargs):
        arrs = [to_jax(a) for a in args]
        shape = np.broadcast_shapes(*[a.shape for a in arrs]) if arrs else ()
        size = int(np.prod(shape))
        otypes = self.otypes
        if otypes is None:
            if size == 0:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            first = func(*[_first_scalar(a) for a in arrs])
            outs = first if isinstance(first, tuple) else (first,)
            otypes = "".join(np.asarray(o).dtype.char for o in outs)
            if not _device_types(otypes):  # objects, strings: NumPy's loop, as NumPy's types
                return self._on_host(call_args, call_kwargs, otypes)
            tuple_out = isinstance(first, tuple)
        else:
            tuple_out = len(otypes) > 1
        dts = [np.dtype(c) for c in otypes]
        flat = [cast(jnp.broadcast_to(a, shape).ravel(), _PY_TYPE[a.dtype.kind]) for a in arrs]
        results = None
        if size:
            try:
                results = self._vmapped(func, flat, dts, tuple_out)
            except TypeError as e:
                if "complex" in str(e) and "float()" in str(e):
                    raise
                results = None
            except Exception:  # noqa: BLE001 - it does not trace: run element by element
                results = None
        if results is None:
            results = self._host_loop(func, flat, dts, size, tuple_out)
        results = [asarray(r.reshape(shape)) for r in results]
        return tuple(results) if tuple_out else results[0]

    @staticmethod
    def _vmapped(func, flat, dts, tuple_out):
        def one(*xs):
            r = func(*[ndarray._wrap(x) for x in xs])
            r = r if tuple_out else (r,)
            return tuple(to_jax(v) for v in r)
        out = jax.vmap(one)(*flat)
        if len(out) != len(dts):
            raise ValueError("wrong number of outputs")
        for o, d in zip(out, dts):
            if o.dtype.kind == "c" and d.kind != "c":
                raise TypeError("float() argument must be a string or a real number, not "
                                "'complex'")
        return [cast(o, d) for o, d in zip(out, dts)]

    @staticmethod
    def _host_loop(func, flat, dts, size, tuple_out):
        host = [np.asarray(f).tolist() for f in flat]
        cols = [np.empty(size, d) for d in dts]
        for i in range(size):
            r = func(*[h[i] for h in host])
            r = r if tuple_out else (r,)
            for c, v in zip(cols, r):
                c[i] = np.asarray(v)
        return [jnp.asarray(c) for c in cols]

    def _vectorize_core(self, func, args):
        in_dims, out_dims = self._in_and_out_core_dims
        if len(args) != len(in_dims):
            raise TypeError(f"wrong number of positional arguments: expected {len(in_dims)}, "
                            f"got {len(args)}")
        arrs = [to_jax(a) for a in args]
        sizes = {}
        batch = []
        for a, dims in zip(arrs, in_dims):
            _update_dim_sizes(sizes, a.shape, dims)
            batch.append(a.shape[:a.ndim - len(dims)])
        bshape = np.broadcast_shapes(*batch)
        n = int(np.prod(bshape))
        flat = [jnp.broadcast_to(a, bshape + a.shape[len(b):]).reshape(
            (n,) + a.shape[len(b):]) for a, b in zip(arrs, batch)]  # (no -1: sizes may be 0)
        tuple_out = len(out_dims) > 1

        def one(*xs):
            r = func(*[ndarray._wrap(x) for x in xs])
            got = len(r) if isinstance(r, tuple) else 1
            if got != len(out_dims):
                raise ValueError(f"wrong number of outputs from pyfunc: expected "
                                 f"{len(out_dims)}, got {got}")
            r = r if tuple_out else (r,)
            return tuple(to_jax(v) for v in r)
        if n == 0:
            if self.otypes is None:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            if any(d not in sizes for dims in out_dims for d in dims):
                raise ValueError("cannot call `vectorize` with a signature including new output "
                                 "dimensions on size 0 inputs")
            shapes = [bshape + tuple(sizes[d] for d in dims) for dims in out_dims]
            res = [jnp.zeros(s, np.dtype(c)) for s, c in zip(shapes, self.otypes)]
        else:
            first = _concrete_call(one, [f[0] for f in flat])
            for r, dims in zip(first, out_dims):  # NumPy's checks of the first call's results
                _update_dim_sizes(sizes, r.shape, dims)
            dts = ([np.dtype(c) for c in self.otypes] if self.otypes is not None else
                   [np.dtype(f.dtype) for f in first])
            try:
                out = jax.vmap(one)(*flat)
            except Exception:  # noqa: BLE001 - it does not trace: one call per core slice
                rows = [first] + [one(*[f[i] for f in flat]) for i in range(1, n)]
                out = tuple(jnp.stack([r[k] for r in rows]) for k in range(len(first)))
            res = [cast(o, d).reshape(bshape + o.shape[1:]) for o, d in zip(out, dts)]
        res = [asarray(r) for r in res]
        return tuple(res) if tuple_out else res[0]
