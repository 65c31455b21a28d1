"""The stateful tf.train-style API: tnp arrays are the variables, updated in place.

Each optimizer keeps, per variable, the state of its functional rule (``rules``), wrapped in
``optax.inject_hyperparams`` so a learning rate that is a schedule (a zero-argument callable
reading a global step, see ``schedules``) is read at every step. State leaves are tnp arrays
updated through tnp's write path, so a train step calling ``minimize`` runs under
``tnp_ext.jit`` and still updates the caller's variables and slots.
``use_locking`` and ``gate_gradients`` are accepted for compatibility; they change nothing
(updates are computed from all gradients at once, TF's GATE_OP behaviour, without races).
"""
import jax
import jax.numpy as jnp
import optax

from tnp._core import api
from tnp._core.api import ndarray

from . import rules

GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2


def _value(x):
    return api.value(x) if isinstance(x, ndarray) else jnp.asarray(x)


def _check_var(var):
    if not isinstance(var, ndarray):
        raise TypeError(f"var_list entries must be tnp arrays (the variables), got "
                        f"{type(var).__name__}")
    if var.dtype.kind not in "fc":
        raise ValueError(f"Invalid type {var.dtype} for a variable, expected: float16, "
                         f"float32, float64, complex64, complex128")


def _swap_and_call(roots, values, fn):
    """Run ``fn()`` with the roots' buffers replaced by ``values`` (e.g. tracers)."""
    with api.swap(roots, values):
        return fn()


class Optimizer:
    """Base of the tf.train optimizers. Subclasses name their rule and slots."""

    _slot_paths = {}  # TF slot name -> function(inner rule state) -> the per-variable slot

    def __init__(self, learning_rate, use_locking=False, name=None, **hyper):
        self._learning_rate = learning_rate
        self._hyper = hyper
        self._use_locking = use_locking
        self._name = name or type(self).__name__
        self._states = {}  # id(var) -> (var, state pytree with tnp-array leaves)

    # ---- the rule ------------------------------------------------------------------------
    def _rule(self):
        raise NotImplementedError

    def _transform(self):
        return optax.inject_hyperparams(self._rule(), hyperparam_dtype=jnp.float64)(
            learning_rate=0.0, **self._hyper)

    def _current_lr(self):
        lr = self._learning_rate() if callable(self._learning_rate) else self._learning_rate
        return _value(lr)

    # ---- gradients -------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """``[(gradient, variable)]`` of ``loss`` (a zero-argument callable returning a scalar
        computed from the variables) with respect to ``var_list``."""
        if var_list is None:
            raise ValueError("tnp has no global variable collection: pass var_list")
        var_list = list(var_list)
        for v in var_list:
            _check_var(v)
        roots = [api.root(v) for v in var_list]

        def f(values):
            out = _swap_and_call(roots, values, loss)
            return _value(out).reshape(())

        grads = jax.grad(f)([api.value(r) for r in roots])
        return [(api.wrap(g), v) for g, v in zip(grads, var_list)]

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        for _, v in grads_and_vars:
            _check_var(v)
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: "
                             f"{[v.shape for _, v in grads_and_vars]}")
        tx = self._transform()
        lr = self._current_lr()
        for g, var in pairs:
            state = self._state_for(var, tx)
            jstate = jax.tree.map(_value, state, is_leaf=lambda x: isinstance(x, ndarray))
            jstate.hyperparams["learning_rate"] = jnp.asarray(lr, jnp.float64)
            v = api.value(var)
            updates, new_state = tx.update(_value(g).astype(v.dtype), jstate, v)
            api.assign(var, v + updates)
            self._write_state(state, new_state)
        if global_step is not None:
            api.assign(global_step, api.value(global_step) + 1)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        grads_and_vars = self.compute_gradients(loss, var_list, gate_gradients)
        return self.apply_gradients(grads_and_vars, global_step=global_step)

    # ---- state and slots -------------------------------------------------------------------
    def _state_for(self, var, tx):
        entry = self._states.get(id(var))
        if entry is None or entry[0] is not var:
            # Slots are concrete arrays that outlive a trace that creates them (tnp_ext.jit then
            # threads them as state), so they are made outside it.
            with api.outside_trace():
                init = tx.init(jnp.zeros(var.shape, var.dtype))
                state = jax.tree.map(lambda x: api.wrap(jnp.asarray(x)), init)
            entry = self._states[id(var)] = (var, state)
        return entry[1]

    @staticmethod
    def _write_state(state, new_state):
        old = jax.tree.leaves(state, is_leaf=lambda x: isinstance(x, ndarray))
        new = jax.tree.leaves(new_state)
        for o, n in zip(old, new):
            api.assign(o, n)

    def get_slot_names(self):
        return sorted(self._slot_paths)

    def get_slot(self, var, name):
        entry = self._states.get(id(var))
        if entry is None or name not in self._slot_paths:
            return None
        return self._slot_paths[name](entry[1].inner_state)

    def get_name(self):
        return self._name


def _check(cond, message):
    if not cond:
        raise ValueError(message)


class GradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(learning_rate, use_locking, name)

    def _rule(self):
        return rules.gradient_descent


class MomentumOptimizer(Optimizer):
    _slot_paths = {"momentum": lambda s: s[0].trace}

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(learning_rate, use_locking, name, momentum=momentum)
        self._nesterov = use_nesterov

    def _rule(self):
        nesterov = self._nesterov
        return lambda learning_rate, momentum: rules.momentum(learning_rate, momentum, nesterov)


class AdagradOptimizer(Optimizer):
    _slot_paths = {"accumulator": lambda s: s[0].sum_of_squares}

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        _check(initial_accumulator_value > 0.0,
               f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(learning_rate, use_locking, name)
        self._initial = initial_accumulator_value

    def _rule(self):
        initial = self._initial
        return lambda learning_rate: rules.adagrad(learning_rate, initial)


class AdamOptimizer(Optimizer):
    _slot_paths = {"m": lambda s: s.m, "v": lambda s: s.v}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(learning_rate, use_locking, name, beta1=beta1, beta2=beta2,
                         epsilon=epsilon)

    def _rule(self):
        return rules.adam

    def get_non_slot(self, name):
        """``beta1_power`` / ``beta2_power`` (TF keeps them as non-slot variables)."""
        for var, state in self._states.values():
            return getattr(state.inner_state, name)
        return None


class FtrlOptimizer(Optimizer):
    _slot_paths = {"accum": lambda s: s.accum, "linear": lambda s: s.linear}

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
                 l2_shrinkage_regularization_strength=0.0, beta=None):
        _check(initial_accumulator_value >= 0.0, f"initial_accumulator_value "
               f"{initial_accumulator_value} needs to be positive or zero")
        _check(learning_rate_power <= 0.0, f"learning_rate_power {learning_rate_power} needs "
               f"to be negative or zero")
        _check(l1_regularization_strength >= 0.0, f"l1_regularization_strength "
               f"{l1_regularization_strength} needs to be positive or zero")
        _check(l2_regularization_strength >= 0.0, f"l2_regularization_strength "
               f"{l2_regularization_strength} needs to be positive or zero")
        _check(l2_shrinkage_regularization_strength >= 0.0,
               f"l2_shrinkage_regularization_strength {l2_shrinkage_regularization_strength} "
               f"needs to be positive or zero")
        super().__init__(learning_rate, use_locking, name)
        self._args = (learning_rate_power, initial_accumulator_value,
                      l1_regularization_strength, l2_regularization_strength,
                      l2_shrinkage_regularization_strength)

    def _rule(self):
        args = self._args
        return lambda learning_rate: rules.ftrl(learning_rate, *args)


class RMSPropOptimizer(Optimizer):
    _slot_paths = {"rms": lambda s: s.rms, "momentum": lambda s: s.momentum,
                   "mg": lambda s: s.mg}

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(learning_rate, use_locking, name, decay=decay, momentum=momentum,
                         epsilon=epsilon)
        self._centered = centered

    def _rule(self):
        centered = self._centered
        return lambda learning_rate, decay, momentum, epsilon: rules.rmsprop(
            learning_rate, decay, momentum, epsilon, centered)

    def get_slot_names(self):
        return ["mg", "momentum", "rms"] if self._centered else ["momentum", "rms"]

    def get_slot(self, var, name):
        if name not in self.get_slot_names():
            return None
        return super().get_slot(var, name)
