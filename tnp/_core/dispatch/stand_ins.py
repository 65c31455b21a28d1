"""NumPy's stand-ins for the subclasses of tnp.ndarray on the host tier.

NumPy's own function runs on a host array's value viewed as ``stand_in``'s class for the array's
subclass: a subclass of ``numpy.ndarray`` with the subclass's ``__array_priority__``, so NumPy
keeps it where it keeps its own subclasses (``__array_wrap__``, ``asanyarray``, ``subok``) and
picks among several as it would. A result of a stand-in class is made an array of the tnp
subclass (``from_stand_in``), its ``__array_finalize__`` called with the tnp array it comes from.
The methods the subclass defines (``sum``, ``mean``..., and ``__array_wrap__``) are the
stand-in's too, forwarded to the tnp array, as NumPy's functions call them (``_wrapreduction``,
``median``'s ``mean``, a ufunc's wrap)."""
import functools
import types

import numpy as np

from ..array.ndarray import ndarray
from ..array.subclasses import as_subclass
from . import tiers


class StandIn(np.ndarray):
    """The base of the stand-in classes. ``source``: the tnp array a stand-in was made from, or
    that of the array NumPy made it from; ``is_input``: whether it is that tnp array's value
    itself (its methods then run on that array, else on a new array of its values)."""
    tnp_class = None
    is_input = False

    def __array_finalize__(self, obj):
        self.source = getattr(obj, "source", None)

    def tnp_array(self):
        """The tnp array this stand-in stands for."""
        return self.source if self.is_input else from_stand_in(self.copy(order="K"))


_CLASSES = {}  # subclass of tnp.ndarray -> its StandIn class (kept for the process)


def _forward(name):
    """The stand-in's method ``name``: the subclass's, on the tnp array."""
    def method(self, *args, **kwargs):
        return getattr(self.tnp_array(), name)(*args, **kwargs)
    method.__name__ = name
    return method


def _array_wrap(self, arr, context=None, return_scalar=False):
    """The subclass's ``__array_wrap__``, given NumPy's result as a tnp array."""
    arr = from_stand_in(arr) if isinstance(arr, StandIn) else tiers.new_root(
        arr.view(np.ndarray))
    return self.tnp_array().__array_wrap__(arr, context, return_scalar)


def _forwarded_attribute(self, name):
    return getattr(self.tnp_array(), name)


def _stand_in_class(cls):
    """``cls``'s stand-in class: ``cls``'s own ``__array_priority__`` (NumPy's 0.0 for a
    subclass that sets none: tnp.ndarray's 100 is there to make NumPy's arrays defer to tnp's),
    its methods and properties forwarded to the tnp array, its other class attributes; so a
    function NumPy hands the stand-in to (``apply_along_axis``' ``func1d``) finds them."""
    s = _CLASSES.get(cls)
    if s is None:
        own = cls.__mro__[:cls.__mro__.index(ndarray)]
        attrs = {"tnp_class": cls, "__module__": cls.__module__, "__array_priority__": next(
            (c.__dict__["__array_priority__"] for c in own if "__array_priority__" in c.__dict__),
            0.0)}
        for c in reversed(own):
            for name, v in c.__dict__.items():
                if name == "__array_wrap__":
                    attrs[name] = _array_wrap
                elif name.startswith("__"):  # (its other special names are its own class's)
                    continue
                elif isinstance(v, types.FunctionType):
                    attrs[name] = _forward(name)
                elif isinstance(v, property):
                    attrs[name] = property(functools.partial(_forwarded_attribute, name=name))
                else:  # a class attribute (a value, a static or class method) as it is
                    attrs[name] = v
        # (two threads may both build one: the first stored is every caller's)
        s = _CLASSES.setdefault(cls, type(cls.__name__, (StandIn,), attrs))
    return s


def stand_in(x, value):
    """``value``, the NumPy value of ``x`` (an array of a subclass of tnp.ndarray), viewed as
    the subclass's stand-in."""
    v = value.view(_stand_in_class(type(x)))
    v.source, v.is_input = x, True
    return v


def from_stand_in(r):
    """NumPy's result ``r``, an array of a stand-in class sharing no memory with a tnp array,
    as a new array of its tnp subclass, finalized with the tnp array it comes from (itself
    where none)."""
    root = tiers.new_root(r.view(np.ndarray))
    return as_subclass(root, type(r).tnp_class, r.source if r.source is not None else root)
