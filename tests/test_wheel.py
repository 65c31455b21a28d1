"""The release artefacts: ``python -m build`` makes an sdist and a wheel (the wheel built from the
sdist, so the sdist is complete), and the wheel, installed (not editable) into a fresh virtual
environment, runs the README's main job from outside the source tree: an example program under
NumPy and under tnp, compared (NumPy is the oracle: ``result: SAME``).

The fresh environment borrows this environment's dependencies (NumPy, JAX, optax) through a
``.pth`` path entry, so nothing is downloaded; tnp itself comes only from the wheel."""
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))

pytest.importorskip("build", reason="the test extra installs `build`: pip install -e '.[test]'")


def _build(out):
    # the sdist first, then the wheel built from the unpacked sdist (build's default), each in
    # an isolated build environment with pyproject's build requirements
    p = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), ROOT],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]


def _check_artefacts(dist):
    names = os.listdir(dist)
    wheels = [n for n in names if n.endswith(".whl")]
    sdists = [n for n in names if n.endswith(".tar.gz")]
    assert len(wheels) == 1 and len(sdists) == 1, names
    with zipfile.ZipFile(dist / wheels[0]) as z:
        files = z.namelist()
    for module in ("tnp/__init__.py", "tnp/_core/array/ndarray.py", "tnp/linalg/__init__.py",
                   "tnp_ext/__init__.py", "tnp_ext/optimizers/__init__.py"):
        assert module in files, module
    assert not any(f.startswith(("tests/", "conformance_tests/", "benchmarks/")) for f in files)
    with tarfile.open(dist / sdists[0]) as t:
        members = t.getnames()
    assert any(m.endswith("/pyproject.toml") for m in members)
    assert any(m.endswith("/README.md") for m in members)
    return dist / wheels[0]


def test_wheel_installs_and_runs_the_main_job_outside_the_source_tree(tmp_path):
    # one test (one build), so that parallel workers do not build twice
    dist = tmp_path / "dist"
    _build(dist)
    wheel = str(_check_artefacts(dist))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = str(env_dir / ("Scripts" if os.name == "nt" else "bin") / "python")
    purelib = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    # this environment's packages (NumPy, JAX, ...) as plain path entries: their own .pth files
    # (an editable tnp among them) are not run, so `tnp` can only come from the wheel
    deps = [p for p in dict.fromkeys(site.getsitepackages() + [sysconfig.get_paths()["purelib"]])
            if os.path.isdir(p)]
    with open(os.path.join(purelib, "_tnp_test_deps.pth"), "w") as f:
        f.write("\n".join(deps) + "\n")
    p = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps",
                        "--no-index", "--quiet", wheel], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr

    work = tmp_path / "outside"
    work.mkdir()
    shutil.copy(os.path.join(ROOT, "examples", "heat_equation.py"), work)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run([py, "-c", "import tnp; print(tnp.__file__)"], cwd=work, env=env,
                           capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert os.path.realpath(where.stdout.strip()).startswith(os.path.realpath(purelib)), \
        where.stdout
    p = subprocess.run([py, "-m", "tnp", "run", "--compare", "heat_equation.py"], cwd=work,
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "result: SAME" in p.stdout, p.stdout + p.stderr
