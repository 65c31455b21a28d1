"""Structured control flow for tnp code (``jax.lax``'s, with tnp arrays as carries/operands).

``map`` applies a function to slices sequentially (like tf.map_fn); ``tnp_ext.vmap`` is the
vectorised counterpart.
"""
import jax

from ._convert import to_jax_tree, to_tnp_tree


def _tnp_fn(fun):
    def wrapped(*args):
        return to_jax_tree(fun(*to_tnp_tree(args)))
    return wrapped


def cond(pred, true_fun, false_fun, *operands):
    return to_tnp_tree(jax.lax.cond(to_jax_tree(pred), _tnp_fn(true_fun), _tnp_fn(false_fun),
                                    *to_jax_tree(operands)))


def switch(index, branches, *operands):
    return to_tnp_tree(jax.lax.switch(to_jax_tree(index), [_tnp_fn(b) for b in branches],
                                      *to_jax_tree(operands)))


def while_loop(cond_fun, body_fun, init_val):
    return to_tnp_tree(jax.lax.while_loop(_tnp_fn(cond_fun), _tnp_fn(body_fun),
                                          to_jax_tree(init_val)))


def fori_loop(lower, upper, body_fun, init_val):
    return to_tnp_tree(jax.lax.fori_loop(to_jax_tree(lower), to_jax_tree(upper),
                                         _tnp_fn(body_fun), to_jax_tree(init_val)))


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    return to_tnp_tree(jax.lax.scan(_tnp_fn(f), to_jax_tree(init), to_jax_tree(xs),
                                    length=length, reverse=reverse, unroll=unroll))


def map(f, xs):
    return to_tnp_tree(jax.lax.map(_tnp_fn(f), to_jax_tree(xs)))
