"""tnp.fft: numpy.fft on JAX."""
import numpy as _np

from .._core.dispatch.fallback import module_getattr as _module_getattr
from ._helper import *  # noqa: F401,F403
from ._pocketfft import *  # noqa: F401,F403

__getattr__ = _module_getattr(_np.fft, "fft", globals())
