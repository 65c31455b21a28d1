"""In-place writes: scalar, slice, fancy-index and ``+=`` on a slice at 1e3, 1e5 and 1e7
elements. NumPy writes in place; jax.numpy builds a new array with ``.at[].set`` (eager);
tnp writes through its cached update kernel with a donated buffer. The index moves every call
(a different dynamic operand each time: no recompilation, no cached result)."""
import itertools

import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case

SIZES = (10**3, 10**5, 10**7)
SPAN = 100


def _positions(n):
    return itertools.cycle(range(0, n - SPAN, max(1, (n - SPAN) // 97)))


def _make(kind, n):
    def make():
        idx = np.random.default_rng(0).integers(0, n, SPAN)
        host, jstate, dev = np.zeros(n), {"x": jnp.zeros(n)}, tnp.zeros(n)
        jidx, tidx = jnp.asarray(idx), tnp.asarray(idx)
        pos = {"numpy": _positions(n), "jax": _positions(n), "tnp": _positions(n)}

        def numpy_call():
            i = next(pos["numpy"])
            if kind == "scalar write":
                host[i] = 1.0
            elif kind == "slice write":
                host[i:i + SPAN] = 1.0
            elif kind == "fancy-index write":
                host[idx] = float(i)
            else:
                host[i:i + SPAN] += 1.0
            return host

        def jax_call():
            i, x = next(pos["jax"]), jstate["x"]
            if kind == "scalar write":
                x = x.at[i].set(1.0)
            elif kind == "slice write":
                x = x.at[i:i + SPAN].set(1.0)
            elif kind == "fancy-index write":
                x = x.at[jidx].set(float(i))
            else:
                x = x.at[i:i + SPAN].add(1.0)
            jstate["x"] = x
            return x

        def tnp_call():
            i = next(pos["tnp"])
            if kind == "scalar write":
                dev[i] = 1.0
            elif kind == "slice write":
                dev[i:i + SPAN] = 1.0
            elif kind == "fancy-index write":
                dev[tidx] = float(i)
            else:
                dev[i:i + SPAN] += 1.0
            return dev
        return {"numpy": numpy_call, "jax": jax_call, "tnp": tnp_call}
    return make


def cases(quick: bool):
    kinds = ("scalar write", "slice write", "fancy-index write", "+= on a slice")
    return [Case("writes", kind, n, _make(kind, n)) for kind in kinds for n in SIZES]
