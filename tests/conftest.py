import atexit
import os
import shutil
import sys
import tempfile

# The persistent compilation cache stays on for the tests (test processes running the same
# programs load their executables), in a directory of this session's own, never the user's
# (set before tnp reads its settings; the processes the tests start inherit it).
if not os.environ.get("TNP_COMPILATION_CACHE_DIR"):
    os.environ["TNP_COMPILATION_CACHE_DIR"] = tempfile.mkdtemp(prefix="tnp-test-jax-cache-")
    atexit.register(shutil.rmtree, os.environ["TNP_COMPILATION_CACHE_DIR"], True)

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from tnp._core import settings as tnp_settings  # noqa: E402

# Placement by size alone (no warm-up, ``tiers.large_on_host``): a test's arrays are where
# their size puts them whatever ran before it (tests/test_host_tier.py tests the warm-up);
# set at run time (pytest's filterwarnings imported tnp already) and for the processes tests
# start.
if not os.environ.get("TNP_HOST_WARMUP_MS"):
    os.environ["TNP_HOST_WARMUP_MS"] = "0"
    tnp_settings.update(host_warmup_ms=0)
from tnp._core.dispatch import tiers  # noqa: E402

# tests/ share the conformance engine (assert_same, check) with conformance_tests/.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "conformance_tests"))

settings.register_profile("default", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("TNP_HYPOTHESIS_PROFILE", "default"))

# tests/multidevice needs 8 simulated devices: tests/test_parallel.py runs it in a subprocess.
collect_ignore = [] if os.environ.get("TNP_MULTIDEVICE") == "1" else ["multidevice"]


@pytest.fixture
def compiled_tier():
    """Every graph and kernel compiled (the NumPy tier, ``TNP_COLD``, off), for tests that count
    XLA's compiles, executables or donations."""
    previous = tnp_settings.update(cold="off")
    yield
    tnp_settings.restore(previous)


@pytest.fixture
def device_placement():
    """Every numeric array on the device, for tests of the device tier's own behaviour (syncs,
    donation, compiled kernels, JAX's errors replayed): under the default placement their small
    arrays would live on the host tier."""
    previous = tiers.configure("device")
    yield
    tiers.configure(*previous)
