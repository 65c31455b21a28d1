import atexit
import os
import shutil
import tempfile

# The persistent compilation cache in a directory of this test session's own, never the user's
# (as tests/conftest.py; whichever conftest is imported first sets it).
if not os.environ.get("TNP_COMPILATION_CACHE_DIR"):
    os.environ["TNP_COMPILATION_CACHE_DIR"] = tempfile.mkdtemp(prefix="tnp-test-jax-cache-")
    atexit.register(shutil.rmtree, os.environ["TNP_COMPILATION_CACHE_DIR"], True)

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from tnp._core.dispatch import tiers  # noqa: E402

settings.register_profile("default", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("TNP_HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def device_placement():
    """Every numeric array on the device: the conformance suite tests tnp's device
    implementations against NumPy (with the default placement, small arrays would be NumPy's own
    on the host tier, and the comparison vacuous). The host tier has its own tests."""
    previous = tiers.configure("device")
    yield
    tiers.configure(*previous)
