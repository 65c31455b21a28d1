"""Lazy fusion (a prototype, off by default: ``TNP_LAZY=1`` or ``enable()``).

When on, a ufunc call on the fast path records a pending ``Node`` (its kernel's function and its
operands' values: concrete arrays, Python scalars or other nodes, never a root) and returns a
root whose ``_buf`` is the node; its shape and dtype are known at once. ``force(root)`` (called
by ``roots.buffer``, the one reader of a buffer that is not a concrete array) compiles the
pending graph reachable from the root's node as one ``jax.jit`` of the composed functions, whose
inputs are the graph's concrete leaves and Python scalars and whose outputs are the nodes that a
live root still holds, and stores each result in its root. Compiled graphs are cached by
structure (functions, wiring, leaf kinds, outputs); JAX specialises each by the leaves' shapes
and dtypes. A node's ``size`` bounds the graph: a node whose pending ancestry reaches ``LIMIT``
(``TNP_LAZY_LIMIT``, default 64) is forced when recorded. Each flush is counted with its reason
(``REASONS``; by program line under ``python -m tnp run --report``: ``syncs.note_flush``).

Every transition of a node to its value happens under ``_LOCK`` (a writer forces a root's node
under the root's lock first, so it never sees a node; see ``write``).
"""
import os
import threading
import weakref

from .jaxload import jax, ArrayImpl
import numpy as np

from . import caches, syncs, tracing

on = os.environ.get("TNP_LAZY", "0") == "1"
LIMIT = int(os.environ.get("TNP_LAZY_LIMIT", "64"))
_LOCK = threading.RLock()
_GRAPHS = caches.KernelTable()  # graph structure -> jax.jit of the composed functions
_DTYPES = {}  # kernel -> its result dtype
_SCALARS = frozenset({float, int, complex})
STATS = {"recorded": 0, "flushes": 0, "graphs": 0}
# what forces a flush (``force``'s ``reason``), for ``python -m tnp run --report``
REASONS = {"read": "a pending value read (by an operation not recorded lazily, or a sync point)",
           "write": "a write to a pending array (or through its view)",
           "jit": "a tnp_ext.jit call given pending arguments",
           "limit": "the pending graph reached TNP_LAZY_LIMIT operations"}


def enable(flag=True):
    """Turn lazy recording on or off (returns the previous setting); pending values stay
    pending until read."""
    global on
    old, on = on, bool(flag)
    return old


class Node:
    """A pending result: ``fn(*args)[0][0]`` (a ufunc kernel's function), its shape and dtype,
    the root that holds it (weakly) and, once computed, its value (then ``args`` is dropped)."""
    __slots__ = ("fn", "args", "shape", "dtype", "size", "root", "value", "__weakref__")

    def __repr__(self):
        return f"<tnp: pending {self.dtype} array of shape {self.shape}>"


def record(kernel, values):
    """A node for ``kernel(*values)`` (values: concrete arrays, Python scalars, nodes), or None
    when it cannot be recorded (a tracer operand, shapes that do not broadcast: the eager path
    runs and raises NumPy's error)."""
    shapes = []
    size = 1
    for i, v in enumerate(values):
        t = type(v)
        if t is Node:
            if v.value is None and not any(w is v for w in values[:i]):  # x * x: once
                size += v.size
            shapes.append(v.shape)
        elif t is ArrayImpl:
            shapes.append(v.shape)
        elif t not in _SCALARS:
            return None
    try:
        shape = shapes[0] if len(shapes) == 1 or (
            len(shapes) == 2 and shapes[0] == shapes[1]) else np.broadcast_shapes(*shapes)
    except ValueError:
        return None
    dt = _DTYPES.get(kernel)
    if dt is None:
        dt = _DTYPES[kernel] = np.dtype(jax.eval_shape(kernel, *(
            jax.ShapeDtypeStruct(v.shape, v.dtype) if type(v) is Node else v
            for v in values))[0][0].dtype)
    n = Node()
    n.fn = kernel.__wrapped__
    n.args = tuple(values)
    n.shape = shape
    n.dtype = dt
    n.size = min(size, LIMIT)
    n.root = None
    n.value = None
    STATS["recorded"] += 1
    return n


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
        node.root = weakref.ref(root)
        root._buf = node


def settle(roots):
    """Force every root among ``roots`` that holds a pending node."""
    for r in roots:
        if type(r._buf) is Node:
            force(r, "jit")


def _flush(node, reason):
    """Compute ``node`` and the pending nodes of its graph that live roots hold."""
    order, index = [], {}  # pending nodes, operands first; id -> position
    leaves, leaf_pos, kinds = [], {}, []
    stack = [(node, False)]
    while stack:
        n, done = stack.pop()
        if id(n) in index:
            continue
        if done:
            index[id(n)] = len(order)
            order.append(n)
            continue
        stack.append((n, True))
        for a in n.args:
            if type(a) is Node and a.value is None and id(a) not in index:
                stack.append((a, False))
    wiring = []
    for n in order:
        w = []
        for a in n.args:
            t = type(a)
            if t is Node and a.value is None:
                w.append(-1 - index[id(a)])
                continue
            if t is Node:
                a = a.value
            if type(a) is ArrayImpl:
                i = leaf_pos.get(id(a))
                if i is None:
                    i = leaf_pos[id(a)] = len(leaves)
                    leaves.append(a)
                    kinds.append(None)
            else:
                i = len(leaves)
                leaves.append(a)
                kinds.append(type(a))
            w.append(i)
        wiring.append((n.fn, tuple(w)))
    outs = tuple(i for i, n in enumerate(order) if n is node or _held(n))
    key = (tuple(wiring), tuple(kinds), outs)
    fn = _GRAPHS.get(key)
    if fn is None:
        fn = _GRAPHS[key] = jax.jit(_composed(key))
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


def _held(n):
    """Whether a live root holds the node (a root rebound by a later in-place write does not)."""
    r = n.root() if n.root is not None else None
    return r is not None and r._buf is n


def _composed(key):
    """The function of a graph: leaves in, the output nodes' values out."""
    wiring, _, outs = key

    def run(*leaves):
        vals = []
        for fn, w in wiring:
            vals.append(fn(*(vals[-1 - i] if i < 0 else leaves[i] for i in w))[0][0])
        return tuple(vals[i] for i in outs)
    return run
