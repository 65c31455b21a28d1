"""linspace, logspace, geomspace against NumPy: endpoints, retstep, dtypes, axis, array ends."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check, ftz_xfail, platform_xfail
from strategies import ALL_DTYPES

ENDS = [(0, 1), (2.5, -7), (1, 1), (np.float32(1), 3), (0, 10), (1j, 2 + 3j),
        (np.float16(0), np.float16(4)), (np.int8(-3), np.int8(9))]


@pytest.mark.parametrize("ends", ENDS, ids=repr)
@pytest.mark.parametrize("num", [0, 1, 2, 7])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(ends, num, endpoint):
    check(lambda xp: xp.linspace(*ends, num=num, endpoint=endpoint))
    check(lambda xp: xp.linspace(*ends, num=num, endpoint=endpoint, retstep=True))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_linspace_dtype(dt):
    check(lambda xp: xp.linspace(0, 10, 7, dtype=dt))
    check(lambda xp: xp.linspace(-3.5, 4.5, 6, dtype=dt))
    check(lambda xp: xp.linspace(1, 2j, 6, dtype=dt))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, 3])
def test_linspace_array_ends(axis):
    start, stop = np.array([0.0, 1.0]), np.array([[5.0, 8.0], [2.0, -1.0]])
    check(lambda xp, a, b: xp.linspace(a, b, 4, axis=axis), start, stop)
    check(lambda xp, a, b: xp.linspace(a, b, 4, axis=axis, retstep=True), start, stop)
    check(lambda xp, a: xp.linspace(a, 3, 5, axis=axis), start)


def test_linspace_step_zero_branch():
    check(lambda xp, a, b: xp.linspace(a, b, 5), np.array([1.0, 2.0]), np.array([1.0, 3.0]))


@ftz_xfail("NumPy computes with subnormal float64 values; XLA on CPU flushes subnormals to "
           "zero")
def test_linspace_subnormal():
    check(lambda xp: xp.linspace(1e-320, 2e-320, 3))


@pytest.mark.parametrize("num", [-1, 2.5, "3"])
def test_linspace_bad_num(num):
    check(lambda xp: xp.linspace(0, 1, num))


def test_linspace_bad_shapes_and_dtypes():
    check(lambda xp, a, b: xp.linspace(a, b, 3), np.zeros(2), np.zeros(3))
    check(lambda xp: xp.linspace(0, 1j, 3, dtype=int))


# An integer result truncates base**y: 2.9999999999999996 and 3.0 are an ulp apart, and NumPy's
# ulp is glibc's pow.
LIBM_TRUNCATION = platform_xfail("NumPy truncates glibc's pow/log10 to integers; CUDA's libm "
                                 "differs from glibc's in the last ulp, which can flip the "
                                 "truncation (127.99999 vs 128)")


@pytest.mark.parametrize("base", [10.0, 2, np.float32(2.0), [2.0, 3.0], np.array([[2], [4]])],
                         ids=repr)
@pytest.mark.parametrize("dt", [None, np.float32, pytest.param(int, marks=LIBM_TRUNCATION),
                                complex], ids=str)
def test_logspace(base, dt):
    check(lambda xp: xp.logspace(0, 3, 4, base=base, dtype=dt))
    check(lambda xp: xp.logspace(0, 3, 4, endpoint=False, base=base, dtype=dt))


def test_logspace_array_ends_axis():
    check(lambda xp, a: xp.logspace(a, 2, 3, axis=1), np.array([0.0, 1.0]))
    check(lambda xp, a: xp.logspace(a, 2, 3, base=[2.0, 3.0], axis=-1), np.array([0.0, 1.0]))


GEOM = [(1, 1000), (-1, -1000), (1j, 1000j), (-1 + 0j, 1 + 0j), (2, 2), (0.5, 8),
        (np.float32(1), np.float32(256)), (1000, 1), (1 + 1j, 1000 + 1000j), (0, 10), (1, 0),
        (-1, 10)]


@pytest.mark.parametrize("ends", GEOM, ids=repr)
@pytest.mark.parametrize("num", [0, 1, 4])
@pytest.mark.parametrize("endpoint", [True, False])
def test_geomspace(ends, num, endpoint):
    check(lambda xp: xp.geomspace(*ends, num=num, endpoint=endpoint))


@pytest.mark.parametrize("dt", [pytest.param(int, marks=LIBM_TRUNCATION), np.float32, complex,
                                pytest.param(np.uint8, marks=LIBM_TRUNCATION)], ids=str)
def test_geomspace_dtype(dt):
    check(lambda xp: xp.geomspace(1, 256, 9, dtype=dt))


def test_geomspace_arrays_axis():
    check(lambda xp, a, b: xp.geomspace(a, b, 4, axis=1), np.array([1.0, -2.0]),
          np.array([[8.0, -16.0], [27.0, -2.0]]))


# No subnormal values, not even in float32 (see test_linspace_subnormal).
FINITE = st.floats(-1e6, 1e6, allow_nan=False).filter(lambda x: x == 0 or abs(x) > 1e-30)


@given(start=FINITE, stop=FINITE, num=st.integers(0, 6), endpoint=st.booleans(),
       dt=st.sampled_from([None, np.float32, np.int32, np.complex128]))
def test_linspace_hypothesis(start, stop, num, endpoint, dt):
    check(lambda xp: xp.linspace(start, stop, num, endpoint=endpoint, dtype=dt, retstep=True))


@given(start=st.floats(0.1, 1e3), ratio=st.floats(0.01, 100), num=st.integers(0, 5),
       sign=st.sampled_from([1, -1, 1j]))
def test_geomspace_hypothesis(start, ratio, num, sign):
    check(lambda xp: xp.geomspace(start * sign, start * ratio * sign, num))


@pytest.mark.parametrize("j", [49, 98, 103])
def test_linspace_step_correctly_rounded(j):
    # delta / div correctly rounded (XLA would multiply by the constant 1 / div): NumPy's
    # TestLinspace::test_equivalent_to_arange
    check(lambda xp: xp.linspace(0, j, j + 1, dtype=int), exact=True)
    check(lambda xp: xp.linspace(-1.5, j, j + 7), exact=True)
