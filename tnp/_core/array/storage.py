"""The door to an array's storage for code above the array layer: named changes of an array's
attributes that are not its buffer (the buffer changes only through ``write``). See the array
layer's docstring (``tnp._core.array``) for the whole door and its rule.
"""
import warnings
import weakref

# NumPy's ``_warn_on_write`` (``broadcast_arrays``' stretched results): id -> the array. Such an
# array is held read-only (``_writeable`` False), so every write path stops at the one read-only
# check (``write.check_writeable``), which warns once and makes it writeable (``warned_write``).
_WARN_ON_WRITE = weakref.WeakValueDictionary()


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
    _WARN_ON_WRITE.pop(id(a), None)
    return a


# Roots made from memory NumPy would never make writeable (``frombuffer`` of ``bytes``): id ->
# the root; ``setflags(write=True)`` refuses them, as NumPy does.
_READ_ONLY_SOURCE = weakref.WeakValueDictionary()


def set_read_only_source(a):
    """Mark the read-only root ``a`` as made from memory NumPy cannot write (``bytes``): its
    writeable flag cannot be set again. Returns ``a``."""
    _READ_ONLY_SOURCE[id(a)] = a
    return a


def read_only_source(a):
    """Whether ``a`` is a root marked by ``set_read_only_source``."""
    return bool(_READ_ONLY_SOURCE) and _READ_ONLY_SOURCE.get(id(a)) is a


def set_warn_on_write(a):
    """NumPy's ``a.flags._warn_on_write = True``: the writeable array ``a`` stays writeable for
    NumPy's purposes, but its first write warns (``DeprecationWarning``) and reading its
    ``writeable`` flag warns (``FutureWarning``) until a write or ``setflags`` clears the mark.
    A read-only ``a`` is left as it is. Returns ``a``."""
    if a._writeable:
        a._writeable = False
        _WARN_ON_WRITE[id(a)] = a
    return a


def warns_on_write(a):
    """Whether ``a`` carries NumPy's ``_warn_on_write`` mark (writeable, warning on write)."""
    return bool(_WARN_ON_WRITE) and _WARN_ON_WRITE.get(id(a)) is a


def inherit_warn_on_write(view, parent, writeable):
    """A new view of ``parent`` marked as NumPy marks it: a view of a ``_warn_on_write`` array
    that would otherwise be writeable carries the mark too."""
    if writeable and warns_on_write(parent):
        _WARN_ON_WRITE[id(view)] = view


def warned_write(a):
    """The first write to a ``_warn_on_write`` array: NumPy's DeprecationWarning, then the
    array is writeable and warns no more. False (nothing done) for an array without the mark."""
    if not warns_on_write(a):
        return False
    warnings.warn("Numpy has detected that you (may be) writing to an array with\n"
                  "overlapping memory from np.broadcast_arrays. If this is intentional\n"
                  "set the WRITEABLE flag True or make a copy immediately before writing.",
                  DeprecationWarning, stacklevel=5)
    set_writeable(a, True)
    return True


def reshape_view(a, shape):
    """The view ``a`` seen with the new ``shape`` in place (``a.shape = ...``, NumPy's checks
    done): a reshape lens after its chain; views taken of it before keep their own chains."""
    chain, dyns = a._chain()
    a._lens = chain + (("reshape", (a._shape, shape)),)
    a._dyn = dyns + ((),)
    a._shape = shape
    a._cache = None
    a._hview = None  # NumPy's view has the old shape


def rechain_view(a, chain, dyns):
    """The view ``a`` seen through another lens chain from its root, in place (``a.strides =
    ...``, NumPy's checks done; the same shape and dtype); views taken of it before keep
    their own chains."""
    a._lens, a._dyn = chain, dyns
    a._cache = None
    a._hview = None
