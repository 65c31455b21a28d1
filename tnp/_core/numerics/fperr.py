"""Floating-point error checks: NumPy's ``errstate``/``seterr``, every mode.

Mode 'raise' is checked eagerly at the call (below). The other modes ('warn', NumPy's default,
'print', 'log', 'call') are checked for lazily recorded operations (``Check``, attached to a
ufunc's kernel or a recorded cast): the flushed graph computes one cheap flag
(``engine/fpcheck``), and only when it is set are the operations run again by NumPy itself on
their operands, under the error state captured when each was recorded (``Check.replay``), so
the warnings are NumPy's own: category, message, mode.

The error state is NumPy's own (``tnp._routines.errstate``). ``errcheck.modes()`` says which
categories an eager call must check (None, the default, costs one context-variable read);
``flags`` derives the categories from values on the device, inside the call's kernel;
``errcheck.report`` reads them back (a sync) and raises NumPy's ``FloatingPointError`` with
NumPy's message ("divide by zero encountered in floor_divide"). The flags come from values, not
from the hardware status register:

- invalid: a NaN result from non-NaN inputs;
- divide: an infinite result from finite inputs one of which is zero, or from a logarithm or
  ``arctanh`` (their poles); an integer division (``floor_divide``, ``remainder``, ``divmod``,
  ``fmod``, ``reciprocal``) by zero;
- over: an infinite result from finite inputs otherwise; an integer ``floor_divide`` or
  ``divmod`` of the dtype's minimum by -1;
- under: for the ufuncs whose results can be inexact below the normal range (``UNDERFLOWS``;
  the others' tiny results are exact: ``add``, ``floor``, ``fmod``...), a zero or subnormal
  real result from finite, nonzero, normal inputs. An exact subnormal result
  (``2.0**-1000 * 2.0**-50``) counts too, where NumPy's hardware flag does not; an underflow
  inside a function's own computation (NumPy's ``logaddexp``, its float32 ``sin``) or from a
  subnormal input (``5e-324 / 2``) is not seen.

A reduction or accumulation is checked the same way, each result element against the input
elements it combines ("overflow encountered in reduce"); a division by zero is told from an
overflow there only for the division ufuncs. Integer reductions and accumulations are checked
for the divisions only (``int_fold_flags``: a zero divisor, floor division of the minimum by
-1).
"""
import functools
import sys
import warnings

from ..engine.jaxload import jax, jit, jnp, lax
from ..engine.fpcheck import user_stacklevel
import numpy as np
from numpy._core._ufunc_config import _extobj_contextvar as _extobj  # NumPy's errstate holder

CATEGORIES = ("divide", "over", "under", "invalid")  # the order NumPy reports them in
_MESSAGES = {"divide": "divide by zero", "over": "overflow", "under": "underflow",
             "invalid": "invalid value"}
UNDERFLOWS = frozenset({"multiply", "divide", "power", "float_power", "square", "reciprocal",
                        "exp", "exp2", "ldexp"})
_DIVISIONS = frozenset({"divide", "floor_divide", "remainder", "divmod", "fmod", "reciprocal"})
_POLES = frozenset({"log", "log2", "log10", "log1p", "arctanh"})
_INT_OVERFLOWS = frozenset({"floor_divide", "divmod"})


def flags(name, xs, rs, along=None):
    """(divide, over, under, invalid) as device booleans for ufunc ``name``'s results ``rs`` of
    the inputs ``xs``: elementwise, or for a reduction or accumulation of ``xs[0]``, where
    ``along(v, every)`` folds a per-input test ``v`` into one per result element (all of them
    when ``every``, else any)."""
    false = jnp.zeros((), bool)
    inv = div = ovf = und = false
    kind = rs[0].dtype.kind
    if kind in "iu":
        if name in _DIVISIONS and along is None:
            # over the result's elements (an empty result divides nothing)
            div = jnp.any(jnp.broadcast_to(xs[-1] == 0, rs[0].shape))
            if name in _INT_OVERFLOWS and kind == "i":
                ovf = jnp.any((xs[0] == np.iinfo(rs[0].dtype).min) & (xs[1] == -1))
        return div, ovf, und, inv

    def each(test, group, every):
        v = functools.reduce(jnp.logical_and if every else jnp.logical_or,
                             [test(x) for x in group], jnp.asarray(every))
        return v if along is None else along(v, every)
    inexact = [x for x in xs if x.dtype.kind in "fc"]
    finite_in = each(jnp.isfinite, inexact, True)
    nan_in = each(jnp.isnan, inexact, False)
    if name in _POLES:
        zero_in = jnp.ones((), bool)
    elif along is None or name in _DIVISIONS:
        zero_in = each(lambda x: x == 0, xs, False)
    else:
        zero_in = false
    normal_in = false
    if name in UNDERFLOWS:
        normal_in = each(lambda x: x != 0, xs, True) & each(
            lambda x: jnp.isfinite(x) & (jnp.abs(x) >= np.finfo(x.dtype).smallest_normal),
            inexact, True)
    for r in rs:
        if r.dtype.kind not in "fc":
            continue
        inv = inv | jnp.any(jnp.isnan(r) & ~nan_in)
        new_inf = jnp.isinf(r) & finite_in
        div = div | jnp.any(new_inf & zero_in)
        ovf = ovf | jnp.any(new_inf & ~zero_in)
        if r.dtype.kind == "f":
            und = und | jnp.any((jnp.abs(r) < np.finfo(r.dtype).smallest_normal) & normal_in)
    return div, ovf, und, inv


def call_flags(name, raw, xs, rs, ranges=None, where=None):
    """(divide, over, under, invalid) of a ufunc call as one device vector, computed inside the
    call's kernel: ``flags`` of its operands ``xs`` (cast to the loop) and results ``rs``,
    counting only the elements ``where`` selects (None: all); an operand ``raw[i]`` (before the
    cast) that is a float cast to an integer loop outside ``ranges[i]`` is 'invalid'."""
    if where is not None:  # an unselected element counts as 1 (no error)
        xs = [jnp.where(where, x, 1) for x in xs]
        rs = [jnp.where(where, r, 1) for r in rs]
    div, ovf, und, inv = flags(name, xs, list(rs))
    for i, (lo, hi) in (ranges or {}).items():
        x = jnp.asarray(raw[i])
        if x.dtype.kind == "f":
            inv = inv | jnp.any(~((x >= lo) & (x < hi)) & (True if where is None else where))
    return jnp.stack([div, ovf, und, inv])


INT_FOLDS = frozenset({"floor_divide", "remainder", "fmod"})  # integer folds that flag


def int_fold_flags(name, x, carries, ax):
    """(divide, over, under, invalid) of an integer ``floor_divide``, ``remainder`` or ``fmod``
    folded along axis ``ax`` of ``x`` (a reduction or an accumulation; ``carries``: its running
    results, the accumulation of ``x``): a divisor (an element after the first) that is zero;
    for ``floor_divide``, a running result at the dtype's minimum divided by -1."""
    false = jnp.zeros((), bool)
    if x.shape[ax] < 2:  # no division
        return false, false, false, false
    divisors = lax.slice_in_dim(x, 1, None, axis=ax)
    div = jnp.any(divisors == 0)
    ovf = false
    if name == "floor_divide" and x.dtype.kind == "i":
        before = lax.slice_in_dim(carries, 0, x.shape[ax] - 1, axis=ax)
        ovf = jnp.any((before == np.iinfo(x.dtype).min) & (divisors == -1))
    return div, ovf, false, false


class ErrCheck:
    """Which categories an eager call must check (NumPy's shared error state)."""
    _cache = (None, None)  # (NumPy's error state object, its modes): one tuple, thread-safe

    def modes(self):
        """Per category of ``CATEGORIES``, 'raise' if it is checked, else None (None for all
        when none is)."""
        state = _extobj.get()  # NumPy's error state object: a new one whenever it changes
        seen, modes = self._cache
        if state is not seen:
            err = np.geterr()
            modes = tuple("raise" if err[c] == "raise" else None for c in CATEGORIES)
            modes = modes if any(modes) else None
            self._cache = (state, modes)
        return modes

    def raises(self, category):
        """Whether ``category`` ("invalid", ...) is in mode 'raise'."""
        modes = self.modes()
        return modes is not None and modes[CATEGORIES.index(category)] == "raise"

    def report(self, name, modes, found):
        """NumPy's FloatingPointError for the first category checked and ``found`` (a sync)."""
        found = jax.device_get(found)
        for cat, mode, flag in zip(CATEGORIES, modes, found):
            if mode and flag:
                raise FloatingPointError(f"{_MESSAGES[cat]} encountered in {name}")


errcheck = ErrCheck()


def _int_cast_range(dtype):
    """The float range NumPy's float-to-int cast converts without 'invalid' (it goes through
    C's int32 for small types, int64 for int64/uint32, uint64 for uint64)."""
    if dtype == np.uint64:
        return -2.0**63, 2.0**64
    if dtype.itemsize == 8 or dtype == np.uint32:
        return -2.0**63, 2.0**63
    return -2.0**31, 2.0**31


@jit
def _outside(v, lo, hi):
    return jnp.any(~((v >= lo) & (v < hi)))


def check_cast(x, dtype):
    """``errstate(invalid='raise')``: NumPy's FloatingPointError for a cast of the float
    ``jax.Array`` ``x`` to the integer ``dtype`` meeting NaN, inf or a value out of the cast's
    range (``astype``, a ufunc's input cast to its loop; a sync, only when 'raise' is asked
    for)."""
    if errcheck.raises("invalid") and x.size and bool(
            _outside(jnp.real(x), *_int_cast_range(np.dtype(dtype)))):
        raise FloatingPointError("invalid value encountered in cast")


# ---- the lazy check: 'warn', 'print', 'log', 'call' (``engine/fpcheck`` runs it) ----------
def emit(name, found):
    """NumPy's error handler for the categories ``found`` ((divide, over, under, invalid)
    booleans) of the operation ``name``, in the current error state: 'warn' a RuntimeWarning
    at the program's line, 'print' to stderr, 'log' to ``seterrcall``'s object, 'call' its
    function with the category and NumPy's status bits, 'raise' FloatingPointError."""
    err, call = np.geterr(), np.geterrcall()
    bits = sum(1 << i for i, f in enumerate((found[0], found[1], found[2], found[3])) if f)
    for cat, flag in zip(CATEGORIES, found):
        mode, what = err[cat], _MESSAGES[cat]
        if not flag or mode == "ignore":
            continue
        msg = f"{what} encountered in {name}"
        if mode == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=user_stacklevel())
        elif mode == "raise":
            raise FloatingPointError(msg)
        elif mode == "print":
            sys.stderr.write(f"Warning: {msg}\n")
        elif mode == "log":
            if call is None:
                raise NameError(f"log specified for {what} (in {name}) but no object with "
                                "write method found.")
            call.write(f"Warning: {msg}\n")
        elif call is None:
            raise NameError(f"python callback specified for {what} (in  {name}) but no "
                            "function found.")
        else:
            call(what, bits)


def _any_finite_sum(r):
    """Whether ``r`` holds a NaN or an infinity (or its sum overflows: then the replay finds
    nothing): one reduction reading ``r``."""
    if r.dtype.kind == "f" and r.dtype.itemsize < 4:
        r = r.astype(np.float32)
    return ~jnp.isfinite(jnp.sum(r))


class Check:
    """A lazily recorded operation's floating-point check: ``flag`` (inside the fused graph:
    whether the operation may have met an error; cheap), ``replay`` (NumPy's own operation on
    the host operands, run only when a graph's flag is set, under the error state the
    operation was recorded in: NumPy's warnings, exactly), ``guess`` (when an operand is gone:
    donated to an in-place result or freed, the categories from the result)."""
    __slots__ = ("name", "run", "division", "casts", "ranges", "float_out", "__weakref__")

    def __init__(self, name, run, division=False, casts=(), float_out=True):
        self.name, self.run, self.division = name, run, division
        self.casts = casts  # (operand position, integer dtype): a float operand cast to it
        self.ranges = {i: _int_cast_range(np.dtype(dt)) for i, dt in casts}
        self.float_out = float_out

    def flag(self, xs, r, output):
        """Whether the operation of operands ``xs`` and result ``r`` (an output of its graph
        when ``output``) may have met an error, as a device boolean, or None when nothing is
        checked: a non-finite float result of an output (a temporary's is not seen); an
        integer division's zero divisor, or minimum by -1; a non-finite or out-of-range float
        cast to an integer operand."""
        found = []
        if self.float_out and output:
            found.append(_any_finite_sum(r))
        if self.division:
            d = jnp.asarray(xs[-1])
            found.append(jnp.any(jnp.broadcast_to(d == 0, r.shape)))
            if r.dtype.kind == "i" and self.name in _INT_OVERFLOWS:
                found.append(jnp.any(jnp.broadcast_to(
                    (jnp.asarray(xs[0]) == np.iinfo(r.dtype).min) & (d == -1), r.shape)))
        for i, _ in self.casts:
            x = jnp.asarray(xs[i])
            if x.dtype.kind == "f":
                lo, hi = self.ranges[i]
                found.append(jnp.any(~((x >= lo) & (x < hi))))
        return functools.reduce(jnp.logical_or, found) if found else None

    def proved(self, xs, r, output):
        """Whether ``flag`` is known false from ranges (``numerics/intervals``: ``xs`` the
        operands', ``r`` the result's, None where not known): a finite result range for an
        output, a divisor range without zero (nor -1 for the overflowing divisions), a cast
        operand's range inside the integer dtype's."""
        if self.float_out and output and r is None:
            return False
        if self.division:
            d = xs[-1]
            if d is None or d[0] <= 0 <= d[1] or (
                    self.name in _INT_OVERFLOWS and d[0] <= -1 <= d[1]):
                return False
        for i, _ in self.casts:
            lo, hi = self.ranges[i]
            x = xs[i]
            if x is None or not (lo <= x[0] and x[1] < hi):
                return False
        return True

    def emit(self, found):
        """NumPy's handler for the categories ``found`` in the current state (``emit``)."""
        emit(self.name, found)

    def replay(self, *xs):
        """NumPy's operation on the host operands ``xs`` in the current error state (NumPy's
        warnings, prints, logs, calls; the result dropped)."""
        self.run(*xs)

    def guess(self, xs, r):
        """The categories NumPy would report, from the result ``r`` (host) and the operands
        still known (None where gone), emitted (``emit``): NaN is 'invalid', an infinity
        'divide' for a pole or a known zero divisor, else 'over'; an integer division by a
        known zero 'divide'."""
        r = np.asarray(r)
        if r.dtype.kind in "iu":
            zero = self.division and xs[-1] is not None and np.any(np.asarray(xs[-1]) == 0)
            emit(self.name, (bool(zero), False, False, False))
            return
        if r.dtype.kind not in "fc":
            return
        inf = bool(np.isinf(r).any())
        pole = self.name in _POLES or (self.name in _DIVISIONS and xs[-1] is not None
                                       and bool(np.any(np.asarray(xs[-1]) == 0)))
        emit(self.name, (inf and pole, inf and not pole, False, bool(np.isnan(r).any())))


def ufunc_check(np_ufunc, in_dtypes, out_dtypes):
    """The ``Check`` of a ufunc loop (None when it cannot meet an error: a loop without float
    or complex results, other than the integer divisions): NumPy's ufunc replayed on the
    loop's dtypes."""
    name = np_ufunc.__name__
    floats = any(dt.kind in "fc" for dt in out_dtypes)
    division = name in _DIVISIONS and out_dtypes[0].kind in "iu"
    casts = tuple((i, dt) for i, dt in enumerate(in_dtypes) if dt.kind in "iu")
    if not floats and not division:
        return None
    sig = tuple(in_dtypes) + tuple(out_dtypes)
    return Check(name, lambda *xs: np_ufunc(*xs, signature=sig, casting="unsafe"), division,
                 casts if not floats else (), floats)


def reduce_check(numpy_fn, kw):
    """The ``Check`` of a recorded sum or product with a float or complex result (a non-finite
    output): NumPy's own call replayed, ``numpy_fn(x, where=mask, **kw)`` ("overflow
    encountered in reduce")."""
    kw = dict(kw)
    return Check("reduce", lambda x, wh: numpy_fn(x, **kw) if wh is None else
                 numpy_fn(x, where=wh, **kw))


def cast_check(dtype):
    """The ``Check`` of a recorded float-to-integer cast (``astype``): NumPy's own cast
    replayed ("invalid value encountered in cast")."""
    dtype = np.dtype(dtype)
    return Check("cast", lambda x: np.asarray(x).astype(dtype), casts=((0, dtype),),
                 float_out=False)
