"""k-means clustering (Lloyd's algorithm) on seeded synthetic data, in plain NumPy."""
import numpy as np

rng = np.random.default_rng(42)
true_centers = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0]])
points = np.concatenate([c + rng.normal(scale=0.8, size=(200, 2)) for c in true_centers])
centers = points[rng.choice(len(points), size=3, replace=False)]
for it in range(20):
    d = np.linalg.norm(points[:, None, :] - centers[None, :, :], axis=2)
    labels = np.argmin(d, axis=1)
    new = np.array([points[labels == k].mean(axis=0) for k in range(3)])
    shift = np.abs(new - centers).max()
    centers = new
    if shift < 1e-9:
        break
order = np.argsort(centers[:, 0] * 10 + centers[:, 1])
print("iterations:", it + 1)
print("centers:\n", np.round(centers[order], 6))
print("cluster sizes:", np.bincount(labels, minlength=3)[order])
print("inertia:", float(((points - centers[labels]) ** 2).sum()))
