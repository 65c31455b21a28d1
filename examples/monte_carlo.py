"""Monte Carlo estimates with seeded generators: pi, and a random walk, in plain NumPy."""
import numpy as np

np.random.seed(0)
pts = np.random.rand(100_000, 2)
inside = (pts ** 2).sum(axis=1) <= 1.0
print("pi estimate (legacy seed):", 4 * inside.mean())

rng = np.random.default_rng(2024)
steps = rng.choice([-1, 1], size=(50, 1000))
walks = np.cumsum(steps, axis=1)
print("final positions (first 10):", walks[:10, -1])
print("mean |position|:", np.abs(walks[:, -1]).mean())
print("max excursion:", walks.max(), "min:", walks.min())
normals = rng.normal(loc=1.0, scale=2.0, size=10_000)
print("normal mean/std:", normals.mean(), normals.std())
