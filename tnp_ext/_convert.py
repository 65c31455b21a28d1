"""Conversions between tnp arrays and the jax.Arrays that JAX transforms see."""
import jax

from tnp._core.array.ndarray import ndarray


def is_tnp(x):
    return isinstance(x, ndarray)


def to_jax_tree(tree):
    """tnp arrays -> their jax values (other leaves as they are)."""
    return jax.tree_util.tree_map(lambda x: x._value if is_tnp(x) else x, tree, is_leaf=is_tnp)


def to_tnp_tree(tree):
    """jax arrays (and tracers) -> tnp arrays (other leaves as they are)."""
    return jax.tree_util.tree_map(
        lambda x: ndarray._wrap(x) if isinstance(x, jax.Array) else x, tree, is_leaf=is_tnp)
