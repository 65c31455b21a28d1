"""Every example program gives the SAME output under tnp as under NumPy (python -m tnp run --compare)."""
import glob
import os
import subprocess
import sys

import pytest

EXAMPLES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), os.pardir, "examples",
                                         "*.py")))
NUMPY_PROGRAMS = [p for p in EXAMPLES if "import tnp" not in open(p).read()]


@pytest.mark.parametrize("path", NUMPY_PROGRAMS, ids=os.path.basename)
def test_example_same_under_tnp(path):
    p = subprocess.run([sys.executable, "-m", "tnp", "run", "--compare", path],
                       capture_output=True, text=True, timeout=600)
    assert "result: SAME" in p.stdout, p.stdout + p.stderr
    assert p.returncode == 0


def test_compare_reports_a_difference(tmp_path):
    prog = tmp_path / "differs.py"
    prog.write_text("import numpy as np\nprint(np.__name__)\n")
    p = subprocess.run([sys.executable, "-m", "tnp", "run", "--compare", str(prog)],
                       capture_output=True, text=True, timeout=300)
    assert "result: DIFFERENT" in p.stdout and "first difference" in p.stdout
    assert p.returncode == 1


def test_run_passes_exit_code_and_streams(tmp_path):
    prog = tmp_path / "exits.py"
    prog.write_text("import sys, numpy as np\nprint(type(np.zeros(1)).__module__)\n"
                    "print('err', file=sys.stderr)\nsys.exit(3)\n")
    p = subprocess.run([sys.executable, "-m", "tnp", "run", str(prog)], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 3
    assert p.stdout.strip().startswith("tnp") and p.stderr.strip() == "err"


def test_error_report_names_the_failure(tmp_path):
    prog = tmp_path / "strings.py"
    prog.write_text("import numpy as np\nprint(np.array(['a', 'b']))\n")
    p = subprocess.run([sys.executable, "-m", "tnp", "run", "--compare", str(prog)],
                       capture_output=True, text=True, timeout=300)
    assert "result: ERROR" in p.stdout
    assert "str" in p.stdout and "Traceback" not in p.stdout.split("tnp failed:")[0]
