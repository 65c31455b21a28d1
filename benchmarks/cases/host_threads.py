"""Large host-tier ufunc calls split across cores (``tnp._core.dispatch.host_threads``): a cheap
loop (a comparison, a product) and loops that compute (``exp``, the absolute value of complex
numbers) over 3e5 ... 1.6e7 float64 (complex128) elements, tnp on host-tier arrays with one
thread and with every core, beside NumPy (one core) and jax.jit. The crossovers it shows set
``host_threads.MIN_PIECE`` and ``MIN_PIECE_COSTLY``.

Masked steps over the same sizes (``tnp._core.dispatch.host_pieces``: compactions kept in
pieces), complex128 with a coherent mask of about half the elements (a disc, as the Mandelbrot's
masks are): the compaction ``z[m]``, the write of a scalar ``n[m] = 3``, and the masked update
``z[m] = z[m] * 0.5 + c[m]`` (jax.jit: ``where`` over the whole arrays)."""
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


def _masked_update(xp, z, c, n, m):
    z[m] = z[m] * 0.5 + c[m]


MASKED = {"compaction": lambda xp, z, c, n, m: z[m],  # z[m]
          "masked fill": lambda xp, z, c, n, m: n.__setitem__(m, 3),  # n[m] = 3
          "masked update": _masked_update}


def _make_masked(name, size):
    def make():
        side = int(size ** 0.5)
        y, x = np.ogrid[-1:1:side * 1j, -1:1:(size // side) * 1j]
        c = (x + 1j * y).astype(np.complex128)
        m = abs(c) < 0.8
        z = c * 0.25
        n = np.zeros(c.shape, dtype=np.int64)
        t = _on_host(1, lambda: tuple(map(tnp.array, (z, c, n, m))))()
        op = MASKED[name]
        out = {"numpy": lambda: op(np, z, c, n, m),
               "tnp, one thread": _on_host(1, lambda: op(tnp, *t)),
               "tnp": _on_host(0, lambda: op(tnp, *t))}
        if name == "masked update":
            jz, jc, jm = map(jnp.asarray, (z, c, m))
            step = jax.jit(lambda z, c, m: jnp.where(m, z * 0.5 + c, z))
            out["jax.jit"] = lambda: step(jz, jc, jm)
        return out
    return make


def cases(quick):
    sizes = (1_000_000,) if quick else (300_000, 600_000, 1_000_000, 4_000_000, 16_000_000)
    return ([Case("host threads", name, n, _make(name, n)) for name in OPS for n in sizes]
            + [Case("host threads", name, n, _make_masked(name, n)) for name in MASKED
               for n in sizes])
