"""Creation from existing data: fromfunction, fromiter, frombuffer, fromstring,
asarray_chkfinite, require, from_dlpack. Data that lives on the host is parsed by NumPy, and its result placed
by ``tiers.new_root`` (a copy: NumPy's ``frombuffer`` would be a view of the buffer)."""
from .._core.engine.jaxload import jax, jnp
import numpy as np
from numpy._core._asarray import POSSIBLE_FLAGS

from .._core.rules import dtypes
from .._core.engine import devices
from .._core.array.ndarray import ndarray
from .._core.dispatch import tiers
from .._core.dispatch.np_doc import np_doc, numpy_signature
from .._core.engine import syncs
from .creation import array, asanyarray, asarray
from .grids import indices

__all__ = ["fromfunction", "fromiter", "frombuffer", "fromstring", "asarray_chkfinite",
           "require", "from_dlpack"]


@np_doc(np.fromfunction, notes="``function`` is called once with tnp index arrays.")
def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    return function(*indices(shape, dtype=dtype), **kwargs)


@np_doc(np.fromiter, notes="The iterable is consumed on the host.")
def fromiter(iter, dtype, count=-1, *, like=None):
    dtypes.canonical(dtype)
    return tiers.new_root(np.fromiter(iter, dtype, count))


@np_doc(np.frombuffer, notes="The result is a copy of the buffer: later changes to the buffer "
        "are not seen. It is read-only where NumPy's is.")
def frombuffer(buffer, dtype=None, count=-1, offset=0, *, like=None):
    if dtype is not None:
        dtypes.canonical(dtype)
    return tiers.new_root(np.frombuffer(buffer, dtype, count, offset))  # a view: copied


@numpy_signature  # NumPy's code takes ``sep`` missing (its ValueError: binary mode removed)
@np_doc(np.fromstring, notes="Parsed by NumPy on the host.")
def fromstring(string, dtype=None, count=-1, *, sep=np._NoValue, like=None):
    dtypes.canonical(dtype)
    given = {} if sep is np._NoValue else {"sep": sep}
    return tiers.new_root(np.fromstring(string, dtype, count, **given))


@np_doc(np.asarray_chkfinite, notes="The finiteness check is a sync point (one bool).")
def asarray_chkfinite(a, dtype=None, order=None):
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.char in np.typecodes["AllFloat"] and not syncs.check(
            jnp.isfinite(a._value).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


@np_doc(np.require, host_tier=False)  # flags logic over tnp arrays: either tier
def require(a, dtype=None, requirements=None, *, like=None):
    if not requirements:
        return asanyarray(a, dtype=dtype)
    requirements = {POSSIBLE_FLAGS[x.upper()] for x in requirements}
    subok = "E" not in requirements
    requirements.discard("E")
    if requirements >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in requirements else "F" if "F" in requirements else "A"
    requirements -= {"C", "F"}
    arr = array(a, dtype=dtype, order=order, copy=None, subok=subok)
    for prop in requirements:
        if not arr.flags[prop]:
            return arr.copy(order)
    return arr


@np_doc(np.from_dlpack, notes="Zero copy where JAX allows; ``device`` is a JAX device (or "
                              "'cpu').")
def from_dlpack(x, /, *, device=None, copy=None):
    if not hasattr(x, "__dlpack__"):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '__dlpack__'")
    v = jax.dlpack.from_dlpack(x, device=devices.check(device) or devices.default(), copy=copy)
    dtypes.check_supported(np.dtype(v.dtype))
    return ndarray._wrap(v)
