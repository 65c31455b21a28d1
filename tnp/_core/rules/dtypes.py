"""The one dtype resolver: which NumPy dtypes tnp holds, and NumPy's own promotion, cached.

Result dtypes are never tabulated here: they come from NumPy (``np.result_type`` with NEP 50
weak Python scalars), keyed by dtypes and Python scalar *types* only, so the answer is
value-independent, works under tracing and costs a dict lookup on the hot path.
"""
import functools

import numpy as np

SUPPORTED = frozenset(np.dtype(c) for c in "?bhilqBHILQefdFD") | {np.dtype(np.int64)}
_UNSUPPORTED_KINDS = {"O": "object", "U": "str", "S": "bytes", "M": "datetime64",
                      "m": "timedelta64", "V": "void"}
# Placeholders standing for a weak Python scalar of each type in NumPy's promotion (NEP 50).
# A Python bool is not weak: it promotes exactly as numpy.bool_.
WEAK_PLACEHOLDER = {int: 0, float: 0.0, complex: 0j}
PY_SCALARS = (bool, int, float, complex)


class UnsupportedDtype(TypeError):
    """A dtype the device (XLA) cannot hold: such arrays live on the host tier."""


def unsupported_dtype_error(dt):
    kind = _UNSUPPORTED_KINDS.get(dt.kind, str(dt))
    return UnsupportedDtype(
        f"tnp: dtype {dt!r} ({kind}) cannot be held on JAX/XLA; this operation needs the "
        f"device (bool, int8-64, uint8-64, float16/32/64 and complex64/128); {kind} arrays "
        f"live on the host, where NumPy runs operations whose inputs are all on the host.")


# NumPy has two type codes for some dtypes ('L'/'Q' are both uint64, 'l'/'q' both int64 on
# Linux): tnp, and JAX behind it, only ever see the one ``np.dtype(name)`` gives.
CANONICAL = {dt: np.dtype(dt.name) for dt in SUPPORTED}


@functools.lru_cache(maxsize=None)
def _canonical(dtype_like):
    dt = np.dtype(dtype_like)
    if dt not in SUPPORTED or not dt.isnative:
        raise unsupported_dtype_error(dt)
    return CANONICAL[dt]


def canonical(dtype_like):
    """NumPy dtype for ``dtype_like`` (anything ``np.dtype`` takes); TypeError if XLA can't hold it."""
    if type(dtype_like) is np.dtype and dtype_like in SUPPORTED and dtype_like.isnative:
        return CANONICAL[dtype_like]
    try:
        return _canonical(dtype_like)
    except TypeError as e:  # unhashable dtype-likes (e.g. a list spec) go uncached
        if "unhashable" not in str(e):
            raise
        dt = np.dtype(dtype_like)
        if dt not in SUPPORTED or not dt.isnative:
            raise unsupported_dtype_error(dt) from None
        return CANONICAL[dt]


def check_supported(dt):
    if dt not in SUPPORTED:
        raise unsupported_dtype_error(dt)
    return dt


def native(host):
    """A host array XLA can take: a supported dtype in native byte order under its canonical
    type code (NumPy has two uint64 codes, 'L' and 'Q'; JAX must only ever see one), bools as
    0 and 1."""
    dt = np.dtype(host.dtype.name) if host.dtype.kind in "biufc" else host.dtype
    check_supported(dt)
    if dt.kind == "b":  # bytes other than 0 and 1 (``frombuffer``) are True: XLA reads them raw
        return host.view(np.uint8).astype(dt)
    return host.astype(dt, copy=False)


def promotion_key(x):
    """What promotion needs to know of an operand: its dtype, or the type of a weak Python scalar."""
    t = type(x)
    if t in WEAK_PLACEHOLDER:
        return t
    if t is bool:
        return np.dtype(np.bool_)
    dt = getattr(x, "dtype", None)
    if dt is not None:
        if getattr(x, "weak_type", False):  # a weak scalar traced by JAX
            return {"i": int, "u": int, "f": float, "c": complex}.get(np.dtype(dt).kind,
                                                                     np.dtype(dt))
        return np.dtype(dt)
    if isinstance(x, PY_SCALARS):
        return next(p for p in (bool, int, float, complex) if isinstance(x, p))
    return np.asarray(x).dtype


def _placeholder(key):
    return WEAK_PLACEHOLDER[key] if key in WEAK_PLACEHOLDER else key


@functools.lru_cache(maxsize=None)
def result_type_of_keys(keys):
    return np.result_type(*(_placeholder(k) for k in keys))


def result_type(*operands):
    """``np.result_type`` over tnp/jax/NumPy arrays, dtypes and weak Python scalars (cached)."""
    keys = tuple(k if isinstance(k, np.dtype) else promotion_key(k) if not _is_dtype_like(k)
                 else np.dtype(k) for k in operands)
    return result_type_of_keys(keys)


def _is_dtype_like(x):
    return isinstance(x, (np.dtype, str)) or (isinstance(x, type) and issubclass(x, np.generic))


def check_python_int(value, dt):
    """NEP 50: a Python int that does not fit the integer dtype it is cast to raises NumPy's
    OverflowError (NumPy's own conversion gives it: its message depends on the value)."""
    if dt.kind in "iu" and type(value) is int:
        info = np.iinfo(dt)
        if not info.min <= value <= info.max:
            np.array(value, dt)
            raise OverflowError(f"Python integer {value} out of bounds for {dt}")


def check_python_float(value, dt):
    """NEP 50: a Python float past a smaller float dtype's range warns (or raises) as NumPy's
    cast of it does, under the error state ("overflow encountered in cast")."""
    if type(value) is float and dt.kind == "f" and dt.itemsize < 8:
        np.asarray(value).astype(dt)


def default_float():
    return np.dtype(np.float64)


def default_int():
    return np.dtype(np.int64)
