"""The host tier's crossover: the same operation on a host-tier tnp array (NumPy runs it), on a
device-tier one (an XLA dispatch) and in NumPy, from 10 to 10**6 elements. Where "tnp host" /
"tnp" passes 1, the device is faster: ``tiers.THRESHOLD`` (``TNP_HOST_THRESHOLD``) should sit
there for the machine's device."""
import contextlib

import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case
from tnp._core.dispatch import tiers

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
             context=_host_tier)]


def _element_loop(x, y):
    """The issue's Python loop over elements (issue 19): NumPy scalars on the host tier."""
    r = 0
    for i in range(len(x)):
        for j in range(len(y)):
            r += x[i] * y[j]
    return r
