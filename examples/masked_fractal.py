"""The Mandelbrot set over a shrinking active set, in plain NumPy: first the classic masked
update (``I = abs(Z) < 2; N[I] = n; Z[I] = Z[I]**2 + C[I]``), then the points not yet escaped
compacted out of the arrays each iteration (``z = z[keep]``), so every step has a new length."""
import numpy as np

h, w, iterations = 100, 150, 40
y = np.linspace(-1.3, 1.3, h)[:, None]
x = np.linspace(-2.1, 0.7, w)[None, :]
C = x + 1j * y
Z = np.zeros_like(C)
N = np.zeros(C.shape, dtype=int)
for n in range(iterations):
    I = abs(Z) < 2
    N[I] = n
    Z[I] = Z[I] ** 2 + C[I]
print("masked update: inside", int((N == iterations - 1).sum()), "of", N.size,
      "mean count", round(float(N.mean()), 6))

c = C.ravel()
idx = np.arange(c.size)
z = np.zeros_like(c)
escape = np.full(c.size, iterations, dtype=np.int32)
for n in range(iterations):
    z = z * z + c
    out = np.abs(z) > 2.0
    escape[idx[out]] = n
    keep = ~out
    z, c, idx = z[keep], c[keep], idx[keep]
    if n % 8 == 0:
        print(f"iteration {n:2d}: {idx.size} points still active")
escape = escape.reshape(h, w)
print("compacted: inside", int((escape == iterations).sum()), "mean escape",
      round(float(escape.mean()), 6))
for row in escape[::7, ::3]:
    print("".join(" .:-=+*#%@"[min(v // 4, 9)] for v in row.tolist()))
