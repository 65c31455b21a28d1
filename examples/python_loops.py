"""Code written as Python loops over small arrays, element by element: a running histogram,
a small dynamic-programming table (edit distance) and a greedy path over a grid."""
import numpy as np

rng = np.random.default_rng(3)
data = rng.normal(size=400)
hist = np.zeros(8, dtype=np.int64)
lo, hi = -2.0, 2.0
for x in data:
    if lo <= x < hi:
        hist[int((x - lo) / (hi - lo) * 8)] += 1
print(hist, hist.sum())


def edit_distance(a, b):
    d = np.zeros((len(a) + 1, len(b) + 1), dtype=np.int64)
    d[:, 0] = np.arange(len(a) + 1)
    d[0, :] = np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return d[-1, -1]


print(edit_distance("kitten", "sitting"), edit_distance("numpy", "tnp"))
grid = rng.integers(1, 9, size=(12, 12))
i = j = 0
total = grid[0, 0]
while (i, j) != (11, 11):
    if i == 11 or (j < 11 and grid[i, j + 1] <= grid[i + 1, j]):
        j += 1
    else:
        i += 1
    total += grid[i, j]
print("greedy path cost:", total, "mean cell:", grid.mean())
