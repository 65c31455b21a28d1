"""Multi-process tnp: a thin layer over ``jax.distributed``.

Recipe (the same code on CPU hosts, a multi-GPU machine or a TPU pod slice):
1. every process calls ``tnp_ext.distributed.initialize(coordinator_address, num_processes,
   process_id)`` before any other JAX work (on TPU/GPU clusters the arguments are usually
   found from the environment: call it with none);
2. ``tnp_ext.parallel.devices()`` then lists the devices of all processes; build a
   ``Mesh`` over them and ``shard`` global arrays, or ``pmap`` over local devices;
3. collectives (``psum``, ...) run across processes.
On CPU, cross-process collectives use gloo (set here before initialising).
"""
import jax

__all__ = ["initialize", "shutdown", "process_index", "process_count"]


def initialize(coordinator_address=None, num_processes=None, process_id=None,
               local_device_ids=None, initialization_timeout=300, **kwargs):
    if jax.config.jax_cpu_collectives_implementation in (None, "none"):
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(coordinator_address=coordinator_address,
                               num_processes=num_processes, process_id=process_id,
                               local_device_ids=local_device_ids,
                               initialization_timeout=initialization_timeout, **kwargs)


def shutdown():
    jax.distributed.shutdown()


def process_index():
    return jax.process_index()


def process_count():
    return jax.process_count()
