"""``tnp_ext.jit``: compile tnp code through XLA and keep NumPy's in-place semantics.

Every tnp array the function can write — its arguments (views included: their roots travel),
arrays it captures in closures or module globals, and any other array a traced write reaches
(found on the first trace, then passed in as state) — enters the compiled function as an input
buffer. While tracing, those roots hold tracers; after the call, each root whose value the
function changed gets the new buffer. Buffers that nothing else holds are donated, so the
update is in place on the device. Arrays reached other ways and only read are constants of the
trace (a later change to them is not seen until the function is traced again).
"""
import functools
import inspect

import jax

from tnp._core import tracing, write
from tnp._core.ndarray import ndarray

from ._convert import is_tnp


class _NewState(Exception):
    """A traced write reached an array outside the function's inputs: retrace with it as input."""

    def __init__(self, root):
        super().__init__("internal: retrace with a new state array")
        self.root = root


class _Capture:
    def __init__(self, roots):
        self._ids = {id(r) for r in roots}

    def capture(self, root):
        if id(root) not in self._ids:
            raise _NewState(root)
        return True


def _captured_arrays(fun):
    """tnp arrays a function reaches directly through its closure cells or module globals."""
    found = []
    code = getattr(fun, "__code__", None)
    for cell in getattr(fun, "__closure__", None) or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if is_tnp(v):
            found.append(v)
    if code is not None:
        g = getattr(fun, "__globals__", {})
        for name in code.co_names:
            v = g.get(name)
            if is_tnp(v):
                found.append(v)
    return found


class Jitted:
    def __init__(self, fun, static_argnums=(), static_argnames=()):
        functools.update_wrapper(self, fun)
        self._fun = fun
        sig = inspect.signature(fun)
        self._sig = sig
        names = list(sig.parameters)
        static_argnums = (static_argnums,) if isinstance(static_argnums, int) else tuple(
            static_argnums)
        static_argnames = (static_argnames,) if isinstance(static_argnames, str) else tuple(
            static_argnames)
        self._static = set(names[i] for i in static_argnums if i < len(names)) | set(
            static_argnames)
        plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = list(sig.parameters.values())
        # Calls passing exactly these positional parameters, none static, need no binding.
        self._n_plain = len(params) if all(p.kind in plain for p in params) and not (
            self._static) else -1
        self._extra = []  # state arrays discovered by traced writes
        self._jits = {}
        self._call = None  # (roots, objects) of the call being traced

    # The traced body: roots hold tracers while the user's function runs.
    def _inner(self, spec, *flat):
        treedef, kinds, static_items, n_roots = spec
        roots, objects = self._call
        bufs, leaves = flat[:n_roots], iter(flat[n_roots:])
        saved = [(r._buf, r._version) for r in roots]
        ctx = _Capture(roots)
        try:
            for r, b in zip(roots, bufs):
                r._buf = b
                r._version += 1
            args = [obj if kind == "tnp" else next(leaves) for kind, obj in zip(kinds, objects)]
            pos, kw = jax.tree_util.tree_unflatten(treedef, args)
            pos = list(pos)
            for i, v in static_items[0]:
                pos[i] = v
            tracing.push(ctx)
            try:
                result = self._fun(*pos, **kw, **dict(static_items[1]))
            finally:
                tracing.pop(ctx)
            result = jax.tree_util.tree_map(lambda x: x._value if is_tnp(x) else x, result,
                                            is_leaf=is_tnp)
            new_bufs = tuple(r._buf for r in roots)
        finally:
            for r, (b, v) in zip(roots, saved):
                r._buf, r._version = b, v + 2
        return result, new_bufs

    def __call__(self, *args, **kwargs):
        if not kwargs and len(args) == self._n_plain:  # the common call: all positional
            return self._dispatch(list(args), {}, ((), ()))
        bound = self._sig.bind(*args, **kwargs)
        pos, kw, static_pos, static_kw = [], {}, [], []
        for name, value in bound.arguments.items():
            kind = self._sig.parameters[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                pos.extend(value)
            elif kind == inspect.Parameter.VAR_KEYWORD:
                kw.update(value)
            elif kind == inspect.Parameter.KEYWORD_ONLY:
                if name in self._static:
                    static_kw.append((name, value))
                else:
                    kw[name] = value
            elif name in self._static:
                static_pos.append((len(pos), value))
                pos.append(None)
            else:
                pos.append(value)
        return self._dispatch(pos, kw, (tuple(static_pos), tuple(static_kw)))

    def _dispatch(self, pos, kw, static_items):
        objects, treedef = jax.tree_util.tree_flatten((tuple(pos), kw), is_leaf=is_tnp)
        while True:
            try:
                return self._run(objects, treedef, static_items)
            except _NewState as e:
                self._extra.append(e.root)

    def _run(self, objects, treedef, static_items):
        roots, index = [], {}
        for r in ([o._root for o in objects if is_tnp(o)] + [a._root for a in _captured_arrays(
                self._fun)] + [r for r in self._extra]):
            if id(r) not in index:
                index[id(r)] = len(roots)
                roots.append(r)
        kinds = tuple("tnp" if is_tnp(o) else "leaf" for o in objects)
        donate = tuple(i for i, r in enumerate(roots) if write._donatable(r))
        spec = (treedef, kinds, static_items, len(roots))
        fn = self._jits.get(donate)
        if fn is None:
            fn = self._jits[donate] = jax.jit(self._inner, static_argnums=(0,),
                                              donate_argnums=tuple(1 + i for i in donate))
        flat = [r._buf for r in roots] + [o for o, k in zip(objects, kinds) if k == "leaf"]
        self._call = (roots, objects)
        try:
            result, new_bufs = fn(spec, *flat)
        finally:
            self._call = None
        del flat
        for r, new in zip(roots, new_bufs):
            if new is not r._buf:
                r._buf = new
                r._version += 1
                r._exported = False
        return jax.tree_util.tree_map(
            lambda x: ndarray._wrap(x) if isinstance(x, jax.Array) else x, result)


def jit(fun=None, *, static_argnums=(), static_argnames=(), donate_argnums=()):
    """Compile ``fun`` with XLA, keeping NumPy's in-place semantics for the arrays it writes.

    ``donate_argnums`` is accepted for compatibility with ``jax.jit``; tnp donates every written
    buffer that nothing else holds."""
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums,
                                 static_argnames=static_argnames, donate_argnums=donate_argnums)
    del donate_argnums  # tnp decides donation itself (see the module docstring)
    return Jitted(fun, static_argnums, static_argnames)
