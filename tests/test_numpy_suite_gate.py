"""CI gate on NumPy's own test suite: the quick subset (``conformance_tests/numpy_suite/quick.txt``,
tests that passed against tnp in the committed baseline run, ``results.md``) must still pass.

NumPy's tests are the oracle here (they assert NumPy's documented results); the runner rewrites
their imports so that they run on tnp. See ``conformance_tests/numpy_suite/__init__.py``.
"""
import os
import subprocess
import sys

import numpy
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(not os.path.isdir(os.path.join(os.path.dirname(numpy.__file__), "_core",
                                                   "tests")),
                    reason="this NumPy installation ships without its tests")
def test_numpy_suite_quick_subset_has_no_regression(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "conformance_tests.numpy_suite", "--quick",
         "--workdir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=1200)
    out = proc.stdout + proc.stderr
    log = tmp_path / "quick.log"
    tail = log.read_text()[-6000:] if log.exists() else ""
    assert proc.returncode == 0, f"{out[-6000:]}\n--- pytest log (tail) ---\n{tail}"
