"""Conversions between tnp arrays and the jax.Arrays that JAX transforms see."""
import jax

from tnp._core import api

is_tnp = api.is_array


def to_jax_tree(tree):
    """tnp arrays -> their jax values (other leaves as they are)."""
    return jax.tree_util.tree_map(lambda x: api.value(x) if is_tnp(x) else x, tree,
                                  is_leaf=is_tnp)


def to_tnp_tree(tree):
    """jax arrays (and tracers) -> tnp arrays (other leaves as they are)."""
    return jax.tree_util.tree_map(
        lambda x: api.wrap(x) if isinstance(x, jax.Array) else x, tree, is_leaf=is_tnp)
