import os

import pytest
from hypothesis import HealthCheck, settings

from tnp._core.dispatch import tiers

settings.register_profile("default", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("TNP_HYPOTHESIS_PROFILE", "default"))


PLACEMENTS = ("device", "auto")


def pytest_generate_tests(metafunc):
    """Every conformance test in each placement of ``--placement`` (ids ``[device]``,
    ``[auto]``)."""
    if "placement" in metafunc.fixturenames:
        chosen = metafunc.config.getoption("--placement")
        metafunc.parametrize("placement", PLACEMENTS if chosen == "both" else (chosen,),
                             indirect=True, scope="function")


@pytest.fixture
def placement(request):
    """The placement mode the test runs under: ``"device"`` (every numeric array on the
    device: tnp's device implementations against NumPy) or ``"auto"`` (the default: arrays
    under the threshold are NumPy's own on the host tier, with tnp's layer over them: writes,
    flags, views, dtype routing)."""
    return request.param


@pytest.fixture(autouse=True)
def tier_placement(placement):
    """Sets the placement mode for the test's duration."""
    previous = tiers.configure(placement)
    yield placement
    tiers.configure(*previous)
