"""Packing bits: packbits, unpackbits (kernels under ``normalize``; NumPy checks the arguments on empty
placeholders, so its exception classes and messages are kept)."""
import operator

from .._core.engine.jaxload import jnp
import numpy as np

from .._core.rules import probe
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, normalize, normalize_axis
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["packbits", "unpackbits"]


def _prepare(a, axis):
    """NumPy's axis handling: None packs the flattened array; a 0-d array counts as 1-d."""
    if axis is None or a.ndim == 0:
        a = a.reshape(-1)
    return a, 0 if axis is None else normalize_axis(operator.index(axis), a.ndim)


def _weights(bitorder):
    w = 1 << jnp.arange(8, dtype=np.uint8)
    return w if bitorder.startswith("l") else w[::-1]


@normalize
def _pack_kernel(a: ArrayLike, axis, bitorder):
    x = numpy_cast(jnp.moveaxis(a != 0, axis, -1), np.uint8)
    n = x.shape[-1]
    x = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, -n % 8)])
    x = x.reshape(x.shape[:-1] + (x.shape[-1] // 8, 8))
    return jnp.moveaxis(jnp.sum(x * _weights(bitorder), axis=-1, dtype=np.uint8), -1, axis)


@normalize
def _unpack_kernel(a: ArrayLike, axis, count, bitorder):
    x = jnp.moveaxis(a, axis, -1)
    bits = numpy_cast((x[..., None] & _weights(bitorder)) != 0, np.uint8)
    bits = bits.reshape(x.shape[:-1] + (x.shape[-1] * 8,))
    n = bits.shape[-1]
    if count <= n:
        bits = bits[..., :count]
    else:
        bits = jnp.pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, count - n)])
    return jnp.moveaxis(bits, -1, axis)


@np_doc(np.packbits)
def packbits(a, /, axis=None, bitorder="big"):
    a = asarray(a)
    probe.call(np.packbits, probe.Spec((0,) * a.ndim, a.dtype), axis=axis, bitorder=bitorder)
    a, ax = _prepare(a, axis)
    return _pack_kernel(a, ax, bitorder[0].lower())


def _host_unpackbits(a, /, *args, **kwargs):
    """NumPy's ``unpackbits``, with the padding of an empty input zeros as NumPy documents
    (NumPy 2.4 leaves it uninitialised)."""
    r = np.unpackbits(a, *args, **kwargs)
    if np.size(a) == 0 and r.size:
        r[...] = 0
    return r


@np_doc(np.unpackbits, host_fn=_host_unpackbits)
def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    a = asarray(a)
    probe.call(np.unpackbits, probe.Spec((0,) * a.ndim, a.dtype), axis=axis, bitorder=bitorder)
    a, ax = _prepare(a, axis)
    n = a.shape[ax] * 8
    if count is None:
        count = n
    else:
        count = operator.index(count)
        if count < 0:
            count += n
            if count < 0:
                raise ValueError("-count larger than number of elements")
    return _unpack_kernel(a, ax, count, bitorder[0].lower())
