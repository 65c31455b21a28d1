"""tnp_ext.optimizers: TensorFlow's tf.train optimizer family on tnp arrays.

Two APIs over one set of update rules (``rules``): the stateful tf.train API (``AdamOptimizer``
... with ``minimize``, ``compute_gradients``, ``apply_gradients``, slots), whose variables are
tnp arrays updated in place, and the functional optax API (``adam(...)`` ... returning
``optax.GradientTransformation``s). Plus clipping, learning-rate schedules and
``ExponentialMovingAverage``.
"""
from .clipping import (clip_by_average_norm, clip_by_global_norm, clip_by_norm, clip_by_value,
                       global_norm, stop_gradient)
from .ema import ExponentialMovingAverage
from .rules import adagrad, adam, ftrl, gradient_descent, momentum, rmsprop
from .schedules import (cosine_decay, exponential_decay, inverse_time_decay, natural_exp_decay,
                        piecewise_constant, polynomial_decay)
from .stateful import (GATE_GRAPH, GATE_NONE, GATE_OP, AdagradOptimizer, AdamOptimizer,
                       FtrlOptimizer, GradientDescentOptimizer, MomentumOptimizer, Optimizer,
                       RMSPropOptimizer)
