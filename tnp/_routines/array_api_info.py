"""The Array API's inspection namespace: ``tnp.__array_namespace_info__()`` and
``tnp.__array_api_version__``, as NumPy 2 has them (NumPy's structure and values, tnp's devices).
"""
from .._core.engine.jaxload import jax
import numpy as np

from .._core.engine import devices as _devices
from .._core.dispatch.np_doc import np_doc

__all__ = ["__array_namespace_info__", "__array_api_version__"]

# The standard's version NumPy declares; tnp follows the installed NumPy's namespace.
__array_api_version__ = np.__array_api_version__

_NUMPY_INFO = np.__array_namespace_info__()


def _check(device):
    """NumPy's ValueError for a device it does not understand; a JAX device of this process (or
    NumPy's "cpu", which tnp reads as its default device) is fine."""
    d = _devices.check(device)
    if d is not None and d not in jax.devices(d.platform):
        raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: {device}')


@np_doc(np.__array_namespace_info__, notes="""Devices are JAX devices: ``devices()`` lists
``jax.devices()`` (the default backend's devices, where tnp places arrays with ``device=``) and
``default_device()`` is the device tnp makes arrays on (``jax.config.jax_default_device`` or the
first of ``jax.devices()``). ``device=`` arguments take a JAX device, or NumPy's ``"cpu"``
(read as the default device, as every tnp ``device=`` does). Capabilities, default dtypes and
dtypes are NumPy's: tnp runs the same promotion and supports the same Array API dtypes
(boolean indexing and data-dependent shapes are tnp's named sync points).""")
class __array_namespace_info__:  # noqa: N801 - NumPy's (and the standard's) name
    __module__ = "tnp"

    def capabilities(self):
        return _NUMPY_INFO.capabilities()

    def default_device(self):
        return _devices.default()

    def default_dtypes(self, *, device=None):
        _check(device)
        return _NUMPY_INFO.default_dtypes()

    def devices(self):
        return list(jax.devices())

    def dtypes(self, *, device=None, kind=None):
        _check(device)
        return _NUMPY_INFO.dtypes(kind=kind)


for _name in ("capabilities", "default_device", "default_dtypes", "devices", "dtypes"):
    getattr(__array_namespace_info__, _name).__doc__ = getattr(
        np.__array_namespace_info__, _name).__doc__
