"""A gravitational N-body simulation in plain NumPy: 2,000 bodies, all pairs, leapfrog steps.

Large arrays and a loop that repeats the same work: the kind of program tnp runs faster than
NumPy (each step's pairwise forces fused into one compiled XLA computation, compiled once).
"""
import numpy as np

n, steps, dt, soft = 2000, 25, 1e-3, 1e-2
rng = np.random.default_rng(7)
pos = rng.normal(size=(n, 3))
vel = 0.1 * rng.normal(size=(n, 3))
mass = rng.uniform(0.5, 1.5, size=n) / n


def accelerations(pos):
    diff = pos[None, :, :] - pos[:, None, :]          # (n, n, 3): every pair
    r2 = (diff ** 2).sum(axis=2) + soft ** 2
    return (diff * (mass[None, :] / r2 ** 1.5)[:, :, None]).sum(axis=1)


def energy(pos, vel):
    diff = pos[None, :, :] - pos[:, None, :]
    r = np.sqrt((diff ** 2).sum(axis=2) + soft ** 2)
    pairs = np.triu(mass[:, None] * mass[None, :] / r, k=1)
    return 0.5 * (mass * (vel ** 2).sum(axis=1)).sum() - pairs.sum()


e0 = energy(pos, vel)
acc = accelerations(pos)
for _ in range(steps):                                 # leapfrog (kick-drift-kick)
    vel += 0.5 * dt * acc
    pos += dt * vel
    acc = accelerations(pos)
    vel += 0.5 * dt * acc
e1 = energy(pos, vel)
print("bodies:", n, "steps:", steps)
print("relative energy drift: %.3e" % abs((e1 - e0) / e0))
print("centre of mass:", np.round((mass[:, None] * pos).sum(axis=0) / mass.sum(), 6))
print("mean speed: %.6f" % np.sqrt((vel ** 2).sum(axis=1)).mean())
print("dtype:", pos.dtype, "shape:", pos.shape)
