"""``default_rng``: an exact-engine Generator, or a device-engine one for a ``Threefry``."""
import numpy as np

from .._core.dispatch.np_doc import np_doc
from ._device import Threefry
from ._entropy import unless_seeded
from ._exact import Generator


@np_doc(np.random.default_rng, namespace="random",
        notes="default_rng(tnp.random.Threefry(seed)) gives the device engine (JAX threefry).")
def default_rng(seed=None):
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Threefry):
        return Generator(seed)
    return Generator._wrap(np.random.default_rng(unless_seeded(seed)))
