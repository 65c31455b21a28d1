"""The device engine: JAX's counter-based threefry generator behind NumPy's Generator API.

``Generator(Threefry(seed))`` (or ``default_rng(Threefry(seed))``) draws with jitted JAX code:
each call splits the key, draws on the device and writes the new key into the generator's key
array (a tnp uint32 array) through the one write path, so ``tnp_ext.jit`` can thread it. Streams
are reproducible per seed but are not NumPy's (use the exact engine for NumPy's numbers).
Parameter checks (``scale < 0``, ``low >= high``, ``p`` summing to 1) run on host parameters; a
bad value inside a device array is not checked (it would be a sync) and gives NaN or garbage.
Distributions JAX cannot sample (hypergeometric, logseries, zipf, vonmises, ...) raise
NotImplementedError naming the exact engine. Under ``vmap``, create the generator inside the
mapped function (or use ``tnp_ext.random`` keys): a generator from outside cannot advance its key
there; ``tnp_ext.jit`` threads it.
"""
import functools
import operator
import warnings

from .._core.engine.jaxload import jax, jit, jnp, JaxArray
import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .._core.array import write
from .._core.engine import devices
from .._core.numerics.casting import cast
from .._core.array.ndarray import ndarray
from . import _samplers as S
from ._entropy import unless_seeded
from ._convert import is_device_array, value
from ._exact import Generator, register_device_engine

_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)


class Threefry:
    """Device bit generator: a threefry2x32 key held as a tnp uint32 array ``key``.

    ``seed`` is anything ``numpy.random.SeedSequence`` takes (None: fresh OS entropy)."""

    def __init__(self, seed=None):
        words = np.random.SeedSequence(unless_seeded(seed)).generate_state(2, np.uint32)
        self.key = ndarray._wrap(jax.device_put(words))

    @property
    def state(self):
        return {"bit_generator": "Threefry", "key": self.key}

    @state.setter
    def state(self, state):
        write.assign(self.key, value(state["key"]))


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _run(sampler, shape, dtype, static, rule, key, *params):
    """The next key and the sample, laid out as a created array (``devices.constrain``: split
    at birth in the mode "sharded"; threefry's values do not depend on the layout)."""
    new, sub = jax.random.split(jax.random.wrap_key_data(key, impl="threefry2x32"))
    sample = sampler(sub, shape, dtype, *params, **dict(static))
    return jax.random.key_data(new), devices.constrain(sample, rule)


def _param(x, dtype=_F64):
    if isinstance(x, (ndarray, JaxArray)):
        return cast(value(x), dtype)
    return jnp.asarray(np.asarray(x, dtype))


def _size(size):
    if size is None:
        return None
    return tuple(operator.index(s) for s in size) if np.iterable(size) else (
        operator.index(size),)


def _shape(size, params):
    pshape = np.broadcast_shapes(*(p.shape for p in params)) if params else ()
    if size is None:
        return pshape
    if np.broadcast_shapes(size, pshape) != size:
        raise ValueError(f"shape mismatch: objects cannot be broadcast to a single shape. "
                         f"Mismatch is between arg 0 with shape {size} and arg 1 with shape "
                         f"{pshape}.")
    return size


def _check(message, bad, *params):
    """NumPy's ValueError when ``bad`` holds for host parameters (device ones are not read)."""
    if not any(is_device_array(p) for p in params):
        with np.errstate(invalid="ignore"):
            if np.any(bad(*(np.asarray(p, np.float64) for p in params))):
                raise ValueError(message)


def _float_dtype(dtype, name):
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"Unsupported dtype {dtype!r} for {name}")
    return dtype


def _not_positive(x):
    return ~(x > 0)


def _check_psd(cov, check_valid, tol):
    """NumPy's positive-semidefinite check of a host covariance (``check_valid``)."""
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        return
    _, s, vh = np.linalg.svd(cov)
    if not np.allclose(np.dot(vh.T * s, vh), cov, rtol=tol, atol=tol):
        if check_valid == "raise":
            raise ValueError("covariance is not symmetric positive-semidefinite.")
        warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                      stacklevel=3)


def _unavailable(name):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"Generator.{name} is not available on the device engine (JAX has no sampler for "
            f"it); use the exact engine, tnp.random.default_rng(seed), which runs NumPy's")
    method.__name__ = name
    method.__doc__ = f"Not available on the device engine: see the exact engine's {name}."
    method.__tnp_unavailable__ = True
    return method


class DeviceGenerator(Generator):
    """A ``Generator`` over ``Threefry``: every method is jitted JAX code on the device."""

    def __init__(self, bit_generator):
        self._bit_generator = bit_generator

    def __repr__(self):
        return "Generator(Threefry)"

    def __reduce__(self):
        return Generator, (self._bit_generator,)

    @property
    def bit_generator(self):
        return self._bit_generator

    def _draw(self, sampler, size, dtype, *params, static=(), shape=None):
        params = [p if p is None or isinstance(p, JaxArray) else _param(p) for p in params]
        shape = _shape(_size(size), params) if shape is None else shape
        key = self._bit_generator.key
        new, out = _run(sampler, shape, np.dtype(dtype), static, devices.policy(), value(key),
                        *params)
        write.assign(key, new)
        return ndarray._wrap(out)

    def _fill(self, sampler, size, dtype, out, *params):
        if out is None:
            return self._draw(sampler, size, dtype, *params)
        c_only = bool(params)  # NumPy's check_output: a sampler of array parameters needs C's
        flags = out.flags
        if not flags.writeable or not (flags.c_contiguous or flags.f_contiguous and not c_only):
            raise ValueError(f"Supplied output array must be {'C-' if c_only else ''}"
                             f"contiguous, writable, aligned, and in machine byte-order.")
        if size is not None and _size(size) != out.shape:
            raise ValueError("size must match out.shape when used together")
        if out.dtype != dtype:
            raise TypeError(f"Supplied output array has the wrong type. Expected "
                            f"{np.dtype(dtype)}, got {out.dtype}")
        write.assign(out, self._draw(sampler, out.shape, dtype, *params)._value)
        return out

    def random(self, size=None, dtype=np.float64, out=None):
        return self._fill(S.random, size, _float_dtype(dtype, "random"), out)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        return self._fill(S.standard_normal, size, _float_dtype(dtype, "standard_normal"), out)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        if method not in ("zig", "inv"):
            raise ValueError(f"'method' argument must be either 'zig' or 'inv'. Got '{method}'.")
        dtype = _float_dtype(dtype, "standard_exponential")
        return self._fill(S.standard_exponential, size, dtype, out)

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        _check("shape < 0", lambda a: a < 0, shape)
        dtype = _float_dtype(dtype, "standard_gamma")
        return self._fill(S.standard_gamma, size, dtype, out, shape)

    def standard_cauchy(self, size=None):
        return self._draw(S.standard_cauchy, size, _F64)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._draw(S.uniform, size, _F64, low, high)

    def normal(self, loc=0.0, scale=1.0, size=None):
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.normal, size, _F64, loc, scale)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        _check("sigma < 0", lambda s: s < 0, sigma)
        return self._draw(S.lognormal, size, _F64, mean, sigma)

    def exponential(self, scale=1.0, size=None):
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.exponential, size, _F64, scale)

    def gamma(self, shape, scale=1.0, size=None):
        _check("shape < 0", lambda a: a < 0, shape)
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.gamma, size, _F64, shape, scale)

    def chisquare(self, df, size=None):
        _check("df <= 0", _not_positive, df)
        return self._draw(S.chisquare, size, _F64, df)

    def f(self, dfnum, dfden, size=None):
        _check("dfnum <= 0", _not_positive, dfnum)
        _check("dfden <= 0", _not_positive, dfden)
        return self._draw(S.f, size, _F64, dfnum, dfden)

    def noncentral_chisquare(self, df, nonc, size=None):
        _check("df <= 0", _not_positive, df)
        _check("nonc < 0", lambda x: x < 0, nonc)
        return self._draw(S.noncentral_chisquare, size, _F64, df, nonc)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        _check("dfnum <= 0", _not_positive, dfnum)
        _check("dfden <= 0", _not_positive, dfden)
        _check("nonc < 0", lambda x: x < 0, nonc)
        return self._draw(S.noncentral_f, size, _F64, dfnum, dfden, nonc)

    def wald(self, mean, scale, size=None):
        _check("mean <= 0", _not_positive, mean)
        _check("scale <= 0", _not_positive, scale)
        return self._draw(S.wald, size, _F64, mean, scale)

    def beta(self, a, b, size=None):
        _check("a <= 0", _not_positive, a)
        _check("b <= 0", _not_positive, b)
        return self._draw(S.beta, size, _F64, a, b)

    def standard_t(self, df, size=None):
        _check("df <= 0", _not_positive, df)
        return self._draw(S.standard_t, size, _F64, df)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.laplace, size, _F64, loc, scale)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.logistic, size, _F64, loc, scale)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.gumbel, size, _F64, loc, scale)

    def weibull(self, a, size=None):
        _check("a < 0", lambda a: a < 0, a)
        return self._draw(S.weibull, size, _F64, a)

    def pareto(self, a, size=None):
        _check("a <= 0", _not_positive, a)
        return self._draw(S.pareto, size, _F64, a)

    def power(self, a, size=None):
        _check("a <= 0", _not_positive, a)
        return self._draw(S.power, size, _F64, a)

    def rayleigh(self, scale=1.0, size=None):
        _check("scale < 0", lambda s: s < 0, scale)
        return self._draw(S.rayleigh, size, _F64, scale)

    def triangular(self, left, mode, right, size=None):
        _check("left > mode", lambda l, m: l > m, left, mode)
        _check("mode > right", lambda m, r: m > r, mode, right)
        _check("left == right", lambda l, r: l == r, left, right)
        return self._draw(S.triangular, size, _F64, left, mode, right)

    def poisson(self, lam=1.0, size=None):
        _check("lam < 0", lambda x: x < 0, lam)
        return self._draw(S.poisson, size, _I64, lam)

    def binomial(self, n, p, size=None):
        _check("n < 0", lambda x: x < 0, n)
        _check("p < 0, p > 1 or p is NaN", lambda x: ~((x >= 0) & (x <= 1)), p)
        return self._draw(S.binomial, size, _I64, n, p)

    def negative_binomial(self, n, p, size=None):
        _check("n <= 0", _not_positive, n)
        _check("p < 0, p > 1 or p is NaN", lambda x: ~((x > 0) & (x <= 1)), p)
        return self._draw(S.negative_binomial, size, _I64, n, p)

    def geometric(self, p, size=None):
        _check("p <= 0, p > 1 or p contains NaNs", lambda x: ~((x > 0) & (x <= 1)), p)
        return self._draw(S.geometric, size, _I64, p)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        dtype = np.dtype(dtype)
        if dtype.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dtype!r} for integers")
        if endpoint:
            _check("low > high", lambda lo, hi: lo > hi, low, high)
        else:
            _check("low >= high", lambda lo, hi: lo >= hi, low, high)
        info = np.iinfo(dtype) if dtype.kind != "b" else np.iinfo(np.uint8)
        top = 1 if dtype.kind == "b" else int(info.max)
        _check(f"low is out of bounds for {dtype}", lambda lo: lo < info.min, low)
        _check(f"high is out of bounds for {dtype}",
               lambda hi: hi > top + (0 if endpoint else 1), high)
        bound = _I64 if dtype.kind != "u" else np.dtype(np.uint64)
        low, high = _param(low, bound), _param(high, bound)
        return self._draw(S.integers, size, dtype, low, high + 1 if endpoint else high)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd"):
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if check_valid != "ignore" and not is_device_array(cov):
            _check_psd(np.asarray(cov, np.float64), check_valid, tol)
        mean, cov = _param(mean), _param(cov)
        if mean.ndim != 1 or cov.shape != mean.shape * 2:
            raise ValueError("mean must be 1 dimensional" if mean.ndim != 1 else
                             "cov must be 2 dimensional and square")
        size = _size(size) or ()
        return self._draw(S.multivariate_normal, None, _F64, mean, cov,
                          static=(("method", method),), shape=size)

    def multinomial(self, n, pvals, size=None):
        _check("n < 0", lambda x: x < 0, n)
        if not is_device_array(pvals):
            p = np.asarray(pvals, np.float64)
            if p.ndim != 1:
                raise ValueError("pvals must have at least 1 dimension" if p.ndim == 0 else
                                 "multinomial of a stack of pvals is not supported on the "
                                 "device engine")
            if np.any(p < 0) or np.any(p > 1) or np.any(np.isnan(p)):
                raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
            if p[:-1].sum() > 1.0 + 1e-12:
                raise ValueError("sum(pvals[:-1]) > 1.0")
        n, pvals = _param(n), _param(pvals)
        shape = _shape(_size(size), [n])
        return self._draw(S.multinomial, None, _I64, n, pvals, shape=shape)

    def dirichlet(self, alpha, size=None):
        _check("alpha <= 0", _not_positive, alpha)
        alpha = _param(alpha)
        if alpha.ndim != 1:
            raise ValueError("object too deep for desired array")
        return self._draw(S.dirichlet, None, _F64, alpha, shape=_size(size) or ())

    def _indices(self, n, size, replace, p):
        if p is not None:
            _check("probabilities are not non-negative", lambda q: q < 0, p)
            if not is_device_array(p) and not np.isclose(np.sum(p), 1.0, rtol=0,
                                                          atol=np.sqrt(np.finfo(np.float64).eps)):
                raise ValueError("probabilities do not sum to 1")
            p = _param(p)
            if p.shape != (n,):
                raise ValueError("p must be 1-dimensional and of the same size as a")
        shape = _size(size) or ()
        if not replace and int(np.prod(shape)) > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        return self._draw(S.choice_indices, None, _I64, p,
                          static=(("n", n), ("replace", bool(replace))), shape=shape)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        if isinstance(a, (int, np.integer)):
            if a <= 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
            return self._indices(int(a), size, replace, p)
        a = a if isinstance(a, ndarray) else ndarray._wrap(_param(a, np.asarray(a).dtype))
        if a.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not a 0-d array")
        axis = normalize_axis_index(axis, a.ndim)
        idx = self._indices(a.shape[axis], size, replace, p)
        return ndarray._wrap(jnp.take(a._value, idx._value, axis=axis))

    def _order(self, n):
        return self._draw(S.permutation_indices, None, _I64, static=(("n", n),), shape=(n,))

    def permutation(self, x, axis=0):
        if isinstance(x, (int, np.integer)):
            return self._order(int(x))
        x = x if isinstance(x, ndarray) else ndarray._wrap(_param(x, np.asarray(x).dtype))
        axis = normalize_axis_index(axis, x.ndim)
        return ndarray._wrap(jnp.take(x._value, self._order(x.shape[axis])._value, axis=axis))

    def shuffle(self, x, axis=0):
        if not isinstance(x, ndarray):
            raise TypeError("the device engine shuffles tnp arrays in place; got "
                            f"{type(x).__name__}")
        if x.ndim < 1:
            raise TypeError("Shuffle only supports arrays with ndim > 0")
        write.assign(x, self.permutation(x, axis)._value)

    def permuted(self, x, *, axis=None, out=None):
        x = x if isinstance(x, ndarray) else ndarray._wrap(_param(x, np.asarray(x).dtype))
        flat = x._value.reshape(-1) if axis is None else x._value
        axis = 0 if axis is None else normalize_axis_index(axis, x.ndim)
        order = self._draw(S.permuted_order, None, _I64, static=(("axis", axis),),
                           shape=flat.shape)
        result = jnp.take_along_axis(flat, order._value, axis=axis).reshape(x.shape)
        if out is None:
            return ndarray._wrap(result)
        write.assign(out, result)
        return out


_NOTE = ("\n\n    tnp device engine: JAX's threefry, jitted on the device; reproducible per seed "
         "but not NumPy's stream.")
for _name in dir(np.random.Generator):
    if _name.startswith("_") or _name == "bit_generator":
        continue
    if _name in DeviceGenerator.__dict__:
        DeviceGenerator.__dict__[_name].__doc__ = getattr(np.random.Generator, _name).__doc__ + _NOTE
    else:
        setattr(DeviceGenerator, _name, _unavailable(_name))


register_device_engine(Threefry, DeviceGenerator)
