"""tnp: NumPy on JAX/XLA. ``import tnp as np`` and a NumPy program runs on XLA, unchanged.

See README.md and docs/architecture.md. NumPy names tnp does not implement natively run through
one fallback path (``tnp.TnpFallbackWarning``); ``python -m tnp coverage`` lists them.
"""
from ._core.engine import jaxconfig as _config  # noqa: F401  (64-bit JAX, compilation cache) - first
import importlib as _importlib
import sys as _sys

import numpy as _np

from ._core.rules.errors import TnpFallbackWarning, TnpTracingError
from ._core.array.ndarray import ndarray
from ._core.methods import routines as _methods_routines
from ._core.ufunc import ufunc, registry as _ufunc_registry
from ._core.dispatch import fallback as _fallback, frontend as _frontend
from ._core.dispatch.np_doc import REGISTRY as _REGISTRY
from ._core.engine import jaxload as _jaxload
from . import _routines, _standins

# What tnp gives the layers below it (``tnp._core``), at import. ``import tnp`` imports no
# routine family and no submodule: ``_routines.OWNER`` says which module defines each public
# name, imported at its first use (``__getattr__`` below); the ``np_doc`` registry imports the
# one registering a name at its first lookup of it, and all of them at a listing.
_REGISTRY.defer(("fft", "linalg", "random", "lib.stride_tricks"), _routines.OWNER,
                lambda module: _importlib.import_module(f"{__name__}.{module}"))
# once JAX is imported, the stand-ins in tnp's modules are replaced (after JAX is set up)
_jaxload.on_load(_standins.replace)

__version__ = "0.1.0"

# NumPy's scalar types, abstract types and constants are NumPy's own objects. (``vars``, not
# ``dir``/``getattr``: NumPy imports its lazy submodules — f2py, testing, ... — on getattr.)
for _name, _obj in list(vars(_np).items()):
    if not _name.startswith("_") and (
            (isinstance(_obj, type) and issubclass(_obj, _np.generic))
            or isinstance(_obj, (float, int, bool, _np.generic)) or _obj is None):
        globals()[_name] = _obj
typecodes = _np.typecodes
sctypeDict = _np.sctypeDict
ScalarType = _np.ScalarType
exceptions = _np.exceptions
newaxis = None

# the array's methods and operators call tnp's routines (``a.sum()`` is ``sum(a)``), looked up
# here at the first call of each
_methods_routines.register(_sys.modules[__name__])

# NumPy's protocols find the tnp ufunc of a NumPy ufunc (``numpy.add(a, 1)``) in the ufunc
# table, imported at the first such lookup if no name has imported it
_ufunc_registry.defer(lambda: _load_family(_routines.OWNER["add"]))

# NumPy's submodules, imported on first access (``tnp.linalg.norm`` or ``import tnp.linalg``).
_SUBMODULES = ("fft", "lib", "linalg", "random", "testing")
_numpy_getattr = _fallback.module_getattr(_np, "", globals())
# ``from tnp import *``: every public name defined here, in a routine family, and the
# submodules (as NumPy's does).
__all__ = sorted({n for n in globals() if not n.startswith("_")} | set(_SUBMODULES)
                 | {n for n in _routines.OWNER if not n.startswith("_")})


def _load_family(module):
    """Import the family ``module`` and define its names here. NumPy's functions written in C
    do not bind as methods: nor do tnp's (``frontend.unbound_like``)."""
    family = _importlib.import_module(f"{__name__}.{module}")
    g = globals()
    for name in family.__all__:
        g[name] = _frontend.unbound_like(getattr(family, name), vars(_np).get(name))


def __getattr__(name):
    module = _routines.OWNER.get(name)
    if module is not None:
        _load_family(module)
        return globals()[name]
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    # NumPy names without a native tnp implementation: the one fallback path.
    return _numpy_getattr(name)


def __dir__():
    return sorted(set(globals()) | set(_routines.OWNER)
                  | {n for n in dir(_np) if not n.startswith("_")})
