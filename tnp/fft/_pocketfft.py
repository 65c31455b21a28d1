"""numpy.fft's transforms on jax.numpy.fft, with NumPy's n/s/axes/norm rules and result dtypes."""
import warnings

from .._core.engine.jaxload import jnp
import numpy as np

from .._core.rules import probe
from .._core.array import write
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, normalize, normalize_axis, single_out
from .._core.dispatch.np_doc import np_doc

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


def _raw(a, n, axis, is_real, is_forward, norm, out=None):
    """One 1-D transform as NumPy's ``_raw_fft`` does it (``n`` already defaulted); ``out``:
    the ``(shape, dtype)`` of an ``out=`` array (``dest``), checked as NumPy's ufunc checks it."""
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
        r = numpy_cast(jnp.fft.rfft(x, n=n, axis=axis, norm=norm), cdt)
        return _checked(r, out, "rfft_n_even" if n % 2 == 0 else "rfft_n_odd")
    if is_real:
        rdt = _real_dtype(a.dtype)
        cdt = _complex_dtype(rdt)
        r = numpy_cast(jnp.fft.irfft(numpy_cast(a, cdt), n=n, axis=axis, norm=norm), rdt)
        return _checked(r, out, "irfft")
    cdt = _complex_dtype(a.dtype)
    f = jnp.fft.fft if is_forward else jnp.fft.ifft
    return _checked(f(numpy_cast(a, cdt), n=n, axis=axis, norm=norm), out,
                    "fft" if is_forward else "ifft")


def _checked(r, out, name):
    """NumPy's errors for an ``out=`` of ``(shape, dtype)`` that one step's result ``r`` cannot
    be written to (NumPy's nD transforms write each step into ``out``)."""
    if out is not None:
        if tuple(r.shape) != out[0]:
            raise ValueError("output array has wrong shape.")
        if not np.can_cast(r.dtype, out[1], "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{name}' output from dtype('{np.dtype(r.dtype)}')"
                            f" to dtype('{out[1]}') with casting rule 'same_kind'")
    return r


def _transform(kernel, numpy_fn, args, out):
    """``kernel(*args, dest)``, its result written to ``out`` (the one write path) when given:
    ``dest`` is out's ``(shape, dtype)``, which the kernel checks; on a failure with ``out=``,
    NumPy's own error, from ``numpy_fn`` on placeholders (its wording names its loop's shapes)."""
    out = single_out(out)
    if out is None:
        return kernel(*args, None)
    try:
        r = kernel(*args, (out.shape, out.dtype))
    except (ValueError, TypeError):
        a = args[0] if hasattr(args[0], "shape") and hasattr(args[0], "dtype") else np.asarray(
            args[0])
        probe.call(numpy_fn, probe.like(a), *args[1:], out=probe.Out(out.shape, out.dtype))
        raise
    write.assign(out, r)
    return out


def _n(a, n, axis, inverse_real=False):
    if n is not None:
        return n
    m = a.shape[axis]
    return (m - 1) * 2 if inverse_real else m


@normalize
def _fft(a: ArrayLike, n, axis, norm, dest):
    return _raw(a, _n(a, n, axis), axis, False, True, norm, dest)


@np_doc(np.fft.fft, namespace="fft")
def fft(a, n=None, axis=-1, norm=None, out=None):
    return _transform(_fft, np.fft.fft, (a, n, axis, norm), out)


@normalize
def _ifft(a: ArrayLike, n, axis, norm, dest):
    return _raw(a, _n(a, n, axis), axis, False, False, norm, dest)


@np_doc(np.fft.ifft, namespace="fft")
def ifft(a, n=None, axis=-1, norm=None, out=None):
    return _transform(_ifft, np.fft.ifft, (a, n, axis, norm), out)


@normalize
def _rfft(a: ArrayLike, n, axis, norm, dest):
    return _raw(a, _n(a, n, axis), axis, True, True, norm, dest)


@np_doc(np.fft.rfft, namespace="fft")
def rfft(a, n=None, axis=-1, norm=None, out=None):
    return _transform(_rfft, np.fft.rfft, (a, n, axis, norm), out)


@normalize
def _irfft(a: ArrayLike, n, axis, norm, dest):
    return _raw(a, _n(a, n, axis, True), axis, True, False, norm, dest)


@np_doc(np.fft.irfft, namespace="fft")
def irfft(a, n=None, axis=-1, norm=None, out=None):
    return _transform(_irfft, np.fft.irfft, (a, n, axis, norm), out)


@normalize
def _hfft(a: ArrayLike, n, axis, norm, dest):
    _check_norm(norm)
    return _raw(jnp.conj(a), _n(a, n, axis, True), axis, True, False, _SWAP[norm], dest)


@np_doc(np.fft.hfft, namespace="fft")
def hfft(a, n=None, axis=-1, norm=None, out=None):
    return _transform(_hfft, np.fft.hfft, (a, n, axis, norm), out)


@normalize
def _ihfft(a: ArrayLike, n, axis, norm, dest):
    _check_norm(norm)
    return jnp.conj(_raw(a, _n(a, n, axis), axis, True, True, _SWAP[norm], dest))


@np_doc(np.fft.ihfft, namespace="fft")
def ihfft(a, n=None, axis=-1, norm=None, out=None):
    return _transform(_ihfft, np.fft.ihfft, (a, n, axis, norm), out)


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


def _c2c_nd(a, s, axes, norm, forward, out):
    s, axes = _cook_nd_args(a, s, axes)
    for n, ax in reversed(list(zip(s, axes))):
        a = _raw(a, _n(a, n, ax), ax, False, forward, norm, out)
    return a


def _r2c_nd(a, s, axes, norm, out):
    s, axes = _cook_nd_args(a, s, axes)
    a = _raw(a, _n(a, s[-1], axes[-1]), axes[-1], True, True, norm, out)
    for n, ax in reversed(list(zip(s[:-1], axes[:-1]))):
        a = _raw(a, _n(a, n, ax), ax, False, True, norm, out)
    return a


def _c2r_nd(a, s, axes, norm, out):
    s, axes = _cook_nd_args(a, s, axes, invreal=True)
    for n, ax in zip(s[:-1], axes[:-1]):
        a = _raw(a, _n(a, n, ax), ax, False, False, norm)
    return _raw(a, _n(a, s[-1], axes[-1], True), axes[-1], True, False, norm, out)


@normalize
def _fftn(a: ArrayLike, s, axes, norm, dest):
    return _c2c_nd(a, s, axes, norm, True, dest)


@np_doc(np.fft.fftn, namespace="fft")
def fftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(_fftn, np.fft.fftn, (a, s, axes, norm), out)


@normalize
def _ifftn(a: ArrayLike, s, axes, norm, dest):
    return _c2c_nd(a, s, axes, norm, False, dest)


@np_doc(np.fft.ifftn, namespace="fft")
def ifftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(_ifftn, np.fft.ifftn, (a, s, axes, norm), out)


@normalize
def _fft2(a: ArrayLike, s, axes, norm, dest):
    return _c2c_nd(a, s, axes, norm, True, dest)


@np_doc(np.fft.fft2, namespace="fft")
def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(_fft2, np.fft.fft2, (a, s, axes, norm), out)


@normalize
def _ifft2(a: ArrayLike, s, axes, norm, dest):
    return _c2c_nd(a, s, axes, norm, False, dest)


@np_doc(np.fft.ifft2, namespace="fft")
def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(_ifft2, np.fft.ifft2, (a, s, axes, norm), out)


@normalize
def _rfftn(a: ArrayLike, s, axes, norm, dest):
    return _r2c_nd(a, s, axes, norm, dest)


@np_doc(np.fft.rfftn, namespace="fft")
def rfftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(_rfftn, np.fft.rfftn, (a, s, axes, norm), out)


@normalize
def _rfft2(a: ArrayLike, s, axes, norm, dest):
    return _r2c_nd(a, s, axes, norm, dest)


@np_doc(np.fft.rfft2, namespace="fft")
def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(_rfft2, np.fft.rfft2, (a, s, axes, norm), out)


@normalize
def _irfftn(a: ArrayLike, s, axes, norm, dest):
    return _c2r_nd(a, s, axes, norm, dest)


@np_doc(np.fft.irfftn, namespace="fft")
def irfftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(_irfftn, np.fft.irfftn, (a, s, axes, norm), out)


@normalize
def _irfft2(a: ArrayLike, s, axes, norm, dest):
    return _c2r_nd(a, s, axes, norm, dest)


@np_doc(np.fft.irfft2, namespace="fft")
def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(_irfft2, np.fft.irfft2, (a, s, axes, norm), out)
