"""The process configuration tnp needs: 64-bit JAX, true float32 matrix products, IEEE
arithmetic on GPUs, host memory that is reused, and the persistent compilation cache
(``tnp._core.engine.compilecache``).

Imported first by ``tnp``. JAX computes float32 matrix products and convolutions in TF32 on
recent NVIDIA GPUs (bfloat16 passes on TPU); NumPy in float32, so tnp sets JAX's default matmul
precision to 'highest' unless the process has set one already (a later
``jax.config.update("jax_default_matmul_precision", ...)`` overrides it).
XLA's GPU compiler, by default, keeps float16/bfloat16 intermediates in float32 (so
``float16(2**40)`` is not inf between two operations) and divides float32 to within 2 ulp
(``div.full``: ``x / x`` can be 0.99999994); NumPy rounds every operation. Unless ``XLA_FLAGS``
names them already, tnp adds the XLA options that make each operation round as NumPy's does.
XLA reads them when JAX starts its backends: a process that ran JAX work before importing tnp
keeps its own. The division option is for NVIDIA GPUs (LLVM's NVPTX backend) only: it is
added only where a JAX CUDA plugin is installed.
On Linux with glibc, tnp also asks malloc to keep freed memory for reuse
(``_keep_freed_host_memory``): XLA's CPU worker threads otherwise allocate from per-thread heaps
that glibc unmaps when they empty, so every large result faults in fresh pages (a 32 MB array:
~7,800 page faults, 2 ms becoming 10 ms, at random per process). It takes full effect when
tnp is imported before JAX. ``TNP_MALLOC_TUNING=0`` opts out.
With ``TNP_DISTRIBUTED=1`` JAX's distributed runtime is started as JAX loads
(``tnp._core.engine.distributed``).
(The variables are read by ``tnp._core.settings``.)
"""
import ctypes
import importlib.util
import os
import platform

from .. import settings

# glibc's mallopt parameters, and the values: one heap for every thread (XLA's worker threads
# too), blocks under 64 MiB from it rather than from fresh mappings, up to 128 MiB of freed
# memory kept at its top. (256/512 MiB retained 5 GB after random 1-200 MB arrays, against
# 1.3 GB untuned; these keep 1.4 GB.) Set before ``import jax``: a thread that has allocated
# keeps its heap.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
_MALLOC_SETTINGS = ((_M_ARENA_MAX, 1), (_M_MMAP_THRESHOLD, 64 << 20),
                    (_M_TRIM_THRESHOLD, 128 << 20))


def _keep_freed_host_memory():
    """Set glibc's malloc to reuse freed memory (before JAX starts its CPU threads); a no-op
    elsewhere (macOS, musl) and with ``TNP_MALLOC_TUNING=0``."""
    if not settings.get("malloc_tuning") or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return all(mallopt(param, value) == 1 for param, value in _MALLOC_SETTINGS)


MALLOC_TUNED = _keep_freed_host_memory()

from . import compilecache, distributed, jaxload  # noqa: E402  (after the malloc settings)

# XLA options (read once, when JAX creates its backends) and their NumPy-faithful values.
IEEE_XLA_FLAGS = {"--xla_allow_excess_precision": "false"}
# IEEE float32 division on NVIDIA GPUs: an LLVM option of the NVPTX back end, which an XLA
# without it rejects by exiting the process (jaxlib 0.12.1 on a CPU), so only with a CUDA plugin.
CUDA_XLA_FLAGS = {"--xla_backend_extra_options": "-nvptx-prec-divf32=2"}


def _cuda_plugin():
    """Whether a JAX CUDA plugin is installed (found, not imported)."""
    return any(importlib.util.find_spec(f"jax_cuda{v}_plugin") is not None for v in (12, 13))


def _add_xla_flags():
    flags = os.environ.get("XLA_FLAGS", "")
    wanted = {**IEEE_XLA_FLAGS, **(CUDA_XLA_FLAGS if _cuda_plugin() else {})}
    extra = [f"{k}={v}" for k, v in wanted.items() if k not in flags]
    if extra:
        os.environ["XLA_FLAGS"] = " ".join(filter(None, [flags] + extra))


_add_xla_flags()


@jaxload.on_load
def _configure_jax():
    jax = jaxload.jax
    jax.config.update("jax_enable_x64", True)
    if jax.config.jax_default_matmul_precision is None:
        jax.config.update("jax_default_matmul_precision", "highest")
    compilecache.enable(jax)
    distributed.start_from_settings()  # before any device is used
