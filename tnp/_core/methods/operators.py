"""The array's operators: each is the tnp ufunc of the same meaning (``a + b`` is
``tnp.add(a, b)``, ``a += b`` writes ``a`` in place, ``a ** 2`` is ``tnp.square(a)``), with
NumPy's answers where ``==``/``!=`` have no loop."""
import operator

from numpy._core._exceptions import _UFuncNoLoopError
import numpy as np

from ..engine import lazy
from ..engine.jaxload import JaxArray, Tracer
from ..rules import probe
from ..array import masked, roots
from ..dispatch import host
from ..array.ndarray import ndarray, numpy_value
from ..ufunc.overrides import array_wrap, priority_of
from .routines import tnp

_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
           "matmul": "matmul", "and": "bitwise_and", "or": "bitwise_or",
           "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift"}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
            "gt": "greater", "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}


# operands that never take an operator from the array (NumPy's fast exits, and tnp's own class)
_NO_DEFER = frozenset({int, float, complex, bool, str, bytes, list, tuple, type(None),
                       ndarray, np.ndarray})
_MISSING = object()


def _defers(self, other):
    """NumPy's ``binop_should_defer``: whether ``self op other`` returns NotImplemented so
    that Python asks ``other``'s reflected method. An ``other`` with ``__array_ufunc__``
    defers only when that is None; without one, when it is not of a subclass of ``self``'s
    class and its ``__array_priority__`` is higher."""
    t = type(other)
    if t in _NO_DEFER or t is type(self) or isinstance(other, (np.generic, JaxArray, Tracer)):
        return False  # (JAX's arrays and tracers: tnp's operator takes them, README's interop)
    f = getattr(t, "__array_ufunc__", _MISSING)
    if f is not _MISSING:
        return f is None
    if issubclass(t, type(self)):
        return False
    return priority_of(other, -1e6) > priority_of(self, -1e6)


def _binary(ufunc_name):
    def op(self, /, other):
        if type(other) not in _NO_DEFER and _defers(self, other):
            return NotImplemented
        return _ufunc(ufunc_name)(self, other)

    def rop(self, /, other):
        return _ufunc(ufunc_name)(other, self)

    def iop(self, /, other):
        with roots.lock_of(self._root):  # read and write at once, as NumPy's in-place loop
            uf = _ufunc(ufunc_name)
            if not (lazy.on and uf.record_inplace(self, other)) and host.inplace(
                    uf._np, self, other) is host.DECLINED:
                uf(self, other, out=self)
        return self
    return op, rop, iop


def _ufunc(name, _cache={}):
    """The tnp ufunc behind an operator (looked up in the registered routines once)."""
    uf = _cache.get(name)
    if uf is None:
        uf = _cache[name] = getattr(tnp, name)
    return uf


def _masked_iop(ufunc_name, iop):
    """``v op= other`` on a masked value (``masked.inplace``; ``iop`` on materialised ones)."""
    def op(self, other):
        return masked.inplace(_ufunc(ufunc_name), self, other, iop)
    return op


for _op, _uf in _BINARY.items():
    _f, _rf, _if = _binary(_uf)
    setattr(ndarray, f"__{_op}__", _f)
    setattr(ndarray, f"__r{_op}__", _rf)
    setattr(ndarray, f"__i{_op}__", _if)
    setattr(masked.MaskedValue, f"__i{_op}__", _masked_iop(_uf, _if))


def _pow(self, /, other):
    if type(other) not in _NO_DEFER and _defers(self, other):
        return NotImplemented
    # NumPy computes ``a ** 2`` (a Python int 2) as ``square(a)``: same values, but a bool ``a``
    # gives int8 (square's loop) where power gives int64.
    if type(other) is int and other == 2:
        return _ufunc("square")(self)
    return _ufunc("power")(self, other)


ndarray.__pow__ = _pow

# NumPy's ``a @= b``: matmul into ``a`` over the last axes as ``a`` has them (one or two), so the
# result must keep ``a``'s shape; an AxisError (``b`` has too few axes) is NumPy's message below.
_IMATMUL_AXES = {1: [(-1,), (-2, -1), (-1,)], 2: [(-2, -1), (-2, -1), (-2, -1)]}


def _imatmul(self, /, other):
    if type(other) not in _NO_DEFER and _defers(self, other):
        return NotImplemented
    try:
        with roots.lock_of(self._root):
            _ufunc("matmul")(self, other, out=self, axes=_IMATMUL_AXES[min(self.ndim, 2)])
    except np.exceptions.AxisError:
        raise ValueError("inplace matrix multiplication requires the first operand to have at "
                         "least one and the second at least two dimensions.") from None
    return self


ndarray.__imatmul__ = _imatmul


def _compare(ufunc_name):
    """The comparison operator of ``ufunc_name``; ``==`` and ``!=`` with NumPy's answers where
    the ufunc has no loop."""
    if ufunc_name not in ("equal", "not_equal"):
        def order(self, /, other):
            if type(other) not in _NO_DEFER and _defers(self, other):
                return NotImplemented
            return _ufunc(ufunc_name)(self, other)
        return order

    def op(self, /, other):
        if type(other) not in _NO_DEFER and _defers(self, other):
            return NotImplemented
        if (other is None or isinstance(other, (str, bytes))) and not self._on_host:
            if self._shape == ():  # NumPy's answer: its bool singleton
                return np.bool_(ufunc_name == "not_equal")
            return _wrapped(tnp.full(self._shape, ufunc_name == "not_equal"), self, other)
        if self._dtype.kind == "V":
            # void/structured arrays (host tier): ndarray's own ==/!= compares them field by
            # field (the ufuncs have no void loop)
            fn = operator.eq if ufunc_name == "equal" else operator.ne
            r = fn(numpy_value(self, pull=True), numpy_value(other, pull=True))
            return _wrapped(tnp.asarray(r), self, other) if isinstance(r, np.ndarray) else r
        try:
            return _ufunc(ufunc_name)(self, other)
        except _UFuncNoLoopError:  # NumPy's ==/!= without a loop: all False/True, broadcast
            if getattr(other, "dtype", None) is not None and other.dtype.kind == "V":
                fn = operator.eq if ufunc_name == "equal" else operator.ne  # NumPy's TypeError
                return fn(numpy_value(self, pull=True), numpy_value(other, pull=True))
            shape = probe.call(np.equal, probe.Spec(self._shape, bool),  # NumPy's errors
                               probe.Spec(np.shape(other), bool)).shape
            r = tnp.full(shape, ufunc_name == "not_equal")
            return r[()] if shape == () else _wrapped(r, self, other)
    return op


def _wrapped(r, a, b):
    """A comparison's result made without a ufunc, through the ``__array_wrap__`` a ufunc's
    would go through (a subclass operand's: NumPy's)."""
    wrap = array_wrap((a, b))
    return r if wrap is None else wrap(r, None, False)


for _op, _uf in _COMPARE.items():
    setattr(ndarray, f"__{_op}__", _compare(_uf))


def _unary(ufunc_name):
    def op(self, /):
        return getattr(tnp, ufunc_name)(self)
    return op


for _op, _uf in _UNARY.items():
    setattr(ndarray, f"__{_op}__", _unary(_uf))


def _divmod(self, /, other):
    if type(other) not in _NO_DEFER and _defers(self, other):
        return NotImplemented
    return tnp.divmod(self, other)


def _rdivmod(self, /, other):
    return tnp.divmod(other, self)


ndarray.__divmod__ = _divmod
ndarray.__rdivmod__ = _rdivmod
