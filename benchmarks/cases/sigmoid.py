"""The talk's plot: sigmoid 1/(1+exp(-x)) over sizes 1e1 ... 1e7, float64 and float32."""
import jax
import jax.numpy as jnp
import numpy as np

import tnp
import tnp_ext
from benchmarks.runner import Case


def sigmoid(xp, x):
    return 1.0 / (1.0 + xp.exp(-x))


def _tf_numpy():
    try:
        import tensorflow.experimental.numpy as tfnp  # optional column, never a dependency
        return tfnp
    except ImportError:
        return None


def _make(size, dtype):
    def make():
        x = np.linspace(-5, 5, size).astype(dtype)
        t, j = tnp.asarray(x), jnp.asarray(x)
        tj = tnp_ext.jit(lambda a: sigmoid(tnp, a))
        jj = jax.jit(lambda a: sigmoid(jnp, a))
        fns = {"numpy": lambda: sigmoid(np, x), "jax": lambda: sigmoid(jnp, j),
               "jax.jit": lambda: jj(j), "tnp": lambda: sigmoid(tnp, t),
               "tnp_ext.jit": lambda: tj(t)}
        tfnp = _tf_numpy()
        if tfnp is not None:
            tx = tfnp.asarray(x)
            fns["tf.numpy"] = lambda: sigmoid(tfnp, tx)
        return fns
    return make


def cases(quick):
    sizes = (10, 1000, 100_000) if quick else (10, 100, 1000, 10_000, 100_000, 1_000_000,
                                                 10_000_000)
    return [Case("sigmoid", f"sigmoid {np.dtype(dt).name}", n, _make(n, dt))
            for dt in (np.float64, np.float32) for n in sizes]
