"""Shared pieces of tnp.linalg: NumPy's linalg dtype rules, shape checks, value checks."""

from .._core.engine.jaxload import jax, jnp, Tracer
import numpy as np
from numpy.linalg import LinAlgError

from .._core.rules import probe
from .._core.engine import syncs

HIGHEST = "highest"  # jax.lax.Precision.HIGHEST, by name (JAX is imported on first use)


def common_type_of(*dts):
    """``common_type`` from dtypes."""
    t, result_t = probe.call(np.linalg._linalg._commonType, *(probe.Spec((0,), dt) for dt in dts))
    return np.dtype(t), np.dtype(result_t)


def common_type(*arrays):
    """NumPy's ``_commonType``: (computation dtype, result dtype). NumPy computes in double
    precision whatever the input, and so does tnp; float16 raises NumPy's TypeError."""
    return common_type_of(*(np.dtype(a.dtype) for a in arrays))


def dtype_of(x):
    """The dtype of an array-like without moving its data."""
    dt = getattr(x, "dtype", None)
    return np.dtype(dt) if dt is not None else np.asarray(x).dtype


def shape_of(x):
    """The shape of an array-like without moving its data."""
    shape = getattr(x, "shape", None)
    return tuple(shape) if shape is not None else np.shape(x)


def real_dtype(dt):
    return probe.dtype_of(np.real, probe.Spec((0,), dt))


def assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError('%d-dimensional array given. Array must be '
                              'at least two-dimensional' % a.ndim)


def assert_stacked_square(*arrays):
    for a in arrays:
        assert_stacked_2d(a)
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError('Last 2 dimensions of the array must be square')


def raise_if(flag, message):
    """Raise ``LinAlgError(message)`` if the device flag is set: a documented sync point
    (JAX returns inf/nan where LAPACK reports failure); skipped under a JAX trace."""
    value = getattr(flag, "_value", flag)
    if isinstance(value, Tracer):
        return
    if syncs.check(value):
        raise LinAlgError(message)


def is_concrete(x):
    return not isinstance(getattr(x, "_value", x), Tracer)


def matmul(a, b):
    return jnp.matmul(a, b, precision=HIGHEST)


def mT(a):
    return jnp.swapaxes(a, -1, -2)


def hermitian_from(a, lower):
    """The Hermitian matrix LAPACK sees when it reads only one triangle of ``a``."""
    tri = jnp.tril(a) if lower else jnp.triu(a)
    strict = jnp.tril(a, -1) if lower else jnp.triu(a, 1)
    return tri + jnp.conj(mT(strict))


def conj_t(a):
    """The conjugate transpose, with +0.0 (not -0.0) imaginary parts where they are zero, as
    LAPACK's results have."""
    t = mT(a)
    if a.dtype.kind != "c":
        return t
    return jax.lax.complex(t.real, jnp.where(t.imag == 0, jnp.zeros((), t.real.dtype), -t.imag))
