"""Where on the devices a device-tier array lives.

- The ``device=`` argument of NumPy 2's creation functions. NumPy knows one device, "cpu"; tnp
  reads it as its default JAX device (where every tnp array is made), so a NumPy program that
  passes it runs unchanged on a GPU. A ``jax.Device`` or a sharding (``a.device``) places the
  result there.
- The layout of a new device array in the placement mode ``"sharded"`` (``layout``): with more
  than one device (``jax.devices()``: every device of every process under
  ``jax.distributed``), an array of at least ``TNP_SHARD_THRESHOLD`` elements per device is
  split along its first axis whose length the device count divides, over a one-dimensional mesh
  of every device (``mesh``); a smaller one, or one without such an axis, is replicated on every
  device. In the other modes, or with one device, ``layout`` is None: JAX's default device.
  New arrays get their layout at birth: host data is put there directly (``put``: each device
  receives its block); a creation kernel takes the policy (``policy()``) as a static argument
  and constrains its result (``constrain``), so XLA makes each block on its device.
  Computations on sharded arrays follow their inputs' shardings (XLA's partitioner), so
  nothing else places arrays; ``place`` of a split array to another layout is a resharding
  (``communication.note_reshard``, with the all-gathers and all-to-alls XLA compiles).
- Across processes (``jax.distributed``, ``tnp._core.engine.distributed``) each process holds
  only its devices' blocks of a split array: ``put`` builds the global array from each
  process's own blocks of the host data (every process has the same), and ``to_host``, the one
  way a device value reaches NumPy, gathers the blocks from every process.
"""
import math

import numpy as np

from .. import settings
from . import communication
from .jaxload import jax, lax

SHARDED = False  # the mode "sharded" is on
SHARD_THRESHOLD = None  # elements per device from which a new array is split
_MESH = None  # (the devices, their mesh), made at first use


def _setting(name, value):
    """``settings``' watcher: the mode and threshold kept here for ``layout``."""
    global SHARDED, SHARD_THRESHOLD
    if name == "placement":
        SHARDED = value == "sharded"
    else:
        SHARD_THRESHOLD = value


settings.watch(_setting, "placement", "shard_threshold")

AXIS = "devices"  # the mesh's one axis


def check(device):
    """None for the default device, or the ``jax.Device`` asked for (or the sharding: what
    ``a.device`` is for an array over several devices); NumPy's ValueError else."""
    if device is None or (isinstance(device, str) and device == "cpu"):
        return None
    if isinstance(device, (jax.Device, jax.sharding.Sharding)):
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
    value = arr._value
    source = getattr(value, "sharding", None)
    if source is not None and len(source.device_set) > 1 and (
            not isinstance(target, jax.sharding.Sharding)
            or not source.is_equivalent_to(target, value.ndim)):
        communication.note_reshard("device_put")  # (a split array laid out anew)
    out = type(arr)._wrap(jax.device_put(value, target))
    out._scalar = arr._scalar
    return out


def mesh():
    """The one-dimensional mesh (axis ``AXIS``) of every device JAX sees, across processes;
    its axis is of JAX's ``Auto`` type, so XLA's partitioner chooses the shardings of what is
    computed from sharded arrays."""
    global _MESH
    devices = jax.devices()
    if _MESH is None or _MESH[0] != devices:
        _MESH = devices, jax.sharding.Mesh(devices, (AXIS,),
                                           axis_types=(jax.sharding.AxisType.Auto,))
    return _MESH[1]


def split_axis(shape, count):
    """The axis a large array of ``shape`` is split along over ``count`` devices: the first
    whose length ``count`` divides (contiguous blocks of rows: elementwise work and reductions
    over the other axes stay on each device), None if there is none (JAX splits evenly only)."""
    for axis, n in enumerate(shape):
        if n and n % count == 0:
            return axis
    return None


def policy():
    """The layout policy in force, a static argument of every creation kernel (so that a kernel
    traced under one mode is not reused under another): None (JAX's default device) unless the
    mode is ``"sharded"`` and JAX sees several devices; then ``(mesh(), SHARD_THRESHOLD)``."""
    if not SHARDED:
        return None
    m = mesh()
    return None if m.size == 1 else (m, SHARD_THRESHOLD)


def layout(shape, rule):
    """The sharding a new device array of ``shape`` is made with under the policy ``rule``
    (``policy()``): None for None; else split along ``split_axis`` over the mesh when it has at
    least the threshold's elements per device, replicated on every device otherwise."""
    if rule is None:
        return None
    m, threshold = rule
    spec = jax.sharding.PartitionSpec()
    if math.prod(shape) >= threshold * m.size:
        axis = split_axis(shape, m.size)
        if axis is not None:
            spec = jax.sharding.PartitionSpec(*(None,) * axis, AXIS)
    return jax.sharding.NamedSharding(m, spec)


def constrain(value, rule):
    """Inside a creation kernel: its result ``value`` made with its ``layout`` under ``rule``
    (``policy()``, a static argument of the kernel), so XLA makes each block on its device."""
    sharding = layout(value.shape, rule)
    return value if sharding is None else lax.with_sharding_constraint(value, sharding)


def offsets_kind(offsets):
    """The kind of a view's offsets (a tuple, a leaf of a lazy graph: ``lazy``): ``tuple``, an
    operand of the compiled graph (one graph serves every offset), unless the mode is
    ``"sharded"`` with several devices: then ``("fixed", offsets)``, constants of the graph (one
    graph per offsets), so that XLA's partitioner sees which rows a slice of a split array
    reads and moves only those (a stencil's halo rows: collective-permutes) where a dynamic
    offset along the split axis makes it gather the whole array on every device."""
    if SHARDED and policy() is not None:
        return "fixed", offsets
    return tuple


def put(host):
    """The NumPy array ``host`` on the device with its ``layout`` (each device receives its own
    block; never the whole array on one device first)."""
    sharding = layout(host.shape, policy())
    if sharding is None:
        return jax.device_put(host)
    if sharding.is_fully_addressable:
        return jax.device_put(host, sharding)
    return jax.make_array_from_callback(host.shape, sharding, host.__getitem__)


def to_host(value):
    """The device value ``value`` (a ``jax.Array``) as a NumPy array (a copy): one whose blocks
    lie on other processes' devices too is gathered from every process (a collective: every
    process of the program reads the same value at the same point)."""
    if getattr(value, "is_fully_addressable", True) or value.is_fully_replicated:
        return np.asarray(value)
    from jax.experimental import multihost_utils  # (JAX is loaded: ``value`` is its array)
    return multihost_utils.process_allgather(value, tiled=True)
