"""A small neural network (2-layer MLP, softmax classifier) trained with plain NumPy."""
import numpy as np

rng = np.random.default_rng(3)
n, classes = 300, 3
X = rng.normal(size=(n, 2))
y = (np.arctan2(X[:, 1], X[:, 0]) + np.pi) * classes // (2 * np.pi)
y = y.astype(np.int64) % classes
W1 = rng.normal(scale=0.5, size=(2, 16)); b1 = np.zeros(16)
W2 = rng.normal(scale=0.5, size=(16, classes)); b2 = np.zeros(classes)
lr = 0.5
for epoch in range(200):
    h = np.maximum(X @ W1 + b1, 0.0)
    logits = h @ W2 + b2
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(n), y]).mean()
    dlogits = p.copy()
    dlogits[np.arange(n), y] -= 1
    dlogits /= n
    dW2 = h.T @ dlogits; db2 = dlogits.sum(axis=0)
    dh = dlogits @ W2.T
    dh[h <= 0] = 0
    dW1 = X.T @ dh; db1 = dh.sum(axis=0)
    W1 -= lr * dW1; b1 -= lr * db1; W2 -= lr * dW2; b2 -= lr * db2
    if epoch % 50 == 0:
        print(f"epoch {epoch}: loss {loss:.10f}")
accuracy = (np.argmax(np.maximum(X @ W1 + b1, 0) @ W2 + b2, axis=1) == y).mean()
print("final loss:", loss, "accuracy:", accuracy)
