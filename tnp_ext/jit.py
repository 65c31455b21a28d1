"""``tnp_ext.jit``: compile tnp code through XLA and keep NumPy's in-place semantics.

Every tnp array the function can write — its arguments (views included: their roots travel),
arrays it captures in closures or module globals, and any other array a traced write reaches
(found on the first trace, then passed in as state) — enters the compiled function as an input
buffer. While tracing, those roots hold tracers; the compiled function returns the new buffer of
each root the trace wrote, and after the call that root gets it. Written buffers that nothing
else holds are donated, so the update is in place on the device. Arrays reached other ways and
only read are constants of the trace (a later change to them is not seen until the function is
traced again).

A call's *layout* (the argument tree, which leaves are tnp arrays and through which views, how
they alias, static arguments, captured and state arrays) picks a cached plan: per donation set,
one ``jax.jit`` of the traced body with no static arguments, so a call is a key, a dict lookup
and JAX's own C++ dispatch. Positional calls of plain arrays, Python scalars, tuples or lists of
those and static values build no tree: their layout is known from the argument types; plain
arrays alone need not even that. A plan no trace writes through returns the result alone (no
write-back, no donation).
"""
import builtins
import dis
import functools
import inspect
import threading
import types

import jax
import numpy
from jax._src import core as _jcore  # EvalTrace: whether a call runs eagerly
from jax._src.array import ArrayImpl  # the concrete jax.Array type (fast result check)

from tnp._core import api
from tnp._core.api import ndarray

from ._convert import is_tnp


class _NewState(Exception):
    """A traced write reached an array outside the function's inputs: retrace with it as input."""

    def __init__(self, owner, root):
        super().__init__("internal: retrace with a new state array")
        self.owner, self.root = owner, root


class _Capture:
    def __init__(self, owner, roots):
        self._owner = owner
        self._ids = {id(r) for r in roots}

    def capture(self, root):
        if id(root) not in self._ids:
            raise _NewState(self._owner, root)
        return True


class _Plan:
    """One layout: how to rebuild the arguments inside the trace, and its compiled callables.

    A trace returns the new buffer of each root it wrote and of each root the call that traced
    it donates. ``always`` (roots every trace so far returned) bounds what a call may donate, so
    whichever cached trace runs, no donated buffer is lost; ``written`` (roots any trace
    returned) says whether a call needs write-back at all. While no trace has written, traces
    return the function's result alone (the common read-only call unpacks nothing)."""
    __slots__ = ("treedef", "kinds", "static_items", "n_roots", "always", "written", "body",
                 "fns", "fn0")

    def __init__(self, inner, treedef, kinds, static_items, n_roots):
        self.treedef, self.kinds, self.static_items = treedef, kinds, static_items
        self.n_roots = n_roots
        self.always = None  # None until a trace has run
        self.written = ()
        self.renew(functools.partial(inner, self))

    def renew(self, body):
        """Compile ``body`` afresh (one callable, so the donation variants share JAX's traces)."""
        self.body = body
        self.fns = {}  # donated root indices -> jax.jit of the body
        self.fn0 = self.jit(())

    def jit(self, donate):
        fn = self.fns[donate] = jax.jit(self.body, donate_argnums=donate)
        return fn


def _plain_unaliased(arrays):
    """Whether these are distinct writeable root tnp arrays that stand for arrays (not for NumPy
    scalars): the arrays of a layout known from types alone."""
    if not api.plain_roots(arrays):
        return False
    return len(arrays) < 2 or len(set(map(id, arrays))) == len(arrays)


def _to_values(tree):
    if is_tnp(tree):
        return _value(tree)
    return jax.tree_util.tree_map(lambda x: _value(x) if is_tnp(x) else x, tree, is_leaf=is_tnp)


def _to_tnp(out):
    """The compiled function's results as tnp arrays (plain tuples and lists without a tree)."""
    if type(out) is ArrayImpl:
        return _wrap(out)
    if type(out) is tuple or type(out) is list:
        return type(out)(map(_to_tnp, out))
    return jax.tree_util.tree_map(lambda x: _wrap(x) if isinstance(x, jax.Array) else x, out)


_wrap = api.wrap
_value = api.value
_buf_of = api.buffer
_NEVER_ARRAYS = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)
# Argument types that are single leaves JAX takes as they are (dynamic, any value).
_LEAVES = frozenset({bool, int, float, complex, ArrayImpl, numpy.ndarray})


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
        self._static = set(names[i] for i in static_argnums if -len(names) <= i < len(names)) | (
            set(static_argnames))
        plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        # Calls passing exactly the positional parameters need no binding (-1: no such calls).
        self._n_pos = len(names) if all(p.kind in plain for p in sig.parameters.values()) else -1
        self._static_idx = tuple(i for i, n in enumerate(names) if n in self._static)
        # Where the function can reach tnp arrays directly: arguments bound by functools.partial,
        # closure cells and the globals it loads (names bound to modules, functions or classes
        # now are taken to stay so).
        inner, self._bound = fun, []
        while isinstance(inner, functools.partial):
            self._bound += [v for v in (*inner.args, *inner.keywords.values()) if is_tnp(v)]
            inner = inner.func
        code = getattr(inner, "__code__", None)
        self._cells = getattr(inner, "__closure__", None) or ()
        self._globals = getattr(inner, "__globals__", {})
        loaded = {i.argval for i in dis.get_instructions(code) if i.opname in (
            "LOAD_GLOBAL", "LOAD_NAME")} if code is not None else ()
        self._gnames = tuple(sorted(n for n in loaded if not isinstance(
            self._globals.get(n, builtins.__dict__.get(n)), _NEVER_ARRAYS)))
        self._reach = bool(self._bound or self._cells or self._gnames)
        self._extra = []  # state arrays discovered by traced writes
        self._plans = {}  # layout key -> _Plan
        # Layouts known from types (see _positional): (argument types, static values, captured
        # and state counts) -> (plan, positions in line of the arrays, of the other leaves, of
        # all non-static items) or False; the plan of plain arrays alone; and for any call,
        # (tree, leaf types, static items, counts) -> (plan, positions of arrays, of leaves).
        self._layouts = {}
        self._fast0 = None
        self._simple = {}
        # (roots, objects, donated) of the call being run on each thread (for its traces)
        self._tls = threading.local()

    def _captured(self):
        """tnp arrays the function reaches directly: bound by partial, in closures, globals."""
        found = list(self._bound)
        for cell in self._cells:
            try:
                v = cell.cell_contents
            except ValueError:
                continue
            if isinstance(v, ndarray):
                found.append(v)
        for v in map(self._globals.get, self._gnames):
            if isinstance(v, ndarray):
                found.append(v)
        return found

    # The traced body: roots hold tracers while the user's function runs.
    def _inner(self, plan, *flat):
        roots, objects, donate = self._tls.call
        bufs, leaves = flat[:plan.n_roots], iter(flat[plan.n_roots:])
        ctx = _Capture(self, roots)
        with api.swap(roots, bufs):  # roots hold the tracers (for this thread only)
            args = [obj if kind else next(leaves) for kind, obj in zip(plan.kinds, objects)]
            pos, kw = jax.tree_util.tree_unflatten(plan.treedef, args)
            pos = list(pos)
            for i, v in plan.static_items[0]:
                pos[i] = v
            api.push_capture(ctx)
            try:
                result = self._fun(*pos, **kw, **dict(plan.static_items[1]))
            finally:
                api.pop_capture(ctx)
            result = _to_values(result)
            returned = {i for i, (r, b) in enumerate(zip(roots, bufs)) if _buf_of(r) is not b}
            returned.update(donate)
            new = tuple(_buf_of(r) if i in returned else None for i, r in enumerate(roots))
        if not plan.written:
            if not returned:
                plan.always = ()
                return result
            if plan.always is not None:  # earlier traces return the result alone: recompile
                plan.renew(functools.partial(self._inner, plan))
        plan.always = tuple(sorted(returned if plan.always is None else returned.intersection(
            plan.always)))
        plan.written = tuple(sorted(returned.union(plan.written)))
        return result, new

    def __call__(self, *args, **kwargs):
        if not kwargs and len(args) == self._n_pos:
            plan = self._fast0  # plain arrays alone: the layout is known without building anything
            if (plan is not None and not self._static_idx and _plain_unaliased(args)
                    and not (self._extra or (self._reach and self._captured()))):
                try:
                    return self._execute(plan, args, args, ())
                except _NewState as e:
                    self._new_state(e)
            return self._positional(args)
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

    def _positional(self, args):
        """A call passing the positional parameters: when each is a tnp array, a leaf JAX takes
        as it is, a tuple or list of those, or a static value, its layout is known from the
        argument types, the static values and the captured and state counts (given plain,
        unaliased arrays)."""
        caps = self._captured() if self._reach else []
        static = self._static_idx
        types = tuple(map(type, args))
        flat = args
        if tuple in types or list in types:  # one level of containers: their items in line
            flat, sig = [], []
            for i, (a, t) in enumerate(zip(args, types)):
                if (t is tuple or t is list) and i not in static:
                    flat += a
                    sig.append((t, *map(type, a)))
                else:
                    flat.append(a)
                    sig.append(t)
            types = tuple(sig)
        pick = flat.__getitem__
        try:
            key = (types, tuple(map(args.__getitem__, static)), len(caps), len(self._extra))
            layout = self._layouts.get(key)
        except TypeError:  # an unhashable static value: the general path says so
            key = layout = None
        if layout:
            plan, arrays, leaves, objects = layout
            roots = (*map(pick, arrays), *caps, *self._extra)
            if _plain_unaliased(roots):
                try:
                    return self._execute(plan, roots, list(map(pick, objects)),
                                         tuple(map(pick, leaves)))
                except _NewState as e:
                    self._new_state(e)
            layout = False
        elif layout is None and key is not None:
            layout = self._layout(key, flat)
        return self._dispatch([None if i in static else a for i, a in enumerate(args)], {},
                              (tuple((i, args[i]) for i in static), ()), key, layout or None)

    def _layout(self, key, flat):
        """Where the arrays, leaves and non-static items of a positional call's arguments lie
        in line (see _positional); False (remembered) if an item is not a tnp array or leaf."""
        static = {j for j, i in enumerate(self._items(key[0])) if i in self._static_idx}
        objects = tuple(j for j in range(len(flat)) if j not in static)
        kinds = [type(flat[j]) for j in objects]
        if not all(k is ndarray or k in _LEAVES for k in kinds):
            self._layouts[key] = False
            return False
        arrays = tuple(j for j, k in zip(objects, kinds) if k is ndarray)
        return arrays, tuple(j for j in objects if j not in arrays), objects

    @staticmethod
    def _items(types):
        """The argument index of each item in line, given a positional key's types."""
        return [i for i, t in enumerate(types) for _ in (t[1:] if type(t) is tuple else (t,))]

    def _new_state(self, e):
        if e.owner is not self:  # an enclosing tnp_ext.jit's trace met a new array: its retrace
            raise e
        self._extra.append(e.root)

    def _dispatch(self, pos, kw, static_items, key=None, layout=None):
        objects, treedef = jax.tree_util.tree_flatten((tuple(pos), kw), is_leaf=is_tnp)
        while True:
            try:
                return self._run(objects, treedef, static_items, key, layout)
            except _NewState as e:
                self._new_state(e)
                key = None

    def _run(self, objects, treedef, static_items, key, layout):
        """Run a call given its flattened arguments; ``key`` and ``layout``: its positional
        layout key and item positions, to remember (see _positional)."""
        caps = self._captured()
        try:
            simple = (treedef, tuple(map(type, objects)), static_items, len(caps),
                      len(self._extra))
            known = self._simple.get(simple)
        except TypeError as e:
            raise ValueError(f"Non-hashable static arguments are not supported: {e}") from None
        pick = objects.__getitem__
        if known is not None:  # plain, unaliased arrays seen in this tree before
            plan, arrays, leaves = known
            roots = (*map(pick, arrays), *caps, *self._extra)
            if _plain_unaliased(roots):
                return self._execute(plan, roots, objects, tuple(map(pick, leaves)))
        roots, index, views = [], {}, []
        arrays = [o for o in objects if is_tnp(o)] + caps + self._extra
        for o in arrays:
            r = api.root(o)
            i = index.get(id(r))
            if i is None:
                i = index[id(r)] = len(roots)
                roots.append(r)
            views.append((i, *api.view_key(o)))
        kinds = tuple(is_tnp(o) for o in objects)
        general = (treedef, kinds, static_items, tuple(views), len(caps), len(self._extra))
        plan = self._plans.get(general)
        if plan is None:
            plan = self._plans[general] = _Plan(self._inner, treedef, kinds, static_items,
                                                len(roots))
        leaves = tuple(i for i, k in enumerate(kinds) if not k)
        if _plain_unaliased(arrays):
            self._simple[simple] = (plan, tuple(i for i, k in enumerate(kinds) if k), leaves)
            if key is not None and layout:
                self._layouts[key] = (plan, *layout)
                if not (self._static_idx or key[2] or key[3]) and all(
                        t is ndarray for t in key[0]):
                    self._fast0 = plan  # plain arrays alone
        return self._execute(plan, roots, objects, tuple(map(pick, leaves)))

    def _execute(self, plan, roots, objects, leaves):
        # Holding the roots' locks, the call reads their buffers, runs and writes back at once
        # (no other thread's write in between is lost; see tnp._core.array.write).
        with api.hold(roots):
            api.settle(roots)  # pending values are computed before the call reads the buffers
            always = plan.always
            if always is None or always:
                fn, bufs, donate = self._prepare(plan, roots, objects, leaves)
            else:  # no trace writes: no donation
                fn, bufs, donate = plan.fn0, list(map(_buf_of, roots)), ()
            tls = self._tls
            tls.call = (roots, objects, donate)
            try:
                out = fn(*bufs, *leaves) if leaves or len(bufs) != 1 else fn(bufs[0])
            except BaseException:
                api.unclaim(roots, bufs, donate)
                raise
            finally:
                tls.call = None
            if plan.written:
                out, new = out
                _write_back(roots, new)
        if type(out) is ArrayImpl:
            return _wrap(out)
        return _to_tnp(out)

    def _prepare(self, plan, roots, objects, leaves):
        """The compiled callable and donated roots of a call of a plan that writes or that no
        trace has run yet."""
        if plan.always is None and isinstance(api.current_trace(), _jcore.EvalTrace):
            # Trace once (JAX keeps it for the compile) to learn what the function writes.
            self._tls.call = (roots, objects, ())
            try:
                plan.fn0.trace(*map(_buf_of, roots), *leaves)
            finally:
                self._tls.call = None
        bufs, donate = api.claim(roots, plan.always or ())
        return ((plan.fns.get(donate) or plan.jit(donate)) if donate else plan.fn0), bufs, donate


def _write_back(roots, new):
    trace = api.current_trace()
    if not isinstance(trace, _jcore.EvalTrace):  # called inside another trace
        for r, b in zip(roots, new):
            if b is not None and not api.may_write(r, trace):
                raise api.TnpTracingError(
                    "a tnp_ext.jit function called under a JAX trace wrote a tnp array created "
                    "outside that trace; pass the array in and return it, or use tnp_ext.jit "
                    "for the outer function too")
    for r, b in zip(roots, new):
        if b is not None:
            api.commit(r, b)


def jit(fun=None, *, static_argnums=(), static_argnames=(), donate_argnums=()):
    """Compile ``fun`` with XLA, keeping NumPy's in-place semantics for the arrays it writes.

    ``donate_argnums`` is accepted for compatibility with ``jax.jit``; tnp donates every written
    buffer that nothing else holds."""
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums,
                                 static_argnames=static_argnames, donate_argnums=donate_argnums)
    del donate_argnums  # tnp decides donation itself (see the module docstring)
    return Jitted(fun, static_argnums, static_argnames)
