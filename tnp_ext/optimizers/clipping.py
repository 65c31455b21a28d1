"""tf.clip_by_* and global_norm on tnp arrays, with TensorFlow's formulas (see the reference
notes: ``clip_by_norm`` computes ``t * c / max(l2, c)``; ``clip_by_global_norm`` scales by
``c * min(1/n, 1/c)``; None entries pass through)."""
import jax
import jax.numpy as jnp

from tnp._core import api
from tnp._core.api import to_jax

__all__ = ["clip_by_value", "clip_by_norm", "clip_by_average_norm", "clip_by_global_norm",
           "global_norm", "stop_gradient"]


def _wrap(x):
    return api.wrap(x)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    t = to_jax(t)
    return _wrap(jnp.minimum(jnp.maximum(t, clip_value_min), clip_value_max).astype(t.dtype))


def clip_by_norm(t, clip_norm, axes=None, name=None):
    t = to_jax(t)
    l2 = jnp.sqrt(jnp.sum(t * t, axis=None if axes is None else tuple(axes), keepdims=True))
    c = jnp.asarray(clip_norm, t.dtype)
    return _wrap(t * c / jnp.maximum(l2, c))


def clip_by_average_norm(t, clip_norm, name=None):
    """tf.compat.v1.clip_by_average_norm: TF builds its constants in float32, so only float32
    input is accepted (float64 raises TypeError, as in TensorFlow)."""
    t = to_jax(t)
    if t.dtype != jnp.float32:
        raise TypeError(f"clip_by_average_norm: TensorFlow computes it in float32 only; got "
                        f"{t.dtype}")
    n = jnp.asarray(t.size, jnp.float32)
    l2 = jnp.sqrt(jnp.sum(t * t))
    c = jnp.asarray(clip_norm, jnp.float32)
    return _wrap(t * c * jnp.minimum(n / l2, jnp.float32(1.0) / c))


def global_norm(t_list, name=None):
    ts = [to_jax(t) for t in t_list if t is not None]
    if not ts:
        raise ValueError("global_norm needs at least one tensor that is not None")
    return _wrap(jnp.sqrt(sum(jnp.sum(t * t) for t in ts)))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """``(list_clipped, global_norm)``; None entries stay None."""
    t_list = list(t_list)
    norm = to_jax(use_norm) if use_norm is not None else api.value(global_norm(t_list))
    scale = clip_norm * jnp.minimum(1.0 / norm, 1.0 / clip_norm)
    clipped = [None if t is None else _wrap(to_jax(t) * scale.astype(to_jax(t).dtype))
               for t in t_list]
    return clipped, _wrap(jnp.asarray(norm))


def stop_gradient(x):
    return jax.tree.map(lambda v: _wrap(jax.lax.stop_gradient(v)), to_jax(x))
