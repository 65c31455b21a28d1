"""Train a small MLP classifier with tnp + tnp_ext: tf.train's Adam on tnp variables, a jitted
train step that updates them in place, on a seeded synthetic dataset (three interleaved spirals).
Prints accuracy and time."""
import time

import numpy
import tnp as np
import tnp_ext
from tnp_ext import optimizers


def spirals(n_per_class=200, classes=3, seed=0):
    rng = numpy.random.default_rng(seed)
    xs, ys = [], []
    for c in range(classes):
        r = numpy.linspace(0.1, 1.0, n_per_class)
        t = numpy.linspace(c * 4.0, (c + 1) * 4.0, n_per_class) + rng.normal(scale=0.2,
                                                                              size=n_per_class)
        xs.append(numpy.stack([r * numpy.sin(t), r * numpy.cos(t)], axis=1))
        ys.append(numpy.full(n_per_class, c))
    return np.asarray(numpy.concatenate(xs)), np.asarray(numpy.concatenate(ys))


def main(steps=300, seed=0):
    x, y = spirals(seed=seed)
    rng = numpy.random.default_rng(seed + 1)
    W1 = np.asarray(rng.normal(scale=0.5, size=(2, 64)))
    b1 = np.zeros(64)
    W2 = np.asarray(rng.normal(scale=0.5, size=(64, 3)))
    b2 = np.zeros(3)
    onehot = (y[:, None] == np.arange(3)[None, :]).astype(np.float64)

    def logits():
        return np.tanh(x @ W1 + b1) @ W2 + b2

    def loss():
        return -(tnp_ext.log_softmax(logits()) * onehot).sum(axis=1).mean()

    global_step = np.zeros((), dtype=np.int64)
    lr = optimizers.exponential_decay(0.05, global_step, decay_steps=100, decay_rate=0.5)
    opt = optimizers.AdamOptimizer(lr)
    train_step = tnp_ext.jit(lambda: opt.minimize(loss, global_step=global_step,
                                                  var_list=[W1, b1, W2, b2]))
    start = time.perf_counter()
    for _ in range(steps):
        train_step()
    W1.data.block_until_ready()
    elapsed = time.perf_counter() - start
    accuracy = float((logits().argmax(axis=1) == y).mean())
    print(f"steps: {int(global_step)}  final loss: {float(loss()):.4f}  "
          f"train accuracy: {accuracy:.3f}  time: {elapsed:.2f} s")
    return accuracy


if __name__ == "__main__":
    main()
