import os
import sys

import pytest
from hypothesis import HealthCheck, settings

from tnp._core import settings as tnp_settings
from tnp._core.dispatch import tiers

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
    XLA's compiles, executables or donations. The count starts from cleared caches
    (``caches.clear()``), so the bound's clearing of every executable (``caches.OTHERS`` built
    by the tests before) cannot fall inside the test and rebuild what it counts as built once."""
    from tnp._core.engine import caches, tiering
    tiering.wait()
    caches.clear()
    previous = tnp_settings.update(cold="off")
    yield
    tnp_settings.restore(previous)


@pytest.fixture
def cold_tier(device_placement):
    """The device placement with the NumPy tier for cold graphs and kernels (``TNP_COLD=auto``,
    compiled once seen again), for tests that count what a loop compiles; the background
    compiles other tests started are waited for before and after, and the count starts from
    cleared caches (as ``compiled_tier``'s)."""
    from tnp._core.engine import caches, tiering
    previous = tnp_settings.update(cold="auto", cold_compiles=1)
    tiering.wait()
    caches.clear()
    yield
    tiering.wait()
    tnp_settings.restore(previous)


@pytest.fixture
def watch_donations(monkeypatch):
    """``watch_donations()`` from then on records, per write that claims a root's buffer
    (``write._claim``), whether it donated the old one; returns that list."""
    from tnp._core.array import write

    def watch():
        donated = []

        def claim(root, _claim=write._claim):
            buf, donate = _claim(root)
            donated.append(donate)
            return buf, donate
        monkeypatch.setattr(write, "_claim", claim)
        return donated
    return watch


@pytest.fixture
def device_placement():
    """Every numeric array on the device, for tests of the device tier's own behaviour (syncs,
    donation, compiled kernels, JAX's errors replayed): under the default placement their small
    arrays would live on the host tier."""
    previous = tiers.configure("device")
    yield
    tiers.configure(*previous)
