"""Window functions: bartlett, blackman, hamming, hanning, kaiser (NumPy's formulas, float64)."""
from .._core.engine.jaxload import jnp
import numpy as np

from .._core.rules import dtypes
from .._core.dispatch.normalize import normalize
from .._core.dispatch.np_doc import np_doc

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _as_float(M):
    """NumPy's preamble: M as a float (float64; a longdouble M stays one, and NumPy computes
    the window: ``UnsupportedDtype`` sends the call to the host tier)."""
    M = np.array([0.0, M])[1]
    dtypes.check_supported(M.dtype)
    return M


def _grid(M):
    """M as a float, and the symmetric grid 1-M..M-1."""
    M = _as_float(M)
    return M, jnp.arange(1 - M, M, 2, dtype=np.float64)


def _special(M):
    M = _as_float(M)
    if M < 1:
        return jnp.zeros((0,), np.float64)
    if M == 1:
        return jnp.ones((1,), np.float64)
    return None


@np_doc(np.bartlett)
@normalize
def bartlett(M):
    s = _special(M)
    if s is not None:
        return s
    M, n = _grid(M)
    return jnp.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def _cosine(M, coefs):
    s = _special(M)
    if s is not None:
        return s
    M, n = _grid(M)
    r = coefs[0] + coefs[1] * jnp.cos(np.pi * n / (M - 1))
    if len(coefs) > 2:
        r = r + coefs[2] * jnp.cos(2.0 * np.pi * n / (M - 1))
    return r


@np_doc(np.blackman)
@normalize
def blackman(M):
    return _cosine(M, (0.42, 0.5, 0.08))


@np_doc(np.hamming)
@normalize
def hamming(M):
    return _cosine(M, (0.54, 0.46))


@np_doc(np.hanning)
@normalize
def hanning(M):
    return _cosine(M, (0.5, 0.5))


@np_doc(np.kaiser)
@normalize
def kaiser(M, beta):
    M = _as_float(M)
    if M == 1:
        return jnp.ones((1,), np.float64)
    n = jnp.arange(0, M, dtype=np.float64)
    alpha = (M - 1) / 2.0
    beta = float(beta)
    return jnp.i0(beta * jnp.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / jnp.i0(beta)
