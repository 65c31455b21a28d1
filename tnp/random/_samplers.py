"""Device-engine samplers: ``sampler(key, shape, dtype, *params)`` in jax.random/jax.numpy.

Each draws ``shape`` variates of ``dtype`` from a typed threefry key; parameters are float64
arrays broadcastable to ``shape``; keyword-only arguments are static. The formulas are the
textbook ones NumPy documents (NumPy's ``pareto`` is Lomax, its ``weibull`` has scale 1).
"""
import numpy as np

from .._core.numerics.casting import numpy_cast
from .._core.engine.jaxload import jax, jnp

F64 = np.dtype(np.float64)


def random(key, shape, dtype):
    return jax.random.uniform(key, shape, dtype)


def uniform(key, shape, dtype, low, high):
    return numpy_cast(low + (high - low) * jax.random.uniform(key, shape, F64), dtype)


def standard_normal(key, shape, dtype):
    return jax.random.normal(key, shape, dtype)


def normal(key, shape, dtype, loc, scale):
    return numpy_cast(loc + scale * jax.random.normal(key, shape, F64), dtype)


def lognormal(key, shape, dtype, mean, sigma):
    return numpy_cast(jnp.exp(normal(key, shape, F64, mean, sigma)), dtype)


def standard_exponential(key, shape, dtype):
    return jax.random.exponential(key, shape, dtype)


def exponential(key, shape, dtype, scale):
    return numpy_cast(scale * jax.random.exponential(key, shape, F64), dtype)


def standard_gamma(key, shape, dtype, a):
    return numpy_cast(jax.random.gamma(key, jnp.broadcast_to(a, shape), shape, F64), dtype)


def gamma(key, shape, dtype, a, scale):
    return numpy_cast(scale * standard_gamma(key, shape, F64, a), dtype)


def chisquare(key, shape, dtype, df):
    return numpy_cast(2.0 * standard_gamma(key, shape, F64, df / 2.0), dtype)


def f(key, shape, dtype, dfnum, dfden):
    k1, k2 = jax.random.split(key)
    num = chisquare(k1, shape, F64, dfnum) / dfnum
    return numpy_cast(num / (chisquare(k2, shape, F64, dfden) / dfden), dtype)


def noncentral_chisquare(key, shape, dtype, df, nonc):
    k1, k2 = jax.random.split(key)
    extra = jax.random.poisson(k1, jnp.broadcast_to(nonc / 2.0, shape), shape, jnp.int64)
    return numpy_cast(2.0 * standard_gamma(k2, shape, F64, df / 2.0 + extra), dtype)


def noncentral_f(key, shape, dtype, dfnum, dfden, nonc):
    k1, k2 = jax.random.split(key)
    num = noncentral_chisquare(k1, shape, F64, dfnum, nonc) / dfnum
    return numpy_cast(num / (chisquare(k2, shape, F64, dfden) / dfden), dtype)


def wald(key, shape, dtype, mean, scale):
    """Michael, Schucany and Haas's transformation (as NumPy's legacy code)."""
    k1, k2 = jax.random.split(key)
    y = mean * jax.random.normal(k1, shape, F64) ** 2
    x = mean + mean / (2.0 * scale) * (y - jnp.sqrt(4.0 * scale * y + y * y))
    u = jax.random.uniform(k2, shape, F64)
    return numpy_cast(jnp.where(u <= mean / (mean + x), x, mean * mean / x), dtype)


def beta(key, shape, dtype, a, b):
    a, b = jnp.broadcast_to(a, shape), jnp.broadcast_to(b, shape)
    return numpy_cast(jax.random.beta(key, a, b, shape, F64), dtype)


def standard_t(key, shape, dtype, df):
    return numpy_cast(jax.random.t(key, jnp.broadcast_to(df, shape), shape, F64), dtype)


def standard_cauchy(key, shape, dtype):
    return jax.random.cauchy(key, shape, dtype)


def laplace(key, shape, dtype, loc, scale):
    return numpy_cast(loc + scale * jax.random.laplace(key, shape, F64), dtype)


def logistic(key, shape, dtype, loc, scale):
    return numpy_cast(loc + scale * jax.random.logistic(key, shape, F64), dtype)


def gumbel(key, shape, dtype, loc, scale):
    return numpy_cast(loc + scale * jax.random.gumbel(key, shape, F64), dtype)


def weibull(key, shape, dtype, a):
    e = jax.random.exponential(key, shape, F64)
    return numpy_cast(jnp.where(a == 0, 0.0, e ** (1.0 / a)), dtype)


def pareto(key, shape, dtype, a):
    return numpy_cast(jnp.expm1(jax.random.exponential(key, shape, F64) / a), dtype)


def power(key, shape, dtype, a):
    return numpy_cast((-jnp.expm1(-jax.random.exponential(key, shape, F64))) ** (1.0 / a), dtype)


def rayleigh(key, shape, dtype, scale):
    return numpy_cast(scale * jnp.sqrt(2.0 * jax.random.exponential(key, shape, F64)), dtype)


def triangular(key, shape, dtype, left, mode, right):
    return numpy_cast(jax.random.triangular(key, left, mode, right, shape, F64), dtype)


def poisson(key, shape, dtype, lam):
    return jax.random.poisson(key, jnp.broadcast_to(lam, shape), shape, dtype)


def binomial(key, shape, dtype, n, p):
    n, p = jnp.broadcast_to(n, shape), jnp.broadcast_to(p, shape)
    return numpy_cast(jax.random.binomial(key, n, p, shape, F64), dtype)


def negative_binomial(key, shape, dtype, n, p):
    k1, k2 = jax.random.split(key)
    lam = standard_gamma(k1, shape, F64, n) * (1.0 - p) / p
    return poisson(k2, shape, dtype, lam)


def geometric(key, shape, dtype, p):
    return jax.random.geometric(key, jnp.broadcast_to(p, shape), shape, dtype)


def integers(key, shape, dtype, low, high):
    if dtype == jnp.bool_:
        return numpy_cast(jax.random.randint(key, shape, low, high, jnp.int8), dtype)
    return jax.random.randint(key, shape, low, high, dtype)


def multivariate_normal(key, shape, dtype, mean, cov, *, method):
    return numpy_cast(jax.random.multivariate_normal(key, mean, cov, shape, F64, method), dtype)


def multinomial(key, shape, dtype, n, pvals):
    """As NumPy: the last category takes what the others leave, ``1 - sum(pvals[:-1])``."""
    n = jnp.broadcast_to(n, shape)
    pvals = pvals.at[-1].set(jnp.maximum(1.0 - jnp.sum(pvals[:-1]), 0.0))
    counts = jax.random.multinomial(key, n, pvals, shape=shape + pvals.shape, dtype=F64)
    return numpy_cast(counts, dtype)


def dirichlet(key, shape, dtype, alpha):
    return numpy_cast(jax.random.dirichlet(key, alpha, shape, F64), dtype)


def choice_indices(key, shape, dtype, p, *, n, replace):
    return jax.random.choice(key, n, shape, replace, p)


def permutation_indices(key, shape, dtype, *, n):
    return jax.random.permutation(key, n)


def permuted_order(key, shape, dtype, *, axis):
    return jnp.argsort(jax.random.uniform(key, shape, F64), axis=axis)
