"""Resident memory stays bounded over a loop making arrays of a new size each time (issue 21):
tnp._core.caches bounds the compiled executables. Runs in a fresh process with a small limit
(``TNP_KERNEL_CACHE_SIZE``), so that a few dozen sizes go through several clearings. A memory
bound, not a timing."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchmarks.cases.memory import run  # noqa: E402


def test_rss_stays_flat_over_new_sizes():
    # 6 executables a size: a limit of 12 clears JAX's executables every 2 sizes. Without the
    # bound each size adds about 9 MB here (CPU), so 16 more sizes would add over 100 MB.
    points = run("tnp", 24, 8, env={"TNP_KERNEL_CACHE_SIZE": "12",
                                    "TNP_COMPILATION_CACHE": "0"})
    (_, first), _, (_, last) = points
    assert last - first < 40, points
    assert last < 150, points


def test_limit_from_environment():
    code = "from tnp._core import caches; print(caches.LIMIT)"
    import subprocess
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, TNP_KERNEL_CACHE_SIZE="7"), check=True).stdout
    assert out.strip() == "7"
    with pytest.raises(subprocess.CalledProcessError):
        subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                       env=dict(os.environ, TNP_KERNEL_CACHE_SIZE="many"))
