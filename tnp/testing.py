"""tnp.testing: NumPy's own testing helpers. They read tnp arrays through ``__array__``, so
``tnp.testing.assert_allclose(tnp_array, numpy_array)`` compares values on the host."""
from numpy.testing import *  # noqa: F401,F403
from numpy.testing import __all__  # noqa: F401
