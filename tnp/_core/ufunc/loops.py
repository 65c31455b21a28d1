"""A ufunc call's loop: its operands and their dtype keys, the loop dtypes NumPy resolves for
them, the compiled kernel that runs the loop, and the checks of the values NumPy refuses.

Loop dtypes come from NumPy itself (``numpy.ufunc.resolve_dtypes`` with NEP 50 weak Python
scalars) and every call's validity (casting errors, missing loops, bad shapes) from NumPy run
on placeholder arrays of the same dtypes (``probe``); the ufunc caches both per dtype signature
(``ufunc._resolve``, ``ufunc._kernel``). The functions here take the ufunc as an argument.
"""
import functools
import re
import warnings

from ..engine.jaxload import jax, jit, jnp, JaxArray, Tracer
import numpy as np

from ..engine import lazy
from ..rules import dtypes, probe
from ..numerics.fperr import call_flags as _call_flags, ufunc_check
from ..numerics.intervals import matmul_rule, ufunc_rule
from ..array.ndarray import ndarray
from ..numerics.casting import numpy_cast
from ..dispatch.normalize import to_jax

_COMPARISONS = frozenset({"equal", "not_equal", "less", "less_equal", "greater",
                          "greater_equal"})


def core_ndims(signature):
    """Number of core dimensions of each operand of a gufunc signature ("(n),(n)->()" -> [1,1,0])."""
    if not signature:
        return None
    ins, outs = signature.split("->")
    return [0 if not g.strip() else len(g.split(",")) for g in re.findall(r"\(([^)]*)\)", ins)]


def is_tracer(x):
    return isinstance(x, Tracer)


def cast_in(x, dt):
    """Cast an operand to its loop dtype (the one cast: bool converts so that XLA keeps
    ``0 * inf`` NaN)."""
    return numpy_cast(jnp.asarray(x), dt)


# ---- dtype resolution (NumPy decides; the ufunc caches) ------------------------------------
def _specs(uf, keys):
    """Probe operands for promotion keys: weak Python scalars as themselves, arrays as
    empty specs (the core dimensions of a gufunc as ones)."""
    return tuple(dtypes.WEAK_PLACEHOLDER[k] if k in dtypes.WEAK_PLACEHOLDER else
                 probe.Spec((0,) if uf._core is None else (1,) * uf._core[i], k)
                 for i, k in enumerate(keys))


def resolve(uf, keys, out_dtypes, dtype, signature, casting):
    """The loop's input and output dtypes for operands of dtype ``keys`` (``ufunc._resolve``
    caches it), NumPy's own error for an invalid call."""
    specs = _specs(uf, keys)
    kwargs = {"casting": casting}
    if dtype is not None:
        kwargs["dtype"] = dtype
    if signature is not None:
        kwargs["signature"] = signature
    res = probe.call(uf._np, *specs, **kwargs)  # NumPy's own error for an invalid call
    res = res if uf.nout > 1 else (res,)
    if out_dtypes is not None:
        outs = tuple(probe.Out(r.shape, dt if dt is not None else r.dtype)
                     for r, dt in zip(res, out_dtypes))
        probe.call(uf._np, *specs, out=outs, **kwargs)
    sig = signature
    if dtype is not None and sig is None:
        sig = (None,) * uf.nin + (dtype,) * uf.nout
    kw = {"casting": casting} if sig is None else {"casting": casting, "signature": sig}
    loop = uf._np.resolve_dtypes(tuple(keys) + (None,) * uf.nout, **kw)
    for k in keys:  # NumPy accepts the call; XLA must hold its dtypes
        if isinstance(k, np.dtype):
            dtypes.check_supported(k)
    # canonical type codes: this cache's keys do not tell NumPy's equal codes apart ('l' and
    # 'q' are one int64 to a dict), and NumPy's conversions do (its OverflowError for a
    # Python int names C long for 'l', not for 'q')
    return (tuple(map(dtypes.canonical, loop[:uf.nin])),
            tuple(dtypes.canonical(r.dtype) for r in res))


def hashable_signature(signature):
    if signature is None or isinstance(signature, (str, bytes)):  # (NumPy parses bytes too)
        return signature
    if not isinstance(signature, tuple):
        raise TypeError("the signature object to ufunc must be a string or a tuple.")
    return tuple(None if s is None else dtypes.canonical(s) for s in signature)


# ---- compiled kernels --------------------------------------------------------------------
def kernel(uf, in_dtypes, out_dtypes, check):
    """The compiled kernel of ``uf``'s loop (``ufunc._kernel`` caches it): the operands cast to
    ``in_dtypes``, the results to ``out_dtypes``; with ``check``, the float-error flags too
    (``fperr.call_flags``, in the same kernel), and with ``check == "where"`` a last operand,
    the ``where=`` mask, selects the elements they count (a mask that does not fit the
    results is left to the caller's NumPy error)."""
    impl = uf._impl
    fp_check = (None if uf._core is not None  # (lazy fusion's check; not for gufuncs)
                else ufunc_check(uf._np, in_dtypes, out_dtypes))
    ranges = None if fp_check is None else fp_check.ranges
    contracts = uf.__name__ in ("matmul", "vecdot", "matvec", "vecmat")

    def kernel(*xs):
        wh = None
        if check == "where":
            *xs, wh = xs
        raw = xs
        xs = [cast_in(x, dt) for x, dt in zip(xs, in_dtypes)]
        r = impl(*xs)
        r = r if isinstance(r, tuple) else (r,)
        r = tuple(numpy_cast(v, dt) for v, dt in zip(r, out_dtypes))
        if not check:
            return r, None
        if wh is not None and not fits(r[0].shape, wh.shape):
            wh = None
        return r, _call_flags(uf.__name__, raw, xs, r, ranges, wh)
    compiled = jit(kernel)
    compiled.fp_check = fp_check
    # the result's range from the operands' (``numerics/intervals``; a contracting core
    # ufunc's rule is made per record, for the length it contracts: ``lazy.record``)
    compiled.fp_range = (
        (lambda k: matmul_rule(k, out_dtypes[0])) if contracts and len(out_dtypes) == 1
        else None if uf._core is not None else ufunc_rule(uf.__name__, out_dtypes))
    compiled.checked = lambda: uf._kernel(in_dtypes, out_dtypes, True)  # (its flagged twin)
    return compiled


# ---- operands ----------------------------------------------------------------------------
def operands(args, pending=False):
    """The call's operands as values and their dtype keys; ``pending``: a tnp array's value may
    be a pending node (``lazy.operand``)."""
    ops, keys = [], []
    for a in args:
        t = type(a)
        if t is ndarray:
            ops.append(lazy.operand(a) if pending else a._value)
            keys.append(a._dtype)
        elif t is bool:
            ops.append(np.bool_(a))
            keys.append(np.dtype(np.bool_))
        elif t in dtypes.WEAK_PLACEHOLDER:
            ops.append(a)
            keys.append(t)
        else:
            try:
                v = to_jax(a)
            except TypeError:  # a dtype XLA cannot hold: NumPy decides the call's error
                v = np.asarray(a)
            ops.append(v)
            keys.append(np.dtype(v.dtype))
    return ops, keys


def refuse_big_ints(args):
    """A Python int no int64/uint64 holds, or past int64 among Python scalars only: NumPy's
    loop on the host (object, uint64) or its OverflowError (``dtypes.UnsupportedDtype``)."""
    big = [a for a in args if type(a) is int and not -2**63 <= a < 2**63]
    if big and (any(not 0 <= a < 2**64 for a in big) or all(
            type(a) in dtypes.PY_SCALARS for a in args)):
        raise dtypes.unsupported_dtype_error(np.dtype(object))


def python_scalars(name, ops, keys, in_dts):
    """Convert weak Python scalars to their loop dtype (NEP 50: OverflowError when an int
    does not fit). A comparison of an integer array with an int outside its dtype's range
    is constant, as in NumPy 2: the constant is returned (None otherwise; a bool array's
    loop is the default int's, which raises). ``name``: the ufunc's."""
    for i, k in enumerate(keys):
        if k is int:
            dt = in_dts[i]
            if dt.kind in "iu":
                info = np.iinfo(dt)
                v = ops[i]
                if (name in _COMPARISONS and not info.min <= v <= info.max
                        and getattr(keys[1 - i], "kind", None) in ("i", "u")):
                    above = (v > info.max) != (i == 0)
                    return (name == "not_equal" or
                            (above and name in ("less", "less_equal")) or
                            (not above and name in ("greater", "greater_equal")))
                dtypes.check_python_int(v, dt)
                ops[i] = np.asarray(v, dt)
            elif dt.kind in "fc":
                ops[i] = float(ops[i])
    return None


def check_int_power(exponent, dt):
    """NumPy refuses integer powers with negative exponents, the exponent as cast to the loop's
    integer dtype ``dt`` (``power(1.5, -0.5, dtype=int, casting='unsafe')`` is 1 ** 0; a sync
    for device arrays; skipped under a JAX trace)."""
    if is_tracer(exponent):
        return
    if isinstance(exponent, JaxArray):
        neg = jnp.any(numpy_cast(exponent, dt) < 0)
        if is_tracer(neg):
            return
    else:
        with np.errstate(invalid="ignore"):  # NumPy's cast of a NaN exponent: no warning
            neg = np.any(np.asarray(exponent).astype(dt) < 0)
    if neg:
        raise ValueError("Integers to negative integer powers are not allowed.")


# ---- shapes ------------------------------------------------------------------------------
def fits(out_shape, *shapes):
    """Whether arrays of ``shapes`` broadcast to ``out_shape`` (a ufunc's ``out=``)."""
    try:
        return np.broadcast_shapes(out_shape, *shapes) == tuple(out_shape)
    except ValueError:
        return False


def numpy_error(np_ufunc, ops, outs=None, where=None):
    """Raise NumPy's error for a call of ``np_ufunc`` whose shapes do not fit (operands, gufunc
    core dimensions, ``out=``, ``where=``): the probe on placeholders of the real shapes, only
    on this failure path."""
    kw = {}
    if outs is not None:
        kw["out"] = tuple(None if o is None else probe.Out(o.shape, o.dtype) for o in outs)
    if where is not None:
        kw["where"] = probe.Spec(where.shape, where.dtype)
    probe.call(np_ufunc, *(o if type(o) in dtypes.WEAK_PLACEHOLDER else probe.Spec(
        np.shape(o), o.dtype) for o in ops), **kw)


@functools.cache
def where_without_out_message():
    """NumPy's own text of its UserWarning for ``where=`` without ``out=`` (it differs between
    NumPy versions)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.negative(np.zeros(1), where=np.ones(1, bool))
    return next(str(w.message) for w in caught if w.category is UserWarning)
