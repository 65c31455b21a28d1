"""The door to an array's storage for code above the array layer: named changes of an array's
attributes that are not its buffer (the buffer changes only through ``write``). See the array
layer's docstring (``tnp._core.array``) for the whole door and its rule.
"""


def mark_scalar(a, scalar=True):
    """Whether the 0-d tnp array ``a`` stands for a NumPy scalar (it prints and converts as one)
    or is a real array; returns ``a``. For a fresh result only (no one else has seen it)."""
    a._scalar = scalar
    return a


def scalar_like(a, like):
    """``a`` standing for a NumPy scalar exactly when ``like`` does (NumPy's rule for results
    such as ``astype``: a scalar's result is a scalar, an array's an array); returns ``a``."""
    a._scalar = like._scalar
    return a


def set_writeable(a, writeable):
    """``a``'s writeable flag, as it is (no NumPy checks: a fresh view whose writeability its
    maker decides, e.g. einsum's diagonal, as writeable as its operand); returns ``a``."""
    a._writeable = bool(writeable)
    return a


def reshape_view(a, shape):
    """The view ``a`` seen with the new ``shape`` in place (``a.shape = ...``, NumPy's checks
    done): a reshape lens after its chain; views taken of it before keep their own chains."""
    chain, dyns = a._chain()
    a._lens = chain + (("reshape", (a._shape, shape)),)
    a._dyn = dyns + ((),)
    a._shape = shape
    a._cache = None
    a._hview = None  # NumPy's view has the old shape
