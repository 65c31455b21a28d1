"""tnp.linalg: numpy.linalg on JAX."""
import numpy as _np
from numpy.linalg import LinAlgError  # noqa: F401
from numpy.linalg._linalg import (  # noqa: F401  (NumPy's own result classes)
    EighResult, EigResult, QRResult, SlogdetResult, SVDResult)

from .._core.dispatch.fallback import module_getattr as _module_getattr
from ._decompositions import *  # noqa: F401,F403
from ._norms import *  # noqa: F401,F403
from ._products import *  # noqa: F401,F403
from ._solve import *  # noqa: F401,F403

__getattr__ = _module_getattr(_np.linalg, "linalg", globals())
