"""A 2-D heat-equation stencil in plain NumPy: explicit Euler steps on a hot square."""
import numpy as np

n, steps, alpha = 64, 200, 0.2
u = np.zeros((n, n))
u[24:40, 24:40] = 100.0          # a hot square in the middle
for _ in range(steps):
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    u[1:-1, 1:-1] += alpha * lap  # in place, through a view
print("total heat:", u.sum())
print("max temperature:", u.max(), "at", np.unravel_index(np.argmax(u), u.shape))
print("corner row:", np.round(u[30, 28:36], 6))
print("dtype:", u.dtype, "shape:", u.shape)
