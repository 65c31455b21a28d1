"""Multi-process tnp: a thin layer over ``jax.distributed``.

Recipe (the same code on CPU hosts, a multi-GPU machine or a TPU pod slice):
1. every process calls ``tnp_ext.distributed.initialize(coordinator_address, num_processes,
   process_id)`` before any other JAX work (on TPU/GPU clusters the arguments are usually
   found from the environment: call it with none);
2. ``tnp_ext.parallel.devices()`` then lists the devices of all processes; build a
   ``Mesh`` over them and ``shard`` global arrays, or ``pmap`` over local devices;
3. collectives (``psum``, ...) run across processes.
On CPU, cross-process collectives use gloo. An unmodified program needs none of this:
``python -m tnp run --processes N`` (or ``TNP_DISTRIBUTED=1`` under a cluster's launcher) has
tnp start the runtime itself (``tnp._core.engine.distributed``, which ``initialize`` calls).
"""
import jax

from tnp._core import api

__all__ = ["initialize", "shutdown", "process_index", "process_count"]


def initialize(coordinator_address=None, num_processes=None, process_id=None,
               local_device_ids=None, initialization_timeout=300, **kwargs):
    """Start JAX's distributed runtime before any other JAX work, as tnp starts it under
    ``python -m tnp run --processes`` or ``TNP_DISTRIBUTED=1`` (gloo on a CPU; without
    arguments the cluster's launcher gives them; ``initialization_timeout`` also bounds the
    heartbeat: a peer silent that long counts as dead)."""
    api.start_distributed(coordinator_address, num_processes, process_id, local_device_ids,
                          timeout=initialization_timeout, **kwargs)


def shutdown():
    jax.distributed.shutdown()


def process_index():
    return jax.process_index()


def process_count():
    return jax.process_count()
