"""Structured control flow for tnp code (``jax.lax``'s, with tnp arrays as carries/operands).

``map`` applies a function to slices sequentially (like tf.map_fn); ``tnp_ext.vmap`` is the
vectorised counterpart.
"""
import weakref

import jax

from ._convert import to_jax_tree, to_tnp_tree

_WRAPPED = weakref.WeakKeyDictionary()  # fun -> its jax-level wrapper


def _tnp_fn(fun):
    """``fun`` as a function of jax values. One wrapper per ``fun``, so that JAX's trace and
    compile caches (keyed on the function's identity) see the same function every call."""
    try:
        return _WRAPPED[fun]
    except (KeyError, TypeError):  # not seen yet, or not weak-referenceable
        pass

    def wrapped(*args):
        return to_jax_tree(fun(*to_tnp_tree(args)))
    try:
        _WRAPPED[fun] = wrapped
    except TypeError:
        pass
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
