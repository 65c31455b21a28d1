"""The functional API: TensorFlow's tf.train update rules as optax ``GradientTransformation``s.

Where optax already implements TF1's exact rule it is used as it is (``gradient_descent``,
``momentum``, ``adagrad``); ``adam``, ``ftrl`` and ``rmsprop`` are written here:
- TF1's Adam folds the bias correction into the step size and adds epsilon to ``sqrt(v)``
  ("epsilon hat"); ``optax.adam`` adds epsilon to the bias-corrected ``sqrt(v_hat)``.
- optax has no FTRL-Proximal with TF's l1/l2/l2-shrinkage and learning-rate power.
- ``optax.rmsprop`` updates variables exactly as TF1 does, but keeps the momentum accumulator
  with the opposite sign and no accumulator at all when momentum is 0, so TF's ``momentum``
  slot (always present) could not be exposed as a live array.
All of them compose with ``optax.chain`` and take pytrees of tnp arrays (tnp arrays are pytrees).
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax

__all__ = ["gradient_descent", "momentum", "adagrad", "adam", "ftrl", "rmsprop"]


def gradient_descent(learning_rate):
    """tf.train.GradientDescentOptimizer: ``var -= lr * g``."""
    return optax.sgd(learning_rate)


def momentum(learning_rate, momentum, use_nesterov=False):
    """tf.train.MomentumOptimizer: ``accum = momentum * accum + g; var -= lr * accum``
    (Nesterov: ``var -= lr * g + lr * momentum * accum``)."""
    return optax.sgd(learning_rate, momentum=momentum, nesterov=use_nesterov)


def adagrad(learning_rate, initial_accumulator_value=0.1):
    """tf.train.AdagradOptimizer: ``accum += g^2; var -= lr * g / sqrt(accum)`` (no epsilon)."""
    return optax.adagrad(learning_rate, initial_accumulator_value=initial_accumulator_value,
                         eps=0.0)


class RMSPropState(NamedTuple):
    rms: optax.Updates
    mg: optax.Updates
    momentum: optax.Updates


def rmsprop(learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, centered=False):
    """tf.train.RMSPropOptimizer: ``rms`` starts at ones, epsilon is inside the square root,
    ``mom = momentum * mom + lr * g / sqrt(denom); var -= mom`` (``mg`` used when centered)."""
    def init(params):
        return RMSPropState(optax.tree.full_like(params, 1.0), optax.tree.zeros_like(params),
                            optax.tree.zeros_like(params))

    def update(grads, state, params=None):
        rms = jax.tree.map(lambda r, g: r + (1 - decay) * (g * g - r), state.rms, grads)
        mg = (jax.tree.map(lambda m, g: m + (1 - decay) * (g - m), state.mg, grads)
              if centered else state.mg)
        denom = (jax.tree.map(lambda r, m: r - m * m + epsilon, rms, mg) if centered
                 else jax.tree.map(lambda r: r + epsilon, rms))
        mom = jax.tree.map(lambda mo, g, d: momentum * mo + learning_rate * g / jnp.sqrt(d),
                           state.momentum, grads, denom)
        return jax.tree.map(jnp.negative, mom), RMSPropState(rms, mg, mom)
    return optax.GradientTransformation(init, update)


class AdamState(NamedTuple):
    m: optax.Updates
    v: optax.Updates
    beta1_power: jax.Array
    beta2_power: jax.Array


def adam(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8):
    """tf.train.AdamOptimizer: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``,
    ``var -= lr_t * m / (sqrt(v) + epsilon)``; beta powers start at beta1/beta2."""
    def init(params):
        dt = jax.tree_util.tree_leaves(params)[0].dtype
        return AdamState(optax.tree.zeros_like(params), optax.tree.zeros_like(params),
                         jnp.asarray(beta1, dt), jnp.asarray(beta2, dt))

    def update(grads, state, params=None):
        lr_t = learning_rate * jnp.sqrt(1 - state.beta2_power) / (1 - state.beta1_power)
        m = jax.tree.map(lambda m, g: m + (1 - beta1) * (g - m), state.m, grads)
        v = jax.tree.map(lambda v, g: v + (1 - beta2) * (g * g - v), state.v, grads)
        updates = jax.tree.map(lambda m, v: -lr_t * m / (jnp.sqrt(v) + epsilon), m, v)
        return updates, AdamState(m, v, state.beta1_power * beta1, state.beta2_power * beta2)
    return optax.GradientTransformation(init, update)


class FtrlState(NamedTuple):
    accum: optax.Updates
    linear: optax.Updates


def ftrl(learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
         l1_regularization_strength=0.0, l2_regularization_strength=0.0,
         l2_shrinkage_regularization_strength=0.0):
    """tf.train.FtrlOptimizer (FTRL-Proximal); needs ``params`` in ``update``."""
    p = -learning_rate_power
    l1, l2, l2s = (l1_regularization_strength, l2_regularization_strength,
                   l2_shrinkage_regularization_strength)

    def init(params):
        return FtrlState(optax.tree.full_like(params, initial_accumulator_value),
                         optax.tree.zeros_like(params))

    def update_one(g, var, accum, linear):
        g_shrunk = g + 2 * l2s * var
        accum_new = accum + g * g
        linear = linear + g_shrunk - (accum_new ** p - accum ** p) / learning_rate * var
        quadratic = accum_new ** p / learning_rate + 2 * l2
        new_var = jnp.where(jnp.abs(linear) > l1,
                            (l1 * jnp.sign(linear) - linear) / quadratic, 0.0)
        return new_var - var, accum_new, linear

    def update(grads, state, params=None):
        if params is None:
            raise ValueError("ftrl needs the current parameters: update(grads, state, params)")
        out = jax.tree.map(update_one, grads, params, state.accum, state.linear)
        treedef = jax.tree.structure(grads)
        flat = treedef.flatten_up_to(out)
        return (treedef.unflatten([o[0] for o in flat]),
                FtrlState(treedef.unflatten([o[1] for o in flat]),
                          treedef.unflatten([o[2] for o in flat])))
    return optax.GradientTransformation(init, update)
