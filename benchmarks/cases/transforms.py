"""Per-example gradients (the talk's second plot) and jit call overhead vs jax.jit."""
import jax
import jax.numpy as jnp
import numpy as np

import tnp
import tnp_ext
from benchmarks.runner import Case


def _params(d_in=16, d_hidden=32):
    rng = np.random.default_rng(0)
    return (rng.normal(size=(d_in, d_hidden)) / 4, np.zeros(d_hidden),
            rng.normal(size=(d_hidden, 1)) / 4)


def _loss(p, x, y):
    h = tnp.tanh(x @ p[0] + p[1])
    return ((h @ p[2])[0] - y) ** 2


def _jloss(p, x, y):
    h = jnp.tanh(x @ p[0] + p[1])
    return ((h @ p[2])[0] - y) ** 2


def _per_example(batch):
    def make():
        rng = np.random.default_rng(1)
        xs, ys = rng.normal(size=(batch, 16)), rng.normal(size=batch)
        tp = tuple(tnp.asarray(a) for a in _params())
        jp = tuple(jnp.asarray(a) for a in _params())
        txs, tys, jxs, jys = tnp.asarray(xs), tnp.asarray(ys), jnp.asarray(xs), jnp.asarray(ys)
        g = tnp_ext.grad(_loss)
        vg = tnp_ext.vmap(g, in_axes=(None, 0, 0))
        jvg = tnp_ext.jit(vg)
        hand = jax.jit(jax.vmap(jax.grad(_jloss), in_axes=(None, 0, 0)))
        one = lambda xy: g(tp, xy[0], xy[1])  # noqa: E731 (one function, for map's caches)
        fns = {
            "map": lambda: tnp_ext.map(one, (txs, tys)),
            "vmap": lambda: vg(tp, txs, tys),
            "tnp_ext.jit(vmap)": lambda: jvg(tp, txs, tys),
            "jax.jit(vmap) by hand": lambda: hand(jp, jxs, jys),
        }
        if batch <= 128:  # a Python loop of eager gradients: slow beyond
            fns = {"loop": lambda: [g(tp, txs[i], tys[i]) for i in range(batch)], **fns}
        return fns
    return make


def _overhead(name, tfun, jfun, shape):
    def make():
        x = np.linspace(0, 1, int(np.prod(shape))).reshape(shape)
        t, j = tnp.asarray(x), jnp.asarray(x)
        tj, jj = tnp_ext.jit(tfun), jax.jit(jfun)
        return {"jax.jit": lambda: jj(j), "tnp_ext.jit": lambda: tj(t)}
    return Case("jit overhead", name, shape, make)


def cases(quick):
    batches = (8, 64) if quick else (8, 32, 128, 512, 2048)
    # Full mode plots time against batch size (benchmarks/plots.py); fewer rounds bound the
    # slow implementations (loop, eager map) to about a minute in all.
    out = [Case("per-example gradients", "mlp 16-32-1", b, _per_example(b),
                repeats=None if quick else 12) for b in batches]
    out += [
        _overhead("x + 1", lambda x: x + 1, lambda x: x + 1, (8,)),
        _overhead("sin(x) * x", lambda x: tnp.sin(x) * x, lambda x: jnp.sin(x) * x, (8,)),
        _overhead("sum(x @ x.T)", lambda x: (x @ x.T).sum(), lambda x: (x @ x.T).sum(), (8, 8)),
        _overhead("tanh MLP layer", lambda x: tnp.tanh(x @ x + 1.0),
                  lambda x: jnp.tanh(x @ x + 1.0), (64, 64)),
        _overhead("softmax", lambda x: tnp_ext.softmax(x), lambda x: jax.nn.softmax(x),
                  (128, 128)),
    ]
    return out
