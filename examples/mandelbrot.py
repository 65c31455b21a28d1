"""The Mandelbrot set by escape-time iteration, in plain NumPy."""
import numpy as np

h, w, iters = 60, 90, 50
y, x = np.mgrid[-1.2:1.2:h * 1j, -2.0:0.8:w * 1j]
c = x + 1j * y
z = np.zeros_like(c)
count = np.zeros(c.shape, dtype=np.int32)
for i in range(iters):
    z = z * z + c
    inside = np.abs(z) <= 2.0
    count[inside] += 1
    z[~inside] = 2.0
print("points inside:", int((count == iters).sum()), "of", count.size)
print("mean escape count:", count.mean())
for row in count[::6, ::3]:
    print("".join(" .:-=+*#%@"[min(v // 5, 9)] for v in row.tolist()))
