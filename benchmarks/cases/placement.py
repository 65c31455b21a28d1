"""The host tier's crossover: the same operation on a host-tier tnp array (NumPy runs it), on a
device-tier one (an XLA dispatch) and in NumPy, from 10 to 10**6 elements. Where "tnp host" /
"tnp" passes 1, the device is faster: ``tiers.THRESHOLD`` (``TNP_HOST_THRESHOLD``) should sit
there for the machine's device.

The cold tier's crossover (``cold tier crossover``, issue 36): a cold graph of ``k`` primitives
(a chain: a quarter of them transcendental, as in
the N-body step) over ``n`` elements, its first sighting on the NumPy
tier (trace and run: ``tiering.call`` forced cold) against XLA's compile and run (persistent
cache off), a load from the persistent cache and run, and the compiled run; beside them, the
cost rule's estimates (``tiercost``: "est. NumPy tier", "est. XLA compile+run"). Where
"NumPy tier/XLA compile+run" passes 1 XLA pays at the first sighting; the rule compiles there
when "est. NumPy tier/est. XLA compile+run" passes 1. ``fit(results.json)`` refits
``tiercost``'s constants to a run of it.
"""
import contextlib
import os
import statistics
import subprocess
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case
from tnp._core import settings
from tnp._core.dispatch import tiers
from tnp._core.engine import compilecache, tiercost, tiering

SIZES = (10, 100, 1_000, 10_000, 100_000, 1_000_000)

OPS = {
    "add": lambda a, b: a + b,
    "sum": lambda a, b: a.sum(),
    "sin": lambda a, b: tnp.sin(a) if isinstance(a, tnp.ndarray) else np.sin(a),
    "a * 2 + b": lambda a, b: a * 2.0 + b,
}


@contextlib.contextmanager
def _host_tier():
    """Host-tier arrays of every size: the mode "auto" with no size limit (device-tier arrays
    are made from jax.Arrays, which stay on the device in any mode)."""
    previous = tiers.configure("auto", threshold=2**62)
    try:
        yield
    finally:
        tiers.configure(*previous)


def cases(quick):
    sizes = SIZES[:4] if quick else SIZES

    def make(op, n):
        def build():
            a, b = np.linspace(-1, 1, n), np.linspace(2, 3, n)
            ha, hb = tnp.asarray(a), tnp.asarray(b)
            da, db = tnp.asarray(jnp.asarray(a)), tnp.asarray(jnp.asarray(b))
            assert ha._on_host and not da._on_host
            return {"numpy": lambda: op(a, b), "tnp": lambda: op(da, db),
                    "tnp host": lambda: op(ha, hb)}
        return build
    loop_n = 100

    def loop():
        a = np.arange(loop_n)
        h, d = tnp.asarray(a), tnp.asarray(jnp.asarray(a))
        return {"numpy": lambda: _element_loop(a, a), "tnp": lambda: _element_loop(d, d),
                "tnp host": lambda: _element_loop(h, h)}
    return [Case("placement", name, n, make(op, n), context=_host_tier)
            for name, op in OPS.items() for n in sizes] + [
        Case("placement", "element loop r += x[i] * y[j]", (loop_n, loop_n), loop, repeats=3,
             context=_host_tier)] + [
        Case("placement cold tier", f"cold {kind} chain", (k, n), None,
             measure=lambda kind=kind, k=k, n=n: _crossover(kind, k, n, 3 if quick else 5))
        for kind in ("arithmetic", "sin", "mixed")
        for k, n in (SWEEP_QUICK if quick else SWEEP)]


SWEEP = [(k, n) for k in (1, 4, 16, 64) for n in (100, 10_000, 100_000, 1_000_000, 4_000_000)]
SWEEP_QUICK = [(1, 1_000), (8, 100_000), (32, 1_000_000)]


def _chain(kind, k):
    """A fresh function (its own jit caches) of ``k`` steps: ``z * y``, ``z + 1.5``, ``z - y``
    in turn (``"arithmetic"``: a primitive each), ``sin`` (``"sin"``), or ``z * y``,
    ``cos(z)``, ``where(z > 0.5, z, y)``, ``z - z.mean()`` (``"mixed"``: 1-4 primitives)."""
    def step(i, z, y):
        if kind == "sin":
            return jnp.sin(z)
        if kind == "arithmetic":
            return z * y if i % 3 == 0 else z + 1.5 if i % 3 == 1 else z - y
        return (z * y if i % 4 == 0 else jnp.cos(z) if i % 4 == 1 else
                jnp.where(z > 0.5, z, y) if i % 4 == 2 else z - z.mean())

    def chain(x, y):
        z = x
        for i in range(k):
            z = step(i, z, y)
        return z
    return chain


def _time(fn, repeats):
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(fn())
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def _crossover(kind, k, n, repeats):
    """The row of the cold tier's crossover: a ``kind`` chain of ``k`` steps over ``n``
    elements (its size: the primitives and ``n``)."""
    a, b = np.linspace(-1, 1, n), np.linspace(0.5, 1, n)
    x, y = jnp.asarray(a), jnp.asarray(b)
    closed = jax.make_jaxpr(_chain(kind, k))(x, y)
    size = tiercost.size(closed.jaxpr)
    previous = settings.update(cold="force")
    try:
        cold = _time(lambda: tiering.call(object(), (x, y), _chain(kind, k), None), repeats)
    finally:
        settings.restore(previous)
    on = jax.config.jax_enable_compilation_cache
    jax.config.update("jax_enable_compilation_cache", False)
    try:
        compile_run = _time(lambda: jax.jit(_chain(kind, k))(x, y), repeats)
    finally:
        jax.config.update("jax_enable_compilation_cache", on)
    jax.block_until_ready(jax.jit(_chain(kind, k))(x, y))  # (into the persistent cache)
    load_run = _time(lambda: jax.jit(_chain(kind, k))(x, y), repeats)
    steady = jax.jit(_chain(kind, k))
    jax.block_until_ready(steady(x, y))
    if kind == "mixed":  # (a program's compile: in a fresh process, as a program's first ones)
        fresh = {"XLA compile+run, fresh process": _fresh(kind, k, n, cached=False),
                 "XLA cache load+run, fresh process": _fresh(kind, k, n, cached=True)}
    else:
        fresh = {}
    t = {"numpy": _time(lambda: _chain(kind, k)(a, b), repeats), "NumPy tier": cold,
         "XLA compile+run": compile_run, "XLA cache load+run": load_run,
         "XLA compiled run": _time(lambda: steady(x, y), repeats), **fresh,
         "est. NumPy tier": tiercost.numpy_s(*size),
         "est. XLA compile+run": tiercost.compile_s(*size)}
    ratios = {"NumPy tier/XLA compile+run": cold / compile_run,
              "est. NumPy tier/est. XLA compile+run":
                  t["est. NumPy tier"] / t["est. XLA compile+run"]}
    return {"group": "placement cold tier", "name": f"cold {kind} chain", "size": (size[0], n),
            "median_s": t, "ratios": ratios}


_FRESH = """
import sys, time
import jax
from benchmarks.cases.placement import _chain
kind, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
x, y = jax.numpy.linspace(-1, 1, n), jax.numpy.linspace(0.5, 1, n)
jax.block_until_ready((x, y))
t0 = time.perf_counter()
jax.block_until_ready(jax.jit(_chain(kind, k))(x, y))
print(time.perf_counter() - t0)
"""


def _fresh(kind, k, n, cached):
    """Seconds of the chain's first call (trace, compile or load from this process's
    persistent cache, run) in a fresh process: the compile a program's first graphs pay."""
    env = dict(os.environ, TNP_COMPILATION_CACHE_DIR=compilecache.directory(),
               TNP_COMPILATION_CACHE="1" if cached else "0")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", _FRESH, kind, str(k), str(n)], env=env,
                         cwd=root, check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def fit(path):
    """``tiercost``'s constants fitted to the crossover rows of a run's ``results.json``: the
    NumPy tier's base and per-primitive seconds (least squares, relative errors) on the rows of
    at most 10,000 elements, where its Python dominates; its per-element seconds, arithmetic and
    transcendental, the median over the rows of 10**6 elements or more of the arithmetic and
    ``sin`` chains, the overhead taken off; XLA's compile (the compile+run less the compiled
    run) and load by least squares over the ``mixed`` rows of at most 100,000 elements (a
    program's graphs; the run does not drown the compile there), each the first call in a fresh
    process, its run's per-element seconds as NumPy's."""
    import json
    rows = [r for r in json.load(open(path))["rows"] if r["group"] == "placement cold tier"]
    k = np.array([float(r["size"][0]) for r in rows])
    n = np.array([float(r["size"][1]) for r in rows])
    kind = np.array([r["name"].split()[1] for r in rows])
    names = {name for r in rows for name in r["median_s"]}
    t = {name: np.array([r["median_s"].get(name, np.nan) for r in rows]) for name in names}

    def lsq(y, mask):
        m = np.stack([np.ones_like(k), k], axis=1)[mask] / y[mask, None]
        return np.linalg.lstsq(m, np.ones(int(mask.sum())), rcond=None)[0]
    small, large = n <= 10_000, n >= 1_000_000
    arith, sin, build = kind == "arithmetic", kind == "sin", (kind == "mixed") & (n <= 100_000)
    base, per_eqn = lsq(t["NumPy tier"], small)
    tier = (t["NumPy tier"] - base - per_eqn * k) / (k * n)
    run = t["XLA compiled run"] / (k * n)
    return {"NUMPY_BASE, NUMPY_PER_EQN": (base, per_eqn),
            "NUMPY_PER_ELEMENT": np.median(tier[large & arith]),
            "NUMPY_PER_TRANSCENDENTAL": np.median(tier[large & sin]),
            "COMPILE_BASE, COMPILE_PER_EQN": lsq(
                t["XLA compile+run, fresh process"] - t["XLA compiled run"], build),
            "LOAD_BASE, LOAD_PER_EQN": lsq(
                t["XLA cache load+run, fresh process"] - t["XLA compiled run"], build),
            "XLA_PER_ELEMENT": np.median(run[large & arith]),
            "XLA_PER_TRANSCENDENTAL": np.median(run[large & sin])}
