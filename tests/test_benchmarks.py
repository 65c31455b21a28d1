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
