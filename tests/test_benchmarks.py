"""`python -m benchmarks --quick` runs and writes its report files (its timings are not tested)."""
import json
import os
import subprocess
import sys


def test_quick_benchmark_writes_results(tmp_path):
    root = os.path.join(os.path.dirname(__file__), os.pardir)
    p = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--only", "dispatch",
                        "--out", str(tmp_path)], cwd=root, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    md = (tmp_path / "results.md").read_text()
    data = json.loads((tmp_path / "results.json").read_text())
    assert "## dispatch" in md and "tnp/jax" in md
    assert "## Targets" in md and "dispatch basket, median tnp/jax.numpy eager" in md
    assert "dispatch basket, median tnp/NumPy (default placement)" in md
    assert {r["group"] for r in data["rows"]} == {"dispatch", "dispatch floor"}
    assert all({"numpy", "jax", "tnp"} <= set(r["median_s"]) for r in data["rows"]
               if r["group"] == "dispatch")
    assert all({"numpy", "floor wrapper", "tnp"} == set(r["median_s"]) for r in data["rows"]
               if r["group"] == "dispatch floor")


def test_cold_group_import_case_writes_fresh_rows(tmp_path):
    root = os.path.join(os.path.dirname(__file__), os.pardir)
    p = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--only",
                        "cold and dynamic/import", "--out", str(tmp_path)], cwd=root,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    md = (tmp_path / "results.md").read_text()
    (row,) = json.loads((tmp_path / "results.json").read_text())["rows"]
    assert "## cold and dynamic" in md and "| import | - | tnp | 3 |" in md
    assert "import (-), tnp/NumPy (process incl.) | <= 1.2 |" in md
    assert row["group"] == "cold and dynamic" and set(row["fresh"]) == {"numpy", "tnp"}
    assert all(f["runs"] == 3 and f["peak_rss_mb"] > 0 and f["cpu_s"] > 0
               for f in row["fresh"].values())
    assert row["fresh"]["tnp"]["compiles"] == 0  # `import tnp` builds no executable
    assert row["same_output"] and "tnp/numpy" in row["ratios"]


def test_fresh_process_records_marks_and_time_outs():
    from benchmarks import fresh
    source = ("import sys\nimport numpy as np\nprint(np.arange(3).sum())\n"
              "print('mark half', file=sys.stderr)\n")
    row = fresh.measure("g", "marks", "-", source, {"numpy": fresh.Impl("numpy"),
                                                    "tnp": fresh.Impl("tnp")}, repeats=1)
    assert row["same_output"] and all("peak_rss_mb@half" in f for f in row["fresh"].values())
    slow = fresh.measure("g", "slow", "-", "import time\ntime.sleep(30)\n",
                         {"numpy": fresh.Impl("numpy")}, repeats=2, limit_s=2)
    assert slow["fresh"]["numpy"] == dict(slow["fresh"]["numpy"], runs=0, timed_out=True)
    assert slow["median_s"] == {"numpy": None}
    assert "| slow | - | numpy | 0 | >2 s |" in "\n".join(fresh.markdown([slow]))
