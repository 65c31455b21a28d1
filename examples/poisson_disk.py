"""Poisson-disk sampling (Bridson's algorithm) in the unit square, in plain NumPy: a growing
list of points, each candidate tested against all points so far; a Python loop of small steps."""
import numpy as np

rng = np.random.default_rng(2024)
radius, k = 0.07, 12
points = rng.random((1, 2))
active = [0]
while active:
    i = active[int(rng.integers(len(active)))]
    angle = rng.uniform(0.0, 2 * np.pi, k)
    dist = rng.uniform(radius, 2 * radius, k)
    cand = points[i] + np.stack([np.cos(angle), np.sin(angle)], axis=1) * dist[:, None]
    cand = cand[np.all((cand >= 0) & (cand < 1), axis=1)]
    ok = np.zeros(0, dtype=np.int64)
    if len(cand):
        d2 = ((cand[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)
        ok = np.flatnonzero(d2.min(axis=1) >= radius ** 2)
    if len(ok):
        points = np.vstack([points, cand[ok[0]]])
        active.append(len(points) - 1)
    else:
        active.remove(i)

d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
d[np.diag_indices_from(d)] = np.inf
print("points:", len(points))
print("closest pair:", round(float(d.min()), 9), ">= radius:", bool(d.min() >= radius))
print("mean nearest neighbour:", round(float(d.min(axis=1).mean()), 9))
print("centroid:", np.round(points.mean(axis=0), 9).tolist())
counts, _, _ = np.histogram2d(points[:, 0], points[:, 1], bins=4, range=[[0, 1], [0, 1]])
print("points per quarter-cell:")
print(counts.astype(int))
