"""tnp.testing against numpy.testing: NumPy's assert functions, given tnp arrays (and the
scalars tnp returns where NumPy returns NumPy scalars), pass or fail exactly as NumPy's do on
NumPy's arrays, with NumPy's messages."""
import operator

import numpy as np
import pytest

from engine import check

A = np.array([0.0, -0.0, 1.5, np.nan, np.inf])
B = np.array([0.0, 0.0, 1.5, np.nan, np.inf])   # signed zeros differ from A
C = np.array([0.0, -0.0, 1.5000001, np.nan, np.inf])  # close to A
I = np.arange(6).reshape(2, 3)

CASES = {
    "equal same": lambda t, a, b, c, i: t.assert_equal(a, a.copy()),
    "equal signed zeros": lambda t, a, b, c, i: t.assert_equal(a, b),
    "equal close": lambda t, a, b, c, i: t.assert_equal(a, c),
    "equal list": lambda t, a, b, c, i: t.assert_equal(a, [0.0, -0.0, 1.5, np.nan, np.inf]),
    "equal nested": lambda t, a, b, c, i: t.assert_equal((a, [i]), (a, [i.tolist()])),
    "equal dict": lambda t, a, b, c, i: t.assert_equal({"x": i}, {"x": i + 1}),
    "equal shape": lambda t, a, b, c, i: t.assert_equal(i, i.ravel()),
    "equal scalar": lambda t, a, b, c, i: t.assert_equal(i.sum(), 15),
    "equal scalar -0.0": lambda t, a, b, c, i: t.assert_equal(a[1] * 1.0, 0.0),
    "equal scalar vs array": lambda t, a, b, c, i: t.assert_equal(a[1] * 1.0, b[:1]),
    "equal strict dtype": lambda t, a, b, c, i: t.assert_equal(i, i.astype(np.int32),
                                                               strict=True),
    "array_equal": lambda t, a, b, c, i: t.assert_array_equal(a, b),
    "array_equal strict": lambda t, a, b, c, i: t.assert_array_equal(i.sum(), np.int64(15),
                                                                     strict=True),
    "array_equal err_msg": lambda t, a, b, c, i: t.assert_array_equal(i, i.T, err_msg="x"),
    "almost_equal": lambda t, a, b, c, i: t.assert_almost_equal(a, c),
    "almost_equal decimal": lambda t, a, b, c, i: t.assert_almost_equal(a, c, decimal=8),
    "almost_equal scalar": lambda t, a, b, c, i: t.assert_almost_equal(c[2] - a[2], 0.0),
    "array_almost_equal": lambda t, a, b, c, i: t.assert_array_almost_equal(a, c, decimal=9),
    "approx_equal": lambda t, a, b, c, i: t.assert_approx_equal(c[2], a[2], significant=9),
    "allclose": lambda t, a, b, c, i: t.assert_allclose(a, c),
    "allclose rtol": lambda t, a, b, c, i: t.assert_allclose(a, c, rtol=1e-9),
    "allclose equal_nan": lambda t, a, b, c, i: t.assert_allclose(a, b, equal_nan=False),
    "array_less": lambda t, a, b, c, i: t.assert_array_less(i, i + 1),
    "array_less fails": lambda t, a, b, c, i: t.assert_array_less(i, i),
    "nulp": lambda t, a, b, c, i: t.assert_array_almost_equal_nulp(a[2:3], c[2:3], nulp=1),
    "max_ulp": lambda t, a, b, c, i: t.assert_array_max_ulp(a[:3], b[:3], maxulp=1),
    "compare": lambda t, a, b, c, i: t.assert_array_compare(operator.le, i, i),
    "print_assert_equal": lambda t, a, b, c, i: t.print_assert_equal("x", i.sum(), 16),
}


@pytest.mark.parametrize("case", list(CASES))
def test_assert_functions(case):
    # host_ok: the helpers compare on the host by design (assert_array_max_ulp returns its ULP
    # differences as NumPy computed them)
    check(lambda xp, a, b, c, i: CASES[case](xp.testing, a, b, c, i), A, B, C, I, host_ok=True)


@pytest.mark.parametrize("expected", [(1, 0), (1, 1), (-1, 0)], ids=str)
@pytest.mark.parametrize("dt", ["float64", "complex64"])
def test_assert_equal_namedtuple(expected, dt):
    # a namedtuple of arrays (slogdet's result) is compared item by item, as NumPy's
    check(lambda xp, a: xp.testing.assert_equal(xp.linalg.slogdet(a), expected),
          np.zeros((0, 0), dt), host_ok=True)
