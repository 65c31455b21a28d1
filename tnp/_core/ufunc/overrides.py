"""NEP 13 and ``__array_wrap__`` for tnp's ufuncs: an operand whose type has an
``__array_ufunc__`` of its own is handed the call (``override_call``, ``dispatch``), and the
result goes through the ``__array_wrap__`` NumPy would choose (``array_wrap``).
"""
import numpy as np

from ..rules import dtypes
from ..array.ndarray import ndarray
from ..dispatch.normalize import out_tuple

NO_OVERRIDE = object()
_SCALAR_PRIORITY = -1000000.0  # NumPy's NPY_SCALAR_PRIORITY
_CALL_KEYWORDS = frozenset({"out", "where", "casting", "order", "dtype", "subok", "signature",
                            "sig"})


def _default_ufunc_method(f):
    return f is ndarray.__array_ufunc__ or f is np.ndarray.__array_ufunc__


def _overriding(objs):
    """NEP 13: the objects among ``objs`` whose type has an ``__array_ufunc__`` of its own (not
    a tnp or NumPy ndarray's), one per type, subclasses before their superclasses, otherwise in
    order; NumPy's TypeError for a type that opts out (``__array_ufunc__ = None``)."""
    found = []
    for o in objs:
        t = type(o)
        if t is ndarray or t in dtypes.PY_SCALARS or o is None or any(
                type(f) is t for f in found):
            continue
        f = getattr(t, "__array_ufunc__", NO_OVERRIDE)
        if f is NO_OVERRIDE or _default_ufunc_method(f):
            continue
        if f is None:
            raise TypeError(f"operand '{t.__name__}' does not support ufuncs "
                            f"(__array_ufunc__=None)")
        at = next((i for i, g in enumerate(found) if issubclass(t, type(g))), len(found))
        found.insert(at, o)
    return found


def overridden(inputs, kwargs):
    """Whether an operand of a call (inputs, ``out=``, ``where=``) has an ``__array_ufunc__`` of
    its own: then the array's own ``__array_ufunc__`` returns NotImplemented, as NumPy's does."""
    out = kwargs.get("out")
    outs = out if type(out) is tuple else (out,)
    return bool(_overriding(tuple(inputs) + outs + (kwargs.get("where"),)))


def dispatch(uf, method, inputs, kwargs):
    """NEP 13: the first result other than NotImplemented of the overriding operands'
    ``__array_ufunc__`` (``_overriding``'s order), or NumPy's TypeError."""
    outs = kwargs.get("out", ())
    for o in _overriding(inputs + outs + (kwargs.get("where"),)):
        r = type(o).__array_ufunc__(o, uf, method, *inputs, **kwargs)
        if r is not NotImplemented:
            return r
    shown = ", ".join([repr(a) for a in inputs] + [f"{k}={v!r}" for k, v in kwargs.items()])
    names = ", ".join(f"'{type(a).__name__}'" for a in inputs + outs if a is not None)
    raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__({uf!r}, "
                    f"{method!r}, {shown}): {names}")


def override_call(uf, args, kwargs):
    """NEP 13 for a call of ``uf``: the result of an operand's own ``__array_ufunc__``, given the
    inputs and the keywords as NumPy passes them (``out`` a tuple, positional outputs
    included, left out when all None), or ``NO_OVERRIDE``."""
    ins, outs = args[:uf.nin], args[uf.nin:]
    out = kwargs.get("out")
    if not kwargs.keys() <= _CALL_KEYWORDS:  # the call raises NumPy's (Python's) TypeError
        return NO_OVERRIDE
    if not _overriding(ins + outs + (out if type(out) is tuple else (out,))
                       + (kwargs.get("where"),)):
        return NO_OVERRIDE
    if len(args) > uf.nargs or len(ins) < uf.nin:
        uf._np(*[0] * len(args))  # NumPy's own TypeError for the wrong argument count
    if "sig" in kwargs and kwargs.get("signature") is not None:
        raise TypeError("cannot specify both 'sig' and 'signature'")
    if outs and "out" in kwargs:
        raise TypeError("cannot specify 'out' as both a positional and keyword argument")
    if "out" in kwargs:
        outs = out_tuple(out, uf.nout)
    kw = {k: v for k, v in kwargs.items() if k != "out"}
    if any(o is not None for o in outs):
        kw["out"] = tuple(outs) + (None,) * (uf.nout - len(outs))
    return dispatch(uf, "__call__", ins, kw)


def array_wrap(inputs):
    """NumPy's choice of the ``__array_wrap__`` a result goes through: that of the input of
    the highest ``__array_priority__`` (the first of equals; one of priority 0 before an
    array's) among inputs other than plain arrays and scalars (a subclass of tnp.ndarray
    among them: its class's ``__array_wrap__``, tnp.ndarray's own making the result a view of
    that class, as NumPy's does); None for the result as it is."""
    wrap, priority = NO_OVERRIDE, None
    for a in inputs:
        t = type(a)
        if t is ndarray or (isinstance(a, np.ndarray) and not isinstance(a, ndarray)) or (
                isinstance(a, ndarray) and a.__class__ is ndarray):  # (masked, in pieces)
            if priority is None or priority < 0.0:
                wrap, priority = None, 0.0
        elif t in dtypes.PY_SCALARS or isinstance(a, np.generic):
            if priority is None or priority < _SCALAR_PRIORITY:
                wrap, priority = None, _SCALAR_PRIORITY
        else:
            w = getattr(a, "__array_wrap__", None)
            if w is None:
                continue
            p = priority_of(a)
            if priority is None or priority < p or (p == 0.0 and wrap is None):
                wrap, priority = w, p
    return None if wrap is NO_OVERRIDE else wrap


def priority_of(a, default=0.0):
    """NumPy's ``PyArray_GetPriority(a, default)``: ``__array_priority__`` as a float, or
    ``default`` where it is missing, not a number or raises (ufuncs' wrap: 0; operators'
    deferral: the scalars' -1e6). A subclass of tnp.ndarray that does not set its own has
    NumPy's ndarray's, 0 (tnp.ndarray's 100 is for operators against NumPy's arrays)."""
    t = type(a)
    if t is not ndarray and isinstance(a, ndarray) and (
            t.__array_priority__ is ndarray.__array_priority__):
        return 0.0
    try:
        return float(getattr(a, "__array_priority__"))
    except Exception:
        return default
