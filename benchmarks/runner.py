"""The one benchmark runner: every case timed for each implementation in one process.

A case gives, per implementation name (usually "numpy", "jax", "jax.jit", "tnp", "tnp_ext.jit";
a case may add its own), a zero-argument callable built from shared inputs. Each is warmed up
(compiles), then the implementations are timed in turns, ``repeats`` samples each, with JAX
results blocked on; medians and ratios are reported. The turns rotate and every other round
runs backwards, so no implementation always follows the same one (the one after a close
relative ran warmer: "tnp lazy fp off" after "tnp lazy" read 1.10 where, swapped, 0.97-1.02).
"""
import contextlib
import dataclasses
import statistics
import time
from typing import Callable

import jax
import numpy as np

from tnp import ndarray


@dataclasses.dataclass
class Case:
    group: str
    name: str
    size: object
    make: Callable[[], dict]  # -> {impl name: zero-argument callable}
    repeats: int = None  # overrides the runner's count (slow cases: subprocesses)
    context: Callable = None  # a context manager factory the case is built and timed in
    counts: Callable[[], dict] = None  # cumulative counters (name -> int): see ``_counts``
    measure: Callable[[], dict] = None  # a case that measures itself: -> its results row
    # (``benchmarks/fresh.py``: each sample a fresh process); ``make`` is then unused


_DONE = (np.ndarray, np.generic, int, float, complex, bool)  # host values: nothing to wait for


def block(x):
    """Wait for device work behind ``x`` (tnp arrays, jax arrays, pytrees of them). A single
    array or scalar is blocked on directly, so that no implementation pays for a pytree
    traversal (NumPy's results would otherwise pay ~3 µs per call, which hides per-call
    overheads in the dispatch basket)."""
    if type(x) in _DONE or isinstance(x, (np.ndarray, np.generic)):
        return x
    if isinstance(x, (ndarray, jax.Array)):
        _block_one(x)
    else:
        for leaf in jax.tree_util.tree_leaves(x, is_leaf=lambda v: isinstance(v, ndarray)):
            _block_one(leaf)
    return x


def _block_one(x):
    if isinstance(x, ndarray):
        if x._on_host:  # the host tier: NumPy has finished
            return
        x = x._value  # the root's buffer, or a view's read through its lenses
    if isinstance(x, jax.Array):
        x.block_until_ready()


def _calls_per_sample(fn, target_s):
    """How many calls make one sample last about ``target_s`` (at least one)."""
    t0 = time.perf_counter()
    block(fn())
    return max(1, int(target_s / max(time.perf_counter() - t0, 1e-9)))


def run_case(case, repeats, sample_s=2e-3, warmup=2):
    """Median seconds per call of each implementation of ``case``. The implementations are
    timed in turns (round-robin, the order rotating every round), so that a change in the
    machine's load falls on all of them alike; each turn starts with one untimed call, and its
    sample is a batch of calls lasting about ``sample_s`` (each result blocked on), so that
    microsecond calls are not timer noise. A case with ``measure`` gives its row itself."""
    if case.measure is not None:
        return case.measure()
    with (case.context() if case.context is not None else contextlib.nullcontext()):
        return _run_case(case, repeats, sample_s, warmup)


def _run_case(case, repeats, sample_s, warmup):
    fns = case.make()
    if case.repeats is not None:
        repeats = case.repeats
    for fn in fns.values():
        for _ in range(warmup):
            block(fn())
    numbers = {impl: _calls_per_sample(fn, sample_s) for impl, fn in fns.items()}
    samples = {impl: [] for impl in fns}
    impls = list(fns)
    for r in range(repeats):
        turn = impls[r % len(impls):] + impls[:r % len(impls)]
        for impl in turn[::-1] if r % 2 else turn:
            fn, n = fns[impl], numbers[impl]
            block(fn())  # untimed: wakes the thread pools the previous implementation idled
            t0 = time.perf_counter()
            for _ in range(n):
                block(fn())
            samples[impl].append((time.perf_counter() - t0) / n)
    t = {impl: statistics.median(v) for impl, v in samples.items()}
    row = {"group": case.group, "name": case.name, "size": case.size, "median_s": t}
    row["ratios"] = {f"{a}/{b}": t[a] / t[b] for a, b in RATIOS if a in t and b in t}
    if case.counts is not None:
        row["counts"] = _counts(fns, case.counts)
    return row


def _counts(fns, counters):
    """How much each of ``counters()`` grows over one more call of each implementation (its
    result blocked on), after the timing: e.g. the computations a call runs or compiles."""
    out = {}
    for impl, fn in fns.items():
        before = counters()
        block(fn())
        after = counters()
        out[impl] = {k: after[k] - before[k] for k in after}
    return out


# The ratios reported: tnp eager against NumPy and jax.numpy eager, tnp eager with lazy fusion
# on against NumPy and tnp_ext.jit, tnp_ext.jit against hand-written jax.jit and NumPy, and
# hand-written jax.jit against NumPy (what XLA itself gains on the machine, the reference for
# tnp_ext.jit/numpy).
RATIOS = (("tnp", "numpy"), ("tnp lazy", "numpy"), ("tnp lazy", "tnp_ext.jit"), ("tnp", "jax"),
          ("tnp host", "numpy"), ("tnp host", "tnp"), ("tnp_ext.jit", "jax.jit"),
          ("tnp_ext.jit", "numpy"), ("jax.jit", "numpy"), ("floor wrapper", "numpy"),
          ("tnp", "floor wrapper"), ("NumPy tier", "XLA compile+run"),
          ("est. NumPy tier", "est. XLA compile+run"), ("tnp lazy", "tnp lazy fp off"))
