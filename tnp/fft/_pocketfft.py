"""numpy.fft's transforms on jax.numpy.fft, with NumPy's n/s/axes/norm rules and result dtypes."""
import warnings

from .._core.jaxload import jnp
import numpy as np

from .._core import probe
from .._core.casting import numpy_cast
from .._core.normalize import ArrayLike, OutArray, normalize, normalize_axis
from .._core.np_doc import np_doc

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn",
           "fft2", "ifft2", "rfft2", "irfft2"]

_NORMS = (None, "backward", "ortho", "forward")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward",'
                         '"ortho" or "forward".')
    return "backward" if norm is None else norm


def _complex_dtype(dt):
    return np.result_type(dt, 1j)


def _real_dtype(dt):
    return np.result_type(probe.dtype_of(np.real, probe.Spec((0,), dt)), 1.0)


def _raw(a, n, axis, is_real, is_forward, norm):
    """One 1-D transform as NumPy's ``_raw_fft`` does it (``n`` already defaulted)."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    norm = _check_norm(norm)
    axis = normalize_axis(axis, a.ndim)
    if is_real and is_forward:
        if np.dtype(a.dtype).kind == "c":
            raise TypeError("ufunc 'rfft_n_even' not supported for the input types, and the "
                            "inputs could not be safely coerced to any supported types "
                            "according to the casting rule ''safe''")
        cdt = _complex_dtype(a.dtype)
        x = numpy_cast(a, probe.dtype_of(np.real, probe.Spec((0,), cdt)))
        return numpy_cast(jnp.fft.rfft(x, n=n, axis=axis, norm=norm), cdt)
    if is_real:
        rdt = _real_dtype(a.dtype)
        cdt = _complex_dtype(rdt)
        return numpy_cast(jnp.fft.irfft(numpy_cast(a, cdt), n=n, axis=axis, norm=norm), rdt)
    cdt = _complex_dtype(a.dtype)
    f = jnp.fft.fft if is_forward else jnp.fft.ifft
    return f(numpy_cast(a, cdt), n=n, axis=axis, norm=norm)


def _n(a, n, axis, inverse_real=False):
    if n is not None:
        return n
    m = a.shape[axis]
    return (m - 1) * 2 if inverse_real else m


@np_doc(np.fft.fft, namespace="fft")
@normalize
def fft(a: ArrayLike, n=None, axis=-1, norm=None, out: OutArray = None):
    return _raw(a, _n(a, n, axis), axis, False, True, norm)


@np_doc(np.fft.ifft, namespace="fft")
@normalize
def ifft(a: ArrayLike, n=None, axis=-1, norm=None, out: OutArray = None):
    return _raw(a, _n(a, n, axis), axis, False, False, norm)


@np_doc(np.fft.rfft, namespace="fft")
@normalize
def rfft(a: ArrayLike, n=None, axis=-1, norm=None, out: OutArray = None):
    return _raw(a, _n(a, n, axis), axis, True, True, norm)


@np_doc(np.fft.irfft, namespace="fft")
@normalize
def irfft(a: ArrayLike, n=None, axis=-1, norm=None, out: OutArray = None):
    return _raw(a, _n(a, n, axis, True), axis, True, False, norm)


@np_doc(np.fft.hfft, namespace="fft")
@normalize
def hfft(a: ArrayLike, n=None, axis=-1, norm=None, out: OutArray = None):
    _check_norm(norm)
    return _raw(jnp.conj(a), _n(a, n, axis, True), axis, True, False, _SWAP[norm])


@np_doc(np.fft.ihfft, namespace="fft")
@normalize
def ihfft(a: ArrayLike, n=None, axis=-1, norm=None, out: OutArray = None):
    _check_norm(norm)
    return jnp.conj(_raw(a, _n(a, n, axis), axis, True, True, _SWAP[norm]))


def _cook_nd_args(a, s, axes, invreal=False):
    """NumPy's defaults for ``s`` and ``axes`` (with its deprecation warnings)."""
    shapeless = s is None
    if s is None:
        s = [a.shape[ax] for ax in axes] if axes is not None else list(a.shape)
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in "
                          "NumPy 2.0).", DeprecationWarning, stacklevel=4)
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in "
                      "NumPy 2.0.", DeprecationWarning, stacklevel=4)
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    return s, axes


def _c2c_nd(a, s, axes, norm, forward):
    s, axes = _cook_nd_args(a, s, axes)
    for n, ax in reversed(list(zip(s, axes))):
        a = _raw(a, _n(a, n, ax), ax, False, forward, norm)
    return a


def _r2c_nd(a, s, axes, norm):
    s, axes = _cook_nd_args(a, s, axes)
    a = _raw(a, _n(a, s[-1], axes[-1]), axes[-1], True, True, norm)
    for n, ax in reversed(list(zip(s[:-1], axes[:-1]))):
        a = _raw(a, _n(a, n, ax), ax, False, True, norm)
    return a


def _c2r_nd(a, s, axes, norm):
    s, axes = _cook_nd_args(a, s, axes, invreal=True)
    for n, ax in zip(s[:-1], axes[:-1]):
        a = _raw(a, _n(a, n, ax), ax, False, False, norm)
    return _raw(a, _n(a, s[-1], axes[-1], True), axes[-1], True, False, norm)


@np_doc(np.fft.fftn, namespace="fft")
@normalize
def fftn(a: ArrayLike, s=None, axes=None, norm=None, out: OutArray = None):
    return _c2c_nd(a, s, axes, norm, True)


@np_doc(np.fft.ifftn, namespace="fft")
@normalize
def ifftn(a: ArrayLike, s=None, axes=None, norm=None, out: OutArray = None):
    return _c2c_nd(a, s, axes, norm, False)


@np_doc(np.fft.fft2, namespace="fft")
@normalize
def fft2(a: ArrayLike, s=None, axes=(-2, -1), norm=None, out: OutArray = None):
    return _c2c_nd(a, s, axes, norm, True)


@np_doc(np.fft.ifft2, namespace="fft")
@normalize
def ifft2(a: ArrayLike, s=None, axes=(-2, -1), norm=None, out: OutArray = None):
    return _c2c_nd(a, s, axes, norm, False)


@np_doc(np.fft.rfftn, namespace="fft")
@normalize
def rfftn(a: ArrayLike, s=None, axes=None, norm=None, out: OutArray = None):
    return _r2c_nd(a, s, axes, norm)


@np_doc(np.fft.rfft2, namespace="fft")
@normalize
def rfft2(a: ArrayLike, s=None, axes=(-2, -1), norm=None, out: OutArray = None):
    return _r2c_nd(a, s, axes, norm)


@np_doc(np.fft.irfftn, namespace="fft")
@normalize
def irfftn(a: ArrayLike, s=None, axes=None, norm=None, out: OutArray = None):
    return _c2r_nd(a, s, axes, norm)


@np_doc(np.fft.irfft2, namespace="fft")
@normalize
def irfft2(a: ArrayLike, s=None, axes=(-2, -1), norm=None, out: OutArray = None):
    return _c2r_nd(a, s, axes, norm)
