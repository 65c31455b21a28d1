"""numpy.linalg's array-API products and views: the main namespace's routines restricted to the
last axes as NumPy's linalg does, and multi_dot."""
from .._core.engine.jaxload import jnp
import numpy as np
from numpy.linalg import LinAlgError

from .._core.numerics.casting import numpy_cast
from .._core.dispatch.normalize import ArrayLike, ArrayLikeSeq, OutArray, normalize, to_jax
from .._core.dispatch.np_doc import np_doc
from .._routines import flips_and_splits as _flips_and_splits, products as _main_products, \
    reshaping as _reshaping
from .._ufuncs import table as _ufuncs
from . import _common as c

__all__ = ["multi_dot", "outer", "cross", "diagonal", "trace", "matmul", "matrix_transpose",
           "vecdot", "tensordot"]


def _dot(a, b):
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[1]} (dim 1) "
                         f"!= {b.shape[0]} (dim 0)")
    dt = np.result_type(a.dtype, b.dtype)
    return jnp.dot(numpy_cast(a, dt), numpy_cast(b, dt), precision=c.HIGHEST)


@normalize
def _multi_dot(arrays: ArrayLikeSeq, out: OutArray = None):
    arrays = list(arrays)
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = arrays[0][None, :]
    if last == 1:
        arrays[-1] = arrays[-1][:, None]
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError('%d-dimensional array given. Array must be '
                              'two-dimensional' % a.ndim)
    order = np.linalg._linalg._multi_dot_matrix_chain_order(arrays)

    def chain(i, j):
        if i == j:
            return arrays[i]
        return _dot(chain(i, order[i, j]), chain(order[i, j] + 1, j))
    result = chain(0, len(arrays) - 1)
    if first == 1 and last == 1:
        return result[0, 0]
    if first == 1 or last == 1:
        return result.ravel()
    return result


@np_doc(np.linalg.multi_dot, namespace="linalg")
def multi_dot(arrays, *, out=None):
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return _main_products.dot(arrays[0], arrays[1], out=out)
    return _multi_dot(arrays, out=out)


@np_doc(np.linalg.outer, namespace="linalg")
def outer(x1, x2, /):
    x1, x2 = to_jax(x1), to_jax(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _main_products.outer(x1, x2)


@np_doc(np.linalg.cross, namespace="linalg")
def cross(x1, x2, /, *, axis=-1):
    j1, j2 = to_jax(x1), to_jax(x2)
    if j1.shape[axis] != 3 or j2.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {j1.shape[axis]} and {j2.shape[axis]} "
                         "dimensional instead.")
    return _main_products.cross(x1, x2, axis=axis)


@np_doc(np.linalg.diagonal, namespace="linalg")
def diagonal(x, /, *, offset=0):
    return _flips_and_splits.diagonal(x, offset, axis1=-2, axis2=-1)


@np_doc(np.linalg.trace, namespace="linalg")
def trace(x, /, *, offset=0, dtype=None):
    return _main_products.trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)


@np_doc(np.linalg.matmul, namespace="linalg")
def matmul(x1, x2, /):
    return _ufuncs.matmul(x1, x2)


@np_doc(np.linalg.matrix_transpose, namespace="linalg")
def matrix_transpose(x, /):
    return _reshaping.matrix_transpose(x)


@normalize
def _vecdot(x1: ArrayLike, x2: ArrayLike, axis):
    dt = np.result_type(x1.dtype, x2.dtype)
    x1, x2 = jnp.broadcast_arrays(numpy_cast(x1, dt), numpy_cast(x2, dt))
    if x1.ndim == 0:
        raise ValueError("vecdot: Input operand 0 does not have enough dimensions (has 0, "
                         "gufunc core with signature (n),(n)->() requires 1)")
    if dt == np.bool_:
        return jnp.any(x1 & x2, axis=axis)
    return jnp.vecdot(x1, x2, axis=axis, precision=c.HIGHEST)


@np_doc(np.linalg.vecdot, namespace="linalg")
def vecdot(x1, x2, /, *, axis=-1):
    return _vecdot(x1, x2, axis)


@np_doc(np.linalg.tensordot, namespace="linalg")
def tensordot(x1, x2, /, *, axes=2):
    return _main_products.tensordot(x1, x2, axes=axes)
