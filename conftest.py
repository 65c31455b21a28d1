"""The repository's pytest options (``pytest_addoption`` must live in the rootdir's conftest)
and the environment every test session runs in, set here, before anything imports tnp (which
reads its settings once, at import): this conftest is loaded before any other, and tnp is named
nowhere in the ini options (a ``filterwarnings`` entry naming a tnp class would import it while
pytest parses its configuration: the filter is added in ``pytest_configure`` instead)."""
import atexit
import os
import shutil
import tempfile
import warnings

import pytest

# The persistent compilation cache stays on for the tests (test processes running the same
# programs load their executables), in a directory of this session's own, never the user's;
# the processes the tests start inherit it.
if not os.environ.get("TNP_COMPILATION_CACHE_DIR"):
    os.environ["TNP_COMPILATION_CACHE_DIR"] = tempfile.mkdtemp(prefix="tnp-test-jax-cache-")
    atexit.register(shutil.rmtree, os.environ["TNP_COMPILATION_CACHE_DIR"], True)

# Placement by size alone (no warm-up, ``tiers.large_on_host``): a test's arrays are where
# their size puts them whatever ran before it (tests/test_host_tier.py tests the warm-up).
if not os.environ.get("TNP_HOST_WARMUP_MS"):
    os.environ["TNP_HOST_WARMUP_MS"] = "0"


def pytest_configure(config):
    config.addinivalue_line("filterwarnings", "ignore::tnp.TnpFallbackWarning")


def pytest_addoption(parser):
    parser.addoption(
        "--placement", choices=("device", "auto", "sharded", "both"), default="both",
        help="conformance_tests' placements: 'device' (every numeric array on the device), "
             "'auto' (the default placement: small arrays NumPy's own on the host tier), "
             "'sharded' (every numeric array on the device, laid out over every device: split "
             "from one element per device; run with several devices) or "
             "'both' (every conformance test once in device and auto; the default)")


@pytest.fixture(autouse=True)
def fp_warnings_of_the_test():
    """The device tier's floating-point warnings of values a test never read are given (and
    ignored) when it ends, not at a later test's first read (``fpcheck.deliver``; imported
    here, after the environment above is set)."""
    yield
    from tnp._core.engine import fpcheck
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fpcheck.deliver()
