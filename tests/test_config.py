"""The JAX configuration tnp sets on import (tnp/_core/config.py)."""
import jax
import numpy as np

import tnp


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


def test_device_argument_takes_a_jax_device():
    """``device="cpu"`` (NumPy's one device) is the default JAX device; a ``jax.Device``, such as
    ``a.device``, places the result there."""
    dev = jax.devices()[-1]
    for make in (lambda d: tnp.zeros(2, device=d), lambda d: tnp.asarray([1.0], device=d),
                 lambda d: tnp.arange(3, device=d), lambda d: tnp.ones(2).to_device(d)):
        assert make(dev).device == dev
        assert make("cpu").device == jax.devices()[0]
