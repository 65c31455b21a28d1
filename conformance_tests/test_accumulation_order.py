"""Summation order at 10^6 elements (README, "Known differences", diff-accumulation).

NumPy accumulates (``cumsum``, ``cumprod``, ``ufunc.accumulate``, ``nancumsum``) in sequence,
rounding at every step; tnp's accumulation engine does the same on CPU, so there its results
are NumPy's bits. On a GPU or TPU it keeps XLA's parallel scan, and NumPy's sums (pairwise,
in blocks of 8) are XLA's reductions everywhere: those are held to the standard error bound of
a sum or product in any order (Higham, "Accuracy and Stability of Numerical Algorithms",
2nd ed., 4.2 and 3.1): with u the unit roundoff and gamma_m = m*u / (1 - m*u),

    |computed s_k - s_k| <= gamma_(k-1) * sum_(i<=k) |x_i|     (a sum of k terms)
    |computed p_k - p_k| <= gamma_(k-1) * |p_k|                (a product of k factors)

so tnp's and NumPy's results differ by at most twice that. Positive values are the worst case
of sequential summation (the partial sums only grow); normal values cross zero."""
import jax
import numpy as np
import pytest

import tnp

N = 10 ** 6
ON_CPU = jax.default_backend() == "cpu"

_RNG_VALUES = {
    "positive": lambda: np.random.default_rng(0).random(N),
    "normal": lambda: np.random.default_rng(0).standard_normal(N),
    "near 1": lambda: 1 + (np.random.default_rng(0).random(N) - 0.5) * 1e-4,
}

# (name, function of (module, array), values): the accumulations
ACCUMULATIONS = [
    ("cumsum", lambda xp, a: xp.cumsum(a), "positive"),
    ("cumsum", lambda xp, a: xp.cumsum(a), "normal"),
    ("add.accumulate", lambda xp, a: xp.add.accumulate(a), "positive"),
    ("nancumsum", lambda xp, a: xp.nancumsum(a), "normal"),
    ("cumulative_sum", lambda xp, a: xp.cumulative_sum(a), "positive"),
    ("cumprod", lambda xp, a: xp.cumprod(a), "near 1"),
    ("multiply.accumulate", lambda xp, a: xp.multiply.accumulate(a), "near 1"),
]
REDUCTIONS = [
    ("sum", lambda xp, a: xp.sum(a)),
    ("nansum", lambda xp, a: xp.nansum(a)),
    ("mean", lambda xp, a: xp.mean(a)),
]


def _gamma(m, dtype):
    """Higham's gamma_m = m*u / (1 - m*u) for ``dtype``'s unit roundoff u."""
    mu = m * np.finfo(dtype).eps / 2
    assert np.all(mu < 1), "the bound needs m*u < 1"
    return mu / (1 - mu)


def _prefix_bound(name, a):
    """Twice the any-order error bound of every prefix sum or product of ``a`` (float64)."""
    k = np.arange(1, a.size + 1)
    g = _gamma(k - 1, a.dtype)
    if "prod" in name or "multiply" in name:
        return 2 * g * np.abs(np.cumprod(a.astype(np.float64)))
    return 2 * g * np.cumsum(np.abs(a.astype(np.float64)))


def _values(kind, dtype):
    return _RNG_VALUES[kind]().astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name,fn,kind", ACCUMULATIONS, ids=[f"{n}-{k}" for n, _, k in
                                                              ACCUMULATIONS])
def test_accumulation_order(name, fn, kind, dtype):
    """Within the any-order bound everywhere; NumPy's bits on CPU (its sequential order) and
    for float16 everywhere (rounded at every step on every platform)."""
    a = _values(kind, dtype)
    expected = fn(np, a)
    actual = np.asarray(fn(tnp, tnp.asarray(a)))
    assert actual.dtype == expected.dtype
    if ON_CPU or dtype == "float16":
        np.testing.assert_array_equal(actual, expected, strict=True)
    else:
        diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        assert np.all(diff <= _prefix_bound(name, a))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["positive", "normal"])
@pytest.mark.parametrize("name,fn", REDUCTIONS, ids=[n for n, _ in REDUCTIONS])
def test_reduction_order(name, fn, kind, dtype):
    """XLA's reduction order is not NumPy's pairwise one: the two sums of n terms differ by at
    most 2*gamma_(n-1)*sum|x| (a mean: that over n, plus a rounding of each quotient)."""
    a = _values(kind, dtype)
    expected = fn(np, a)
    actual = np.asarray(fn(tnp, tnp.asarray(a)))
    assert actual.dtype == expected.dtype
    bound = 2 * _gamma(N - 1, a.dtype) * np.sum(np.abs(a.astype(np.float64)))
    if name == "mean":
        bound = bound / N + 2 * np.finfo(dtype).eps * abs(float(expected))
    assert abs(float(actual) - float(expected)) <= bound
