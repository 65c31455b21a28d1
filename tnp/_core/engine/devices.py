"""The ``device=`` argument of NumPy 2's creation functions. NumPy knows one device, "cpu"; tnp
reads it as its default JAX device (where every tnp array is made), so a NumPy program that
passes it runs unchanged on a GPU. A ``jax.Device`` (``a.device``) places the result there."""
from .jaxload import jax


def check(device):
    """None for the default device, or the ``jax.Device`` asked for; NumPy's ValueError else."""
    if device is None or (isinstance(device, str) and device == "cpu"):
        return None
    if isinstance(device, jax.Device):
        return device
    raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: {device}')


def default():
    """The JAX device tnp makes arrays on."""
    return jax.config.jax_default_device or jax.devices()[0]


def place(arr, device):
    """The tnp array ``arr`` on ``device`` (``arr`` itself for the default device)."""
    target = check(device)
    if target is None:
        return arr
    out = type(arr)._wrap(jax.device_put(arr._value, target))
    out._scalar = arr._scalar
    return out
