"""NumPy's legacy module-level functions (``tnp.random.seed``, ``rand``, ``normal``, ...).

They run on one module-level exact-engine ``RandomState`` (MT19937, seeded from the OS like
NumPy's), so ``tnp.random.seed(s)`` followed by the same calls gives NumPy's numbers. The state is
tnp's own: ``numpy.random.seed`` does not seed it, but ``get_state``/``set_state`` use NumPy's
format and round-trip with NumPy's. Under ``tnp_ext.jit`` these functions draw from the global
state's companion device generator (see ``_exact``), re-seeded by ``seed``.
"""
import functools

import numpy as np

from .._core.dispatch.np_doc import np_doc
from ._entropy import unless_seeded
from ._exact import RandomState

_GLOBAL = RandomState()

_METHODS = [n for n in dir(np.random.RandomState)
            if not n.startswith("_") and n not in ("seed", "tomaxint") and hasattr(np.random, n)]
__all__ = _METHODS + ["ranf", "sample", "seed", "get_bit_generator", "set_bit_generator"]


def _module_function(name, method):
    @np_doc(getattr(np.random, name), namespace="random", name=name)
    @functools.wraps(getattr(np.random, name))
    def fn(*args, **kwargs):
        return getattr(_GLOBAL, method)(*args, **kwargs)
    return fn


for _name in _METHODS:
    globals()[_name] = _module_function(_name, _name)
ranf = _module_function("ranf", "random_sample")
sample = _module_function("sample", "random_sample")


@np_doc(np.random.seed, namespace="random")
def seed(seed=None):
    bit_generator = _GLOBAL._np._bit_generator
    shared = unless_seeded(seed)  # (a distributed run's entropy)
    if isinstance(bit_generator, np.random.MT19937):
        _GLOBAL._np.seed(seed if seed is not None or shared is None else
                         np.frombuffer(shared.to_bytes(16, "little"), np.uint32))
    else:
        bit_generator.state = type(bit_generator)(shared).state
    _GLOBAL._reseed_companion()


@np_doc(np.random.get_bit_generator, namespace="random")
def get_bit_generator():
    return _GLOBAL._np._bit_generator


@np_doc(np.random.set_bit_generator, namespace="random")
def set_bit_generator(bitgen):
    _GLOBAL._np = np.random.RandomState(bitgen)
    _GLOBAL._reseed_companion()
