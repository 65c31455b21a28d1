"""tnp.random: normals and uniforms, exact engine vs device engine vs NumPy.

Each size gives two rows per distribution: ``<dist> exact`` (tnp's exact engine, NumPy's code on
the host then one transfer to the device) and ``<dist> device`` (tnp's device engine, jitted
threefry; "jax.jit" is ``jax.random`` split-and-draw jitted, "tnp_ext.jit" the device
generator inside ``tnp_ext.jit``). NumPy is ``numpy.random.default_rng`` in both rows.
"""
import jax
import numpy as np

import tnp
import tnp_ext
from benchmarks.runner import Case


def _numpy(dist, n):
    rng = np.random.default_rng(0)
    return lambda: getattr(rng, dist)(size=n)


def _exact(dist, n):
    def make():
        rng = tnp.random.default_rng(0)
        return {"numpy": _numpy(dist, n), "tnp": lambda: getattr(rng, dist)(size=n)}
    return make


def _device(dist, n):
    def make():
        rng = tnp.random.default_rng(tnp.random.Threefry(0))
        sampler = {"standard_normal": jax.random.normal, "random": jax.random.uniform}[dist]
        state = {"key": jax.random.key(0)}

        @jax.jit
        def draw(key):
            key, sub = jax.random.split(key)
            return key, sampler(sub, (n,), np.float64)

        def jitted_jax():
            state["key"], out = draw(state["key"])
            return out
        compiled = tnp_ext.jit(lambda: getattr(rng, dist)(size=n))
        return {"numpy": _numpy(dist, n), "jax.jit": jitted_jax, "tnp_ext.jit": compiled,
                "tnp": lambda: getattr(rng, dist)(size=n)}
    return make


def cases(quick):
    sizes = (10**3, 10**6) if quick else (10**3, 10**6, 10**7)
    out = []
    for n in sizes:
        for dist in ("standard_normal", "random"):
            out.append(Case("random", f"{dist} exact", n, _exact(dist, n)))
            out.append(Case("random", f"{dist} device", n, _device(dist, n)))
    return out
