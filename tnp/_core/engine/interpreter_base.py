"""The NumPy tier's rule tables (``RULES`` by primitive, ``PARTS`` by jax.numpy function called
on a complex array's parts; filled by the ``interpreter_*`` rule modules), its ``Unsupported``
error and the aligned allocation its outputs use."""
import math

import numpy as np

ALIGN = 64
RULES = {}  # primitive name -> rule(eqn, *values) -> value (or a list: multiple results)
PARTS = {}  # name of a jax.numpy function -> (the function, rule(eqn, z) -> its value on the
#             parts of the complex array z)


class Unsupported(Exception):
    """A jaxpr holds a primitive (or a case of one) the NumPy tier has no rule for."""


def rule(*names):
    """Register the decorated function as the rule of the primitives ``names``."""
    def register(fn):
        for name in names:
            RULES[name] = fn
        return fn
    return register


def of_parts(name, function):
    """Register the decorated function as the rule of a ``jit`` call, named ``name``, of the
    jax.numpy function ``function()`` (a thunk: JAX loads later) on ``real(z)`` and
    ``imag(z)``: one NumPy call on ``z`` where the call's own jaxpr takes a dozen."""
    def register(fn):
        PARTS[name] = (function, fn)
        return fn
    return register


def aligned(shape, dtype):
    """An uninitialised C-contiguous array, its data 64-byte aligned."""
    dtype = np.dtype(dtype)
    n = math.prod(shape) * dtype.itemsize
    raw = np.empty(n + ALIGN, np.uint8)
    off = -raw.ctypes.data % ALIGN
    return raw[off:off + n].view(dtype).reshape(shape)


def is_aligned(x):
    """Whether ``x`` is C-contiguous with 64-byte aligned data."""
    return x.flags.c_contiguous and x.ctypes.data % ALIGN == 0
