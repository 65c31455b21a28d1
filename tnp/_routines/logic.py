"""Logic: truth reductions (all, any), closeness and equality of arrays, real/complex tests.

Sync points: ``allclose``, ``array_equal``, ``array_equiv`` return Python bools (as NumPy does)
and ``real_if_close`` decides its result dtype from the data.
"""
import builtins
import cmath
import warnings

from .._core.engine.jaxload import jnp
import numpy as np

from .._core.rules import dtypes, probe
from .._core.array import masked, write
from .._core.numerics.casting import numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import (ArrayLike, ArrayOrScalar, normalize, normalize_axes,
                                        operator_index)
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["all", "any", "allclose", "isclose", "array_equal", "array_equiv", "isscalar",
           "isreal", "iscomplex", "isrealobj", "iscomplexobj", "real_if_close", "isneginf",
           "isposinf"]

_NoValue = np._NoValue


@normalize
def _truth(a: ArrayLike, axis, keepdims, where: ArrayLike | None, fn):
    return fn(a != 0, axis=axis, keepdims=keepdims, where=None if where is None else
              numpy_cast(where, bool))


def _reduce(fn, a, axis, out, keepdims, where):
    if type(a) is masked.MaskedValue:  # a bucketed value: its padding masked
        a, where = masked.reduction(a, axis, where)
    a = asarray(a)
    if a.ndim == 0 and axis is not None and not isinstance(axis, (tuple, list)) and (
            operator_index(axis) in (0, -1)):
        axis = ()  # NumPy takes axis 0 (or -1) of a 0-d array: it reduces nothing
    axes = normalize_axes(axis, a.ndim)
    keepdims = builtins.bool(keepdims) if keepdims is not _NoValue else False
    where = None if where is _NoValue or where is True else where
    result = _truth(a, axes, keepdims, where, fn)
    if out is None:
        return result
    write.assign(out, result)
    return out


@np_doc(np.all)
def all(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    return _reduce(jnp.all, a, axis, out, keepdims, where)


@np_doc(np.any)
def any(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    return _reduce(jnp.any, a, axis, out, keepdims, where)


def _operand(x):
    """A Python scalar as its weak placeholder, anything else as an empty array spec."""
    t = type(x)
    return dtypes.WEAK_PLACEHOLDER[t] if t in dtypes.WEAK_PLACEHOLDER else probe.Spec(
        (0,), asarray(x).dtype)


def _finite(t):
    """Whether every value of the tolerance ``t`` is finite (a sync for an array)."""
    if type(t) in (int, float, complex):
        return cmath.isfinite(t)
    from .._ufuncs.table import isfinite
    return builtins.bool(all(isfinite(t)))


def _isclose_dtypes(x, y, atol, rtol):
    """The dtypes NumPy's isclose computes in: NumPy's own expression, run by the probe."""
    if isinstance(y, np.ndarray):
        y = y.astype(np.result_type(y, 1.0))
    elif isinstance(y, int):
        y = float(y)
    d = abs(x - y)
    tol = atol + rtol * abs(y)
    return (np.result_type(y), np.result_type(x, y), np.result_type(d, tol), np.result_type(tol))


@normalize
def _isclose_kernel(x: ArrayOrScalar, y: ArrayOrScalar, atol: ArrayOrScalar,
                    rtol: ArrayOrScalar, equal_nan, dts):
    ydt, eq_dt, cmp_dt, tol_dt = dts
    y = jnp.asarray(y, ydt)  # a Python y stays float64/complex128 for isfinite, as in NumPy
    xe, ye = jnp.asarray(x, eq_dt), numpy_cast(y, eq_dt)
    tol = jnp.asarray(atol, tol_dt) + jnp.asarray(rtol, tol_dt) * numpy_cast(jnp.abs(y), tol_dt)
    close = numpy_cast(jnp.abs(xe - ye), cmp_dt) <= numpy_cast(tol, cmp_dt)
    result = close & jnp.isfinite(y) | (xe == ye)
    if equal_nan:
        result = result | (jnp.isnan(xe) & jnp.isnan(ye))
    return result


@np_doc(np.isclose)
def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    dts = probe.call(_isclose_dtypes, _operand(a), _operand(b), _operand(atol), _operand(rtol))
    np.broadcast_shapes(*(getattr(v, "shape", None) or np.shape(v) for v in (a, b, atol, rtol)))
    if not (_finite(atol) and _finite(rtol)):  # NumPy's check, under errstate's 'invalid'
        err_s = np.geterr()["invalid"]
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        if err_s == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=3)
        elif err_s == "raise":
            raise FloatingPointError(msg)
        elif err_s == "print":
            print(msg)
    return _isclose_kernel(a, b, atol, rtol, builtins.bool(equal_nan), dts)


@np_doc(np.allclose, notes="Sync point: returns a Python bool.")
def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    return builtins.bool(all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


@normalize
def _equal_nan_kernel(a1: ArrayLike, a2: ArrayLike, dt):
    a1, a2 = numpy_cast(a1, dt), numpy_cast(a2, dt)
    n1, n2 = jnp.isnan(a1), jnp.isnan(a2)
    return jnp.all(n1 == n2) & jnp.all((a1 == a2) | n1)


@np_doc(np.array_equal, notes="Sync point: returns a Python bool.")
def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return False
    if not equal_nan:  # NumPy's ``a1 == a2`` (False throughout where no loop compares them)
        return builtins.bool(all(a1 == a2))
    dt = dtypes.result_type(a1, a2)
    if dt.kind not in "fc":
        return builtins.bool(all(a1 == a2))
    return builtins.bool(_equal_nan_kernel(a1, a2, dt))


@np_doc(np.array_equiv, notes="Sync point: returns a Python bool.")
def array_equiv(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(all(a1 == a2))


@np_doc(np.isscalar, notes="A tnp 0-d result standing for the NumPy scalar NumPy returns "
        "(``a.sum()``, ``a[0]``) is a scalar, as NumPy's is.")
def isscalar(element):
    return (isinstance(element, ndarray) and element._scalar) or np.isscalar(element)


@normalize
def _isreal(x: ArrayLike, complex_test):
    if x.dtype.kind != "c":
        return jnp.full(x.shape, not complex_test, bool)
    return (jnp.imag(x) != 0) if complex_test else (jnp.imag(x) == 0)


@np_doc(np.isreal)
def isreal(x):
    if type(x) in dtypes.WEAK_PLACEHOLDER:  # NumPy: x.imag == 0 on the Python scalar
        return x.imag == 0
    return _isreal(x, False)


@np_doc(np.iscomplex)
def iscomplex(x):
    return _isreal(x, True)


@np_doc(np.iscomplexobj)
def iscomplexobj(x):
    try:
        type_ = x.dtype.type
    except AttributeError:
        type_ = asarray(x).dtype.type
    return issubclass(type_, np.complexfloating)


@np_doc(np.isrealobj)
def isrealobj(x):
    return not iscomplexobj(x)


@np_doc(np.real_if_close, notes="Sync point: the result dtype depends on the data.")
def real_if_close(a, tol=100):
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if builtins.bool(_imag_small(a, tol)):
        return a.real
    return a


@normalize
def _imag_small(a: ArrayLike, tol):
    return jnp.all(jnp.abs(jnp.imag(a)) < tol)


@normalize
def _isinf_sign(x: ArrayLike, negative):
    if x.dtype.kind not in "f":
        return jnp.zeros(x.shape, bool)
    return jnp.isinf(x) & (jnp.signbit(x) if negative else ~jnp.signbit(x))


def _isinf_signed(x, out, negative):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"This operation is not supported for {x.dtype} values because it "
                        "would be ambiguous.")
    result = _isinf_sign(x, negative)
    if out is None:
        return result
    write.assign(out, result)
    return out


@np_doc(np.isneginf)
def isneginf(x, out=None):
    return _isinf_signed(x, out, True)


@np_doc(np.isposinf)
def isposinf(x, out=None):
    return _isinf_signed(x, out, False)
