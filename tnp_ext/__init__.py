"""tnp_ext: what NumPy never had, for tnp code — compilation with NumPy's in-place semantics,
vectorisation, differentiation, control flow, the TF-NumPy extension set, export; and (in their
own modules) random keys, parallelism and optimizers."""
from .jit import jit
from .transforms import (checkpoint, custom_jvp, custom_vjp, grad, hessian, jacfwd, jacrev, jvp,
                         linearize, remat, stop_gradient, value_and_grad, vjp, vmap)
from .control_flow import cond, fori_loop, map, scan, switch, while_loop
from .nn import (avg_pool, conv, dynamic_slice, dynamic_update_slice, erf, eval_on_shapes, expit,
                 log_softmax, logsumexp, max_pool, sigmoid, softmax, sort_key_val)
from .export import deserialize, export
from .placement import current_placement, placement

__all__ = ["jit", "vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian", "jvp", "vjp",
           "linearize", "stop_gradient", "custom_jvp", "custom_vjp", "checkpoint", "remat",
           "cond", "switch", "while_loop", "fori_loop", "scan", "map", "conv", "max_pool",
           "avg_pool", "logsumexp", "softmax", "log_softmax", "sigmoid", "expit", "erf",
           "dynamic_slice", "dynamic_update_slice", "sort_key_val", "eval_on_shapes", "export",
           "deserialize", "placement", "current_placement"]
