"""What a pending graph's values can be, known without reading them, so a flush leaves out the
floating-point checks (``fpcheck``) that cannot fire: a check is a second pass over an output
on XLA's CPU backend (no multi-output fusion), up to a third of a fused loop's time.

A device buffer is immutable, so what is known of its elements holds as long as it lives
(``_FACTS``, by identity, dropped with the buffer): a range (``numerics/intervals``: every
element finite, within it) measured or proved, or that it was seen. A flush of a large graph
with checks (``prove``) takes its leaves' ranges (a device buffer's fact; an integer or boolean
dtype's range; a Python number's value; a host array's extremes when it is small beside the
graph), carries them through the nodes' rules (ufunc loops, sums, matrix products, view reads;
an integer or boolean result is its dtype's range; a node without a rule is not known) and
drops each check its node's ranges prove false (``fperr.Check.proved``); the outputs' proved
ranges become their buffers' facts, so a loop's next graph starts from them. A float device
leaf seen by an earlier such flush, with no range known, is measured by this one when a check
is left (its minimum and maximum, a kernel dispatched beside the graph, read when ready: no
wait), so a buffer read by a loop is measured once and its checks are gone from the third
iteration on; one seen once is never measured.
"""
import functools
import math
import numbers
import weakref

import numpy as np

from .jaxload import ArrayImpl, jit, jnp

MIN_BYTES = 1 << 19  # a graph's bytes (``Graph.bytes``) from which a flush tries a proof
HOST_SHARE = 8  # a host leaf's extremes are taken when a graph has this many times its bytes
STATS = {"proved": 0, "measured": 0}  # graphs proved free of checks; leaves measured
PROOFS = 256  # proofs kept (``prove``)
_PROOFS = {}

_FACTS = {}  # id(buffer) -> (weak reference to it, fact: a range, _SEEN, _UNKNOWN or stats)
_SEEN = "seen"  # a leaf of one proof attempt: measured at the next
_UNKNOWN = "unknown"  # measured and found not finite, or not measurable


@functools.cache
def dtype_range(dt):
    """The range of every value of the integer or boolean dtype ``dt`` (None for others)."""
    if dt.kind == "b":
        return (0.0, 1.0)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return (float(info.min), float(info.max))
    return None


def _fact(x):
    e = _FACTS.get(id(x))
    return e[1] if e is not None and e[0]() is x else None


def _note(x, fact):
    i = id(x)

    def gone(ref):
        e = _FACTS.get(i)
        if e is not None and e[0] is ref:
            del _FACTS[i]
    _FACTS[i] = (weakref.ref(x, gone), fact)


def _device_leaf(a):
    """A device leaf's range (None when not known) and whether to measure it now."""
    dt = a.dtype
    if dt.kind != "f":
        return dtype_range(dt), False
    if a.size == 0:
        return None, False
    f = _fact(a)
    if type(f) is tuple or f is _UNKNOWN:
        return (f if type(f) is tuple else None), False
    if f is None:
        _note(a, _SEEN)
        return None, False
    if f is _SEEN:
        return None, not a.is_deleted()
    try:  # measured by an earlier flush: read once computed
        ready = f.is_ready()
    except RuntimeError:  # (deleted)
        ready, f = True, None
    if not ready:
        return None, False
    lo, hi = (float(v) for v in np.asarray(f)) if f is not None else (math.nan,) * 2
    r = (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None
    _note(a, r or _UNKNOWN)
    return r, False


def _leaf(a, kind, budget):
    """A leaf's range (None when not known) and whether to measure it (``_device_leaf``); a
    float host array's extremes are taken when its bytes are at most ``budget``."""
    if kind is None:
        return _device_leaf(a) if type(a) is ArrayImpl else (None, False)
    if kind is np.ndarray:
        if a.dtype.kind != "f":
            return dtype_range(a.dtype), False
        if not 0 < a.nbytes <= budget:
            return None, False
        lo, hi = float(a.min()), float(a.max())
        return ((lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None), False
    if isinstance(a, (bool, np.bool_)):
        return (float(a), float(a)), False
    if isinstance(a, numbers.Real):
        v = float(a)
        return ((v, v) if math.isfinite(v) else None), False
    return None, False


def prove(g, wiring, outs):
    """For the graph ``g`` with checks (``wiring``: its wiring as a tuple) being flushed with
    outputs ``outs`` (node positions): its checks with those its ranges prove false left out
    (None when it is too small to try) and the outputs' proved ranges by position; the leaves
    to measure, when a check is left, are measured (``_extremes``, dispatched now). The proof
    of a wiring and its rules from the same leaf ranges is kept (``_PROOFS``: a loop's graph
    is proved once)."""
    if g.bytes < MIN_BYTES:
        return None, {}
    p = g.proof
    if p is not None and p[0] == len(wiring):  # proved as it grew (``quiet``)
        return (None,) * len(wiring), {k: p[1][k] for k in outs if p[1][k] is not None}
    leaves, measure = [], []
    for a, kind in zip(g.leaves, g.kinds):
        r, m = _leaf(a, kind, g.bytes // HOST_SHARE)
        leaves.append(r)
        if m:
            measure.append(a)
    checks, ranges = _kept(g, wiring, outs, tuple(leaves))
    if checks is None:
        return (None,) * len(g.checks), ranges
    for a in measure:
        _note(a, _extremes(a))
    STATS["measured"] += len(measure)
    return tuple(c if left is not None else None for c, left in zip(g.checks, checks)), ranges


def quiet(g):
    """Whether the pending graph ``g``'s checks are proved false whichever of its nodes its
    flush computes (every node taken as an output): it cannot warn. Proved as the graph grows
    (``Graph.proof``: the nodes proved, their ranges, the leaves'), each node once."""
    if g.bytes < MIN_BYTES:
        return False
    p = g.proof
    if p is None:
        p = g.proof = [0, [], []]
    done, vals, leaves = p
    if done < 0:
        return False
    for i in range(len(leaves), len(g.leaves)):
        leaves.append(_leaf(g.leaves[i], g.kinds[i], g.bytes // HOST_SHARE)[0])
    wiring, rules, checks = g.wiring, g.rules, g.checks
    for k in range(done, len(wiring)):
        codes = wiring[k][1]
        vals.append(_result(rules[k], codes, vals, leaves))
        c = checks[k]
        if c is not None and not c[0].proved([_range(i, vals, leaves) for i in codes],
                                             vals[k], True):
            p[0] = -1
            return False
    p[0] = len(wiring)
    return True


def _kept(g, wiring, outs, leaves):
    """``_proof``'s answer, kept by the graph's wiring, rules, outputs, leaf ranges and
    checks."""
    key = (wiring, tuple(g.rules), outs, leaves, tuple(c and c[0] for c in g.checks))
    found = _PROOFS.get(key)
    if found is None:
        if len(_PROOFS) >= PROOFS:
            _PROOFS.clear()
        found = _PROOFS[key] = _proof(g, wiring, outs, leaves)
    return found


def _proof(g, wiring, outs, leaves):
    """``prove``'s checks left (per node, None or its check; None when every one is proved)
    and the outputs' ranges, from the leaves' ranges."""
    vals = []
    for _, codes in wiring:
        vals.append(_result(g.rules[len(vals)], codes, vals, leaves))
    held = frozenset(outs)
    checks = [c and c[0] for c in g.checks]
    for k, c in enumerate(checks):
        if c is not None and c.proved([_range(i, vals, leaves) for i in wiring[k][1]], vals[k],
                                      k in held):
            checks[k] = None
    if all(c is None for c in checks):
        STATS["proved"] += 1
        checks = None
    return checks, {k: vals[k] for k in outs if vals[k] is not None}


def _range(code, vals, leaves):
    """The range of an operand (``Graph.wiring``'s code) from the nodes' ``vals`` and the
    leaves' ranges: a view read is within its base's range, unless it reinterprets the bytes
    (a last False in its code)."""
    while type(code) is tuple:
        if len(code) > 3:
            return None
        code = code[1]
    return vals[-1 - code] if code < 0 else leaves[code]


def _result(rule, codes, vals, leaves):
    """A node's range: its rule's on its operands' ranges (``x * x``: the same value twice),
    a constant range, or None."""
    if rule is None or type(rule) is tuple:
        return rule
    return rule([_range(c, vals, leaves) for c in codes], len(codes) == 2 and codes[0] == codes[1])


def noted(outputs, ranges):
    """The proved ranges of a flush's outputs (``{position: buffer}``, ``{position: range}``)
    kept as their buffers' facts."""
    for k, r in ranges.items():
        v = outputs.get(k)
        if type(v) is ArrayImpl:
            _note(v, r)


@jit
def _extremes(x):
    """A float leaf's minimum and maximum (float64; NaN when it holds one): a kernel of its
    own, read once computed (a graph's extra outputs would make its graph a new executable)."""
    return jnp.stack([jnp.min(x), jnp.max(x)]).astype(np.float64)
