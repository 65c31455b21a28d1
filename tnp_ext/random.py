"""JAX's stateless keyed random functions for tnp arrays.

A key is a tnp uint32 array of shape (2,) (the raw threefry2x32 key data, as
``jax.random.PRNGKey`` gives). Every function takes and returns tnp arrays (JAX arrays are
accepted too) and draws exactly what the ``jax.random`` function of the same name draws for that
key. Float results default to float64 (tnp is NumPy: 64-bit), integer results to int64.
Nothing here holds state: split keys yourself, as in JAX. For NumPy's stateful API see
``tnp.random`` (exact engine, or the device engine ``default_rng(tnp.random.Threefry(seed))``).
"""
import jax
import jax.numpy as jnp

from tnp._core import api

__all__ = ["key", "split", "fold_in", "bits", "uniform", "normal", "bernoulli", "categorical",
           "randint", "choice", "permutation", "exponential", "gamma", "beta", "poisson"]


def _jax(x):
    return api.value(x) if api.is_array(x) else x


def _typed(k):
    return jax.random.wrap_key_data(_jax(k), impl="threefry2x32")


def _tnp(x):
    return api.wrap(x)


def key(seed):
    """A new key from an integer seed."""
    return _tnp(jax.random.key_data(jax.random.key(_jax(seed), impl="threefry2x32")))


def split(key, num=2):
    """``num`` new keys (shape ``(num, 2)``) from ``key``."""
    return _tnp(jax.random.key_data(jax.random.split(_typed(key), num)))


def fold_in(key, data):
    """A new key from ``key`` and an integer ``data``."""
    return _tnp(jax.random.key_data(jax.random.fold_in(_typed(key), _jax(data))))


def bits(key, shape=(), dtype=None):
    return _tnp(jax.random.bits(_typed(key), shape, dtype))


def uniform(key, shape=(), dtype=jnp.float64, minval=0.0, maxval=1.0):
    return _tnp(jax.random.uniform(_typed(key), shape, dtype, _jax(minval), _jax(maxval)))


def normal(key, shape=(), dtype=jnp.float64):
    return _tnp(jax.random.normal(_typed(key), shape, dtype))


def bernoulli(key, p=0.5, shape=None):
    return _tnp(jax.random.bernoulli(_typed(key), _jax(p), shape))


def categorical(key, logits, axis=-1, shape=None):
    return _tnp(jax.random.categorical(_typed(key), _jax(logits), axis, shape).astype(jnp.int64))


def randint(key, shape, minval, maxval, dtype=jnp.int64):
    return _tnp(jax.random.randint(_typed(key), shape, _jax(minval), _jax(maxval), dtype))


def choice(key, a, shape=(), replace=True, p=None, axis=0):
    a = _jax(a)
    return _tnp(jnp.asarray(jax.random.choice(_typed(key), a, shape, replace,
                                              None if p is None else _jax(p), axis)))


def permutation(key, x, axis=0, independent=False):
    return _tnp(jax.random.permutation(_typed(key), _jax(x), axis, independent))


def exponential(key, shape=(), dtype=jnp.float64):
    return _tnp(jax.random.exponential(_typed(key), shape, dtype))


def gamma(key, a, shape=None, dtype=jnp.float64):
    return _tnp(jax.random.gamma(_typed(key), _jax(a), shape, dtype))


def beta(key, a, b, shape=None, dtype=jnp.float64):
    return _tnp(jax.random.beta(_typed(key), _jax(a), _jax(b), shape, dtype))


def poisson(key, lam, shape=None, dtype=jnp.int64):
    return _tnp(jax.random.poisson(_typed(key), _jax(lam), shape, dtype))
