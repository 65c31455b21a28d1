"""Runs tests/multidevice, and a subset of the conformance suite in the placement mode
"sharded", in subprocesses with 8 simulated CPU devices (the rest of the suite keeps one
device). The subprocesses select the tests this run's ``-m`` selects (``slow`` ones in the deep
run)."""
import os
import subprocess
import sys

import numpy
import pytest

import tnp
import tnp_ext
from engine import assert_same

HERE = os.path.dirname(__file__)
ENV = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8",
           JAX_PLATFORMS="cpu", TNP_MULTIDEVICE="1")  # 8 CPU devices, also beside a GPU


def _pytest(request, *args):
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-m", request.config.getoption("markexpr") or "not slow", *args],
                       capture_output=True, text=True, env=ENV, timeout=3600,
                       cwd=os.path.join(HERE, os.pardir))
    assert p.returncode == 0, p.stdout[-6000:] + p.stderr[-3000:]
    assert " passed" in p.stdout and "failed" not in p.stdout


def test_parallel_suite_on_8_simulated_devices(request):
    _pytest(request, os.path.join(HERE, "multidevice"))


# The conformance modules run in mode "sharded" (every array on the device, split over the 8
# devices from one element per device): views in the default run (~25 s), more when deep.
SHARDED_CONFORMANCE = ["test_views.py"]
SHARDED_CONFORMANCE_DEEP = ["test_creation.py", "test_writes.py", "test_indexing.py",
                            "test_reductions.py", "test_statistics.py"]


@pytest.mark.parametrize("modules", [
    SHARDED_CONFORMANCE, pytest.param(SHARDED_CONFORMANCE_DEEP, marks=pytest.mark.slow)],
    ids=["default", "deep"])
def test_conformance_subset_sharded_on_8_simulated_devices(request, modules):
    _pytest(request, "--placement", "sharded",
            *(os.path.join("conformance_tests", m) for m in modules))


def test_sharded_mode_on_one_device_places_as_auto():
    """With one device the mode "sharded" is the mode "auto": small arrays on the host tier,
    large ones on the one device, NumPy's values."""
    with tnp_ext.placement("sharded", warmup_ms=0):
        big, small = tnp.arange(100_000) * 2.0, tnp.ones(10)
        assert_same(big, numpy.arange(100_000) * 2.0)
        assert type(small._root._buf) is numpy.ndarray
        assert len(big.data.sharding.device_set) == 1
