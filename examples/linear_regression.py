"""Linear regression two ways: the normal equations and batch gradient descent, plain NumPy."""
import numpy as np

rng = np.random.default_rng(7)
n, d = 200, 4
X = np.hstack([np.ones((n, 1)), rng.normal(size=(n, d))])
true_w = np.array([1.0, -2.0, 0.5, 3.0, 0.0])
y = X @ true_w + 0.1 * rng.normal(size=n)

w_normal = np.linalg.solve(X.T @ X, X.T @ y)
print("normal equations:", np.round(w_normal, 8))

w = np.zeros(d + 1)
lr = 0.1
for step in range(500):
    grad = X.T @ (X @ w - y) / n
    w -= lr * grad
    if step % 100 == 0:
        print(f"step {step}: loss {np.mean((X @ w - y) ** 2) / 2:.10f}")
print("gradient descent:", np.round(w, 8))
print("max difference:", np.abs(w - w_normal).max() < 1e-6)
