"""The tier's cost rule: what a cold computation would cost on the NumPy tier against what
compiling it (or loading its executable from the persistent compilation cache) would cost,
estimated from its jaxpr; and the stable key that names the computation across processes.

A jaxpr's size is its equations ``k`` (counted inside the jaxprs it calls: a scan's body once
per step, a while's body once) and its element-operations ``w`` (per equation, the elements of
its largest operand or result, summed). The NumPy tier runs one NumPy call per equation, unfused:
``NUMPY_BASE + NUMPY_PER_EQN * k + NUMPY_PER_ELEMENT * w`` seconds (the interpreter's Python per
equation, NumPy's memory traffic per element). XLA: a compile of ``COMPILE_BASE +
COMPILE_PER_EQN * k`` (a load from the persistent cache: ``LOAD_BASE + LOAD_PER_EQN * k``,
JAX's trace and lowering included) and a fused run of ``XLA_PER_ELEMENT * w``. The constants
are fitted to the crossover sweep of ``benchmarks/cases/placement.py`` (``cold tier crossover``:
a chain of ``k`` primitives, a third of them transcendental, over ``n`` elements; the fit on the
2-core CPU run is in ``benchmarks/README.md``).

``stable_key``: a digest of the jaxpr's text (its variables are numbered in order, so the text
is the same in every process for the same computation), its constants' bytes, the arguments'
signature, what else decides the executable (``salt``: donations) and JAX's version, backend
and XLA flags. ``compilecache`` keeps the keys of the executables tnp compiled (its index).
"""
import hashlib
import os

import numpy as np

from .jaxload import jax

NUMPY_BASE = 2e-5
NUMPY_PER_EQN = 1.5e-5
NUMPY_PER_ELEMENT = 4e-9
COMPILE_BASE = 0.04
COMPILE_PER_EQN = 1.5e-3
LOAD_BASE = 0.015
LOAD_PER_EQN = 3e-4
XLA_PER_ELEMENT = 4e-10
_CALLS = ("jaxpr", "call_jaxpr", "fun_jaxpr")
_platform = []  # JAX's version, backend and XLA flags (asked once)


def size(jaxpr):
    """``(k, w)``: the equations of ``jaxpr`` (a ``Jaxpr``) and its element-operations."""
    k = w = 0
    for eqn in jaxpr.eqns:
        p = eqn.params
        name = eqn.primitive.name
        subs = ([b.jaxpr for b in p["branches"][:1]] if name == "cond" else
                [p["cond_jaxpr"].jaxpr, p["body_jaxpr"].jaxpr] if name == "while" else
                [getattr(p[c], "jaxpr", p[c]) for c in _CALLS if c in p])
        if subs:
            times = p["length"] if name == "scan" else 1
            for sub in subs:
                sk, sw = size(sub)
                k, w = k + sk * times, w + sw * times
            continue
        k += 1
        w += max([getattr(v.aval, "size", 1) for v in eqn.invars]
                 + [getattr(v.aval, "size", 1) for v in eqn.outvars])
    return k, w


def numpy_s(k, w):
    """The NumPy tier's estimated seconds for a jaxpr of ``size`` ``(k, w)``."""
    return NUMPY_BASE + NUMPY_PER_EQN * k + NUMPY_PER_ELEMENT * w


def compile_s(k, w, cached=False):
    """XLA's estimated seconds: a compile (a load from the persistent cache when ``cached``)
    and the fused run."""
    build = LOAD_BASE + LOAD_PER_EQN * k if cached else COMPILE_BASE + COMPILE_PER_EQN * k
    return build + XLA_PER_ELEMENT * w


def stable_key(closed, signature, salt):
    """The hex digest naming the computation ``closed`` (a ``ClosedJaxpr``) for arguments of
    ``signature`` across processes."""
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
