"""tnp.random: numpy.random on JAX.

Two engines, one API:
- the exact engine (default): NumPy's own bit generators and distribution code on the host, so
  the same seed and calls give NumPy's numbers bit for bit; results are tnp arrays with NumPy's
  dtypes (``_exact``, ``_legacy``).
- the device engine: ``tnp.random.default_rng(tnp.random.Threefry(seed))`` (or
  ``Generator(Threefry(seed))``), JAX's counter-based threefry generator, jitted, the key held in
  a tnp array and advanced through the write path; reproducible per seed, but its numbers are
  not NumPy's (``_device``).
NumPy's bit generators and ``SeedSequence`` are NumPy's own classes.
"""
import numpy as _np

from .._core.dispatch.fallback import module_getattr as _module_getattr
from ._exact import Generator, RandomState
from ._device import Threefry
from ._rng import default_rng
from ._legacy import *  # noqa: F401,F403
from ._legacy import __all__ as _legacy_all

BitGenerator = _np.random.BitGenerator
SeedSequence = _np.random.SeedSequence
MT19937 = _np.random.MT19937
PCG64 = _np.random.PCG64
PCG64DXSM = _np.random.PCG64DXSM
Philox = _np.random.Philox
SFC64 = _np.random.SFC64

__all__ = _legacy_all + ["Generator", "RandomState", "default_rng", "Threefry", "BitGenerator",
                         "SeedSequence", "MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"]

__getattr__ = _module_getattr(_np.random, "random", globals())
