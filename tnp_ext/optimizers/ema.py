"""tf.train.ExponentialMovingAverage over tnp arrays: ``shadow -= (1 - d) * (shadow - var)``
with ``d = decay`` or ``min(decay, (1 + num_updates) / (10 + num_updates))``. Computed in the
variables' dtype (float64 gives the exact formula; TF rounds decay to float32 first)."""
import jax.numpy as jnp

from tnp._core import api
from tnp._core.api import ndarray, to_jax

__all__ = ["ExponentialMovingAverage"]


class ExponentialMovingAverage:
    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        if zero_debias:
            raise NotImplementedError("zero_debias=True is not supported")
        self._decay = decay
        self._num_updates = num_updates
        self._name = name
        self._shadows = {}  # id(var) -> (var, shadow, var name)

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Create shadows (copies of the variables' current values) on first sight, then move
        every shadow towards its variable."""
        var_list = list(var_list or [])
        for var in var_list:
            if not isinstance(var, ndarray):
                raise TypeError(f"var_list entries must be tnp arrays, got {type(var).__name__}")
            if var.dtype.kind not in "fc":
                raise TypeError(f"The variables must be half, float, or double: {var.dtype}")
            if id(var) not in self._shadows:
                name = "Variable" if not self._shadows else f"Variable_{len(self._shadows)}"
                self._shadows[id(var)] = (var, api.wrap(api.value(var)), name)
        decay = jnp.asarray(self._decay, jnp.float64)
        if self._num_updates is not None:
            n = to_jax(self._num_updates).astype(jnp.float64)
            decay = jnp.minimum(decay, (1.0 + n) / (10.0 + n))
        for var in var_list:
            _, shadow, _ = self._shadows[id(var)]
            s = api.value(shadow)
            api.assign(shadow, s - (1 - decay).astype(s.dtype) * (s - api.value(var)))

    def average(self, var):
        entry = self._shadows.get(id(var))
        return None if entry is None else entry[1]

    def average_name(self, var):
        """tnp arrays have no names: variables are named Variable, Variable_1, ... in the order
        ``apply`` first saw them (TF's default names)."""
        entry = self._shadows.get(id(var))
        base = entry[2] if entry is not None else "Variable"
        return f"{base}/{self._name}"

    def variables_to_restore(self, moving_avg_variables=None):
        return {self.average_name(v): v for v, _, _ in self._shadows.values()}
