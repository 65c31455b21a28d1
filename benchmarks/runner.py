"""The one benchmark runner: every case timed for each implementation in one process.

A case gives, per implementation name (usually "numpy", "jax", "jax.jit", "tnp", "tnp_ext.jit";
a case may add its own), a zero-argument callable built from shared inputs. Each is warmed up (compiles), then timed
``repeats`` times with JAX results blocked on; medians and ratios are reported.
"""
import dataclasses
import statistics
import time
from typing import Callable

import jax

@dataclasses.dataclass
class Case:
    group: str
    name: str
    size: object
    make: Callable[[], dict]  # -> {impl name: zero-argument callable}
    repeats: int = None  # overrides the runner's count (slow cases: subprocesses)


def block(x):
    """Wait for device work behind ``x`` (tnp arrays, jax arrays, pytrees of them)."""
    leaves = jax.tree_util.tree_leaves(x)
    for leaf in leaves:
        value = getattr(leaf, "_value", leaf)  # a tnp view's value is its read kernel's output
        if hasattr(value, "block_until_ready"):
            value.block_until_ready()
    return x


def time_call(fn, repeats=30, min_seconds=0.0, warmup=2):
    """Median seconds of one call of ``fn`` (its result blocked on)."""
    for _ in range(min(warmup, repeats)):
        block(fn())
    samples = []
    start = time.perf_counter()
    while len(samples) < repeats or time.perf_counter() - start < min_seconds:
        t0 = time.perf_counter()
        block(fn())
        samples.append(time.perf_counter() - t0)
        if len(samples) >= 20 * repeats:
            break
    return statistics.median(samples)


def run_case(case, repeats):
    fns = case.make()
    if case.repeats is not None:
        repeats = case.repeats
    row = {"group": case.group, "name": case.name, "size": case.size, "median_s": {}}
    for impl, fn in fns.items():
        row["median_s"][impl] = time_call(fn, repeats)
    t = row["median_s"]
    row["ratios"] = {f"{a}/{b}": t[a] / t[b] for a, b in RATIOS if a in t and b in t}
    return row


# The ratios reported: tnp eager against NumPy and jax.numpy eager, tnp_ext.jit against
# hand-written jax.jit and NumPy.
RATIOS = (("tnp", "numpy"), ("tnp", "jax"), ("tnp_ext.jit", "jax.jit"), ("tnp_ext.jit", "numpy"))
