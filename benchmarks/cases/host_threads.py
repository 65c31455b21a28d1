"""Large host-tier ufunc calls split across cores (``tnp._core.dispatch.host_threads``): a cheap
loop (a comparison, a product) and loops that compute (``exp``, the absolute value of complex
numbers) over 3e5 ... 1.6e7 float64 (complex128) elements, tnp on host-tier arrays with one
thread and with every core, beside NumPy (one core) and jax.jit. The crossovers it shows set
``host_threads.MIN_PIECE`` and ``MIN_PIECE_COSTLY``."""
import jax
import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case
from tnp._core import settings

OPS = {"less": lambda xp, a, b: a < b, "multiply": lambda xp, a, b: a * b,
       "exp": lambda xp, a, b: xp.exp(a), "absolute": lambda xp, a, b: xp.absolute(a)}


def _on_host(threads, fn):
    """``fn`` with every array on the host tier (the threshold over them) and ``threads``."""
    def run():
        previous = settings.update(placement="auto", host_threshold=1 << 40,
                                   host_threads=threads)
        try:
            return fn()
        finally:
            settings.restore(previous)
    return run


def _make(name, size):
    def make():
        rng = np.random.default_rng(0)
        x, y = rng.standard_normal(size), rng.standard_normal(size)
        if name == "absolute":  # of complex numbers (a hypot per element)
            x = x + 1j * y
        t, u = _on_host(1, lambda: (tnp.asarray(x), tnp.asarray(y)))()
        j, k = jnp.asarray(x), jnp.asarray(y)
        op = OPS[name]
        jj = jax.jit(lambda a, b: op(jnp, a, b))
        return {"numpy": lambda: op(np, x, y), "jax.jit": lambda: jj(j, k),
                "tnp, one thread": _on_host(1, lambda: op(tnp, t, u)),
                "tnp": _on_host(0, lambda: op(tnp, t, u))}
    return make


def cases(quick):
    sizes = (1_000_000,) if quick else (300_000, 600_000, 1_000_000, 4_000_000, 16_000_000)
    return [Case("host threads", name, n, _make(name, n)) for name in OPS for n in sizes]
