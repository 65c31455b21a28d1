"""Norms and numbers of matrices: norm, vector_norm, matrix_norm, cond, matrix_rank."""
import math
import typing

from .._core.engine.jaxload import jnp
import numpy as np
from numpy.linalg import LinAlgError

from .._core.engine import syncs
from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, normalize, normalize_axis, normalize_axes, to_jax
from .._core.dispatch.np_doc import np_doc
from . import _common as c
from ._decompositions import svd_impl
from ._solve import inv_impl

__all__ = ["norm", "vector_norm", "matrix_norm", "cond", "matrix_rank"]

_INF = float("inf")


def _sq(x):
    return (jnp.conj(x) * x).real if x.dtype.kind == "c" else x * x


def _svd_reduce(x, row, col, op):
    s = svd_impl(jnp.moveaxis(x, (row, col), (-2, -1)), True, False, False)
    return op(s)


def norm_impl(x, ord, axis, keepdims):
    """NumPy's norm on a jax array, case by case as numpy.linalg.norm does it."""
    if x.dtype.kind not in "fc":
        x = numpy_cast(x, np.float64)
    nd = x.ndim
    if axis is None and (ord is None or (ord in ('f', 'fro') and nd == 2)
                         or (ord == 2 and nd == 1)):
        flat = jnp.ravel(x)
        parts = (flat.real, flat.imag) if flat.dtype.kind == "c" else (flat,)
        sq = sum(jnp.dot(p, p, precision=c.HIGHEST) for p in parts)
        ret = jnp.sqrt(sq)
        return ret.reshape(nd * [1]) if keepdims else ret
    if axis is None:
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    ax = tuple(normalize_axis(a, nd) for a in axis) if len(axis) <= 2 else axis
    absx = jnp.abs(x)
    if len(axis) == 1:
        kw = dict(axis=ax, keepdims=keepdims)
        if ord == _INF:
            return jnp.max(absx, initial=0, **kw)
        if ord == -_INF:
            return jnp.min(absx, **kw)
        if ord == 0:
            return jnp.sum(numpy_cast(x != 0, absx.dtype), **kw)
        if ord == 1:
            return jnp.sum(absx, **kw)
        if ord is None or ord == 2:
            return jnp.sqrt(jnp.sum(_sq(x), **kw))
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        ret = jnp.sum(absx ** numpy_cast(jnp.asarray(ord), absx.dtype), **kw)
        return ret ** jnp.reciprocal(jnp.asarray(ord, ret.dtype))
    if len(axis) == 2:
        row, col = ax
        if row == col:
            raise ValueError('Duplicate axes given.')
        if ord == 2:
            ret = _svd_reduce(x, row, col, lambda s: jnp.max(s, axis=-1, initial=0))
        elif ord == -2:
            ret = _svd_reduce(x, row, col, lambda s: jnp.min(s, axis=-1))
        elif ord in (1, -1):
            red = jnp.max if ord == 1 else jnp.min
            kw = dict(initial=0) if ord == 1 else {}
            ret = red(jnp.sum(absx, axis=row), axis=col - (col > row), **kw)
        elif ord in (_INF, -_INF):
            red = jnp.max if ord == _INF else jnp.min
            kw = dict(initial=0) if ord == _INF else {}
            ret = red(jnp.sum(absx, axis=col), axis=row - (row > col), **kw)
        elif ord in (None, 'fro', 'f'):
            ret = jnp.sqrt(jnp.sum(_sq(x), axis=(row, col)))
        elif ord == 'nuc':
            ret = _svd_reduce(x, row, col, lambda s: jnp.sum(s, axis=-1))
        else:
            raise ValueError("Invalid norm order for matrices.")
        if keepdims:
            shape = list(x.shape)
            shape[row] = shape[col] = 1
            ret = ret.reshape(shape)
        return ret
    raise ValueError("Improper number of dimensions to norm.")


def _svd_failed(x, ord, axis):
    """NumPy's SVD-based norms raise when LAPACK fails (on NaN input): the flag to check."""
    two_axes = (axis is None and x.ndim == 2) or (isinstance(axis, tuple) and len(axis) == 2)
    if two_axes and ord in (2, -2, "nuc"):
        return jnp.any(jnp.isnan(x))
    return jnp.asarray(False)


@normalize
def _norm(x: ArrayLike, ord, axis, keepdims):
    return norm_impl(x, ord, axis, keepdims), _svd_failed(x, ord, axis)


_SVD_NOTE = ("The SVD's failure on NaN input (NumPy's LinAlgError) is checked eagerly (a sync "
             "point; not under a trace).")


@np_doc(np.linalg.norm, namespace="linalg", notes=_SVD_NOTE)
def norm(x, ord=None, axis=None, keepdims=False):
    r, bad = _norm(x, ord, axis, keepdims)
    c.raise_if(bad, "SVD did not converge")
    return r


@np_doc(np.linalg.matrix_norm, namespace="linalg", notes=_SVD_NOTE)
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


@normalize
def _vector_norm(x: ArrayLike, axis, keepdims, ord):
    shape = list(x.shape)
    if axis is None:
        y, ax = jnp.ravel(x), 0
    elif isinstance(axis, tuple):
        norm_axes = normalize_axes(axis, x.ndim)
        rest = tuple(i for i in range(x.ndim) if i not in norm_axes)
        y = jnp.transpose(x, axis + rest)
        y, ax = y.reshape((math.prod(x.shape[i] for i in axis),)
                          + tuple(x.shape[i] for i in rest)), 0
    else:
        y, ax = x, axis
    res = norm_impl(y, ord, ax, False)
    if keepdims:
        for i in normalize_axes(tuple(range(len(shape))) if axis is None else axis, len(shape)):
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


@np_doc(np.linalg.vector_norm, namespace="linalg")
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    return _vector_norm(x, axis, keepdims, ord)


@normalize
def _cond(x: ArrayLike, p):
    if x.size == 0 and math.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p in (2, -2):
        s = svd_impl(x, True, False, False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        c.assert_stacked_square(x)
        t, result_t = c.common_type(x)
        invx = inv_impl(numpy_cast(x, t))[0]
        r = norm_impl(numpy_cast(x, t), p, (-2, -1), False) * norm_impl(invx, p, (-2, -1), False)
        r = numpy_cast(r, c.real_dtype(result_t))
    nan_x = jnp.any(jnp.isnan(x), axis=(-2, -1))
    svd_failed = jnp.any(nan_x) if p is None or p in (2, -2) else jnp.asarray(False)
    return jnp.where(jnp.isnan(r) & ~nan_x, jnp.asarray(np.inf, r.dtype), r), svd_failed


@np_doc(np.linalg.cond, namespace="linalg", notes="The SVD's non-convergence on NaN input is "
        "checked eagerly (a sync point; not under a trace).")
def cond(x, p=None):
    r, bad = _cond(x, p)
    c.raise_if(bad, "SVD did not converge")
    return r


@normalize
def _matrix_rank(A: ArrayLike, tol: typing.Optional[ArrayLike], hermitian,
                 rtol: typing.Optional[ArrayLike]):
    S = svd_impl(A, True, False, hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * np.finfo(S.dtype).eps
        else:
            rtol = rtol[..., None]
        tol = jnp.max(S, axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = tol[..., None]
    return jnp.sum(S > tol, axis=-1, dtype=np.intp), jnp.any(jnp.isnan(S))


@np_doc(np.linalg.matrix_rank, namespace="linalg",
        notes="For fewer than two dimensions the Python int answer is read on the host. "
              + _SVD_NOTE)
def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    a = to_jax(A)
    if a.ndim < 2:
        return int(not syncs.check(jnp.all(a == 0)))
    r, bad = _matrix_rank(a, tol, bool(hermitian), rtol)
    c.raise_if(bad, "SVD did not converge")
    return r

