"""Moving values between the exact engine (NumPy's code on the host) and tnp arrays."""
import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtypes
from .._core.fallback import to_numpy_tree
from .._core.ndarray import ndarray


def to_host(x):
    """Arguments for NumPy's generator code: tnp arrays (and lists of them) as NumPy arrays."""
    if isinstance(x, jax.Array):
        return np.asarray(x)
    return to_numpy_tree(x)


def to_device(x):
    """A result of NumPy's generator code as tnp values: arrays and NumPy scalars become tnp
    arrays (0-d for scalars) with NumPy's dtype; Python scalars and host-only objects stay."""
    if isinstance(x, (np.ndarray, np.generic)) and x.dtype in dtypes.SUPPORTED:
        return ndarray._wrap(jax.device_put(np.asarray(x)))
    if type(x) in (list, tuple):
        return type(x)(to_device(v) for v in x)
    return x


def is_device_array(x):
    return isinstance(x, (ndarray, jax.Array))


def value(x):
    """The ``jax.Array`` behind a tnp or JAX array."""
    return x._value if isinstance(x, ndarray) else x


def take(a, idx, axis):
    """``a`` (a tnp array) gathered along ``axis`` at host indices ``idx``, on the device."""
    return ndarray._wrap(jnp.take(value(a), jnp.asarray(idx), axis=axis))
