"""Solving and inverting: inv, solve, det, slogdet, cholesky, lstsq, pinv, matrix_power,
tensorinv, tensorsolve. Computed in double precision as NumPy does, cast to NumPy's result dtype."""
import functools
import operator

from .._core.engine.jaxload import jax, jnp
import numpy as np
from numpy.linalg import LinAlgError

from .._core.rules import probe
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, normalize, to_jax
from .._core.dispatch.np_doc import np_doc
from . import _common as c
from ._decompositions import svd_impl

__all__ = ["inv", "solve", "det", "slogdet", "cholesky", "lstsq", "pinv", "matrix_power",
           "tensorinv", "tensorsolve"]


def _lu_solve(a, b):
    """Solve ``a x = b`` for stacks of matrices (batch dims broadcast); also a singular flag
    (an exactly zero pivot, where LAPACK's getrf reports failure)."""
    batch = jnp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = jnp.broadcast_to(a, batch + a.shape[-2:])
    b = jnp.broadcast_to(b, batch + b.shape[-2:])
    lu, _, perm = jax.lax.linalg.lu(a)
    bp = jnp.take_along_axis(b, jnp.broadcast_to(perm[..., :, None], b.shape), axis=-2)
    y = jax.lax.linalg.triangular_solve(lu, bp, left_side=True, lower=True, unit_diagonal=True)
    x = jax.lax.linalg.triangular_solve(lu, y, left_side=True, lower=False)
    return x, jnp.any(jnp.diagonal(lu, axis1=-2, axis2=-1) == 0)


def inv_impl(a):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a)
    eye = jnp.broadcast_to(jnp.eye(a.shape[-1], dtype=t), a.shape)
    x, bad = _lu_solve(numpy_cast(a, t), eye)
    return numpy_cast(x, result_t), bad


@normalize
def _inv(a: ArrayLike):
    return inv_impl(a)


@np_doc(np.linalg.inv, namespace="linalg",
        notes="Singularity is checked eagerly on the device result (a sync point; not under a trace).")
def inv(a):
    x, bad = _inv(a)
    c.raise_if(bad, "Singular matrix")
    return x


@normalize
def _solve(a: ArrayLike, b: ArrayLike):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a, b)
    m = a.shape[-1]
    vector = b.ndim == 1
    name, core = ("solve1", 0) if vector else ("solve", 0)
    if b.ndim == 0 or b.shape[-1 if vector else -2] != m:
        size = b.shape[-1 if vector else -2] if b.ndim else 0
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension {core}, "
                         f"with gufunc signature {sig} (size {size} is different from {m})")
    bb = b[:, None] if vector else b
    x, bad = _lu_solve(numpy_cast(a, t), numpy_cast(bb, t))
    if vector:
        x = x[..., 0]
    return numpy_cast(x, result_t), bad


@np_doc(np.linalg.solve, namespace="linalg",
        notes="Singularity is checked eagerly on the device result (a sync point; not under a trace).")
def solve(a, b):
    x, bad = _solve(a, b)
    c.raise_if(bad, "Singular matrix")
    return x


def _slogdet(a):
    """jnp's slogdet, with LAPACK's NaN: a NaN anywhere in a matrix reaches a pivot of its LU
    factorisation, so NumPy's logdet is NaN (its complex sign too). cuSOLVER's LU may stop at a
    zero pivot instead (sign 0, logdet -inf)."""
    sign, logdet = jnp.linalg.slogdet(a)
    nan = jnp.any(jnp.isnan(a), axis=(-2, -1))
    logdet = jnp.where(nan, jnp.nan, logdet)
    if sign.dtype.kind == "c":
        sign = jnp.where(nan, jnp.asarray(complex(np.nan, np.nan), sign.dtype), sign)
    return sign, logdet


def _det(a):
    """NumPy's det: ``sign * exp(logdet)`` of the LU factorisation, so a matrix with an exactly
    zero pivot gives +0.0 (NumPy's sign 0, logdet -inf). jnp.linalg.det multiplies the pivots
    of 2x2/3x3 matrices (JAX >= 0.11), which gives -0.0 for some singular ones; its derivative
    (finite at singular matrices) is kept."""
    sign, logdet = _slogdet(a)
    return sign * numpy_cast(jnp.exp(logdet), sign.dtype)


@functools.cache
def _det_with_jvp():
    """``_det`` with jnp.linalg.det's derivative (made at first use: JAX is imported then)."""
    det = jax.custom_jvp(_det)
    det.defjvp(lambda primals, tangents: (det(*primals),
                                          jax.jvp(jnp.linalg.det, primals, tangents)[1]))
    return det


@np_doc(np.linalg.det, namespace="linalg")
@normalize
def det(a: ArrayLike):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a)
    return numpy_cast(_det_with_jvp()(numpy_cast(a, t)), result_t)


@np_doc(np.linalg.slogdet, namespace="linalg")
@normalize
def slogdet(a: ArrayLike):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a)
    sign, logdet = _slogdet(numpy_cast(a, t))
    if t.kind == "c":  # NumPy's sign has +0.0 imaginary parts for real determinants
        sign = jax.lax.complex(sign.real, jnp.where(sign.imag == 0, 0.0, sign.imag))
    return np.linalg._linalg.SlogdetResult(numpy_cast(sign, result_t),
                                           numpy_cast(logdet, c.real_dtype(result_t)))


@normalize
def _cholesky(a: ArrayLike, upper):
    c.assert_stacked_square(a)
    t, result_t = c.common_type(a)
    low = jax.lax.linalg.cholesky(c.hermitian_from(numpy_cast(a, t), not upper),
                                  symmetrize_input=False)
    r = c.conj_t(low) if upper else low
    # LAPACK's potrf fails on a non-positive pivot; NaN input propagates without failing.
    return numpy_cast(r, result_t), jnp.any(jnp.isnan(low)) & ~jnp.any(jnp.isnan(a))


@np_doc(np.linalg.cholesky, namespace="linalg",
        notes="Positive definiteness is checked eagerly on the device result (a sync point).")
def cholesky(a, /, *, upper=False):
    r, bad = _cholesky(a, bool(upper))
    c.raise_if(bad, "Matrix is not positive definite")
    return r


@normalize
def _matrix_power(a: ArrayLike, n):
    if n == 0:
        return jnp.broadcast_to(jnp.eye(a.shape[-1], dtype=a.dtype), a.shape)
    z = result = None
    while n > 0:
        z = a if z is None else c.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else c.matmul(result, z)
    return result


@np_doc(np.linalg.matrix_power, namespace="linalg")
def matrix_power(a, n):
    a = to_jax(a)
    c.assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n < 0:
        a, n = inv(a), -n
    return _matrix_power(a, n)


@normalize
def _lstsq(a: ArrayLike, b: ArrayLike, rcond):
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    if a.ndim != 2 or b.ndim != 2:
        nd = a.ndim if a.ndim != 2 else b.ndim
        raise LinAlgError('%d-dimensional array given. Array must be '
                          'two-dimensional' % nd)
    m, n = a.shape
    if m != b.shape[0]:
        raise LinAlgError('Incompatible dimensions')
    t, result_t = c.common_type(a, b)
    real_t = c.real_dtype(result_t)
    a, b = numpy_cast(a, t), numpy_cast(b, t)
    if rcond is None:
        rcond = np.finfo(t).eps * max(n, m)
    elif not 0 < rcond < 1:  # LAPACK's gelsd then uses its machine epsilon (half NumPy's eps)
        rcond = np.finfo(t).eps / 2
    u, s, vh = jnp.linalg.svd(a, full_matrices=False)
    cutoff = rcond * (jnp.max(s, initial=0) if s.size else 0)
    large = s > cutoff
    sinv = jnp.where(large, 1 / jnp.where(large, s, 1), 0)
    x = c.matmul(jnp.conj(c.mT(vh)), sinv[:, None] * c.matmul(jnp.conj(c.mT(u)), b))
    resid = jnp.sum(jnp.abs(b - c.matmul(a, x)) ** 2, axis=0)
    if vector:
        x = x[:, 0]
    rank = numpy_cast(jnp.sum(large), np.int32)
    return numpy_cast(x, result_t), numpy_cast(resid, real_t), rank, numpy_cast(s, real_t)


@np_doc(np.linalg.lstsq, namespace="linalg",
        notes="The rank decides the residuals' shape: read on the host (a sync point; under a "
              "JAX trace the residuals are always returned). Solved through the SVD, as "
              "LAPACK's gelsd does.")
def lstsq(a, b, rcond=None):
    x, resid, rank, s = _lstsq(a, b, None if rcond is None else float(rcond))
    m, n = c.shape_of(a)[-2:]
    if c.is_concrete(rank) and (int(rank._value) != n or m <= n):
        resid = resid[:0]
    return x, resid, rank, s


@normalize
def _pinv(a: ArrayLike, rcond: ArrayLike, hermitian):
    if a.size == 0 and a.ndim >= 2:
        m, n = a.shape[-2:]
        return jnp.zeros(a.shape[:-2] + (n, m), a.dtype), jnp.asarray(False)
    u, s, vt = svd_impl(jnp.conj(a), False, True, hermitian)
    failed = jnp.any(jnp.isnan(s))
    cutoff = rcond[..., None] * jnp.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    s = numpy_cast(jnp.where(large, 1 / jnp.where(large, s, 1), 0), s.dtype)
    return c.matmul(c.mT(vt), s[..., None] * c.mT(u)), failed


@np_doc(np.linalg.pinv, namespace="linalg", notes="The SVD's failure on NaN input (NumPy's "
        "LinAlgError) is checked eagerly (a sync point; not under a trace).")
def pinv(a, rcond=None, hermitian=False, *, rtol=np._NoValue):
    if rcond is None:
        if rtol is np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(c.shape_of(a)[-2:]) * np.finfo(c.dtype_of(a)).eps
        else:
            rcond = rtol
    elif rtol is not np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    r, bad = _pinv(a, rcond, bool(hermitian))
    c.raise_if(bad, "SVD did not converge")
    return r


@np_doc(np.linalg.tensorinv, namespace="linalg")
def tensorinv(a, ind=2):
    a = to_jax(a)
    shape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = shape[ind:] + shape[:ind]
    prod = int(np.prod(shape[ind:], dtype=np.int64))
    probe.call(np.reshape, probe.like(a, np.bool_), (prod, -1))  # NumPy's reshape error, if any
    return inv(_reshape(a, (prod, -1))).reshape(invshape)


@normalize
def _reshape(a: ArrayLike, shape):
    return jnp.reshape(a, shape)


@np_doc(np.linalg.tensorsolve, namespace="linalg")
def tensorsolve(a, b, axes=None):
    a, b = to_jax(a), to_jax(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = jnp.transpose(a, allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = int(np.prod(oldshape, dtype=np.int64))
    if a.size != prod ** 2:
        raise LinAlgError(
            "Input arrays must satisfy the requirement \
            prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    return solve(_reshape(a, (prod, prod)), _reshape(b, (-1,))).reshape(oldshape)
