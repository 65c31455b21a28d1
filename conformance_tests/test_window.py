"""Window functions against NumPy."""
import numpy as np
import pytest

from engine import check

M_VALUES = [-2, 0, 1, 2, 5, 12, 7.0, 6.5]


@pytest.mark.parametrize("M", M_VALUES)
@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_windows(name, M):
    check(lambda xp: getattr(xp, name)(M), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("M", [0, 1, 2, 5, 12])
@pytest.mark.parametrize("beta", [0, 0.5, 8.6, 14])
def test_kaiser(M, beta):
    check(lambda xp: xp.kaiser(M, beta), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dt", ["g", "f4", "i2", "O"])
@pytest.mark.parametrize("M", [0, 1, 10])
@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning", "kaiser"])
def test_windows_of_numpy_scalars(name, M, dt):
    # a longdouble M gives a longdouble window (NumPy computes it: tnp's host tier)
    m = np.array(M, dtype=dt)[()]
    args = (m, 5.0) if name == "kaiser" else (m,)
    check(lambda xp: getattr(xp, name)(*args), rtol=1e-12, atol=1e-15)
