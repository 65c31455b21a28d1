"""Parallelism for tnp code on JAX's own machinery: pmap and collectives, meshes and sharding.

tnp arrays are JAX pytrees, so these are JAX's functions with tnp arrays in and out. Operations
on a sharded tnp array run as jitted kernels, which keep the input's sharding (XLA's sharding
propagation): nothing is gathered to one device unless asked (``repr``, ``tolist``,
``__array__`` gather explicitly).
"""
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from tnp._core import api

from ._convert import to_jax_tree, to_tnp_tree
from .transforms import _tnp_result, _unwrap_output

__all__ = ["pmap", "psum", "pmean", "pmax", "pmin", "all_gather", "all_to_all", "ppermute",
           "axis_index", "devices", "device_count", "local_device_count", "Mesh",
           "PartitionSpec", "NamedSharding", "shard", "device_put", "shard_map", "make_mesh"]


def pmap(fun, axis_name=None, *, in_axes=0, out_axes=0, static_broadcasted_argnums=(),
         devices=None, axis_size=None):
    """``jax.pmap`` over a tnp function: the leading axis of each mapped argument is split
    over devices; results come back as tnp arrays."""
    return _tnp_result(jax.pmap(_unwrap_output(fun), axis_name=axis_name, in_axes=in_axes,
                                out_axes=out_axes,
                                static_broadcasted_argnums=static_broadcasted_argnums,
                                devices=devices, axis_size=axis_size))


def _collective(lax_fn):
    def collective(x, axis_name, *args, **kwargs):
        return to_tnp_tree(lax_fn(to_jax_tree(x), axis_name, *args, **kwargs))
    collective.__name__ = lax_fn.__name__
    collective.__doc__ = f"``jax.lax.{lax_fn.__name__}`` on tnp arrays (inside pmap, vmap with " \
                         "axis_name, or shard_map)."
    return collective


psum = _collective(jax.lax.psum)
pmean = _collective(jax.lax.pmean)
pmax = _collective(jax.lax.pmax)
pmin = _collective(jax.lax.pmin)
all_gather = _collective(jax.lax.all_gather)
all_to_all = _collective(jax.lax.all_to_all)
ppermute = _collective(jax.lax.ppermute)


def axis_index(axis_name):
    return api.wrap(jax.lax.axis_index(axis_name))


def devices(backend=None):
    return jax.devices(backend)


def device_count(backend=None):
    return jax.device_count(backend)


def local_device_count(backend=None):
    return jax.local_device_count(backend)


def make_mesh(axis_shapes, axis_names, devices=None):
    """A ``Mesh`` of the given shape over the available (or given) devices."""
    return jax.make_mesh(axis_shapes, axis_names, devices=devices)


def shard(x, mesh, spec):
    """``x`` placed on ``mesh`` split as ``spec`` (a PartitionSpec): a sharded tnp array."""
    return device_put(x, NamedSharding(mesh, spec if isinstance(spec, PartitionSpec)
                                       else PartitionSpec(*spec)))


def device_put(x, device_or_sharding=None):
    return to_tnp_tree(jax.device_put(to_jax_tree(x), device_or_sharding))


def shard_map(f, mesh, in_specs, out_specs, check_vma=True):
    """``jax.shard_map`` over a tnp function: each device runs ``f`` on its shard."""
    return _tnp_result(jax.shard_map(_unwrap_output(f), mesh=mesh, in_specs=in_specs,
                                     out_specs=out_specs, check_vma=check_vma))
