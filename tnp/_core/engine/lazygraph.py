"""Lazy fusion's pending graphs (``lazy`` records into them): how a graph is wired and how it
is computed (``flush``).

A node is wired into its pending graph (``Graph``) as it is recorded: graphs of its pending
operands are joined, the graph keeps its nodes in the order recorded (operands first) with, per
node, its function and the positions of its operands (nodes, or leaves: concrete arrays once
each, equal plain operands once), so a flush walks nothing to build its computation or its
cache key. ``lazy.force(root)`` computes the root's whole graph (``flush``) as one ``jax.jit``
of the composed functions, whose inputs are the graph's leaves and whose outputs are the nodes
still alive (``_outputs``: the graph holds its nodes weakly and a node does not hold its
operands, so a node is alive only while something outside the graph holds it: a root, or a
caller about to use the node); a temporary the program dropped is not an output and XLA fuses
or drops its computation. Each result is stored in its node and in the root holding it. An
array leaf that only the graph holds (a root rebound by an in-place write, nothing else
referring to it: ``_donations``) is donated to an output of its shape and dtype, so an in-place
loop keeps its buffer. Compiled graphs are cached by structure (functions, wiring, leaf kinds,
outputs, donations); JAX specialises each by the leaves' shapes and dtypes. A graph with
several outputs is computed as one computation unless XLA's compiled cost analysis shows it
recomputing (``_compiled``: XLA's CPU compiler has no multi-output fusion, and an expensive
value shared by outputs makes it recompute the chain before it once per fusion reading it) and
computing each output from its own copy of the leaves costs fewer operations. An early flush
(``lazy.bound``) is declined when its computation recomputes values its outputs share
(``recomputes``): the graph records on and is computed whole. Each flush is counted with its
reason (``REASONS``; by program line under ``python -m tnp run --report``:
``syncs.note_flush``, with the collectives its executable runs: ``communication.ran``). A graph
whose nodes carry floating-point checks (``checks``) returns one more output, its flag, which
``fpcheck`` keeps until the program observes a value; until its flush it is among ``CHECKED``
(with the threads that recorded its checks: a warnings block's edge flushes its thread's,
``warnblocks``).

Recording into a graph and every transition of a node to its value happen under ``LOCK``.
"""
import contextlib
import math
import sys
import threading
import weakref

import numpy as np

from . import caches, communication, fpcheck, syncs, tiering, tracing, valueranges
from .jaxload import jax, jcore as _jcore

SPLIT = 1.25  # a graph's compiled flops over its operations' flops past which it may be split
LOCK = threading.RLock()
_GRAPHS = caches.KernelTable()  # graph structure -> its jax.jit (``_compiled``)
# the pending graphs holding floating-point checks (its keys), in the order of their first check
# (``flush_checked``)
CHECKED = weakref.WeakKeyDictionary()
STATS = {"recorded": 0, "flushes": 0, "graphs": 0}
# what forces a flush (``flush``'s ``reason``), for ``python -m tnp run --report``
REASONS = {"read": "a pending value read (by an operation not recorded lazily, or a sync point)",
           "write": "a write to a pending array (or through its view)",
           "jit": "a tnp_ext.jit call given pending arguments",
           "limit": "the pending graph reached TNP_LAZY_LIMIT operations (flushed at the next "
                    "statement's first operation)",
           "cap": "the pending graph reached 2 x TNP_LAZY_LIMIT operations within one statement",
           "bytes": "the pending graph reached TNP_LAZY_BYTES bytes",
           "iteration": "a masked write on a line whose previous masked write is still "
                        "pending (a loop's next iteration: one cached graph per iteration)",
           "early": "the first pending graph after a wait reached TNP_LAZY_EARLY operations "
                    "(flushed at the next statement's first operation: the device computes it "
                    "while the program records more)",
           "warnings": "a warnings block's entry or exit (catch_warnings, pytest.warns, "
                       "errstate) with floating-point checks pending: its warnings land inside "
                       "the block"}
# flushes whose values the program waits for
_WAITS = frozenset({"read", "write", "jit", "warnings"})
# whether the next graph to reach ``lazy.EARLY`` operations is flushed early (the program waited
# on the device since the last early flush)
early = [True]


class _Ref(weakref.ref):
    """A graph's weak reference to one of its nodes: when the node dies pending (nothing holds
    it: XLA fuses or drops its computation), its result's bytes leave the graph's count.
    ``graph``: a weak reference to the graph (a strong one would make the graph and its
    references a cycle, which kept a flushed graph's leaves, a loop iteration's arrays, alive
    until Python's cyclic collector ran: up to 1 GB more for the masked Mandelbrot at
    1000x1000, and a leaf they held could not be donated)."""
    __slots__ = ("graph", "nbytes")


def _died(ref):
    with LOCK:  # (any thread may drop a node: no count is lost to a concurrent recording)
        g = ref.graph()
        if g is not None:
            g.bytes -= ref.nbytes

class Graph:
    """A pending graph, wired as it is recorded: its nodes in the order recorded (operands
    first; weakly, ``_Ref``: a node nothing outside the graph holds is not an output), per
    node its function and, per operand, a leaf's position or ``-1 - k`` for the k-th node
    or a view read's ``(lens function, base's code, offsets' code)`` (with a last False when
    the view reinterprets the base's bytes as another dtype) (``wiring``), and its leaves
    (concrete arrays once each, equal plain operands once, other operands as they are) with
    their kinds (None for an array, else the type), their keys in ``pos``, their bytes
    (``sizes``) and whether an array leaf is read only through nodes' operands (``direct``: a
    computed node's value is held by the node too, never donated).
    ``bytes``: the results of its live nodes and its array leaves (see ``BYTES``). ``checks``:
    per node, None or its floating-point check and the error state it was recorded in
    (``fpcheck``), once a node has one (else None), and ``threads``: the identities of the
    threads that recorded them. ``rules``: per node, the rule of its result's range, a
    range, or None, and ``proof``: what ``valueranges.quiet`` proved of it so far
    (``valueranges``). ``rebound``: the positions of the leaves an in-place
    write replaced in their root (``lazy.rebind``)."""
    __slots__ = ("nodes", "wiring", "leaves", "kinds", "keys", "sizes", "direct", "pos", "bytes",
                 "due", "why", "checks", "threads", "rules", "proof", "rebound", "__weakref__")

    def __init__(self):
        self.nodes, self.wiring, self.leaves, self.kinds, self.keys = [], [], [], [], []
        self.rules = []
        self.sizes, self.direct, self.pos, self.bytes, self.due = [], [], {}, 0, None
        self.why = self.checks = self.threads = self.proof = None
        self.rebound = set()

    def leaf(self, a, key, kind, direct):
        """The position of the leaf ``a`` (``key``: its identity or plain value)."""
        i = self.pos.get(key)
        if i is None:
            i = self.pos[key] = len(self.leaves)
            self.leaves.append(a)
            self.kinds.append(kind)
            self.keys.append(key)
            size = (math.prod(a.shape) * a.dtype.itemsize if kind is None  # (faster than
                    else a.nbytes if kind is np.ndarray else 0)  # JAX's nbytes)
            self.sizes.append(size)
            self.bytes += size
            self.direct.append(direct)
        elif not direct:
            self.direct[i] = False
        return i

    def add(self, n, fn, codes, nbytes, check=None, rule=None):
        """Append the node ``n`` of ``fn`` on the operands ``codes`` (``wiring``'s), with its
        floating-point check (``checks``) and range rule (``rules``)."""
        n.graph = self
        n.index = len(self.nodes)
        if check is not None:
            if self.checks is None:
                self.checks, self.threads = [None] * n.index, set()
                CHECKED[self] = None
            self.threads.add(threading.get_ident())
        if self.checks is not None:
            self.checks.append(check)
        r = _Ref(n, _died)
        r.graph, r.nbytes = weakref.ref(self), nbytes
        self.nodes.append(r)
        self.wiring.append((fn, codes))
        self.rules.append(rule)
        self.bytes += nbytes

    def absorb(self, h):
        """Append the graph ``h`` (no node of one reads the other's) to this one."""
        off = len(self.nodes)
        self.bytes += h.bytes - sum(h.sizes)  # its live results (its leaves: by ``leaf``)
        where = [self.leaf(*x) for x in zip(h.leaves, h.keys, h.kinds, h.direct)]
        self.wiring += [(fn, tuple(
            (c[0], c[1] - off if c[1] < 0 else where[c[1]], where[c[2]]) + c[3:]
            if type(c) is tuple
            else c - off if c < 0 else where[c] for c in codes)) for fn, codes in h.wiring]
        me = weakref.ref(self)
        for r in h.nodes:
            r.graph = me
            n = r()
            if n is not None:
                n.graph = self
                n.index += off
        self.rebound.update(where[i] for i in h.rebound)
        if h.checks is not None or self.checks is not None:
            self.checks = ((self.checks or [None] * off)
                           + (h.checks or [None] * len(h.nodes)))
            self.threads = (self.threads or set()) | (h.threads or set())
            CHECKED.pop(h, None)
            CHECKED.setdefault(self)
        self.nodes += h.nodes
        self.rules += h.rules
        self.proof = None
        if self.due is None:
            self.due, self.why = h.due, h.why

def flush(g, reason):
    """Compute the pending graph ``g`` (under ``LOCK``): its outputs are its live nodes
    (``_outputs``: a root, a caller, the node read among them). An early flush is declined
    (returns False; the graph records on, due no more) when its computation recomputes values
    its outputs share (``_compiled``): the graph is computed whole later."""
    fpcheck.poll()
    held = _outputs(g)
    outs = tuple(held)
    donate = _donations(g, held)
    wiring, checks, ranges = tuple(g.wiring), None, {}
    if g.checks is not None:
        checks, ranges = valueranges.prove(g, wiring, outs)
        checks = tuple(c and c[0] for c in checks or g.checks)
    key = (wiring, tuple(g.kinds), outs, donate, checks)
    traced = type(tracing.current_trace()) is not _jcore.EvalTrace
    with tracing.outside_trace() if traced else contextlib.nullcontext():  # (a read under a
        results = _numpy_tier(key, g.leaves)  # trace: concrete all the same)
        if results is None:
            reporting = syncs.REPORTING
            if reporting:
                communication.fresh()
            fn = _executable(key, g.leaves)
            if reason == "early" and fn.recomputes:
                g.due = None
                return False
            results = fn(*g.leaves * fn.copies)
            if reporting:
                communication.ran(key, g.leaves)
    CHECKED.pop(g, None)
    if len(results) > len(outs):  # the checks' flag (``fpcheck``)
        fpcheck.pending(results[-1], key[0], g.leaves, g.checks,
                        {i: v for i, v in zip(outs, results)}, g.threads, donate)
        results = results[:-1]
    if ranges:
        valueranges.noted(dict(zip(outs, results)), ranges)
    STATS["flushes"] += 1
    if reason in _WAITS:
        early[0] = True
    syncs.note_flush(reason)
    for n, v in zip(held.values(), results):
        n.value = v
        n.graph = None
        r = n.root() if n.root is not None else None
        if r is not None and r._buf is n:
            store(r, v)
    return True


def flush_checked(thread):
    """Flush the pending graphs holding floating-point checks that the thread ``thread`` (an
    identity) recorded (``CHECKED``; reason "warnings"), in the order they were recorded; one
    none of whose nodes is alive any more (nothing to compute: never flushed) is dropped, one
    whose checks are proved false for every node (``valueranges.quiet``: it cannot warn)
    records on."""
    with LOCK:
        for g in [g for g in CHECKED if thread in g.threads]:
            if valueranges.quiet(g):
                continue
            if any(r() is not None for r in g.nodes):
                flush(g, "warnings")
            else:
                CHECKED.pop(g, None)


def store(root, buf):
    """Assign a root's buffer: a computed value in place of its node, or a pending node (an
    in-place write recorded lazily). The engine's one assignment of an array's storage (the
    array layer makes every other); called under ``LOCK``."""
    root._buf = buf


def _numpy_tier(key, leaves):
    """The graph's results computed on NumPy while it is cold (``tiering.call``), else None:
    the compiled graph runs (compiled in the background once hot, or now)."""
    if not tiering.active():
        return None
    return tiering.call(key, leaves, _composed(key),
                        lambda abstract: _build(key, abstract), key[3])  # (donations)


def _build(key, abstract):
    """Compile the graph of ``key`` for leaves of the shapes ``abstract`` (the background
    compile: its executable is the one the next flush's call runs)."""
    fn = _executable(key, abstract)
    if fn.copies == 1 and len(key[2]) == 1:  # (else ``_compiled`` compiled it for its costs)
        fn.lower(*abstract).compile()


def _executable(key, leaves):
    """The ``jax.jit`` of the graph of ``key`` (compiled on first use: ``_compiled``)."""
    fn = _GRAPHS.get(key)
    if fn is None:
        fn = _GRAPHS[key] = _compiled(key, leaves)
        STATS["graphs"] += 1
    return fn


def _compiled(key, leaves):
    """The ``jax.jit`` computing a graph's outputs, its ``copies``: how many times it takes the
    leaves, and ``recomputes``: whether it computes more than ``SPLIT`` times the graph's
    operations. One computation of the composed functions (``copies`` 1), unless XLA's CPU compiler
    (it has no multi-output fusion) makes it compute more than ``SPLIT`` times the operations
    the graph holds (its cost analysis: an expensive value that several outputs share, like a
    square root, is stored, and each fusion reading it recomputes the cheap chain before it,
    quadratic along a loop) and computing each output from its own copy of the leaves (no
    value shared across outputs: one fusion per output, which duplicates their common part)
    costs fewer operations. The executable compiled for the cost analysis is the one the jit's
    calls run (JAX keeps it): the joint graph is compiled once, the split one once more only
    when its operations as lowered are fewer than the joint graph's compiled ones (XLA's
    simplifications take a few percent off a split graph's: a split that could at best about
    tie is not compiled; the masked Mandelbrot's step: split 4.35e6 lowered, 4.2e6 compiled,
    joint 4.05e6, so its second compile, 0.1 s of CPU, is saved)."""
    outs, donate = key[2], key[3]
    fn = jax.jit(_composed(key), donate_argnums=donate)
    fn.copies, fn.recomputes = 1, False
    if len(outs) > 1:
        lowered = fn.lower(*leaves)
        joint, own = _flops(lowered.compile()), _flops(lowered)
        if own and joint > SPLIT * own:
            fn.recomputes = True
            split = jax.jit(_composed(key, split=True))
            lowered = split.lower(*leaves * len(outs))
            if _flops(lowered) < joint and _flops(lowered.compile()) < joint:
                split.copies, split.recomputes = len(outs), True
                return split
    return fn


def _flops(stage):
    """The floating-point operations of a lowered or compiled computation (XLA's cost
    analysis), or 0 when the backend gives none."""
    cost = stage.cost_analysis()
    if isinstance(cost, (list, tuple)):
        cost = cost[0] if cost else None
    return float(cost.get("flops", 0)) if cost else 0.0


def _outputs(g):
    """The graph's nodes that something outside the graph holds (a root, a caller about to use
    the node, a node being recorded reading it): every node still alive, since the graph holds
    its nodes weakly and no node holds another; by position, held here until the flush gives
    them their values (another thread may drop its own meanwhile)."""
    held = {}
    for i, r in enumerate(g.nodes):
        n = r()
        if n is not None:
            held[i] = n
    return held


def _donations(g, held):
    """The array leaves the flush may donate: held by the graph alone (no root, view, user,
    computed node or other pending graph: ``sys.getrefcount`` shows only the leaves list's
    reference and its own argument's), each matched to an output of its shape and dtype that
    XLA then writes in its place. A graph with floating-point checks donates only the leaves
    in-place writes replaced (``rebound``): the others, a temporary's buffer, stay for a
    replay (``fpcheck``)."""
    leaves = g.leaves
    candidates = [i for i in range(len(leaves))
                  if g.direct[i] and sys.getrefcount(leaves[i]) == 2
                  and (g.checks is None or i in g.rebound)]
    if not candidates:
        return ()
    free = {}
    for n in held.values():
        s = (n.shape, n.dtype)
        free[s] = free.get(s, 0) + 1
    donate = []
    for i in candidates:
        s = (leaves[i].shape, leaves[i].dtype)
        if free.get(s, 0) > 0:
            free[s] -= 1
            donate.append(i)
    return tuple(donate)


def _composed(key, split=False):
    """The function of a graph: leaves in, the output nodes' values out; ``split``: the leaves
    once per output, each output computed from its own copy."""
    wiring, kinds, outs, _, checks = key

    def values(wiring, leaves):
        vals = []

        def get(i):
            if type(i) is tuple:  # a view read (``_Read``): lenses, base, offsets
                return i[0](get(i[1]), leaves[i[2]])
            return vals[-1 - i] if i < 0 else leaves[i]
        for fn, w in wiring:
            vals.append(fn(*map(get, w)))
        return vals, get

    def flagged(results, vals, get):
        """``results`` and, with checks, the graph's flag (``fpcheck.flag``)."""
        if checks is None:
            return results
        found = fpcheck.flag(checks, outs,
                             lambda k: [get(i) for i in wiring[k][1]], vals)
        return results if found is None else results + (found,)

    fixed = {i: k[1] for i, k in enumerate(kinds) if type(k) is tuple}  # constant offsets

    def constants(leaves):
        """The leaves with each fixed view offset its constant (``devices.offsets_kind``)."""
        return tuple(fixed.get(i, a) for i, a in enumerate(leaves)) if fixed else leaves

    def run(*leaves):
        vals, get = values(wiring, constants(leaves))
        return flagged(tuple(vals[i] for i in outs), vals, get)

    def run_split(*copies):
        n = len(kinds)
        results = tuple(values(wiring[:o + 1], constants(copies[k * n:(k + 1) * n]))[0][o]
                        for k, o in enumerate(outs))
        if checks is None:
            return results
        vals, get = values(wiring, constants(copies[:n]))  # (the outputs' checks read ``results``)
        for o, r in zip(outs, results):
            vals[o] = r
        return flagged(results, vals, get)
    return run_split if split else run


