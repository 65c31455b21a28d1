"""Floating-point error handling: ``errstate``, ``seterr``, ``geterr``, ``seterrcall``, ``geterrcall``.

The state is NumPy's own (these call NumPy's functions, and ``errstate`` is NumPy's class), so
``np.geterr()`` and ``tnp.geterr()`` always agree and a ``numpy.errstate`` block governs tnp too.

What tnp checks on the device tier (the host tier runs NumPy itself): an eager ufunc call,
reduction or accumulation whose mode for a category ('divide', 'over', 'under', 'invalid') is
'raise' computes that category's flag on the device with the result and reads it back (a
documented sync point), raising ``FloatingPointError`` with NumPy's message ("divide by zero
encountered in floor_divide", "overflow encountered in reduce") after ``out=`` is written, as
NumPy does; integer division by zero counts, as in NumPy. Modes 'warn' (NumPy's default),
'print', 'log' and 'call' are checked without a sync: each fused graph (or call not fused)
computes one flag, read at a sync point once its graph is done (at the latest when the program
reads a value computed from it), and a set flag has NumPy replay the graph's operations under
the state each was recorded in (``tnp._core.engine.fpcheck``): NumPy's own warnings, delivered
when the program reads a value, or when a ``catch_warnings`` block (``pytest.warns``) of its
thread begins or ends, or an ``errstate`` block giving a callback or 'call', 'print' or 'log'
ends (``tnp._core.engine.warnblocks``). Under a JAX trace (``jax.jit``, ``tnp_ext.jit``)
nothing is checked. README's diff-fp-warnings says what is not reported.
"""
import numpy as np

from .._core.dispatch.np_doc import REGISTRY, np_doc

__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"]

errstate = np.errstate  # NumPy's class itself: one shared state (its docstring is NumPy's)
REGISTRY[("main", "errstate")] = errstate


@np_doc(np.seterr)
def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    return np.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)


@np_doc(np.geterr)
def geterr():
    return np.geterr()


@np_doc(np.seterrcall)
def seterrcall(func):
    return np.seterrcall(func)


@np_doc(np.geterrcall)
def geterrcall():
    return np.geterrcall()
