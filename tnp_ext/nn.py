"""The TF-NumPy extension set: neural-network and lax helpers NumPy lacks, on tnp arrays."""
import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
from jax import lax

from tnp._core.api import ArrayLike, normalize

from ._convert import to_jax_tree, to_tnp_tree


def _tuple(x, n):
    return (x,) * n if isinstance(x, int) else tuple(x)


@normalize
def conv(lhs: ArrayLike, rhs: ArrayLike, window_strides=None, padding="VALID", lhs_dilation=None,
         rhs_dilation=None, dimension_numbers=None, feature_group_count=1):
    """N-d convolution (``lax.conv_general_dilated``); default layout NHWC input, HWIO filter."""
    nsp = lhs.ndim - 2
    if dimension_numbers is None:
        spatial = "HWD"[:nsp] if nsp <= 3 else None
        dimension_numbers = (f"N{spatial}C", f"{spatial}IO", f"N{spatial}C")
    return lax.conv_general_dilated(
        lhs, rhs, _tuple(window_strides or 1, nsp), padding,
        lhs_dilation=lhs_dilation and _tuple(lhs_dilation, nsp),
        rhs_dilation=rhs_dilation and _tuple(rhs_dilation, nsp),
        dimension_numbers=dimension_numbers, feature_group_count=feature_group_count,
        precision=lax.Precision.HIGHEST)


def _pool(x, init, op, window_shape, strides, padding):
    nsp = x.ndim - 2  # (batch, *spatial, channels)
    window = (1,) + _tuple(window_shape, nsp) + (1,)
    strides = (1,) + _tuple(strides if strides is not None else window_shape, nsp) + (1,)
    return lax.reduce_window(x, init, op, window, strides, padding)


@normalize
def max_pool(x: ArrayLike, window_shape, strides=None, padding="VALID"):
    """Max pooling over the spatial dims of (batch, *spatial, channels) input."""
    init = -jnp.inf if jnp.issubdtype(x.dtype, jnp.inexact) else jnp.iinfo(x.dtype).min
    return _pool(x, jnp.asarray(init, x.dtype), lax.max, window_shape, strides, padding)


@normalize
def avg_pool(x: ArrayLike, window_shape, strides=None, padding="VALID"):
    """Average pooling (padding cells excluded from the count) over the spatial dims."""
    total = _pool(x, jnp.zeros((), x.dtype), lax.add, window_shape, strides, padding)
    count = _pool(jnp.ones(x.shape, x.dtype), jnp.zeros((), x.dtype), lax.add, window_shape,
                  strides, padding)
    return total / count


@normalize
def logsumexp(a: ArrayLike, axis=None, keepdims=False):
    return jsp.logsumexp(a, axis=axis, keepdims=keepdims)


@normalize
def softmax(x: ArrayLike, axis=-1):
    return jax.nn.softmax(x, axis=axis)


@normalize
def log_softmax(x: ArrayLike, axis=-1):
    return jax.nn.log_softmax(x, axis=axis)


@normalize
def sigmoid(x: ArrayLike):
    return jax.nn.sigmoid(x)


expit = sigmoid


@normalize
def erf(x: ArrayLike):
    return jsp.erf(x)


@normalize
def dynamic_slice(operand: ArrayLike, start_indices: ArrayLike, slice_sizes):
    return lax.dynamic_slice(operand, tuple(start_indices), tuple(slice_sizes))


@normalize
def dynamic_update_slice(operand: ArrayLike, update: ArrayLike, start_indices: ArrayLike):
    return lax.dynamic_update_slice(operand, update.astype(operand.dtype), tuple(start_indices))


@normalize
def sort_key_val(keys: ArrayLike, values: ArrayLike, dimension=-1):
    """Sort ``keys`` along ``dimension`` and permute ``values`` the same way."""
    return tuple(lax.sort_key_val(keys, values, dimension))


def eval_on_shapes(fun, static_argnums=()):
    """A function returning the shapes and dtypes (``jax.ShapeDtypeStruct``s) of ``fun``'s
    outputs for given inputs, without running it."""
    def shapes(*args, **kwargs):
        return jax.eval_shape(lambda *a, **k: to_jax_tree(fun(*to_tnp_tree(a), **k)),
                              *to_jax_tree(args), **kwargs)
    return shapes
