"""Lazy fusion, on by default (``TNP_LAZY=0`` or ``enable(False)`` turns it off: eager, one
dispatch per operation, for debugging and for comparison in the benchmarks).

When on (and no JAX trace is active: ``recording``), a device-tier call records a pending
``Node`` (a function returning one array, its operands: concrete arrays, scalars, other nodes,
static pytrees; never a root) and returns a root whose ``_buf`` is the node (``adopt``); its
shape and dtype are decided at once, as NumPy decides them, so its errors are raised by the
call. Recorded: ufunc calls without ``out=``/``where=`` (``record``; ``matmul``'s shape is
JAX's, ``_abstract``), ``a op= b`` on a whole array or a view (``write.rebind_pending``), plain
reductions (``ufunc.reduce_resolved``), ``astype``, and every ``@normalize`` kernel returning
one array (``call``: ``mean``, ``where``, ``dot``, ``argmin``...). A view operand is read
through its lenses by a node (``operand``), so views of pending values stay pending.

``force(root)`` (called by ``roots.buffer``, the one reader of a buffer that is not a concrete
array) compiles the pending graph reachable from the root's node, and from the other nodes of
its graph set (``_Graph``) that live roots hold, as one ``jax.jit`` of the composed functions,
whose inputs are the graph's concrete leaves and scalars and whose outputs
are the nodes that a live root still holds, and stores each result in its root. An array leaf
that only the graph's nodes hold (a root rebound by an in-place write, nothing else referring to
it: ``_donations``) is donated to an output of its shape and dtype, so an in-place loop keeps
its buffer. Compiled graphs
are cached by structure (functions, wiring, leaf kinds, outputs); JAX specialises each by the
leaves' shapes and dtypes. The pending graph a node joins (``_Graph``) is bounded: a node is
forced when recorded once its graph holds ``LIMIT`` operations (``TNP_LAZY_LIMIT``, default 64)
or ``BYTES`` bytes (``TNP_LAZY_BYTES``, default 1 GiB: the results of its nodes and the
concrete arrays they read, an upper bound of what the graph keeps alive and its flush may
allocate). Each flush is counted with its reason (``REASONS``; by program line under
``python -m tnp run --report``: ``syncs.note_flush``).

Every transition of a node to its value happens under ``_LOCK`` (a writer forces a root's node
under the root's lock first, so it never sees a node; see ``write``).
"""
import collections
import math
import os
import sys
import threading
import weakref

import numpy as np

from . import caches, lenses, probe, syncs, tracing
from .jaxload import jax, jcore as _jcore, ArrayImpl

on = os.environ.get("TNP_LAZY", "1") != "0"
LIMIT = int(os.environ.get("TNP_LAZY_LIMIT", "64"))
BYTES = int(os.environ.get("TNP_LAZY_BYTES", str(2**30)))
_LOCK = threading.RLock()
_UNION = threading.Lock()  # joins graph sets (``_new``)
_GRAPHS = caches.KernelTable()  # graph structure -> jax.jit of the composed functions
_AVALS = {}  # (kernel, operand shapes and dtypes) -> (shape, dtype) of the result, or None
_SCALARS = frozenset({float, int, complex, bool})
STATS = {"recorded": 0, "flushes": 0, "graphs": 0}
# what forces a flush (``force``'s ``reason``), for ``python -m tnp run --report``
REASONS = {"read": "a pending value read (by an operation not recorded lazily, or a sync point)",
           "write": "a write to a pending array (or through its view)",
           "jit": "a tnp_ext.jit call given pending arguments",
           "limit": "the pending graph reached TNP_LAZY_LIMIT operations",
           "bytes": "the pending graph reached TNP_LAZY_BYTES bytes"}


def enable(flag=True):
    """Turn lazy recording on or off (returns the previous setting); pending values stay
    pending until read."""
    global on
    old, on = on, bool(flag)
    return old


class Node:
    """A pending result: ``fn(*args)`` (one array), its shape and dtype, the root that holds it
    (weakly) and, once computed, its value (then ``args`` is dropped)."""
    __slots__ = ("fn", "args", "shape", "dtype", "graph", "root", "value", "__weakref__")

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def ops(self):
        """The operations recorded into the node's pending graph (at least its own ancestry)."""
        return _find(self.graph).count

    @property
    def bytes(self):
        """The bytes counted in the node's pending graph (see ``BYTES``)."""
        return _find(self.graph).bytes

    def __repr__(self):
        return f"<tnp: pending {self.dtype} array of shape {self.shape}>"


class _Graph:
    """A set of pending nodes joined by recording (union-find: ``up`` leads to the set's
    representative, which counts the nodes recorded into the set and their bytes, and holds
    weak references to the nodes that roots were given: a flush computes those still held
    with the node it is asked for). Nodes computed since stay counted until the nodes that read
    them are computed too: the counts bound a flush's graph from above."""
    __slots__ = ("up", "count", "bytes", "held")

    def __init__(self):
        self.up = None
        self.count = 0
        self.bytes = 0
        self.held = []


def _find(g):
    """The representative of ``g``'s set."""
    while g.up is not None:
        if g.up.up is not None:
            g.up = g.up.up  # path halving
        g = g.up
    return g


def recording():
    """Whether a call now records (lazy recording on, and no JAX trace active)."""
    return on and isinstance(tracing.current_trace(), _jcore.EvalTrace)


def record(kernel, values, core=False):
    """A node for a ufunc kernel's ``kernel(*values)`` (values: device or NumPy arrays, NumPy or
    Python scalars, nodes), or None when it cannot be recorded (a tracer or other operand,
    shapes that do not broadcast: the eager path runs and raises NumPy's error). ``core``: a
    ufunc with a core signature (``matmul``): its shape is JAX's (``_abstract``)."""
    shapes = []
    for v in values:
        t = type(v)
        if t is Node or t is ArrayImpl or t is np.ndarray or isinstance(v, np.generic):
            shapes.append(v.shape)
        elif t not in _SCALARS:
            return None
    # the kernel's function returning its one result, and that result's dtype: kept on the
    # kernel, so they go when a kernel cache drops it
    own = getattr(kernel, "lazy_one", None)
    if own is None:
        inner = kernel.__wrapped__
        own = kernel.lazy_one = [lambda *xs: inner(*xs)[0][0], None]
    fn = own[0]
    if core:
        try:
            aval = _abstract(kernel, fn, values)
        except (TypeError, ValueError):  # the eager call raises NumPy's error
            return None
        return None if aval is None else _new(fn, values, *aval)
    try:
        shape = shapes[0] if len(shapes) == 1 or (
            len(shapes) == 2 and shapes[0] == shapes[1]) else np.broadcast_shapes(*shapes)
    except (ValueError, RuntimeError):  # (NumPy broadcasts at most 32 dimensions here)
        return None  # the eager call gives the result or NumPy's error
    dt = own[1]
    if dt is None:
        dt = own[1] = np.dtype(jax.eval_shape(fn, *(
            jax.ShapeDtypeStruct(v.shape, v.dtype) if type(v) is Node else v
            for v in values)).dtype)
    return _new(fn, values, shape, dt)


def call(kernel, args, shape=None, dtype=None):
    """A node for ``kernel(*args)`` (a ``jax.jit`` whose function returns one array; args:
    concrete arrays, nodes, or pytrees without nodes, such as None or a lens's offsets). The
    result's shape and dtype are the caller's (decided as NumPy decides them) or, when not
    given, JAX's (``jax.eval_shape``, cached: an error of the call is raised here). None when
    the result is not one array."""
    if shape is None:
        aval = _abstract(kernel, kernel.__wrapped__, args)
        if aval is None:
            return None
        shape, dtype = aval
    return _new(kernel.__wrapped__, tuple(args), shape, dtype)


def operand(a):
    """A tnp array's value for recording: its root's pending node, a node reading a view of a
    device root through its lenses (pending or not: the read is fused), else its value."""
    root = a._base
    if root is None:
        b = a._buf
        return b if type(b) is Node else a._value
    b = root._buf
    if type(b) is not Node and type(b) is not ArrayImpl:
        return a._value  # a host-tier root, or one being written (wait for it)
    chain, dyns = a._chain()
    return call(lenses.get_kernel(chain), (b, dyns), a._shape, a._dtype)


def value(x):
    """``x``'s concrete value (a node computed first)."""
    if type(x) is not Node:
        return x
    with _LOCK:
        if x.value is None:
            _flush(x, "read")
        return x.value


def adopt(root):
    """Make ``root`` (new, its buffer a node) the node's holder (``bound`` applied). Returns
    the root."""
    _hold(root, root._buf)
    return bound(root)


def _hold(root, node):
    node.root = weakref.ref(root)
    with _UNION:
        _find(node.graph).held.append(weakref.ref(node))


def bound(root):
    """Force ``root``'s pending node when its graph reached ``LIMIT`` operations or ``BYTES``
    bytes. Returns the root."""
    g = _find(root._buf.graph)
    if g.count >= LIMIT:
        force(root, "limit")
    elif g.bytes >= BYTES:
        force(root, "bytes")
    return root


def _new(fn, args, shape, dtype):
    """The node of ``fn(*args)``, joined to its pending operands' graphs."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    pending = []
    for v in args:
        t = type(v)
        if t is Node and v.value is None:
            pending.append(v)
        elif t is ArrayImpl or t is np.ndarray:
            nbytes += v.nbytes
        elif t is Node:
            nbytes += v.value.nbytes
    with _UNION:  # the graphs of the pending operands joined, each once
        g = None
        for v in pending:
            h = _find(v.graph)
            if g is None:
                g = h
            elif h is not g:
                if h.count > g.count:
                    g, h = h, g
                h.up = g
                g.count += h.count
                g.bytes += h.bytes
                g.held += h.held
                h.held = None
        if g is None:
            g = _Graph()
        g.count += 1
        g.bytes += nbytes
    n = Node()
    n.fn = fn
    n.args = args
    n.shape = tuple(shape)
    n.dtype = dtype
    n.graph = g
    n.root = None
    n.value = None
    STATS["recorded"] += 1
    return n


def _abstract(kernel, fn, args):
    """(shape, dtype) of ``fn(*args)`` as JAX traces it (cached by the kernel and the operands'
    shapes and dtypes, or types for Python scalars and None), or None when it is not one array
    or an operand is of another kind."""
    key = [kernel]
    for v in args:
        t = type(v)
        if t is Node or t is ArrayImpl or t is np.ndarray or isinstance(v, np.generic):
            key.append((t, v.shape, v.dtype))
        elif t in _SCALARS or v is None:
            key.append(t)
        else:
            return None
    key = tuple(key)
    r = _AVALS.get(key, False)
    if r is False:
        out = jax.eval_shape(fn, *(jax.ShapeDtypeStruct(v.shape, v.dtype) if type(v) is Node
                                   else v for v in args))
        r = (out.shape, np.dtype(out.dtype)) if isinstance(out, jax.ShapeDtypeStruct) else None
        if len(_AVALS) >= probe.CACHE_SIZE:
            _AVALS.clear()
        _AVALS[key] = r
    return r


def force(root, reason="read"):
    """The root's concrete buffer: its node computed (with every pending node of its graph that
    a live root holds) and stored in the root; ``reason`` (a key of ``REASONS``) is counted."""
    with _LOCK:
        b = root._buf
        if type(b) is Node:
            if b.value is None:
                _flush(b, reason)
            root._buf = b = b.value
        return b


def rebind(root, node):
    """Rebind an existing root to ``node`` (a lazily recorded in-place write), under the lock a
    flush stores its results under: a flush never overwrites the new node with an old value."""
    with _LOCK:
        _hold(root, node)
        root._buf = node


def settle(roots):
    """Force every root among ``roots`` that holds a pending node."""
    for r in roots:
        if type(r._buf) is Node:
            force(r, "jit")


def _flush(node, reason):
    """Compute ``node`` and the pending nodes of its graph set that live roots hold (siblings
    read later need no flush of their own)."""
    with _UNION:
        held = [r() for r in _find(node.graph).held]
    order = _order(node, held)
    held = None
    wiring, leaves, kinds, uses = _wire(order)
    outs = tuple(i for i, n in enumerate(order) if n is node or _held(n))
    donate = _donations(order, outs, leaves, kinds, uses)
    key = (wiring, tuple(kinds), outs, donate)
    fn = _GRAPHS.get(key)
    if fn is None:
        fn = _GRAPHS[key] = jax.jit(_composed(key), donate_argnums=donate)
        STATS["graphs"] += 1
    STATS["flushes"] += 1
    syncs.note_flush(reason)
    with tracing.outside_trace():  # concrete, even when first needed under a trace
        results = fn(*leaves)
    for i, v in zip(outs, results):
        n = order[i]
        n.value = v
        n.args = None
        r = n.root() if n.root is not None else None
        if r is not None and r._buf is n:
            r._buf = v


def _order(node, held):
    """The pending nodes to compute, operands first: ``node`` and the nodes among ``held``
    that a live root still holds, with their pending ancestry."""
    order, seen = [], set()
    stack = [(n, False) for n in held if n is not None and n is not node and n.value is None
             and _held(n)] + [(node, False)]
    while stack:
        n, done = stack.pop()
        if id(n) in seen:
            continue
        if done:
            seen.add(id(n))
            order.append(n)
            continue
        stack.append((n, True))
        for a in n.args:
            if type(a) is Node and a.value is None and id(a) not in seen:
                stack.append((a, False))
    return order


def _wire(order):
    """The graph's wiring (per node: its function and, per operand, a leaf's position or
    ``-1 - k`` for the k-th node), its leaves (concrete arrays once each, other operands as
    they are) with their kinds (None for an array, else the type), and per array leaf the
    references the nodes' operand tuples hold to it (None: a computed node holds it too)."""
    index = {id(n): i for i, n in enumerate(order)}
    wiring, leaves, kinds, uses, leaf_pos = [], [], [], [], {}  # leaf_pos: an array's id, or
    # a plain operand's type and repr -> its leaf
    for n in order:
        w = []
        for a in n.args:
            t = type(a)
            if t is Node and a.value is None:
                w.append(-1 - index[id(a)])
                continue
            direct = t is not Node
            if not direct:
                a = a.value
            if type(a) is ArrayImpl:
                i = leaf_pos.get(id(a))
                if i is None:
                    i = leaf_pos[id(a)] = len(leaves)
                    leaves.append(a)
                    kinds.append(None)
                    uses.append(0)
                uses[i] = uses[i] + 1 if direct and uses[i] is not None else None
            else:  # equal plain operands (a view's offsets, scalars) are one leaf, which lets
                # XLA see equal offsets (a view read twice is read once, ``a[s] += f(a[s])``
                # writes in place); other operands one leaf each
                k = (t, repr(a)) if _plain(a) else id(a)
                i = leaf_pos.get(k)
                if i is None:
                    i = leaf_pos[k] = len(leaves)
                    leaves.append(a)
                    kinds.append(t)
                    uses.append(None)
            w.append(i)
        wiring.append((n.fn, tuple(w)))
    return tuple(wiring), leaves, kinds, uses


def _plain(a):
    """Whether ``a`` is Python numbers, None and tuples of them: its type and repr tell its
    value (-0.0 from 0.0, 1 from True)."""
    t = type(a)
    return t in _SCALARS or a is None or t is tuple and all(map(_plain, a))


def _donations(order, outs, leaves, kinds, uses):
    """The array leaves the flush may donate: held by this flush's nodes alone (no root, view,
    user or other pending node: ``sys.getrefcount`` shows only the nodes' references, the
    leaves list's and its own argument's), each matched to an output of its shape and dtype
    that XLA then writes in its place."""
    free = collections.Counter((order[i].shape, order[i].dtype) for i in outs)
    donate = []
    for i in range(len(leaves)):
        if kinds[i] is None and uses[i] is not None and sys.getrefcount(leaves[i]) == uses[i] + 2:
            s = (leaves[i].shape, leaves[i].dtype)
            if free[s] > 0:
                free[s] -= 1
                donate.append(i)
    return tuple(donate)


def _held(n):
    """Whether a live root holds the node (a root rebound by a later in-place write does not)."""
    r = n.root() if n.root is not None else None
    return r is not None and r._buf is n


def _composed(key):
    """The function of a graph: leaves in, the output nodes' values out."""
    wiring, _, outs, _ = key

    def run(*leaves):
        vals = []
        for fn, w in wiring:
            vals.append(fn(*(vals[-1 - i] if i < 0 else leaves[i] for i in w)))
        return tuple(vals[i] for i in outs)
    return run
