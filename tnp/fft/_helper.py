"""numpy.fft's helpers: sample frequencies and shifts."""
import operator

from .._core.engine.jaxload import jnp
import numpy as np

from .._core.engine import devices
from .._core.rules import probe
from .._core.numerics.casting import cast
from .._core.dispatch.normalize import ArrayLike, normalize, normalize_axis, wrap_result
from .._core.dispatch.np_doc import np_doc

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _scaled(ints, n, d):
    """``ints * (1.0 / (n * d))`` with NumPy's scalar arithmetic and result dtype."""
    val = 1.0 / (n * d)
    weak = type(val)(0) if type(val) in (int, float, complex) else val  # its value is no key
    dt = probe.call(np.result_type, probe.Spec((0,), np.int64), weak)
    return cast(ints, dt) * jnp.asarray(val, dt)


def _check_n(n):
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")
    return operator.index(n)


@np_doc(np.fft.fftfreq, namespace="fft")
def fftfreq(n, d=1.0, device=None):
    n = _check_n(n)
    half = (n - 1) // 2 + 1
    ints = jnp.concatenate([jnp.arange(0, half, dtype=jnp.int64),
                            jnp.arange(-(n // 2), 0, dtype=jnp.int64)])
    return devices.place(wrap_result(_scaled(ints, n, d)), device)


@np_doc(np.fft.rfftfreq, namespace="fft")
def rfftfreq(n, d=1.0, device=None):
    n = _check_n(n)
    return devices.place(wrap_result(_scaled(jnp.arange(0, n // 2 + 1, dtype=jnp.int64), n, d)),
                         device)


def _shift(x, axes, sign):
    if x.ndim == 0:  # NumPy's roll fails this way on 0-d input
        raise ValueError("not enough values to unpack (expected 2, got 0)")
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (axes,)
    axes = tuple(normalize_axis(operator.index(ax), x.ndim) for ax in axes)
    if not axes:
        return x
    return jnp.roll(x, tuple(sign * (x.shape[ax] // 2) for ax in axes), axes)


@np_doc(np.fft.fftshift, namespace="fft")
@normalize
def fftshift(x: ArrayLike, axes=None):
    return _shift(x, axes, 1)


@np_doc(np.fft.ifftshift, namespace="fft")
@normalize
def ifftshift(x: ArrayLike, axes=None):
    return _shift(x, axes, -1)
