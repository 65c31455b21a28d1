"""The JAX configuration tnp sets on import (tnp/_core/config.py)."""
import jax
import numpy as np
import pytest

import tnp
import tnp_ext
from engine import assert_same


def test_float32_products_ask_for_true_float32():
    """NumPy multiplies float32 matrices in float32; JAX's default is TF32 on recent NVIDIA
    GPUs. tnp's kernels ask XLA for the highest precision (on a CPU it changes nothing)."""
    a = tnp.ones((4, 4), np.float32)
    for fn in (lambda x: x @ x, lambda x: tnp.convolve(x[0], x[1]),
               lambda x: tnp.einsum("ij,jk->ik", x, x)):
        text = jax.jit(lambda x: fn(x).data).lower(a).as_text()
        assert "HIGHEST" in text


def test_64_bit_mode():
    assert jax.config.jax_enable_x64
    assert tnp.arange(3).dtype == np.arange(3).dtype


@pytest.mark.parametrize("mode", ["device", "auto"])
def test_device_argument_takes_a_jax_device(mode):
    """A ``jax.Device``, such as ``a.device``, places the result there in every placement mode;
    ``device="cpu"`` (NumPy's one device) is the default JAX device on the device tier, and
    NumPy's own "cpu" on the host tier."""
    dev = jax.devices()[-1]
    with tnp_ext.placement(mode):
        for make in (lambda d: tnp.zeros(2, device=d), lambda d: tnp.asarray([1.0], device=d),
                     lambda d: tnp.arange(3, device=d), lambda d: tnp.ones(2).to_device(d)):
            assert make(dev).device == dev
            assert make("cpu").device == (jax.devices()[0] if mode == "device" else "cpu")


def test_xla_flags_ask_for_ieee_rounding():
    """tnp adds XLA's options for NumPy's rounding (float16 rounded after every operation,
    correctly rounded float32 division on GPUs, only where a CUDA plugin is installed: an XLA
    without the NVPTX back end exits on that option), and keeps a user's own setting of them."""
    import os
    import subprocess
    import sys
    from tnp._core.engine import jaxconfig
    for key, value in jaxconfig.IEEE_XLA_FLAGS.items():
        assert f"{key}={value}" in os.environ["XLA_FLAGS"]
    code = "import os, tnp; print(os.environ['XLA_FLAGS'])"
    env = dict(os.environ, XLA_FLAGS="--xla_allow_excess_precision=true")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert "--xla_allow_excess_precision=true" in out
    assert "--xla_allow_excess_precision=false" not in out
    assert ("--xla_backend_extra_options=-nvptx-prec-divf32=2" in out) == jaxconfig._cuda_plugin()


def test_float32_division_is_correctly_rounded():
    """``x / x == 1`` and every quotient rounded as NumPy's, over a sweep of float32 mantissas
    (XLA's GPU default, ``div.full``, is off by an ulp for about one in five)."""
    bits = np.arange(0, 2 ** 23, 7, dtype=np.uint32) | np.uint32(0x3F800000)
    a = bits.view(np.float32)
    b = a * np.float32(3) + np.float32(1)
    t_a, t_b = tnp.asarray(a), tnp.asarray(b)
    assert_same(t_a / t_a, a / a, rtol=0)
    assert_same(t_a / t_b, a / b, rtol=0)


def test_malloc_keeps_freed_memory_on_glibc():
    """On glibc, tnp sets malloc to reuse freed memory (XLA's threads otherwise fault in fresh
    pages for every large result); ``TNP_MALLOC_TUNING=0`` leaves malloc alone."""
    import os
    import platform
    import subprocess
    import sys
    from tnp._core.engine import jaxconfig as config
    assert config.MALLOC_TUNED == (platform.libc_ver()[0] == "glibc")
    code = "from tnp._core.engine import jaxconfig; print(jaxconfig.MALLOC_TUNED)"
    env = dict(os.environ, TNP_MALLOC_TUNING="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
