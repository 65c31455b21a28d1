"""Remaining names of NumPy's main namespace: concat, row_stack, from_dlpack, isfortran,
iterable, mintypecode, typename, and the broadcast object."""
import inspect
import warnings

from .._core.engine.jaxload import jax
import numpy as np

from .._core.engine import devices
from .._core.rules import dtypes, probe
from .._core.array.ndarray import ndarray
from .._core.dispatch.np_doc import np_doc
from .creation import asarray
from .joining import concatenate, vstack

__all__ = ["concat", "from_dlpack", "isfortran", "iterable", "mintypecode", "typename",
           "broadcast"]

concat = concatenate  # as in NumPy 2, where ``np.concat is np.concatenate``

if "row_stack" in vars(np):  # NumPy 2.5 removed the alias (deprecated since 2.0)
    __all__.append("row_stack")

    @np_doc(np.row_stack, name="row_stack")
    def row_stack(tup, *, dtype=None, casting="same_kind"):
        warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                      DeprecationWarning, stacklevel=2)
        return vstack(tup, dtype=dtype, casting=casting)


@np_doc(np.from_dlpack, notes="Zero copy where JAX allows; ``device`` is a JAX device (or "
                              "'cpu').")
def from_dlpack(x, /, *, device=None, copy=None):
    if not hasattr(x, "__dlpack__"):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '__dlpack__'")
    v = jax.dlpack.from_dlpack(x, device=devices.check(device) or devices.default(), copy=copy)
    dtypes.check_supported(np.dtype(v.dtype))
    return ndarray._wrap(v)


@np_doc(np.isfortran)
def isfortran(a):
    flags = a.flags
    return flags.f_contiguous and not flags.c_contiguous


@np_doc(np.iterable)
def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


@np_doc(np.mintypecode)
def mintypecode(typechars, typeset="GDFgdf", default="d"):
    # tnp arrays contribute their type character (no data leaves the device)
    chars = [t.dtype.char if isinstance(t, ndarray) else t for t in typechars]
    return np.mintypecode(chars, typeset, default)


@np_doc(np.typename)
def typename(char):
    return np.typename(char)


@np_doc(np.broadcast, notes="Iteration (``next``, ``index``, ``iters``, ``reset``) is a sync "
                            "point: the arrays come to the host once, on first use, and NumPy's "
                            "broadcast object walks them (elements are NumPy scalars).")
class broadcast:
    __signature__ = inspect.Signature([inspect.Parameter("arrays",
                                                         inspect.Parameter.VAR_POSITIONAL)])

    def __init__(self, *arrays, **kwargs):
        if kwargs:
            raise ValueError("keyword arguments not accepted.")
        flat = []
        for a in arrays:
            flat.extend(a._arrays if isinstance(a, broadcast) else [asarray(a)])
        self._arrays = flat
        layout = np.broadcast(*[probe.placeholder(probe.like(a)) for a in flat])  # NumPy's checks
        self.shape, self.ndim, self.numiter, self.size = (
            layout.shape, layout.ndim, layout.numiter, layout.size)
        self._host = None

    @property
    def nd(self):
        return self.ndim

    def _iter(self):
        if self._host is None:
            self._host = np.broadcast(*[np.asarray(a) for a in self._arrays])
        return self._host

    @property
    def index(self):
        return 0 if self._host is None else self._host.index

    @property
    def iters(self):
        return tuple(_BroadcastIter(it, a) for it, a in zip(self._iter().iters, self._arrays))

    def reset(self, /):
        if self._host is not None:
            self._host.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iter())


class _BroadcastIter:
    """One of ``broadcast.iters``: NumPy's iterator over the host copy, ``base`` the tnp array."""

    def __init__(self, it, base):
        self._it, self.base = it, base

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def __getattr__(self, name):
        return getattr(self._it, name)
