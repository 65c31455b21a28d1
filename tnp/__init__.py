"""tnp: NumPy on JAX/XLA. ``import tnp as np`` and a NumPy program runs on XLA, unchanged.

See README.md and ../shared/DESIGN.md. NumPy names tnp does not implement natively run through
one fallback path (``tnp.TnpFallbackWarning``); ``python -m tnp coverage`` lists them.
"""
from ._core import config as _config  # noqa: F401  (64-bit JAX, compilation cache) - first
import numpy as _np

from ._core.errors import TnpFallbackWarning, TnpTracingError
from ._core.ndarray import ndarray, bind_namespace as _bind
from ._core.ufunc import ufunc
from ._core import fallback as _fallback
from . import _routines

__version__ = "0.1.0"

# NumPy's scalar types, abstract types and constants are NumPy's own objects.
for _name in dir(_np):
    _obj = getattr(_np, _name)
    if not _name.startswith("_") and (
            (isinstance(_obj, type) and issubclass(_obj, _np.generic))
            or isinstance(_obj, (float, int, bool, _np.generic)) or _obj is None):
        globals()[_name] = _obj
typecodes = _np.typecodes
sctypeDict = _np.sctypeDict
ScalarType = _np.ScalarType
exceptions = _np.exceptions
newaxis = None

for _mod in _routines.modules():
    for _name in _mod.__all__:
        globals()[_name] = getattr(_mod, _name)

_bind(__import__(__name__))

from . import fft, lib, linalg, random, testing  # noqa: E402  (NumPy's submodules)


# NumPy names without a native tnp implementation: the one fallback path.
__getattr__ = _fallback.module_getattr(_np, "", globals())


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_np) if not n.startswith("_")})
