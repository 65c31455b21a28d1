"""NumPy's ``numpy.lib`` namespace: ``stride_tricks`` natively, the rest through the fallback."""
import numpy as _np

from .._core.dispatch.fallback import module_getattr as _module_getattr
from . import stride_tricks  # noqa: F401

__getattr__ = _module_getattr(_np.lib, "lib", globals())
