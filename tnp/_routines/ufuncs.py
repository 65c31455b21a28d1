"""Every NumPy ufunc as a ``tnp.ufunc``: the jax implementation of each loop.

Implementations receive inputs already cast to NumPy's loop dtypes and return the loop's
output(s); where XLA's value differs from NumPy's (integer division by zero, ...), it is fixed here.
"""
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core.ufunc import ufunc


def _floor_divide(x, y):
    if x.dtype.kind in "iu":
        safe = jnp.where(y == 0, 1, y)
        return jnp.where(y == 0, 0, jnp.floor_divide(x, safe))
    return jnp.floor_divide(x, y)


def _remainder(x, y):
    if x.dtype.kind in "iu":
        safe = jnp.where(y == 0, 1, y)
        return jnp.where(y == 0, 0, jnp.remainder(x, safe))
    return jnp.remainder(x, y)


def _fmod(x, y):
    if x.dtype.kind in "iu":
        safe = jnp.where(y == 0, 1, y)
        return jnp.where(y == 0, 0, jnp.fmod(x, safe))
    return jnp.fmod(x, y)


def _divmod(x, y):
    return _floor_divide(x, y), _remainder(x, y)


def _power(x, y):
    return jnp.power(x, y)


def _sign(x):
    if x.dtype.kind == "c":
        return jnp.sign(x)  # NumPy 2: z / |z|
    return jnp.sign(x)


_IMPLS = {
    "absolute": jnp.absolute, "add": jnp.add, "arccos": jnp.arccos, "arccosh": jnp.arccosh,
    "arcsin": jnp.arcsin, "arcsinh": jnp.arcsinh, "arctan": jnp.arctan, "arctan2": jnp.arctan2,
    "arctanh": jnp.arctanh, "bitwise_and": jnp.bitwise_and, "bitwise_count": jnp.bitwise_count,
    "bitwise_or": jnp.bitwise_or, "bitwise_xor": jnp.bitwise_xor, "cbrt": jnp.cbrt,
    "ceil": jnp.ceil, "conjugate": jnp.conjugate, "copysign": jnp.copysign, "cos": jnp.cos,
    "cosh": jnp.cosh, "deg2rad": jnp.deg2rad, "degrees": jnp.degrees, "divide": jnp.true_divide,
    "divmod": _divmod, "equal": jnp.equal, "exp": jnp.exp, "exp2": jnp.exp2, "expm1": jnp.expm1,
    "fabs": jnp.fabs, "float_power": jnp.float_power, "floor": jnp.floor,
    "floor_divide": _floor_divide, "fmax": jnp.fmax, "fmin": jnp.fmin, "fmod": _fmod,
    "frexp": jnp.frexp, "gcd": jnp.gcd, "greater": jnp.greater,
    "greater_equal": jnp.greater_equal, "heaviside": jnp.heaviside, "hypot": jnp.hypot,
    "invert": jnp.invert, "isfinite": jnp.isfinite, "isinf": jnp.isinf, "isnan": jnp.isnan,
    "lcm": jnp.lcm, "ldexp": jnp.ldexp, "left_shift": jnp.left_shift, "less": jnp.less,
    "less_equal": jnp.less_equal, "log": jnp.log, "log10": jnp.log10, "log1p": jnp.log1p,
    "log2": jnp.log2, "logaddexp": jnp.logaddexp, "logaddexp2": jnp.logaddexp2,
    "logical_and": jnp.logical_and, "logical_not": jnp.logical_not,
    "logical_or": jnp.logical_or, "logical_xor": jnp.logical_xor, "matmul": jnp.matmul,
    "matvec": jnp.matvec, "maximum": jnp.maximum, "minimum": jnp.minimum, "modf": jnp.modf,
    "multiply": jnp.multiply, "negative": jnp.negative, "nextafter": jnp.nextafter,
    "not_equal": jnp.not_equal, "positive": jnp.positive, "power": _power,
    "rad2deg": jnp.rad2deg, "radians": jnp.radians, "reciprocal": jnp.reciprocal,
    "remainder": _remainder, "right_shift": jnp.right_shift, "rint": jnp.rint, "sign": _sign,
    "signbit": jnp.signbit, "sin": jnp.sin, "sinh": jnp.sinh, "spacing": jnp.spacing,
    "sqrt": jnp.sqrt, "square": jnp.square, "subtract": jnp.subtract, "tan": jnp.tan,
    "tanh": jnp.tanh, "trunc": jnp.trunc, "vecdot": jnp.vecdot, "vecmat": jnp.vecmat,
    "isnat": None,
}


def _isnat(x):
    raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.")


_IMPLS["isnat"] = _isnat

# One tnp.ufunc per NumPy ufunc object; NumPy's aliases (abs, conj, ...) name the same object.
_BY_NUMPY = {}
__all__ = []
for _name in sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)):
    _np_uf = getattr(np, _name)
    if _np_uf not in _BY_NUMPY:
        _BY_NUMPY[_np_uf] = ufunc(_np_uf, _IMPLS[_np_uf.__name__])
    globals()[_name] = _BY_NUMPY[_np_uf]
    __all__.append(_name)


def for_numpy(np_ufunc):
    """The tnp ufunc for a NumPy ufunc object (None if there is none)."""
    return _BY_NUMPY.get(np_ufunc)
