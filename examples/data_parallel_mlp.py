"""Data-parallel training of a small MLP with tnp + tnp_ext over all available devices.

Each device gets a shard of every batch; gradients are averaged with ``pmean`` and every device
applies the same update. The result equals single-device training (float64, to 1e-10).
Run with several CPU devices: XLA_FLAGS=--xla_force_host_platform_device_count=8 python ...
"""
import numpy
import tnp as np
import tnp_ext
from tnp_ext import parallel


def init_params(seed=0):
    rng = numpy.random.default_rng(seed)
    return (np.asarray(rng.normal(size=(8, 32)) / 4), np.zeros(32),
            np.asarray(rng.normal(size=(32, 1)) / 4), np.zeros(1))


def loss(params, x, y):
    w1, b1, w2, b2 = params
    h = np.tanh(x @ w1 + b1)
    return ((h @ w2 + b2 - y) ** 2).mean()


def sgd(params, grads, lr=0.1):
    return tuple(p - lr * g for p, g in zip(params, grads))


def train_single(params, xs, ys, steps):
    step = tnp_ext.jit(lambda p, x, y: sgd(p, tnp_ext.grad(loss)(p, x, y)))
    for _ in range(steps):
        params = step(params, xs, ys)
    return params


def train_data_parallel(params, xs, ys, steps):
    n = parallel.device_count()

    def step(p, x, y):
        g = parallel.pmean(tnp_ext.grad(loss)(p, x, y), "devices")
        return sgd(p, g)

    pstep = parallel.pmap(step, axis_name="devices", in_axes=(None, 0, 0), out_axes=None)
    x_sh = xs.reshape(n, -1, xs.shape[-1])
    y_sh = ys.reshape(n, -1, ys.shape[-1])
    for _ in range(steps):
        params = pstep(params, x_sh, y_sh)
    return params


def main(steps=50):
    rng = numpy.random.default_rng(1)
    xs = np.asarray(rng.normal(size=(64, 8)))
    ys = np.asarray(numpy.sin(numpy.asarray(xs).sum(axis=1, keepdims=True)))
    single = train_single(init_params(), xs, ys, steps)
    parallel_result = train_data_parallel(init_params(), xs, ys, steps)
    rel = max(float(np.abs(a - b).max() / np.abs(a).max()) for a, b in zip(single,
                                                                              parallel_result))
    print(f"devices: {parallel.device_count()}")
    print(f"final loss single-device: {float(loss(single, xs, ys)):.12f}")
    print(f"final loss data-parallel: {float(loss(parallel_result, xs, ys)):.12f}")
    print(f"max relative difference of parameters: {rel:.3e}")
    return rel


if __name__ == "__main__":
    main()
