"""Building matrices: eye, identity, tri, tril, triu, diag, diagflat, vander."""
import functools
import math
import operator

from .._core.engine.jaxload import jit, jnp
import numpy as np

from .._core.engine import devices
from .._core.rules import dtypes, probe
from .._core.array import flags
from .._core.numerics.casting import numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import ArrayLike, normalize
from .._core.dispatch.np_doc import np_doc
from .creation import _check_order, asarray, check_size, elements, place

__all__ = ["eye", "identity", "tri", "tril", "triu", "diag", "diagflat", "vander"]


def _dim(n):
    n = operator.index(n)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    return n


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _eye_kernel(n, m, k, dtype, rule):
    return devices.constrain(jnp.eye(n, m, k, dtype=dtype), rule)


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _tri_kernel(n, m, k, dtype, rule):
    return devices.constrain(numpy_cast(_tri_mask(n, m, k), dtype), rule)


def _tri_mask(n, m, k):
    """NumPy's ``greater_equal.outer(arange(n), arange(-k, m - k, dtype=<an int type>))``: the
    column values come from NumPy's integer arange fill, so a float ``k`` acts as NumPy's does."""
    first, second = int(-k), int(-k + 1)
    cols = first + jnp.arange(m, dtype=np.int64) * (second - first)
    return jnp.arange(n, dtype=np.int64)[:, None] >= cols[None, :]


def _square_size(N, M=None, *args, **kwargs):
    """``result_size`` of ``eye`` and ``identity``: N rows, M (default N) columns."""
    return elements((N, N if M is None else M))


def _tri_size(N, M=None, *args, **kwargs):
    n = _arange_len(N)
    return n * (n if M is None else _arange_len(M))


@np_doc(np.eye, result_size=_square_size)
def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    n = _dim(N)
    m = n if M is None else _dim(M)
    k = m if k >= m else operator.index(k)  # NumPy reads k as an index only when it is < M
    dtype = dtypes.canonical(dtype)
    check_size(n * m, dtype)
    _check_order(order)
    out = ndarray._wrap(_eye_kernel(n, m, k, dtype.char, devices.policy()))
    return flags.lay_out(place(out, device), order)


@np_doc(np.identity, result_size=_square_size)
def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=float if dtype is None else dtype)


@np_doc(np.tri, result_size=_tri_size)
def tri(N, M=None, k=0, dtype=float, *, like=None):
    # NumPy's tri is ``greater_equal.outer(arange(N), arange(-k, M - k))``: float sizes and
    # offsets work, negative sizes give empty results.
    n = _arange_len(N)
    m = n if M is None else _arange_len(M)
    k = _offset(k)
    return ndarray._wrap(_tri_kernel(n, m, k, dtypes.canonical(dtype).char, devices.policy()))


def _arange_len(n):
    return max(math.ceil(n), 0) if isinstance(n, (float, np.floating)) else max(
        operator.index(n), 0)


def _offset(k):
    """A diagonal offset as NumPy's tri takes it: an integer, or a float (kept as given)."""
    return float(k) if isinstance(k, (float, np.floating)) else operator.index(k)


def _triangle(m, k, lower):
    if m.ndim == 0:
        probe.call(np.tril, probe.Spec((), np.float64))  # NumPy's error for 0-d input
    n, cols = (m.shape[0], m.shape[0]) if m.ndim == 1 else m.shape[-2:]
    mask = _tri_mask(n, cols, k if lower else k - 1)
    if not lower:
        mask = ~mask
    return jnp.where(mask, m, jnp.zeros((), m.dtype))


@np_doc(np.tril)
@normalize
def tril(m: ArrayLike, k=0):
    return _triangle(m, _offset(k), True)


@np_doc(np.triu)
@normalize
def triu(m: ArrayLike, k=0):
    return _triangle(m, _offset(k), False)


@functools.partial(jit, static_argnums=1)
def _diag_from_vector(v, k):
    n = v.shape[0] + abs(k)
    i = jnp.arange(v.shape[0])
    rows, cols = (i, i + k) if k >= 0 else (i - k, i)
    return jnp.zeros((n, n), v.dtype).at[rows, cols].set(v)


@np_doc(np.diag, notes="For 2-d input the result is a read-only view, as in NumPy.")
def diag(v, k=0):
    v = asarray(v)
    k = operator.index(k)
    if v.ndim == 1:
        return ndarray._wrap(_diag_from_vector(v._value, k))
    if v.ndim == 2:
        rows, cols = v.shape
        n = max(0, min(rows + min(k, 0), cols - max(k, 0)))
        return v._view(("diagonal", (k, 0, 1)), (), (n,))
    raise ValueError("Input must be 1- or 2-d.")


@np_doc(np.diagflat)
def diagflat(v, k=0):
    v = asarray(v)
    return ndarray._wrap(_diag_from_vector(v._value.reshape(-1), operator.index(k)))


@functools.partial(jit, static_argnums=(1, 2, 3))
def _vander_kernel(x, n, increasing, dtype):
    cols = jnp.concatenate([jnp.ones((x.shape[0], min(n, 1)), dtype),
                            jnp.broadcast_to(numpy_cast(x, dtype)[:, None],
                                             (x.shape[0], max(n - 1, 0)))], axis=1)
    v = jnp.cumprod(cols, axis=1, dtype=dtype)
    return v if increasing else v[:, ::-1]


@np_doc(np.vander)
def vander(x, N=None, increasing=False):
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    dtype = dtypes.check_supported(np.promote_types(x.dtype, int))
    return ndarray._wrap(_vander_kernel(x._value, n, bool(increasing), dtype.char))
