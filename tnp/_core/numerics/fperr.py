"""Floating-point error checks: NumPy's ``errstate``/``seterr`` with mode 'raise'.

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

from ..engine.jaxload import jax, jit, jnp, lax
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
