"""The tier's cost rule: what a cold computation would cost on the NumPy tier against what
compiling it (or loading its executable from the persistent compilation cache) would cost,
estimated from its jaxpr; and the stable key that names the computation across processes.

A jaxpr's size is its equations ``k`` (counted inside the jaxprs it calls: a scan's body once
per step, a while's body once), its element-operations ``w`` (per equation, the elements of
its largest operand or result, summed) and, of those, the transcendental ones ``t``
(``TRANSCENDENTAL``: where XLA's vectorised loop costs about what NumPy's does). The NumPy tier
runs one NumPy call per equation, unfused: ``NUMPY_BASE + NUMPY_PER_EQN * k + NUMPY_PER_ELEMENT
* (w - t) + NUMPY_PER_TRANSCENDENTAL * t`` seconds (the interpreter's Python per equation,
NumPy's memory traffic per element). XLA: a compile of ``COMPILE_BASE + COMPILE_PER_EQN * k``
(a load from the persistent cache: ``LOAD_BASE + LOAD_PER_EQN * k``, JAX's trace and lowering
included) and a fused run of ``XLA_PER_ELEMENT * (w - t) + XLA_PER_TRANSCENDENTAL * t``. The
constants are fitted to the crossover sweep of ``benchmarks/cases/placement.py`` (``cold tier
crossover``: chains of ``k`` arithmetic, transcendental or mixed primitives over ``n``
elements, a mixed chain's compile and load timed in a fresh process; its ``fit``; the run is in
``benchmarks/results/cold/crossover/``).

``stable_key``: a digest of the jaxpr's text (its variables are numbered in order, so the text
is the same in every process for the same computation), its constants' bytes, the arguments'
signature, what else decides the executable (``salt``: donations) and JAX's version, backend
and XLA flags. ``compilecache`` keeps the keys of the executables tnp compiled (its index).
"""
import os

import numpy as np

from .jaxload import jax

# fitted (``placement.fit``) to the sweep's run in benchmarks/results/cold/crossover/ (2-core
# CPU under load; a compile or load as a program's first ones pay it, in a fresh process)
NUMPY_BASE = 5.1e-4
NUMPY_PER_EQN = 5.6e-5
NUMPY_PER_ELEMENT = 3.5e-9
NUMPY_PER_TRANSCENDENTAL = 2.5e-8
COMPILE_BASE = 0.111
COMPILE_PER_EQN = 1.8e-3
LOAD_BASE = 0.015
LOAD_PER_EQN = 9.6e-4
XLA_PER_ELEMENT = 2.1e-10
XLA_PER_TRANSCENDENTAL = 2.5e-8
TRANSCENDENTAL = frozenset((
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "exp", "exp2", "expm1", "log", "log1p", "pow", "logistic", "erf", "erfc",
    "erf_inv", "lgamma", "digamma", "cbrt"))
_CALLS = ("jaxpr", "call_jaxpr", "fun_jaxpr")
_platform = []  # JAX's version, backend and XLA flags (asked once)


def size(jaxpr):
    """``(k, w, t)``: the equations of ``jaxpr`` (a ``Jaxpr``), its element-operations and its
    transcendental element-operations."""
    k = w = t = 0
    for eqn in jaxpr.eqns:
        p = eqn.params
        name = eqn.primitive.name
        subs = ([b.jaxpr for b in p["branches"][:1]] if name == "cond" else
                [p["cond_jaxpr"].jaxpr, p["body_jaxpr"].jaxpr] if name == "while" else
                [getattr(p[c], "jaxpr", p[c]) for c in _CALLS if c in p])
        if subs:
            times = p["length"] if name == "scan" else 1
            for sub in subs:
                sk, sw, st = size(sub)
                k, w, t = k + sk * times, w + sw * times, t + st * times
            continue
        k += 1
        n = max([getattr(v.aval, "size", 1) for v in eqn.invars]
                + [getattr(v.aval, "size", 1) for v in eqn.outvars])
        w += n
        if name in TRANSCENDENTAL:
            t += n
    return k, w, t


def numpy_s(k, w, t):
    """The NumPy tier's estimated seconds for a jaxpr of ``size`` ``(k, w, t)``."""
    return NUMPY_BASE + NUMPY_PER_EQN * k + NUMPY_PER_ELEMENT * (w - t) + \
        NUMPY_PER_TRANSCENDENTAL * t


def compile_s(k, w, t, cached=False):
    """XLA's estimated seconds: a compile (a load from the persistent cache when ``cached``)
    and the fused run."""
    build = LOAD_BASE + LOAD_PER_EQN * k if cached else COMPILE_BASE + COMPILE_PER_EQN * k
    return build + XLA_PER_ELEMENT * (w - t) + XLA_PER_TRANSCENDENTAL * t


def stable_key(closed, signature, salt):
    """The hex digest naming the computation ``closed`` (a ``ClosedJaxpr``) for arguments of
    ``signature`` across processes."""
    import hashlib  # (here: 2 ms of ``import tnp`` that a program never using JAX saves)
    if not _platform:
        _platform.append(f"{jax.__version__}|{jax.default_backend()}|"
                         f"{os.environ.get('XLA_FLAGS', '')}")
    h = hashlib.sha1(_platform[0].encode())
    h.update(str(closed.jaxpr).encode())
    for c in closed.consts:
        c = np.ascontiguousarray(c)
        h.update(f"{c.dtype}{c.shape}".encode())
        h.update(c.view(np.uint8).reshape(-1) if c.size else b"")
    h.update(repr((signature, salt)).encode())
    return h.hexdigest()
