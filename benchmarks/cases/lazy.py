"""Lazy fusion (``tnp._core.engine.lazy``, on by default): eager tnp with lazy recording off
("tnp") and on ("tnp lazy") against NumPy, jax.numpy and tnp_ext.jit on 1e6 float64 elements: a
chain of 20 elementwise operations and the sigmoid, and the chain with each of its four rounds in
a warnings block: ``errstate(under='ignore')`` (its exit leaves the graph fused) and
``warnings.catch_warnings()`` (its edges deliver the pending warnings: a flush per block,
``tnp._core.engine.warnblocks``). Each case also counts, per call, the lazy flushes (XLA
computations run for pending values) and the executables XLA built."""
import warnings

import jax
import jax.numpy as jnp
import numpy as np

import tnp
import tnp_ext
from benchmarks.runner import Case
from tnp._core import settings
from tnp._core.engine import caches, lazy


def chain(xp, x):
    """20 elementwise operations: four rounds of ``sqrt(y*y + 1) * 0.5 - 0.25``."""
    y = x
    for _ in range(4):
        y = xp.sqrt(y * y + 1.0) * 0.5 - 0.25
    return y


def chain_in_errstate(xp, x):
    """``chain``, each round in an ``errstate(under='ignore')`` block."""
    y = x
    for _ in range(4):
        with np.errstate(under="ignore"):
            y = xp.sqrt(y * y + 1.0) * 0.5 - 0.25
    return y


def chain_in_catch_warnings(xp, x):
    """``chain``, each round in a ``warnings.catch_warnings()`` block."""
    y = x
    for _ in range(4):
        with warnings.catch_warnings():
            y = xp.sqrt(y * y + 1.0) * 0.5 - 0.25
    return y


def sigmoid(xp, x):
    return 1.0 / (1.0 + xp.exp(-x))


def run(flag, program, *args, fp=True):
    """``program(tnp, *args)`` with lazy recording on or off (with it on, the result is pending
    until read: ``block`` reads it); ``fp``: the device tier's floating-point warning check
    (``TNP_FP_WARNINGS``; "tnp lazy fp off" runs without it: the check's cost)."""
    old = lazy.enable(flag)
    old_fp = settings.set("fp_warnings", fp)
    try:
        return program(tnp, *args)
    finally:
        lazy.enable(old)
        settings.set("fp_warnings", old_fp)


def counters():
    """Lazy flushes and executables built (``Case.counts``)."""
    return {"lazy flushes": lazy.STATS["flushes"], "XLA executables built":
            caches.executables_built()}


def _make(program, n):
    def make():
        x = np.linspace(-5, 5, n)
        j = jnp.asarray(x)
        t = tnp.asarray(j)  # a device-tier array
        tj = tnp_ext.jit(lambda a: program(tnp, a))
        jj = jax.jit(lambda a: program(jnp, a))
        return {"numpy": lambda: program(np, x), "jax": lambda: program(jnp, j),
                "jax.jit": lambda: jj(j), "tnp": lambda: run(False, program, t),
                "tnp lazy": lambda: run(True, program, t),
                "tnp lazy fp off": lambda: run(True, program, t, fp=False),
                "tnp_ext.jit": lambda: tj(t)}
    return make


def cases(quick):
    n = 100_000 if quick else 1_000_000
    return [Case("lazy", "chain of 20 elementwise ops", n, _make(chain, n), counts=counters),
            Case("lazy", "sigmoid", n, _make(sigmoid, n), counts=counters),
            Case("lazy", "chain, each round in an errstate block", n,
                 _make(chain_in_errstate, n), counts=counters),
            Case("lazy", "chain, each round in a catch_warnings block", n,
                 _make(chain_in_catch_warnings, n), counts=counters)]
