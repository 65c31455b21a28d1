"""JAX configuration that tnp needs: 64-bit mode, true float32 matrix products, IEEE arithmetic
on GPUs and the persistent compilation cache.

Imported first by ``tnp``. JAX computes float32 matrix products and convolutions in TF32 on
recent NVIDIA GPUs (bfloat16 passes on TPU); NumPy in float32, so tnp sets JAX's default matmul
precision to 'highest' unless the process has set one already (a later
``jax.config.update("jax_default_matmul_precision", ...)`` overrides it).
XLA's GPU compiler, by default, keeps float16/bfloat16 intermediates in float32 (so
``float16(2**40)`` is not inf between two operations) and divides float32 to within 2 ulp
(``div.full``: ``x / x`` can be 0.99999994); NumPy rounds every operation. Unless ``XLA_FLAGS``
names them already, tnp adds the XLA options that make each operation round as NumPy's does.
XLA reads them when JAX starts its backends: a process that ran JAX work before importing tnp
keeps its own. The division option is for NVIDIA GPUs (LLVM's NVPTX backend) only.
``TNP_COMPILATION_CACHE=0`` opts out of the on-disk cache; ``TNP_COMPILATION_CACHE_DIR`` moves it
(default: ``~/.cache/tnp/jax``).
"""
import os

import jax

# XLA options (read once, when JAX creates its backends) and their NumPy-faithful values.
IEEE_XLA_FLAGS = {"--xla_allow_excess_precision": "false",
                  "--xla_backend_extra_options": "-nvptx-prec-divf32=2"}


def _add_xla_flags():
    flags = os.environ.get("XLA_FLAGS", "")
    extra = [f"{k}={v}" for k, v in IEEE_XLA_FLAGS.items() if k not in flags]
    if extra:
        os.environ["XLA_FLAGS"] = " ".join(filter(None, [flags] + extra))


_add_xla_flags()
jax.config.update("jax_enable_x64", True)
if jax.config.jax_default_matmul_precision is None:
    jax.config.update("jax_default_matmul_precision", "highest")


def _enable_compilation_cache():
    if os.environ.get("TNP_COMPILATION_CACHE", "1") == "0":
        return
    if jax.config.jax_compilation_cache_dir:  # the user configured one already
        return
    path = os.environ.get("TNP_COMPILATION_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "tnp", "jax")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return
    jax.config.update("jax_compilation_cache_dir", path)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.2)


_enable_compilation_cache()
