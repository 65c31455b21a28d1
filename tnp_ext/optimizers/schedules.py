"""TF1 learning-rate decays. Each returns a zero-argument callable (TF2 eager's form) that reads
the global step — a tnp array the optimizer increments in place — whenever it is called, so an
optimizer built with it uses the decayed rate at every step (also under tnp_ext.jit)."""
import jax.numpy as jnp

from tnp._core import api
from tnp._core.api import to_jax

__all__ = ["exponential_decay", "piecewise_constant", "polynomial_decay", "inverse_time_decay",
           "natural_exp_decay", "cosine_decay"]


def _step(global_step):
    if global_step is None:
        raise ValueError("global_step is required for decay!")
    return to_jax(global_step).astype(jnp.float64)


def _schedule(fn):
    def rate():
        return api.wrap(jnp.asarray(fn(), jnp.float64))
    return rate


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """``learning_rate * decay_rate ** (global_step / decay_steps)`` (floored when staircase)."""
    def fn():
        p = _step(global_step) / decay_steps
        return learning_rate * decay_rate ** (jnp.floor(p) if staircase else p)
    return _schedule(fn)


def piecewise_constant(x, boundaries, values, name=None):
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")

    def fn():
        step = to_jax(x)
        idx = jnp.searchsorted(jnp.asarray(boundaries), step, side="left")
        return jnp.asarray(values, jnp.float64)[idx]
    return _schedule(fn)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    def fn():
        step = _step(global_step)
        steps = decay_steps
        if cycle:
            steps = decay_steps * jnp.maximum(jnp.ceil(step / decay_steps), 1.0)
        else:
            step = jnp.minimum(step, decay_steps)
        return (learning_rate - end_learning_rate) * (1 - step / steps) ** power + \
            end_learning_rate
    return _schedule(fn)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    def fn():
        p = _step(global_step) / decay_steps
        return learning_rate / (1 + decay_rate * (jnp.floor(p) if staircase else p))
    return _schedule(fn)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    def fn():
        p = _step(global_step) / decay_steps
        return learning_rate * jnp.exp(-decay_rate * (jnp.floor(p) if staircase else p))
    return _schedule(fn)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    def fn():
        step = jnp.minimum(_step(global_step), decay_steps)
        cosine = 0.5 * (1 + jnp.cos(jnp.pi * step / decay_steps))
        return learning_rate * ((1 - alpha) * cosine + alpha)
    return _schedule(fn)
