"""Decompositions: eig, eigvals, eigh, eigvalsh, svd, svdvals, qr. Computed in double precision
as NumPy does (its LAPACK calls are all double), cast to NumPy's result dtypes."""
import functools
import warnings

from .._core.engine.jaxload import jax, jnp
import numpy as np
from numpy.linalg._linalg import EigResult, EighResult, QRResult, SVDResult

from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, normalize
from .._core.dispatch.np_doc import np_doc
from . import _common as c

__all__ = ["eig", "eigvals", "eigh", "eigvalsh", "svd", "svdvals", "qr"]


def _uplo(UPLO):
    UPLO = UPLO.upper()
    if UPLO not in ('L', 'U'):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == 'L'


def eigh_impl(a, lower, vectors=True):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a)
    v, w = jax.lax.linalg.eigh(numpy_cast(a, t), lower=lower, symmetrize_input=False)
    w = numpy_cast(w, c.real_dtype(result_t))
    return EighResult(w, numpy_cast(v, result_t)) if vectors else w


@np_doc(np.linalg.eigh, namespace="linalg")
def eigh(a, UPLO='L'):
    return _eigh(a, _uplo(UPLO))


@normalize
def _eigh(a: ArrayLike, lower):
    return eigh_impl(a, lower)


@np_doc(np.linalg.eigvalsh, namespace="linalg")
def eigvalsh(a, UPLO='L'):
    return _eigvalsh(a, _uplo(UPLO))


@normalize
def _eigvalsh(a: ArrayLike, lower):
    return eigh_impl(a, lower, vectors=False)


@normalize
def _eig(a: ArrayLike, vectors):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a)
    x = numpy_cast(a, t)
    finite = jnp.all(jnp.isfinite(x))
    x = jnp.where(finite, x, 0)  # cuSOLVER's geev fails on non-finite input; NaN results instead
    if vectors:
        w, v = jnp.linalg.eig(x)
        v = jnp.where(finite, v, jnp.nan)
    else:
        w, v = jnp.linalg.eigvals(x), None
    w = jnp.where(finite, w, jnp.nan)
    real = jnp.all(jnp.imag(w) == 0) if t.kind == "f" else jnp.asarray(False)
    return w, v, finite, real


@functools.cache
def _real_results_possible():
    """Whether the installed NumPy's eig returns real arrays when every eigenvalue is real
    (NumPy < 2.5) rather than always complex ones (NumPy >= 2.5): asked once."""
    return np.linalg.eigvals(np.eye(1)).dtype.kind == "f"


def _eig_finish(a, vectors):
    """Finite check and, before NumPy 2.5, NumPy's real-or-complex result choice: both read on
    the host (sync points). Under a trace, real input gives complex results (the check needs
    values)."""
    w, v, finite, real = _eig(a, vectors)
    if c.is_concrete(finite) and not bool(finite._value):
        raise np.linalg.LinAlgError("Array must not contain infs or NaNs")
    _, result_t = c.common_type_of(c.dtype_of(a))
    if _real_results_possible() and c.is_concrete(real) and bool(real._value):
        out_t = c.real_dtype(result_t)
        w, v = w.real, (v.real if v is not None else None)
    else:
        out_t = np.result_type(result_t, 1j)
    w = w.astype(out_t)
    return w if v is None else EigResult(w, v.astype(out_t))


@np_doc(np.linalg.eig, namespace="linalg", notes="Before NumPy 2.5, whether the result is real "
        "is decided on the host (a sync point); under a JAX trace real input gives complex "
        "results.")
def eig(a):
    return _eig_finish(a, True)


@np_doc(np.linalg.eigvals, namespace="linalg", notes="Before NumPy 2.5, whether the result is "
        "real is decided on the host (a sync point); under a JAX trace real input gives complex "
        "results.")
def eigvals(a):
    return _eig_finish(a, False)


def svd_impl(a, full_matrices, compute_uv, hermitian):
    """NumPy's svd on jax arrays (result dtypes included)."""
    if hermitian:
        if compute_uv:
            s, u = eigh_impl(a, True)
            sgn = jnp.copysign(jnp.ones((), s.dtype), s)
            s = jnp.abs(s)
            sidx = jnp.flip(jnp.argsort(s, axis=-1, stable=True), axis=-1)
            sgn = jnp.take_along_axis(sgn, sidx, axis=-1)
            s = jnp.take_along_axis(s, sidx, axis=-1)
            u = jnp.take_along_axis(u, jnp.broadcast_to(sidx[..., None, :], u.shape), axis=-1)
            vt = jnp.conj(c.mT(u * sgn[..., None, :]))
            return SVDResult(u, s, vt)
        s = jnp.abs(eigh_impl(a, True, vectors=False))
        return jnp.flip(jnp.sort(s, axis=-1), axis=-1)
    c.assert_stacked_2d(a)
    t, result_t = c.common_type(a)
    real_t = c.real_dtype(result_t)
    x = numpy_cast(a, t)
    if compute_uv:
        u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices, compute_uv=True)
        return SVDResult(numpy_cast(u, result_t), numpy_cast(s, real_t), numpy_cast(vh, result_t))
    return numpy_cast(jnp.linalg.svd(x, compute_uv=False), real_t)


@normalize
def _svd(a: ArrayLike, full_matrices, compute_uv, hermitian):
    r = svd_impl(a, full_matrices, compute_uv, hermitian)
    return r, jnp.any(jnp.isnan(r[1] if compute_uv else r))


@np_doc(np.linalg.svd, namespace="linalg", notes="LAPACK's non-convergence (NaN singular "
        "values) is checked eagerly on the device result (a sync point; not under a trace).")
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    r, bad = _svd(a, bool(full_matrices), bool(compute_uv), bool(hermitian))
    c.raise_if(bad, "SVD did not converge")
    return r


@np_doc(np.linalg.svdvals, namespace="linalg")
def svdvals(x, /):
    return svd(x, compute_uv=False, hermitian=False)


_QR_DEPRECATED = {"f": "reduced", "full": "reduced", "e": "economic", "economic": "economic"}


@np_doc(np.linalg.qr, namespace="linalg")
def qr(a, mode='reduced'):
    if mode not in ('reduced', 'complete', 'r', 'raw'):
        if mode not in _QR_DEPRECATED:
            raise ValueError(f"Unrecognized mode '{mode}'")
        msg = ("The 'full' option is deprecated in favor of 'reduced'.\nFor backward "
               "compatibility let mode default." if _QR_DEPRECATED[mode] == "reduced"
               else "The 'economic' option is deprecated.")
        warnings.warn(msg, DeprecationWarning, stacklevel=2)
        mode = _QR_DEPRECATED[mode]
    return _qr(a, mode)


@normalize
def _qr(a: ArrayLike, mode):
    c.assert_stacked_2d(a)
    t, result_t = c.common_type(a)
    x = numpy_cast(a, t)
    if mode in ("raw", "economic"):
        h, tau = jnp.linalg.qr(x, mode="raw")
        if mode == "economic":
            return numpy_cast(c.mT(h), result_t)
        return numpy_cast(h, result_t), numpy_cast(tau, result_t)
    if mode == "r":
        return numpy_cast(jnp.linalg.qr(x, mode="r"), result_t)
    q, r = jnp.linalg.qr(x, mode=mode)
    return QRResult(numpy_cast(q, result_t), numpy_cast(r, result_t))
