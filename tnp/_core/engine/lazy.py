"""Lazy fusion, on by default (``TNP_LAZY=0`` or ``enable(False)`` turns it off: eager, one
dispatch per operation, for debugging and for comparison in the benchmarks): recording. The
pending graphs it records into, and their flush, are ``lazygraph``'s.

When on (and no JAX trace is active: ``recording``), a device-tier call records a pending
``Node`` (a function returning one array, its operands: concrete arrays, scalars, other nodes,
static pytrees; never a root) and returns a root whose ``_buf`` is the node (``adopt``); its
shape and dtype are decided at once, as NumPy decides them, so its errors are raised by the
call. Recorded: ufunc calls without ``out=``/``where=`` (``record``; ``matmul``'s shape is
JAX's, ``_abstract``), ``a op= b`` on a whole array or a view (``write.rebind_pending``), plain
reductions (``ufunc.reduce_resolved``), ``astype``, and every ``@normalize`` kernel returning
one array (``call``: ``mean``, ``where``, ``dot``, ``argmin``...). A view operand is read
through its lenses by a node (``operand``), so views of pending values stay pending; a ufunc's
node reads its view operands itself (``read``: a ``_Read`` operand, no node of its own). A
host-tier root is read from its version's private NumPy copy (``ndarray._snapshot``), which the
flush's compiled call moves to the device. ``_new`` wires each node into the pending graph of
its operands (``lazygraph.Graph``); ``force(root)`` (called by ``roots.buffer``, the one reader
of a buffer that is not a concrete array) computes the root's graph (``lazygraph.flush``).

A graph is bounded: once it holds ``LIMIT`` operations (``TNP_LAZY_LIMIT``, default 512) it is
forced by the first recording of another program statement (``bound``: the statement reaching
the limit has finished, its temporaries are dead and not outputs), or at once when it holds
``2 * LIMIT`` operations (one statement, or a loop on one line) or ``BYTES`` bytes
(``TNP_LAZY_BYTES``, default 1 GiB: the results of its live nodes and the concrete arrays it
reads, what the graph keeps alive and its flush returns; a node's bytes leave the count when it
dies pending, ``lazygraph._Ref``). After the program waited on the device (a flush for a read,
a write or a ``tnp_ext.jit`` call), the first graph to reach ``EARLY`` operations
(``TNP_LAZY_EARLY``, default 64) is flushed the same way, at the next statement: JAX dispatches
asynchronously, so the idle device computes it while the program records the rest, and
Python's recording of a long step overlaps its computation (declined when its computation
recomputes values its outputs share: the graph records on and is computed whole). ``on``,
``LIMIT``, ``BYTES`` and ``EARLY`` are ``tnp._core.settings``' values, kept here (``_setting``)
for the hot path.

Recording into a graph and every transition of a node to its value happen under ``_LOCK``
(``lazygraph.LOCK``; a node is pending or computed throughout a recording; a writer forces a
root's node under the root's lock first, so it never sees a node; see ``write``).
"""
import math
import os
import sys
import weakref

import numpy as np

from .. import settings
from . import devices, fpcheck, lazygraph, lenses, syncs, tracing, warnblocks
from .valueranges import dtype_range
from .lazygraph import LOCK as _LOCK, REASONS, STATS  # noqa: F401 (REASONS: lazy's API)
from ..rules import dtypes, probe
from .jaxload import jax, jcore as _jcore, ArrayImpl

on = LIMIT = BYTES = EARLY = None
_AVALS = {}  # (kernel, operand shapes and dtypes) -> (shape, dtype) of the result, or None
_SCALARS = frozenset({float, int, complex, bool})
_INT = frozenset({int})
# the directories of tnp's own frames, skipped when finding the program's statement
_OWN_DIRS = tuple(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
                  + os.sep + d + os.sep for d in ("tnp", "tnp_ext"))
_OWN = {}  # code file name -> whether it is tnp's
_CUTS = {}  # a statement's (frame, line) -> its last masked write's node, weakly (``cut``)


def _setting(name, value):
    """``settings``' watcher: lazy fusion's settings, kept here for the hot path."""
    global on, LIMIT, BYTES, EARLY
    if name == "lazy":
        on = value
    elif name == "lazy_limit":
        LIMIT = value
    elif name == "lazy_bytes":
        BYTES = value
    else:
        EARLY = value


settings.watch(_setting, "lazy", "lazy_limit", "lazy_bytes", "lazy_early")


def enable(flag=True):
    """Turn lazy recording on or off (``settings``' ``TNP_LAZY``; returns the previous
    setting); pending values stay pending until read."""
    return settings.set("lazy", flag)


class Node:
    """A pending result: its function (one array), shape and dtype, its pending graph and its
    position there (the graph's wiring names its operands: a node does not hold them, so a
    temporary the program dropped dies and is never an output), the root that holds it
    (weakly) and, once computed, its value (then ``graph`` is dropped)."""
    __slots__ = ("fn", "shape", "dtype", "graph", "index", "root", "value", "__weakref__")

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def ops(self):
        """The operations recorded into the node's pending graph (0 once computed)."""
        return 0 if self.graph is None else len(self.graph.nodes)

    @property
    def bytes(self):
        """The bytes counted in the node's pending graph (see ``BYTES``)."""
        return 0 if self.graph is None else self.graph.bytes

    def __repr__(self):
        return f"<tnp: pending {self.dtype} array of shape {self.shape}>"

class _Read:
    """A view of a device or pending root read by the node recording it (``read``): its lens
    kernel's function, the root's buffer, the view's offsets, shape and dtype. The reading node
    applies the lenses itself (its operand's code is ``(fn, base's code, offsets' code)``)."""
    __slots__ = ("fn", "base", "dyns", "shape", "dtype")

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
        if t is Node or t is _Read or t is ArrayImpl:
            shapes.append(v.shape)
        elif t not in _SCALARS:
            if t is not np.ndarray and not isinstance(v, np.generic):
                return None
            shapes.append(v.shape)
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
        except (TypeError, ValueError, IndexError):  # the eager call raises NumPy's error
            return None
        if aval is None:
            return None
        rule = getattr(kernel, "fp_range", None)  # (a contracting ufunc's, per length)
        return _new(fn, values, *aval, fpcheck.state(getattr(kernel, "fp_check", None)),
                    rule(values[0].shape[-1]) if rule is not None and values[0].shape
                    else None)
    try:
        shape = shapes[0] if len(shapes) == 1 or (
            len(shapes) == 2 and shapes[0] == shapes[1]) else np.broadcast_shapes(*shapes)
    except (ValueError, RuntimeError):  # (NumPy broadcasts at most 32 dimensions here)
        return None  # the eager call gives the result or NumPy's error
    dt = own[1]
    if dt is None:
        dt = own[1] = np.dtype(jax.eval_shape(fn, *(
            jax.ShapeDtypeStruct(v.shape, v.dtype) if type(v) is Node or type(v) is _Read
            else v for v in values)).dtype)
    return _new(fn, values, shape, dt, fpcheck.state(getattr(kernel, "fp_check", None)),
                getattr(kernel, "fp_range", None))


def call(kernel, args, shape=None, dtype=None, check=None, rule=None):
    """A node for ``kernel(*args)`` (a ``jax.jit`` whose function returns one array; args:
    concrete arrays, nodes, or pytrees without nodes, such as None or a lens's offsets). The
    result's shape and dtype are the caller's (decided as NumPy decides them) or, when not
    given, JAX's (``jax.eval_shape``, cached: an error of the call is raised here). None when
    the result is not one array. ``check``: its floating-point check (``fpcheck``); ``rule``:
    its result's range rule (``valueranges``)."""
    if shape is None:
        aval = _abstract(kernel, kernel.__wrapped__, args)
        if aval is None:
            return None
        shape, dtype = aval
    return _new(kernel.__wrapped__, tuple(args), shape, dtype, fpcheck.state(check), rule)


def operand(a):
    """A tnp array's value for recording: its root's pending node, a node reading a view of a
    device root through its lenses (pending or not: the read is fused), else its value: the
    node of ``read``'s ``_Read``."""
    r = read(a)
    return _new(r.fn, (r.base, r.dyns), r.shape, r.dtype) if type(r) is _Read else r


def read(a):
    """A tnp array's value for ``record`` (a ufunc's recording, whose node reads a view
    itself): its root's pending node, a ``_Read`` of a view (no node or eager dispatch of its
    own) of a device or pending root or of a host-tier root's snapshot (``ndarray._snapshot``),
    a host-tier root's snapshot, else its value."""
    root = a._base
    if root is None:
        b = a._buf
        if type(b) is Node or type(b) is ArrayImpl:
            return b
        return a._snapshot() if type(b) is np.ndarray else a._value
    b = root._buf
    if type(b) is np.ndarray and a._dtype in dtypes.SUPPORTED:
        b = root._snapshot()  # a host-tier root's, moved by the flush (or moved before)
    elif type(b) is not Node and type(b) is not ArrayImpl:
        return a._value  # a root being written (wait for it), or a host dtype (its error)
    r = _Read()
    chain, r.dyns = a._chain()
    r.fn = lenses.get_kernel(chain).__wrapped__
    r.base, r.shape, r.dtype = b, a._shape, a._dtype
    return r


def value(x):
    """``x``'s concrete value (a node computed first)."""
    if type(x) is not Node:
        return x
    with _LOCK:
        if x.value is None:
            lazygraph.flush(x.graph, "read")
        return x.value


def sync(x):
    """A sync point reads ``x`` (``syncs.record``): a tnp array's pending root is computed
    (the flush its read would make) and the floating-point warnings of the graphs done once it
    is are given (``fpcheck.deliver``: every graph it was computed from among them), before the
    program sees the value."""
    root = getattr(x, "_root", None)
    b = getattr(root, "_buf", None) if root is not None else x
    if type(b) is Node:
        b = value(b)
    fpcheck.deliver(b)


syncs.ON_SYNC.append(sync)
warnblocks.install()  # (a warnings block's edges deliver too)


def adopt(root):
    """Make ``root`` (new, its buffer a node) the node's holder (``bound`` applied). Returns
    the root."""
    root._buf.root = weakref.ref(root)
    return bound(root)


def bound(root):
    """Bound ``root``'s pending graph: forced at once when it reached ``BYTES`` bytes or
    ``2 * LIMIT`` operations; when it reached ``LIMIT`` operations, the program's statement
    recording it is remembered (``due``) and the graph is forced by the first recording made by
    another statement (``_new``, ``_moved``), so the temporaries of the statement that reached
    the limit are dead and not outputs of the flush. The first graph to reach ``EARLY``
    operations after the program waited on the device (``lazygraph.early``) is made due the
    same way: the device, idle, computes it while the program records the rest
    (``lazygraph.flush`` declines it when its computation recomputes values its outputs share).
    Returns the root."""
    b = root._buf
    g = b.graph if type(b) is Node else None  # (a reader in another thread may have forced it)
    if g is not None:
        n = len(g.nodes)
        if g.bytes >= BYTES:
            force(root, "bytes")
        elif n >= 2 * LIMIT:
            force(root, "cap")
        elif g.due is None:
            if n >= LIMIT:
                g.due, g.why = _statement(), "limit"
            elif lazygraph.early[0] and n >= EARLY:
                lazygraph.early[0] = False
                g.due, g.why = _statement(), "early"
    return root


def _statement():
    """The program's statement now recording: (frame identity, line, last instruction) of the
    innermost frame outside tnp."""
    f = sys._getframe(1)
    while True:
        own = _OWN.get(f.f_code.co_filename)
        if own is None:
            own = _OWN[f.f_code.co_filename] = f.f_code.co_filename.startswith(_OWN_DIRS)
        if not own or f.f_back is None:
            return id(f), f.f_lineno, f.f_lasti
        f = f.f_back


def cut():
    """The program's statement recording a masked write (``write.assign_masked``): when its
    previous masked write (a loop's previous iteration) is still pending, that graph is
    flushed first ("iteration"), so that a loop runs one cached graph per iteration, computed
    asynchronously while the program records the next, rather than a graph growing to
    ``LIMIT`` and cut wherever it reaches it. Returns the statement, for ``mark``."""
    line = _statement()[:2]
    ref = _CUTS.get(line)
    n = ref() if ref is not None else None
    if n is not None:
        with _LOCK:
            if n.value is None:
                lazygraph.flush(n.graph, "iteration")
    return line


def mark(line, node):
    """Remember ``node`` as the masked write of the statement ``line`` (``cut``)."""
    if len(_CUTS) >= 256:
        _CUTS.clear()
    _CUTS[line] = weakref.ref(node)


def _moved(g):
    """Whether the program left the statement that made ``g`` due: another frame or line, or
    the same call again (a loop on one line; also a tnp call recording several operations,
    which then flushes there). Else ``g.due`` follows the statement's progress."""
    frame, line, last = _statement()
    if frame != g.due[0] or line != g.due[1] or last <= g.due[2]:
        return True
    g.due = frame, line, last
    return False


def _new(fn, args, shape, dtype, check=None, rule=None):
    """The node of ``fn(*args)``, wired into the graph of its pending operands (joined);
    ``check``: its floating-point check and error state (``fpcheck.state``); ``rule``: its
    result's range rule (``valueranges``; an integer or boolean result's is its dtype's
    range)."""
    if not isinstance(dtype, np.dtype):
        dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        rule = dtype_range(dtype)
    if type(shape) is not tuple:
        shape = tuple(shape)
    n = Node()
    n.fn = fn
    n.shape = shape
    n.dtype = dtype
    n.root = n.value = None
    nbytes = math.prod(shape) * dtype.itemsize
    with _LOCK:  # (a flush holds it: an operand is pending or computed throughout)
        g = None
        for v in args:
            t = type(v)
            if t is _Read:
                v = v.base
                t = type(v)
            if t is Node and v.value is None:
                h = v.graph
                if g is None:
                    g = h
                elif h is not g:  # the smaller appended to the larger
                    if len(h.nodes) > len(g.nodes):
                        g, h = h, g
                    g.absorb(h)
        if g is not None and g.due is not None and _moved(g) and lazygraph.flush(g, g.why):
            g = None  # (its nodes among ``args`` were held: outputs, now leaves)
        if g is None:
            g = lazygraph.Graph()
        codes = []
        pos = g.pos
        for v in args:
            t = type(v)
            if t is Node:
                if v.value is None:
                    codes.append(-1 - v.index)
                    continue
                v = v.value
                i = g.leaf(v, id(v), None, False)
            elif t is _Read:  # the base's code, the offsets' leaf
                b = v.base
                if type(b) is Node and b.value is None:
                    i = -1 - b.index
                else:  # (as the operands below: a node's value is held by the node too; a
                    # host root's NumPy copy is its cache's, never donated)
                    i = (g.leaf(b.value, id(b.value), None, False) if type(b) is Node else
                         pos[id(b)] if id(b) in pos else g.leaf(b, id(b), None, True)
                         if type(b) is ArrayImpl else g.leaf(b, id(b), np.ndarray, False))
                key = _plain_key(v.dyns)
                d = pos.get(key)
                code = (v.fn, i, g.leaf(v.dyns, key, devices.offsets_kind(v.dyns), False)
                        if d is None else d)
                # (a view of another dtype reinterprets the bytes: its values are not within
                # its base's range, ``valueranges``)
                codes.append(code if v.dtype == b.dtype else code + (False,))
                continue
            elif t is ArrayImpl:
                i = pos.get(id(v))
                if i is None:
                    i = g.leaf(v, id(v), None, True)
            else:  # equal plain operands (a view's offsets, scalars) are one leaf, which lets
                # XLA see equal offsets (a view read twice is read once, ``a[s] += f(a[s])``
                # writes in place); other operands one leaf each
                key = (t, v) if t is int or t is float and v else _plain_key(v)  # (its 1st case)
                i = pos.get(key)
                if i is None:
                    i = g.leaf(v, key, devices.offsets_kind(v) if t is tuple else t, False)
            codes.append(i)
        g.add(n, fn, tuple(codes), nbytes, check, rule)
    STATS["recorded"] += 1
    return n


def _abstract(kernel, fn, args):
    """(shape, dtype) of ``fn(*args)`` as JAX traces it (cached by the kernel and the operands'
    shapes and dtypes, or types for Python scalars and None), or None when it is not one array
    or an operand is of another kind."""
    key = [kernel]
    for v in args:
        t = type(v)
        if (t is Node or t is ArrayImpl or t is _Read or t is np.ndarray
                or isinstance(v, np.generic)):
            key.append((Node if t is _Read else t, v.shape, v.dtype))
        elif t in _SCALARS or v is None:
            key.append(t)
        else:
            return None
    key = tuple(key)
    r = _AVALS.get(key, False)
    if r is False:
        out = jax.eval_shape(fn, *(jax.ShapeDtypeStruct(v.shape, v.dtype)
                                   if type(v) is Node or type(v) is _Read else v for v in args))
        r = (out.shape, np.dtype(out.dtype)) if isinstance(out, jax.ShapeDtypeStruct) else None
        if len(_AVALS) >= probe.CACHE_SIZE:
            _AVALS.clear()
        _AVALS[key] = r
    return r


def force(root, reason="read"):
    """The root's concrete buffer: its node computed (with every pending node of its graph that
    is still held) and stored in the root; ``reason`` (a key of ``REASONS``) is counted."""
    with _LOCK:
        b = root._buf
        if type(b) is Node:
            if b.value is None:
                lazygraph.flush(b.graph, reason)
            b = b.value
            lazygraph.store(root, b)
        return b


def rebind(root, node):
    """Rebind an existing root to ``node`` (a lazily recorded in-place write), under the lock
    ``force`` stores a computed value under: the new node is never overwritten by an old value."""
    with _LOCK:
        node.root = weakref.ref(root)
        old, g = root._buf, node.graph
        if type(old) is ArrayImpl and g is not None and id(old) in g.pos:
            g.rebound.add(g.pos[id(old)])  # (a leaf an in-place write replaced: ``fpcheck``)
        lazygraph.store(root, node)


def settle(roots):
    """Force every root among ``roots`` that holds a pending node."""
    for r in roots:
        if type(r._buf) is Node:
            force(r, "jit")

def _plain_key(v):
    """A leaf's key: for Python numbers, None and tuples of them, their type and value (ints,
    nonzero floats and a view's offsets, tuples of ints, as they are; otherwise their repr,
    which tells -0.0 from 0.0 and 1 from True), else its identity."""
    t = type(v)
    if t is int or t is float and v:
        return t, v
    if t is tuple:
        for x in v:
            if type(x) is tuple:
                if not _INT.issuperset(map(type, x)):
                    break
            elif type(x) is not int:
                break
        else:
            return t, v
    return (t, repr(v)) if _plain(v) else id(v)


def _plain(a):
    """Whether ``a`` is Python numbers, None and tuples of them: its type and repr tell its
    value."""
    t = type(a)
    return t in _SCALARS or a is None or t is tuple and all(map(_plain, a))
