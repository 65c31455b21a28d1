"""JAX's transforms over tnp functions: tnp arrays in, tnp arrays out.

tnp arrays are JAX pytree nodes, so JAX's transforms already see through them; these wrappers
only unwrap a tnp result where JAX needs a bare array (grad's scalar output, jvp tangents) and
turn the jax arrays JAX hands back into tnp arrays.
"""
import functools

import jax

from ._convert import to_jax_tree, to_tnp_tree


def _unwrap_output(fun):
    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return to_jax_tree(fun(*args, **kwargs))
    return wrapped


def _tnp_result(transformed):
    @functools.wraps(transformed)
    def wrapped(*args, **kwargs):
        return to_tnp_tree(transformed(*args, **kwargs))
    return wrapped


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    return _tnp_result(jax.vmap(_unwrap_output(fun), in_axes=in_axes, out_axes=out_axes,
                                axis_name=axis_name, axis_size=axis_size,
                                spmd_axis_name=spmd_axis_name))


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    return _tnp_result(jax.grad(_unwrap_output(fun), argnums=argnums, has_aux=has_aux,
                                holomorphic=holomorphic, allow_int=allow_int))


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    return _tnp_result(jax.value_and_grad(_unwrap_output(fun), argnums=argnums, has_aux=has_aux,
                                          holomorphic=holomorphic, allow_int=allow_int))


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    return _tnp_result(jax.jacfwd(_unwrap_output(fun), argnums=argnums, has_aux=has_aux,
                                  holomorphic=holomorphic))


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    return _tnp_result(jax.jacrev(_unwrap_output(fun), argnums=argnums, has_aux=has_aux,
                                  holomorphic=holomorphic, allow_int=allow_int))


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    return _tnp_result(jax.hessian(_unwrap_output(fun), argnums=argnums, has_aux=has_aux,
                                   holomorphic=holomorphic))


def jvp(fun, primals, tangents, has_aux=False):
    return to_tnp_tree(jax.jvp(_unwrap_output(fun), to_jax_tree(tuple(primals)),
                               to_jax_tree(tuple(tangents)), has_aux=has_aux))


def vjp(fun, *primals, has_aux=False):
    out = jax.vjp(_unwrap_output(fun), *to_jax_tree(primals), has_aux=has_aux)
    primal_out, vjp_fun = out[0], out[1]

    def tnp_vjp(cotangent):
        return to_tnp_tree(vjp_fun(to_jax_tree(cotangent)))
    return (to_tnp_tree(primal_out), tnp_vjp) + tuple(to_tnp_tree(out[2:]))


def linearize(fun, *primals):
    primal_out, f_jvp = jax.linearize(_unwrap_output(fun), *to_jax_tree(primals))

    def tnp_jvp(*tangents):
        return to_tnp_tree(f_jvp(*to_jax_tree(tangents)))
    return to_tnp_tree(primal_out), tnp_jvp


def stop_gradient(x):
    return to_tnp_tree(jax.lax.stop_gradient(to_jax_tree(x)))


class custom_jvp:
    """``jax.custom_jvp`` for tnp functions: the primal and the jvp rule may use tnp."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self._jax = jax.custom_jvp(_unwrap_output(fun), nondiff_argnums=nondiff_argnums)

    def defjvp(self, jvp_rule):
        self._jax.defjvp(_unwrap_output(jvp_rule))
        return jvp_rule

    def __call__(self, *args):
        return to_tnp_tree(self._jax(*args))


class custom_vjp:
    """``jax.custom_vjp`` for tnp functions: primal, forward and backward rules may use tnp."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self._jax = jax.custom_vjp(_unwrap_output(fun), nondiff_argnums=nondiff_argnums)

    def defvjp(self, fwd, bwd):
        self._jax.defvjp(_unwrap_output(fwd), _unwrap_output(bwd))

    def __call__(self, *args):
        return to_tnp_tree(self._jax(*args))


def checkpoint(fun, *, prevent_cse=True, policy=None, static_argnums=()):
    return _tnp_result(jax.checkpoint(_unwrap_output(fun), prevent_cse=prevent_cse,
                                      policy=policy, static_argnums=static_argnums))


remat = checkpoint
