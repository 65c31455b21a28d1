"""Real workloads written once in plain NumPy (``xp`` is numpy or tnp), run unchanged under tnp
eagerly (lazy fusion off, "tnp", and on, "tnp lazy") and inside tnp_ext.jit, against NumPy and a
hand-written jax.jit version."""
import functools

import jax
import jax.numpy as jnp
import numpy as np

import tnp
import tnp_ext
from benchmarks.cases.lazy import counters, run
from benchmarks.runner import Case


# ---- the programs, in plain NumPy ---------------------------------------------------------
def kmeans_step(xp, x, centers):
    d = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    labels = d.argmin(axis=1)
    onehot = (labels[:, None] == xp.arange(centers.shape[0])[None, :]).astype(x.dtype)
    return (onehot.T @ x) / onehot.sum(axis=0)[:, None]


def nbody_step(xp, pos, vel, dt):
    diff = pos[None, :, :] - pos[:, None, :]
    r2 = (diff ** 2).sum(axis=2) + 1e-3
    acc = (diff / r2[:, :, None] ** 1.5).sum(axis=1)
    vel = vel + dt * acc
    return pos + dt * vel, vel


def mandelbrot(xp, c, iters):
    z = xp.zeros_like(c)
    count = xp.zeros(c.shape, dtype=xp.int64)
    for _ in range(iters):
        z = z * z + c
        count += (xp.abs(z) <= 2.0)
        z = xp.where(xp.abs(z) > 2.0, 2.0, z)
    return count


def pairwise(xp, x):
    sq = (x * x).sum(axis=1)
    return xp.sqrt(xp.maximum(sq[:, None] + sq[None, :] - 2.0 * (x @ x.T), 0.0))


def matmul(xp, a, b):
    return a @ b


def mlp_step(xp, w1, w2, x, y, lr):
    h = xp.tanh(x @ w1)
    err = h @ w2 - y
    g2 = h.T @ err / x.shape[0]
    gh = (err @ w2.T) * (1 - h * h)
    g1 = x.T @ gh / x.shape[0]
    return w1 - lr * g1, w2 - lr * g2


def heat(xp, u, steps):
    u = u.copy()
    for _ in range(steps):
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += 0.2 * lap
    return u


def _heat_jax(u, steps):
    for _ in range(steps):
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        u = u.at[1:-1, 1:-1].add(0.2 * lap)
    return u


def step_inputs(heat_steps):
    """Each workload's step and its NumPy inputs (seed 0), as the sharded benchmarks run them
    (``benchmarks/sharded_overhead.py``, ``benchmarks/communication.py``)."""
    rng = np.random.default_rng(0)
    return {
        "k-means step": (kmeans_step, (rng.normal(size=(100_000, 2)), rng.normal(size=(8, 2)))),
        "N-body step": (nbody_step, (rng.normal(size=(2000, 3)), np.zeros((2000, 3)), 0.01)),
        "Mandelbrot": (mandelbrot, (np.add.outer(np.linspace(-1.5, 1.5, 512) * 1j,
                                                 np.linspace(-2, 1, 512)), 50)),
        "pairwise distances": (pairwise, (rng.normal(size=(2000, 16)),)),
        "MLP training step": (mlp_step, (rng.normal(size=(64, 64)) / 8,
                                         rng.normal(size=(64, 1)) / 8,
                                         rng.normal(size=(512, 64)),
                                         rng.normal(size=(512, 1)), 0.1)),
        "2-D heat stencil": (heat, (rng.random((512, 512)), heat_steps)),
    }


def _workload(name, size, program, make_args, static=(), jax_program=None):
    def make():
        args = make_args()
        t_args = [tnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        j_args = [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        jitted_tnp = tnp_ext.jit(functools.partial(program, tnp), static_argnums=static)
        hand = jax.jit(jax_program or functools.partial(program, jnp), static_argnums=static)
        return {"numpy": lambda: program(np, *args),
                "tnp": lambda: run(False, program, *t_args),
                "tnp lazy": lambda: run(True, program, *t_args),
                "tnp lazy fp off": lambda: run(True, program, *t_args, fp=False),
                "tnp_ext.jit": lambda: jitted_tnp(*t_args),
                "jax.jit": lambda: hand(*j_args)}
    return Case("workloads", name, size, make, counts=counters)


def cases(quick):
    rng = np.random.default_rng(0)
    s = 10 if quick else 1
    n_pts, n_body, mb, pw, mm = 100_000 // s, 2000 // s, 512 // (s // 2 or 1), 2000 // s, 2048 // s
    mb = 512 if not quick else 128
    return [
        _workload("k-means step", f"{n_pts}x2, 8 clusters", kmeans_step,
                  lambda: (rng.normal(size=(n_pts, 2)), rng.normal(size=(8, 2)))),
        _workload("N-body step", n_body, nbody_step,
                  lambda: (rng.normal(size=(n_body, 3)), np.zeros((n_body, 3)), 0.01)),
        _workload("Mandelbrot", f"{mb}x{mb}x50", mandelbrot,
                  lambda: (np.add.outer(np.linspace(-1.5, 1.5, mb) * 1j,
                                        np.linspace(-2, 1, mb)), 50), static=(1,)),
        _workload("pairwise distances", f"{pw}x{pw}", pairwise,
                  lambda: (rng.normal(size=(pw, 16)),)),
        _workload("matmul", mm, matmul, lambda: (rng.normal(size=(mm, mm)),
                                                 rng.normal(size=(mm, mm)))),
        _workload("MLP training step", "512x64x64", mlp_step,
                  lambda: (rng.normal(size=(64, 64)) / 8, rng.normal(size=(64, 1)) / 8,
                           rng.normal(size=(512, 64)), rng.normal(size=(512, 1)), 0.1)),
    ] + [_workload("2-D heat stencil", f"{n}x{n}x{steps}", heat,
                   lambda n=n, steps=steps: (rng.random((n, n)), steps), static=(1,),
                   jax_program=_heat_jax)
         for n, steps in ([(64, 10)] if quick else [(256, 20), (512, 50)])]
