"""Division by a broadcast divisor (a scalar, a row, a column) bit for bit as NumPy: XLA's
simplifier would multiply by the divisor's reciprocal (1 ulp off in about a third of the
elements); ``tnp._core.numerics.division`` keeps the division. Compared exactly, eagerly and fused."""
import numpy as np
import pytest

from engine import check

RNG = np.random.default_rng(7)
X = RNG.random((300, 7)) + 0.25
COMPLEX = X + 1j * X[::-1]

BODIES = {
    "by a Python float": lambda xp, a: a / 3.0,
    "a Python float by": lambda xp, a: 3.0 / a,
    "by a 0-d array": lambda xp, a: a / xp.asarray(7.0, a.dtype),
    "by a row": lambda xp, a: a / a[0],
    "by a column": lambda xp, a: a / a[:, :1],
    "outer": lambda xp, a: a[:, :1] / a[:1, :],
    "normalised rows": lambda xp, a: a / a.sum(axis=1, keepdims=True),
    "floor_divide": lambda xp, a: a // 0.1,
    "remainder": lambda xp, a: a % 0.3,
    "divmod": lambda xp, a: xp.divmod(a, 0.7),
    "in place": lambda xp, a: xp.divide(a, 9.0, out=a),
    "fused in a chain": lambda xp, a: ((a + 1.0) / 3.0 - a / 11.0) / 5.0,
    "mean of rows": lambda xp, a: a.mean(axis=1),
    "mean of one row": lambda xp, a: a[0].mean(),  # (a 0-d sum by a constant count)
    "linspace": lambda xp, a: xp.linspace(0, 49, 50, dtype=a.dtype),
    "mean keepdims": lambda xp, a: xp.mean(a, axis=1, keepdims=True),
    "average": lambda xp, a: xp.average(a, axis=1),
}


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
@pytest.mark.parametrize("name", list(BODIES))
def test_division_by_a_broadcast_divisor_is_numpys(name, dtype):
    check(BODIES[name], X.astype(dtype), exact=True)


@pytest.mark.parametrize("size", [1000, 70_000, 1_000_000])
def test_division_exact_at_every_size(size):
    """At the sizes the device tier takes and beyond (the graph and kernel are the same)."""
    check(lambda xp, a: (a / 3.0, a / a[:1]), RNG.random(size), exact=True)
