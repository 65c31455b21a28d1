"""Reductions and statistics on a medium array: tnp against NumPy and jax.numpy."""
import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case

OPS = {
    "sum axis 0": lambda xp, m: xp.sum(m, axis=0),
    "mean": lambda xp, m: xp.mean(m),
    "std axis 1": lambda xp, m: xp.std(m, axis=1),
    "argmax axis 1": lambda xp, m: xp.argmax(m, axis=1),
    "cumsum axis 0": lambda xp, m: xp.cumsum(m, axis=0),
    "nanmean axis 0": lambda xp, m: xp.nanmean(m, axis=0),
    "median axis 1": lambda xp, m: xp.median(m, axis=1),
    "quantile 0.9": lambda xp, m: xp.quantile(m, 0.9, axis=0),
    "histogram 50": lambda xp, m: xp.histogram(m, bins=50)[0],
}


def cases(quick):
    n = 100 if quick else 1000

    def make(op):
        def build():
            m = np.random.default_rng(0).normal(size=(n, n))
            ins = {"numpy": (np, m), "jax": (jnp, jnp.asarray(m)), "tnp": (tnp, tnp.asarray(m))}
            return {impl: (lambda args=args: op(*args)) for impl, args in ins.items()}
        return build
    return [Case("reductions", name, (n, n), make(op)) for name, op in OPS.items()]
