"""The persistent compilation cache (``tnp/_core/engine/compilecache.py``): a second process
running the same program builds no executable (tnp's counter: loads apart from compiles), the
bound on disk, ``python -m tnp cache [--clear]`` and the settings that turn it off or aside."""
import json
import os
import subprocess
import sys
import textwrap

from tnp import _porting
from tnp._core.engine import compilecache

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 600

# Device arrays (so XLA compiles): element-wise chains, a reduction, a sort, a masked mean.
PROGRAM = """
    import numpy as np
    a = np.linspace(0.0, 1.0, 1000)
    b = np.sin(a) * 2 + np.cos(a) ** 2
    print(round(float(b.sum()), 6), float(np.sort(b)[100]), round(float(b[b > 1.0].mean()), 6))
    print(np.cumsum(a.reshape(10, 100), axis=1)[:, -1].round(6).tolist())
"""


def _env(cache_dir, **extra):
    """Every array on the device and every computation compiled (the NumPy tier off: it would
    run this small program's cold graphs and kernels without compiling)."""
    env = {k: v for k, v in os.environ.items() if k != "TNP_COMPILATION_CACHE"}
    return dict(env, TNP_PLACEMENT="device", TNP_COLD="off",
                TNP_COMPILATION_CACHE_DIR=str(cache_dir), **extra)


def _run_report(prog, env, report):
    """``python -m tnp run`` of ``prog``; its stdout and the report's data."""
    env = dict(env, **{_porting._REPORT_ENV: str(report)})
    p = subprocess.run([sys.executable, "-m", "tnp", "run", prog], capture_output=True,
                       text=True, timeout=TIMEOUT, env=env, cwd=_REPO)
    assert p.returncode == 0, p.stderr
    return p.stdout, json.loads(report.read_text())


def _cli(*args, env):
    p = subprocess.run([sys.executable, "-m", "tnp", "cache", *args], capture_output=True,
                       text=True, timeout=TIMEOUT, env=env, cwd=_REPO)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_second_process_compiles_nothing(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent(PROGRAM).lstrip())
    numpy_out = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True,
                               timeout=TIMEOUT).stdout
    env = _env(tmp_path / "cache")
    out1, first = _run_report(str(prog), env, tmp_path / "r1.json")
    out2, second = _run_report(str(prog), env, tmp_path / "r2.json")
    assert out1 == out2 == numpy_out
    assert first["compiles"] > 0 and first["compiles_loaded"] == 0
    assert second["compiles"] == 0
    assert second["compiles_loaded"] == first["compiles"]
    listing = _cli(env=env)
    assert f"directory:   {tmp_path / 'cache'}" in listing
    assert f"entries:     {first['compiles']} executables" in listing


def test_clear_empties_the_cache(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent(PROGRAM).lstrip())
    env = _env(tmp_path / "cache")
    _run_report(str(prog), env, tmp_path / "r1.json")
    assert any(f.endswith("-cache") for f in os.listdir(tmp_path / "cache"))
    out = _cli("--clear", env=env)
    assert "entries:     0 executables (0 computations in tnp's index)" in out
    assert not [f for f in os.listdir(tmp_path / "cache") if f.endswith(("-cache", "-atime"))]
    _, again = _run_report(str(prog), env, tmp_path / "r2.json")
    assert again["compiles"] > 0 and again["compiles_loaded"] == 0


def test_off_by_setting_writes_nothing(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent(PROGRAM).lstrip())
    env = _env(tmp_path / "cache", TNP_COMPILATION_CACHE="0")
    _, first = _run_report(str(prog), env, tmp_path / "r1.json")
    _, second = _run_report(str(prog), env, tmp_path / "r2.json")
    assert second["compiles"] == first["compiles"] > 0
    assert not os.path.exists(tmp_path / "cache") or not os.listdir(tmp_path / "cache")


def test_a_directory_the_process_chose_is_kept(tmp_path):
    """A program that set JAX's cache directory before tnp configured JAX keeps its own."""
    own = tmp_path / "own"
    code = (f"import jax; jax.config.update('jax_compilation_cache_dir', {str(own)!r})\n"
            "import tnp, json\nprint(json.dumps(jax.config.jax_compilation_cache_dir))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=TIMEOUT, env=_env(tmp_path / "cache"), cwd=_REPO)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.strip().splitlines()[-1]) == str(own)


def _entry(path, name, size, age_s):
    f = path / f"{name}-cache"
    f.write_bytes(b"x" * size)
    t = 1_000_000_000 + 10_000 - age_s
    os.utime(f, (t, t))
    return f


def test_trim_deletes_least_recently_used_down_to_three_quarters(tmp_path):
    files = [_entry(tmp_path, f"k{i}", 1000, age_s=i) for i in range(10)]  # k9 the oldest
    other = tmp_path / "notes.txt"
    other.write_text("not JAX's")
    assert compilecache.trim(str(tmp_path), bound=10_000) == 0  # at the bound: kept
    assert all(f.exists() for f in files)
    deleted = compilecache.trim(str(tmp_path), bound=8_000)  # 10,000 > 8,000: down to 6,000
    assert deleted == 4000
    assert [f.exists() for f in files] == [True] * 6 + [False] * 4
    assert other.exists()


def test_trim_is_checked_at_most_hourly(tmp_path):
    assert compilecache._check_due(str(tmp_path))  # never checked
    compilecache.trim(str(tmp_path), bound=1)
    assert not compilecache._check_due(str(tmp_path))
    stamp = tmp_path / compilecache.STAMP
    old = stamp.stat().st_mtime - compilecache.CHECK_INTERVAL_S - 1
    os.utime(stamp, (old, old))
    assert compilecache._check_due(str(tmp_path))


def test_bound_setting_in_bytes():
    assert compilecache.bound_bytes() == (
        None if compilecache.settings.get("compilation_cache_mb") <= 0
        else compilecache.settings.get("compilation_cache_mb") << 20)


def test_counts_add_up_to_executables_built():
    from tnp._core.engine import caches
    c = compilecache.counts()
    assert c["compiles"] + c["loaded"] == caches.executables_built()
    assert min(c.values()) >= 0
