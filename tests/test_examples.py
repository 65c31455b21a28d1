"""Every example program gives the SAME output under tnp as under NumPy (`tnp run --compare`).

``python tests/test_examples.py`` prints the table of the examples' wall times under NumPy and tnp
(each a separate process, tnp's import and compilations included), as a Markdown table.
"""
import glob
import os
import re
import subprocess
import sys

import pytest

EXAMPLES = sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "examples", "*.py")))
NUMPY_PROGRAMS = [p for p in EXAMPLES if "import tnp" not in open(p).read()]
_TIMES = re.compile(r"numpy: exit (-?\d+), ([\d.]+) s\s+tnp: exit (-?\d+), ([\d.]+) s")


def compare(path):
    return subprocess.run([sys.executable, "-m", "tnp", "run", "--compare", path],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("path", NUMPY_PROGRAMS, ids=os.path.basename)
def test_example_same_under_tnp(path):
    p = compare(path)
    print(p.stdout)  # the report with its timings (shown with pytest -s or -rP)
    assert "result: SAME" in p.stdout, p.stdout + p.stderr
    assert _TIMES.search(p.stdout)
    assert p.returncode == 0


def test_compare_reports_a_difference(tmp_path):
    prog = tmp_path / "differs.py"
    prog.write_text("import numpy as np\nprint(np.__name__)\n")
    p = compare(str(prog))
    assert "result: DIFFERENT" in p.stdout and "first difference" in p.stdout
    assert "numpy: numpy" in p.stdout and "tnp:   tnp" in p.stdout
    assert p.returncode == 1


def timings_table():
    rows = ["| example | result | NumPy (s) | tnp (s) |", "|---|---|---:|---:|"]
    for path in NUMPY_PROGRAMS:
        out = compare(path).stdout
        times = _TIMES.search(out)
        verdict = re.search(r"result: (\w+)", out)
        rows.append(f"| {os.path.basename(path)} | {verdict.group(1) if verdict else '?'} | "
                    f"{times.group(2) if times else '?'} | {times.group(4) if times else '?'} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(timings_table())
