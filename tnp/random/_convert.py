"""Moving values between the exact engine (NumPy's code on the host) and tnp arrays."""
from .._core.engine.jaxload import jnp, JaxArray
import numpy as np

from .._core.dispatch import tiers
from .._core.dispatch.fallback import from_numpy_tree, to_numpy_tree
from .._core.array.ndarray import ndarray


def to_host(x):
    """Arguments for NumPy's generator code: tnp arrays (and lists of them) as NumPy arrays."""
    if isinstance(x, JaxArray):
        return np.asarray(x)
    return to_numpy_tree(x)


def to_tnp(x, inputs):
    """A result of NumPy's generator code on ``inputs`` (its arguments) as tnp values, placed by
    ``tiers``: arrays become tnp arrays with NumPy's dtype (``from_numpy_tree``); a NumPy
    scalar placed on the device a 0-d tnp array, on the host itself (as the host tier returns
    NumPy's scalars); Python scalars and other objects stay."""
    if isinstance(x, np.generic):
        return x if tiers.on_host(1, x.dtype) else tiers.new_root(np.asarray(x))
    return from_numpy_tree(x, inputs)


def is_device_array(x):
    return isinstance(x, (ndarray, JaxArray))


def value(x):
    """The ``jax.Array`` behind a tnp or JAX array."""
    return x._value if isinstance(x, ndarray) else x


def take(a, idx, axis):
    """``a`` (a tnp array) gathered along ``axis`` at host indices ``idx``: on the device, or
    by NumPy for an array on the host tier (objects and strings live there; one element of a
    1-d array is NumPy's scalar, or the object itself)."""
    if a._on_host:
        h = a._host()
        if isinstance(idx, np.ndarray) and idx.ndim == 0:  # (``size=()``): a 0-d array, which
            r = np.take(h, idx.reshape(1), axis=axis).reshape(  # ``take`` of a 0-d index is
                h.shape[:axis] + h.shape[axis + 1:])  # not for an object array's element
        else:
            r = np.take(h, idx, axis=axis)
        if type(r) is np.ndarray:
            return tiers.new_root(r)
        # one element: NumPy's scalar, or an object array's element itself
        return to_tnp(r, ()) if isinstance(r, np.generic) else r
    return ndarray._wrap(jnp.take(value(a), jnp.asarray(idx), axis=axis))
