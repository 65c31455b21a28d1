"""The device engine (``default_rng(Threefry(seed))``) and ``tnp_ext.random``.

Distribution tests: every sampler is tested against its exact CDF (Kolmogorov-Smirnov, continuous)
or pmf (chi-square, discrete) with fixed seeds at significance ALPHA = 1e-3. The KS p-value is
the asymptotic Kolmogorov distribution with Stephens' small-sample correction; the chi-square
critical value is the Wilson-Hilferty approximation of the (1 - ALPHA) quantile.
"""
import inspect
import math
import pathlib
import re
import sys

import jax
import numpy as np
import pytest

import tnp
import tnp_ext
import tnp_ext.random as R
from tnp._core.rules.errors import TnpTracingError

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "conformance_tests"))
from engine import check  # noqa: E402  (NumPy-vs-tnp comparison for the error classes)

ALPHA = 1e-3
Z_ALPHA = 3.090232306167813  # standard normal (1 - ALPHA) quantile
N = 20000


def rng(seed=1234):
    return tnp.random.default_rng(tnp.random.Threefry(seed))


def like_numpy(result, call):
    """Assert ``result`` (tnp's device engine) has the type, dtype and shape that NumPy's own
    Generator gives for the same ``call`` (a function of a generator): NumPy is the oracle of
    everything but the random values themselves."""
    expected = call(np.random.default_rng(0))
    if isinstance(expected, np.ndarray):
        assert isinstance(result, tnp.ndarray), type(result)
    assert np.asarray(result).dtype == np.asarray(expected).dtype, (
        np.asarray(result).dtype, np.asarray(expected).dtype)
    assert np.shape(result) == np.shape(expected), (np.shape(result), np.shape(expected))
    return result


def ks_pvalue(sample, cdf):
    x = np.sort(np.asarray(sample, dtype=np.float64).ravel())
    n = x.size
    c = cdf(x)
    d = max(np.max(np.arange(1, n + 1) / n - c), np.max(c - np.arange(n) / n))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(max(p, 0.0), 1.0)


def chi2_critical(dof):
    return dof * (1 - 2 / (9 * dof) + Z_ALPHA * math.sqrt(2 / (9 * dof))) ** 3


def chi2_ok(sample, pmf, support):
    """Chi-square goodness of fit over ``support`` (last bin: everything beyond), bins >= 5."""
    x = np.asarray(sample).ravel()
    probs = np.array([pmf(k) for k in support])
    counts = np.array([np.sum(x == k) for k in support], dtype=float)
    probs = np.append(probs, max(1 - probs.sum(), 0.0))
    counts = np.append(counts, x.size - counts.sum())
    keep = probs * x.size >= 5
    probs = np.append(probs[keep], probs[~keep].sum())
    counts = np.append(counts[keep], counts[~keep].sum())
    nz = probs > 0
    stat = np.sum((counts[nz] - x.size * probs[nz]) ** 2 / (x.size * probs[nz]))
    return stat < chi2_critical(nz.sum() - 1), stat


_erf = np.vectorize(math.erf)


def norm_cdf(mu=0.0, sigma=1.0):
    return lambda x: 0.5 * (1 + _erf((x - mu) / (sigma * math.sqrt(2))))


def gamma_int_cdf(k, scale=1.0):
    def cdf(x):
        y = np.maximum(x, 0) / scale
        return 1 - np.exp(-y) * sum(y ** i / math.factorial(i) for i in range(k))
    return cdf


def beta_int_cdf(a, b):
    n = a + b - 1
    return lambda x: sum(math.comb(n, j) * x ** j * (1 - x) ** (n - j) for j in range(a, n + 1))


def poisson_mixture_cdf(mean, component):
    """CDF of a Poisson(``mean``) mixture of ``component(j)`` CDFs (noncentral chi-square, F)."""
    return lambda x: sum(math.exp(-mean) * mean ** j / math.factorial(j) * component(j)(x)
                         for j in range(40))


def wald_cdf(mu, lam):
    phi = norm_cdf()
    return lambda x: (phi(np.sqrt(lam / x) * (x / mu - 1))
                      + np.exp(2 * lam / mu) * phi(-np.sqrt(lam / x) * (x / mu + 1)))


CONTINUOUS = [
    ("random", (), lambda x: x),
    ("uniform", (2.0, 5.0), lambda x: (x - 2) / 3),
    ("standard_normal", (), norm_cdf()),
    ("normal", (1.0, 2.0), norm_cdf(1, 2)),
    ("lognormal", (0.5, 0.8), lambda x: norm_cdf(0.5, 0.8)(np.log(x))),
    ("standard_exponential", (), lambda x: 1 - np.exp(-x)),
    ("exponential", (2.0,), lambda x: 1 - np.exp(-x / 2)),
    ("standard_gamma", (3.0,), gamma_int_cdf(3)),
    ("gamma", (3.0, 2.0), gamma_int_cdf(3, 2.0)),
    ("chisquare", (4.0,), gamma_int_cdf(2, 2.0)),
    ("beta", (2.0, 3.0), beta_int_cdf(2, 3)),
    ("f", (4.0, 6.0), lambda x: beta_int_cdf(2, 3)(4 * x / (4 * x + 6))),
    ("standard_t", (2.0,), lambda x: 0.5 + x / (2 * np.sqrt(2 + x * x))),
    ("noncentral_chisquare", (4.0, 2.0), poisson_mixture_cdf(1.0, lambda j: gamma_int_cdf(
        2 + j, 2.0))),
    ("noncentral_f", (4.0, 6.0, 2.0), poisson_mixture_cdf(1.0, lambda j: lambda x: beta_int_cdf(
        2 + j, 3)(4 * x / (4 * x + 6)))),
    ("wald", (1.5, 2.0), wald_cdf(1.5, 2.0)),
    ("standard_cauchy", (), lambda x: 0.5 + np.arctan(x) / np.pi),
    ("laplace", (1.0, 2.0), lambda x: np.where(x < 1, 0.5 * np.exp((x - 1) / 2),
                                               1 - 0.5 * np.exp(-(x - 1) / 2))),
    ("logistic", (1.0, 2.0), lambda x: 1 / (1 + np.exp(-(x - 1) / 2))),
    ("gumbel", (1.0, 2.0), lambda x: np.exp(-np.exp(-(x - 1) / 2))),
    ("weibull", (1.5,), lambda x: 1 - np.exp(-x ** 1.5)),
    ("pareto", (3.0,), lambda x: 1 - (1 + x) ** -3.0),
    ("power", (3.0,), lambda x: x ** 3),
    ("rayleigh", (2.0,), lambda x: 1 - np.exp(-x * x / 8)),
    ("triangular", (0.0, 1.0, 3.0), lambda x: np.where(x <= 1, x * x / 3,
                                                       1 - (3 - x) ** 2 / 6)),
]


@pytest.mark.parametrize("name,args,cdf", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_distribution(name, args, cdf):
    def call(g):
        return getattr(g, name)(*args, size=N)
    sample = like_numpy(call(rng()), call)
    assert ks_pvalue(sample, cdf) > ALPHA


def test_multivariate_normal_projection():
    mean, cov = np.array([1.0, -1.0]), np.array([[2.0, 0.6], [0.6, 1.0]])
    w = np.array([1.0, -2.0])
    sample = np.asarray(rng().multivariate_normal(mean, cov, size=N))
    assert sample.shape == (N, 2)
    proj = sample @ w
    assert ks_pvalue(proj, norm_cdf(w @ mean, math.sqrt(w @ cov @ w))) > ALPHA
    assert ks_pvalue(sample[:, 1], norm_cdf(-1.0, 1.0)) > ALPHA


def test_dirichlet_marginal():
    sample = np.asarray(rng().dirichlet([2.0, 3.0, 1.0], size=N))
    assert sample.shape == (N, 3)
    np.testing.assert_allclose(sample.sum(axis=1), 1.0, rtol=1e-12)
    assert ks_pvalue(sample[:, 0], beta_int_cdf(2, 4)) > ALPHA


def _poisson(lam):
    return lambda k: math.exp(-lam) * lam ** k / math.factorial(k)


DISCRETE = [
    ("poisson", (3.0,), _poisson(3.0), range(15)),
    ("binomial", (10, 0.3), lambda k: math.comb(10, k) * 0.3 ** k * 0.7 ** (10 - k), range(11)),
    ("binomial", (1, 0.25), lambda k: 0.25 if k == 1 else 0.75, range(2)),
    ("geometric", (0.3,), lambda k: 0.7 ** (k - 1) * 0.3, range(1, 25)),
    ("negative_binomial", (3, 0.4),
     lambda k: math.comb(k + 2, k) * 0.4 ** 3 * 0.6 ** k, range(40)),
    ("integers", (0, 7), lambda k: 1 / 7, range(7)),
    ("integers", (-2, 3), lambda k: 1 / 6, range(-2, 4)),
]


@pytest.mark.parametrize("name,args,pmf,support", DISCRETE,
                         ids=[f"{d[0]}-{i}" for i, d in enumerate(DISCRETE)])
def test_discrete_distribution(name, args, pmf, support):
    kwargs = {"endpoint": True} if args == (-2, 3) else {}

    def call(g):
        return getattr(g, name)(*args, size=N, **kwargs)
    sample = like_numpy(call(rng()), call)
    ok, stat = chi2_ok(sample, pmf, support)
    assert ok, stat


def test_multinomial_marginals():
    p = [0.2, 0.3, 0.5]
    sample = np.asarray(like_numpy(rng().multinomial(10, p, size=N),
                                   lambda g: g.multinomial(10, p, size=N)))
    assert (sample.sum(axis=1) == 10).all()
    binom = lambda k: math.comb(10, k) * 0.3 ** k * 0.7 ** (10 - k)  # noqa: E731
    assert chi2_ok(sample[:, 1], binom, range(11))[0]


def test_choice_with_p_and_without_replacement():
    p = [0.1, 0.2, 0.3, 0.25, 0.15]
    sample = rng().choice(5, size=N, p=p)
    assert chi2_ok(sample, lambda k: p[k], range(5))[0]
    picks = np.asarray(rng().choice(tnp.arange(10) * 10, size=4, replace=False))
    assert len(set(picks.tolist())) == 4 and all(v % 10 == 0 for v in picks)


def test_permutations_uniform():
    g = rng()
    firsts = [int(np.asarray(g.permutation(5))[0]) for _ in range(500)]
    assert chi2_ok(firsts, lambda k: 0.2, range(5))[0]
    rows = np.asarray(g.permuted(tnp.broadcast_to(tnp.arange(5), (N // 5, 5)), axis=1))
    assert (np.sort(rows, axis=1) == np.arange(5)).all()
    assert chi2_ok(rows[:, 0], lambda k: 0.2, range(5))[0]


def test_shuffle_in_place_and_views():
    x = tnp.arange(12.0).reshape(3, 4)
    rng(5).shuffle(x, axis=1)
    a = np.asarray(x)
    assert (np.sort(a, axis=1) == np.arange(12.0).reshape(3, 4)).all()
    y = tnp.arange(10)
    rng(6).shuffle(y[2:8])
    b = np.asarray(y)
    assert (b[:2] == [0, 1]).all() and (b[8:] == [8, 9]).all() and sorted(b[2:8]) == list(
        range(2, 8))


@pytest.mark.parametrize("call", [
    lambda g: g.normal(size=(2, 3)), lambda g: g.integers(0, 100, 5),
    lambda g: g.gamma(np.array([1.0, 2.0]), size=(3, 2)), lambda g: g.permutation(6),
    lambda g: g.random(dtype=np.float32, size=2)])
def test_reproducible_and_seeds_differ(call):
    a, b, c = call(rng(7)), call(rng(7)), call(rng(8))
    assert np.array_equal(np.asarray(a), np.asarray(b)) and a.dtype == b.dtype
    assert not np.array_equal(np.asarray(a), np.asarray(c))
    g = rng(7)
    assert not np.array_equal(np.asarray(call(g)), np.asarray(call(g)))


def test_shapes_dtypes_and_scalars():
    g = rng()
    for call in (lambda g: g.normal(), lambda g: g.normal(np.zeros((2, 1)), np.ones(3)),
                 lambda g: g.integers(5, dtype=np.int16, size=3),
                 lambda g: g.integers(2, dtype=bool, size=3),
                 lambda g: g.random(dtype=np.float32, size=2),
                 lambda g: g.poisson(np.array([1.0, 2.0])),
                 lambda g: g.uniform(size=(2, 0)), lambda g: g.integers(0, 5, size=())):
        like_numpy(call(g), call)
    out = tnp.zeros(4)
    assert g.standard_normal(out=out) is out and not (np.asarray(out) == 0).all()
    assert repr(g.bit_generator.key.dtype) == "dtype('uint32')"


BAD = [
    ("normal", (0.0, -1.0), {}), ("exponential", (-2.0,), {}), ("gamma", (-1.0,), {}),
    ("beta", (0.0, 1.0), {}), ("binomial", (10, 1.5), {}), ("poisson", (-1.0,), {}),
    ("geometric", (0.0,), {}), ("chisquare", (0.0,), {}), ("integers", (5, 5), {}),
    ("integers", (5, 2), {}), ("choice", (5,), {"p": [0.5, 0.5, 0.5, 0.0, 0.0]}),
    ("choice", (3,), {"size": 5, "replace": False}), ("normal", (np.zeros(3),), {"size": 2}),
    ("random", (), {"dtype": np.int32}), ("dirichlet", ([1.0, -1.0],), {}),
    ("permutation", (np.float64(3.5),), {}), ("standard_t", (-1.0,), {}),
    ("integers", (0, 300), {"dtype": np.int8}), ("integers", (-1, 3), {"dtype": np.uint8}),
    ("multivariate_normal", ([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]]), {"check_valid": "raise"}),
    ("multivariate_normal", ([0.0], [[1.0]]), {"check_valid": "maybe"}),
    ("wald", (0.0, 1.0), {}), ("noncentral_chisquare", (3.0, -1.0), {}),
    ("multinomial", (3, [-0.1, 1.1]), {}),
]


@pytest.mark.parametrize("name,args,kwargs", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_parameters_raise_numpys_class(name, args, kwargs):
    def body(xp, *args):
        g = np.random.default_rng(0) if xp is np else rng()
        return getattr(g, name)(*args, **kwargs)
    check(body, *args)


@pytest.mark.parametrize("name", ["zipf", "hypergeometric", "vonmises", "logseries", "spawn"])
def test_missing_distributions_name_the_exact_engine(name):
    with pytest.raises(NotImplementedError, match="exact engine"):
        getattr(rng(), name)(2)


def test_signatures_match_numpy():
    for name, method in inspect.getmembers(type(rng()), callable):
        if not name.startswith("_") and hasattr(np.random.Generator, name) and not hasattr(
                method, "__tnp_unavailable__"):
            assert inspect.signature(method) == inspect.signature(
                getattr(np.random.Generator, name)), name


def test_tnp_ext_jit_threads_generator_and_global_state():
    g = rng(3)
    f = tnp_ext.jit(lambda x: x + g.normal(size=3))
    a, b = f(tnp.zeros(3)), f(tnp.zeros(3))
    assert not np.array_equal(np.asarray(a), np.asarray(b))
    eager = rng(3)
    assert np.array_equal(np.asarray(a), np.asarray(eager.normal(size=3)))
    assert np.array_equal(np.asarray(b), np.asarray(eager.normal(size=3)))
    h = tnp_ext.jit(lambda: tnp.random.rand(2) + tnp.random.randint(0, 5, 2))
    tnp.random.seed(1)
    c = h()
    tnp.random.seed(1)
    assert np.array_equal(np.asarray(c), np.asarray(h()))
    assert not np.array_equal(np.asarray(c), np.asarray(h()))
    e = tnp.random.default_rng(4)
    k = tnp_ext.jit(lambda: e.standard_normal(2))
    assert not np.array_equal(np.asarray(k()), np.asarray(k()))


def test_plain_jax_jit_does_not_leak_the_key():
    g = rng(3)
    with pytest.raises(TnpTracingError):
        jax.jit(lambda: g.normal(size=2).data)()


def test_vmap_with_generator_inside_and_stateless_keys():
    out = tnp_ext.vmap(lambda s: rng(0).normal(size=2) * s)(tnp.arange(3.0))
    assert out.shape == (3, 2)
    keys = R.split(R.key(0), 3)
    draws = tnp_ext.vmap(lambda k: R.normal(k, (2,)))(keys)
    assert np.array_equal(np.asarray(draws[1]), np.asarray(R.normal(keys[1], (2,))))


KEY_FUNCTIONS = [
    ("uniform", ((3,),), {}), ("normal", ((2, 2),), {}), ("bernoulli", (0.3, (4,)), {}),
    ("categorical", (np.log(np.array([0.2, 0.3, 0.5])),), {"shape": (5,)}),
    ("randint", ((4,), 0, 10), {}), ("choice", (5, (3,)), {"replace": False}),
    ("permutation", (np.arange(6),), {}), ("exponential", ((3,),), {}),
    ("gamma", (2.0, (3,)), {}), ("beta", (2.0, 3.0, (3,)), {}), ("poisson", (3.0, (3,)), {}),
    ("bits", ((2,),), {}),
]


@pytest.mark.parametrize("name,args,kwargs", KEY_FUNCTIONS, ids=[k[0] for k in KEY_FUNCTIONS])
def test_tnp_ext_random_matches_jax_random(name, args, kwargs):
    key = R.fold_in(R.split(R.key(42))[1], 7)
    jkey = jax.random.fold_in(jax.random.split(jax.random.key(42))[1], 7)
    ours = getattr(R, name)(key, *args, **kwargs)
    jargs = [jax.numpy.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    theirs = getattr(jax.random, name)(jkey, *jargs, **kwargs)
    assert isinstance(ours, tnp.ndarray)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))


@pytest.mark.parametrize("layout", ["F", "strided", "read-only"])
def test_out_layout_checks_as_numpys(layout):
    """The device engine's ``out=`` checks are NumPy's: contiguous (C only for a sampler of
    array parameters), writeable; NumPy's ValueError and message otherwise."""
    for name, kwargs in (("random", {}), ("standard_gamma", {"shape": [1.0, 2.0, 3.0]})):
        outs = []
        for xp in (np, tnp):
            out = xp.zeros((2, 6))[:, ::2] if layout == "strided" else xp.zeros(
                (2, 3), order="F" if layout == "F" else "C")
            if layout == "read-only":
                out.flags.writeable = False
            outs.append(out)
        gen = (np.random.default_rng(0), rng())
        try:
            getattr(gen[0], name)(out=outs[0], **kwargs)
            expected = None
        except ValueError as e:
            expected = str(e)
        if expected is None:
            assert getattr(gen[1], name)(out=outs[1], **kwargs) is outs[1]
        else:
            with pytest.raises(ValueError, match=re.escape(expected)):
                getattr(gen[1], name)(out=outs[1], **kwargs)
