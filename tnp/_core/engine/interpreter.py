"""The NumPy tier's evaluator: a jaxpr (what a graph or kernel traces to) computed with NumPy.

``evaluate(closed, args)`` runs each equation of ``closed`` (a ``ClosedJaxpr``) with the NumPy
rule of its primitive (``RULES``: ``interpreter_elementwise``, ``interpreter_shapes``,
``interpreter_indexing``; a call primitive, ``jit``/``custom_jvp_call``/``cond``/``while``,
evaluates its own jaxpr here), in the jaxpr's dtypes, which are NumPy's result dtypes, so each
operation rounds as NumPy's does. Every value is a NumPy array of its variable's shape and dtype
(a rule's result is converted when NumPy gives another dtype, as for comparisons of scalars). A
primitive without a rule raises ``Unsupported`` before anything is computed (``check``): the
caller compiles instead (the one fallback, counted by ``tiering``). Floating-point errors are
NumPy's silent ones here (tnp's own checks, ``numerics/fperr``, are operations of the jaxpr).

Outputs are allocated 64-byte aligned (``aligned``) where a rule writes them itself, so
``tiering`` makes them device buffers without a copy (``jax.dlpack``: JAX's CPU client aliases
an aligned host buffer).
"""
import weakref

import numpy as np

from .jaxload import jax, jcore
from .interpreter_base import PARTS, RULES, Unsupported
from . import (interpreter_elementwise, interpreter_indexing, interpreter_reductions,  # noqa: F401
               interpreter_shapes)  # (they register their rules)

CALLS = {}  # call primitive name -> its evaluation
SCAN_STEPS = 256  # a scan of more steps is not run here (a Python loop: compiled instead)


def check(jaxpr):
    """Raise ``Unsupported`` when ``jaxpr`` (or a jaxpr it calls) holds a primitive without a
    rule."""
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name == "scan" and eqn.params["length"] > SCAN_STEPS:
            raise Unsupported("scan (long)")
        if name in CALLS:
            for sub in _subjaxprs(eqn):
                check(sub)
        elif name not in RULES:
            raise Unsupported(name)


def evaluate(closed, args):
    """The values of ``closed``'s outputs for the NumPy arrays ``args``."""
    with np.errstate(all="ignore"):
        return _run(closed.jaxpr, closed.consts, args)


def _run(jaxpr, consts, args):
    env = {}
    for v, x in zip(jaxpr.constvars, consts):
        env[v] = np.asarray(x)
    for v, x in zip(jaxpr.invars, args):
        env[v] = fit(x, v.aval)

    def read(v):
        return fit(v.val, v.aval) if type(v) is jcore.Literal else env[v]
    for eqn, invars, dead, fn, listed, many in _plan(jaxpr):
        ins = [read(v) for v in invars]
        for v in dead:  # (its memory goes back now, not at the jaxpr's end)
            del env[v]
        out = fn(eqn, ins) if listed else fn(eqn, *ins)
        if many:
            for v, x in zip(eqn.outvars, out):
                if type(v) is not jcore.DropVar:
                    env[v] = fit(x, v.aval)
        else:
            v = eqn.outvars[0]
            if type(v) is not jcore.DropVar:
                env[v] = fit(out, v.aval)
    return [read(v) for v in jaxpr.outvars]


_PLANS = weakref.WeakKeyDictionary()  # jaxpr -> its ``_plan`` (made once per jaxpr)


def _plan(jaxpr):
    """Per equation of ``jaxpr``: the equation, the variables it reads (a ``PARTS`` call: the
    complex variable whose parts it takes), those it reads last (``_last_uses``), its
    evaluation (a call primitive's or a ``PARTS`` rule's, given the inputs as a list, else its
    primitive's rule), whether it takes a list, and whether it has several results. Made once
    per jaxpr: a cold graph runs its jaxpr again until its compile is done."""
    plan = _PLANS.get(jaxpr)
    if plan is not None:
        return plan
    steps, parts = [], {}
    for eqn in jaxpr.eqns:
        name, many = eqn.primitive.name, eqn.primitive.multiple_results
        if name in ("real", "imag") and type(eqn.invars[0]) is not jcore.Literal:
            parts[eqn.outvars[0]] = (name, eqn.invars[0])
        z, fn = _of_parts(eqn, parts)
        if fn is not None:
            steps.append((eqn, [z], lambda eqn, ins, fn=fn: [fn(eqn, ins[0])], True, many))
        elif name in CALLS:
            steps.append((eqn, eqn.invars, CALLS[name], True, many))
        else:
            steps.append((eqn, eqn.invars, RULES[name], False, many))
    dead = _last_uses([s[1] for s in steps], jaxpr.outvars)
    plan = _PLANS[jaxpr] = [(eqn, ins, d, fn, listed, many)
                            for (eqn, ins, fn, listed, many), d in zip(steps, dead)]
    return plan


def _of_parts(eqn, parts):
    """``(z, rule)`` when ``eqn`` is a ``jit`` call (``pjit`` in older JAX) of a ``PARTS``
    function on ``real(z)`` and ``imag(z)`` (its jaxpr the function's own for these inputs,
    not one of the same name), else ``(None, None)``."""
    if (eqn.primitive.name not in ("jit", "pjit") or eqn.params.get("name") not in PARTS
            or len(eqn.invars) != 2):
        return None, None
    real, imag = (parts.get(v) if type(v) is not jcore.Literal else None for v in eqn.invars)
    if real is None or imag is None or real != ("real", imag[1]) or imag[0] != "imag":
        return None, None
    function, fn = PARTS[eqn.params["name"]]
    avals = [jax.ShapeDtypeStruct(v.aval.shape, v.aval.dtype) for v in eqn.invars]
    own = jax.make_jaxpr(function())(*avals).jaxpr.eqns
    if len(own) != 1 or str(own[0].params.get("jaxpr")) != str(eqn.params["jaxpr"]):
        return None, None
    return imag[1], fn


def _last_uses(reads, outvars):
    """Per equation, of the variables it ``reads``, those it reads last (none of the jaxpr's
    ``outvars``)."""
    last = {}
    for i, vs in enumerate(reads):
        for v in vs:
            if type(v) is not jcore.Literal:
                last[v] = i
    for v in outvars:
        last.pop(v, None)
    dead = [[] for _ in reads]
    for v, i in last.items():
        dead[i].append(v)
    return dead


def fit(x, aval):
    """``x`` as a NumPy array of ``aval``'s dtype (NumPy's result, converted where a rule's
    NumPy call gives another dtype) and shape (broadcast, for a scalar literal)."""
    x = np.asarray(x)
    dtype = aval.dtype
    if x.dtype != dtype:
        x = x.astype(dtype)
    if x.shape != aval.shape:
        x = np.broadcast_to(x, aval.shape)
    return x


# ---- call primitives -------------------------------------------------------------------------
def _closed(p, key):
    j = p[key]
    return (j.jaxpr, j.consts) if hasattr(j, "consts") else (j, ())


def _subjaxprs(eqn):
    p = eqn.params
    if eqn.primitive.name == "cond":
        return [b.jaxpr for b in p["branches"]]
    if eqn.primitive.name == "while":
        return [p["cond_jaxpr"].jaxpr, p["body_jaxpr"].jaxpr]
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        if key in p:
            return [_closed(p, key)[0]]
    raise Unsupported(eqn.primitive.name)


def _call(eqn, ins):
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        if key in eqn.params:
            jaxpr, consts = _closed(eqn.params, key)
            return _run(jaxpr, consts, ins[len(ins) - len(jaxpr.invars):])
    raise Unsupported(eqn.primitive.name)


def _cond(eqn, ins):
    branches = eqn.params["branches"]
    i = int(np.clip(ins[0], 0, len(branches) - 1))
    b = branches[i]
    return _run(b.jaxpr, b.consts, ins[1:])


def _while(eqn, ins):
    p = eqn.params
    cn, bn = p["cond_nconsts"], p["body_nconsts"]
    cconsts, bconsts, vals = ins[:cn], ins[cn:cn + bn], ins[cn + bn:]
    cj, bj = p["cond_jaxpr"], p["body_jaxpr"]
    while bool(_run(cj.jaxpr, cj.consts, cconsts + vals)[0]):
        vals = _run(bj.jaxpr, bj.consts, bconsts + vals)
    return vals


def _scan(eqn, ins):
    """``lax.scan``: the body once per step (a Python loop: slow for long scans)."""
    p = eqn.params
    nc, ncar, body = p["num_consts"], p["num_carry"], p["jaxpr"]
    consts, carry, xs = ins[:nc], list(ins[nc:nc + ncar]), ins[nc + ncar:]
    steps = range(p["length"] - 1, -1, -1) if p["reverse"] else range(p["length"])
    ys = []
    for i in steps:
        out = _run(body.jaxpr, body.consts, list(consts) + carry + [x[i] for x in xs])
        carry, y = out[:ncar], out[ncar:]
        ys.append(y)
    if p["reverse"]:
        ys.reverse()
    avals = [v.aval for v in eqn.outvars[ncar:]]
    stacked = [np.stack([y[k] for y in ys]) if ys else np.zeros(a.shape, a.dtype)
               for k, a in enumerate(avals)]
    return carry + stacked


for _name in ("jit", "pjit", "closed_call", "core_call", "custom_jvp_call", "custom_vjp_call",
              "custom_vjp_call_jaxpr", "remat", "checkpoint", "custom_lin"):
    CALLS[_name] = _call
CALLS["cond"] = _cond
CALLS["while"] = _while
CALLS["scan"] = _scan

