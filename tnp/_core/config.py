"""JAX configuration that tnp needs: 64-bit mode, true float32 matrix products and the
persistent compilation cache.

Imported first by ``tnp``. JAX computes float32 matrix products and convolutions in TF32 on
recent NVIDIA GPUs (bfloat16 passes on TPU); NumPy in float32, so tnp sets JAX's default matmul
precision to 'highest' unless the process has set one already (a later
``jax.config.update("jax_default_matmul_precision", ...)`` overrides it).
``TNP_COMPILATION_CACHE=0`` opts out of the on-disk cache; ``TNP_COMPILATION_CACHE_DIR`` moves it
(default: ``~/.cache/tnp/jax``).
"""
import os

import jax

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
