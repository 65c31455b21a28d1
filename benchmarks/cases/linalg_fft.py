"""numpy.linalg (det, inv, solve, svd, eigh) and numpy.fft (fft, rfft) side by side."""
import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case

LINALG_SIZES = (256, 1024)
FFT_SIZES = (2**16, 2**20)

LINALG = {
    "det": lambda xp, a, b: xp.linalg.det(a),
    "inv": lambda xp, a, b: xp.linalg.inv(a),
    "solve": lambda xp, a, b: xp.linalg.solve(a, b),
    "svd": lambda xp, a, b: xp.linalg.svd(a),
    "eigh": lambda xp, a, b: xp.linalg.eigh(a),
}
FFT = {
    "fft": lambda xp, x: xp.fft.fft(x),
    "rfft": lambda xp, x: xp.fft.rfft(x),
}


def _matrices(n):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n))
    a = a @ a.T / n + np.eye(n)  # symmetric positive definite: fits every operation
    b = rng.standard_normal(n)
    return {"numpy": (np, a, b), "jax": (jnp, jnp.asarray(a), jnp.asarray(b)),
            "tnp": (tnp, tnp.asarray(a), tnp.asarray(b))}


def _signal(n):
    x = np.random.default_rng(0).standard_normal(n)
    return {"numpy": (np, x), "jax": (jnp, jnp.asarray(x)), "tnp": (tnp, tnp.asarray(x))}


def _make(op, inputs, size):
    def build():
        ins = inputs(size)
        return {impl: (lambda args=args: op(*args)) for impl, args in ins.items()}
    return build


def cases(quick):
    lsizes = LINALG_SIZES[:1] if quick else LINALG_SIZES
    fsizes = FFT_SIZES[:1] if quick else FFT_SIZES
    out = [Case("linalg", name, n, _make(op, _matrices, n))
           for name, op in LINALG.items() for n in lsizes]
    out += [Case("fft", name, n, _make(op, _signal, n)) for name, op in FFT.items()
            for n in fsizes]
    return out
