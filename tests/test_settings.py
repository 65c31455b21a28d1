"""The one settings module (``tnp._core.settings``): every ``TNP_*`` variable read and validated
there at import, changed at run time through it, shown by ``python -m tnp config`` and in the
README's table."""
import ast
import os
import pathlib
import subprocess
import sys

import pytest

import tnp  # noqa: F401
import tnp_ext
from tnp._core import settings
from tnp._core.dispatch import tiers
from tnp._core.engine import caches, lazy

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _env(**values):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TNP_")}
    env.update(values)
    return env


def _config(code="", **values):
    """``python -m tnp config``'s rows (variable -> (value, source)), after ``code``."""
    prog = f"import tnp, tnp_ext\n{code}\nfrom tnp.__main__ import main\nmain(['config'])"
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                         env=_env(**values), check=True, cwd=ROOT).stdout
    rows = {}
    for line in out.splitlines()[1:]:
        var, rest = line.split(None, 1)
        parts = rest.split("  ")
        parts = [p.strip() for p in parts if p.strip()]
        rows[var] = (parts[0], parts[1]) if parts[0] not in settings.SOURCES else ("", parts[0])
    return rows


def test_config_shows_every_setting_its_value_and_source():
    rows = _config(TNP_LAZY_LIMIT="100", TNP_PLACEMENT="device")
    assert set(rows) == {s.env for s in settings.SETTINGS}
    assert rows["TNP_LAZY_LIMIT"] == ("100", "environment")
    assert rows["TNP_PLACEMENT"] == ("device", "environment")
    assert rows["TNP_LAZY"] == ("1", "default")
    assert rows["TNP_HOST_THRESHOLD"] == ("65536", "default")
    assert rows["TNP_KERNEL_CACHE_SIZE"] == ("128", "default")


def test_config_command_line():
    out = subprocess.run([sys.executable, "-m", "tnp", "config"], capture_output=True, text=True,
                         env=_env(TNP_KERNEL_CACHE_SIZE="7"), check=True, cwd=ROOT).stdout
    assert any(line.split()[:3] == ["TNP_KERNEL_CACHE_SIZE", "7", "environment"]
               for line in out.splitlines())


def test_config_shows_run_time_changes():
    rows = _config("tnp_ext.placement('device', threshold=10)\n"
                   "from tnp._core.engine import lazy; lazy.enable(False)")
    assert rows["TNP_PLACEMENT"] == ("device", "run time")
    assert rows["TNP_HOST_THRESHOLD"] == ("10", "run time")
    assert rows["TNP_LAZY"] == ("0", "run time")
    assert rows["TNP_LAZY_LIMIT"] == ("512", "default")


@pytest.mark.parametrize("var, value, allowed", [
    ("TNP_LAZY_LIMIT", "abc", "an integer"), ("TNP_LAZY", "yes", "0 or 1"),
    ("TNP_PLACEMENT", "gpu", "device or auto"), ("TNP_HOST_THRESHOLD", "1e3", "an integer"),
    ("TNP_KERNEL_CACHE_SIZE", "many", "an integer"), ("TNP_COMPILATION_CACHE", "off", "0 or 1")])
def test_bad_value_is_an_error_at_import(var, value, allowed):
    p = subprocess.run([sys.executable, "-c", "import tnp"], capture_output=True, text=True,
                       env=_env(**{var: value}), cwd=ROOT)
    assert p.returncode != 0
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError: ") and var in last and repr(value) in last, last
    assert allowed in last


def test_run_time_changes_reach_the_hot_path_modules():
    previous = settings.update(lazy=False, lazy_limit=7, lazy_bytes=1000, lazy_early=3,
                               placement="device", host_threshold=11)
    try:
        assert (lazy.on, lazy.LIMIT, lazy.BYTES, lazy.EARLY) == (False, 7, 1000, 3)
        assert (tiers.MODE, tiers.THRESHOLD) == ("device", 11)
        assert settings.source("lazy_limit") == "run time"
    finally:
        settings.restore(previous)
    assert lazy.LIMIT == settings.get("lazy_limit")
    assert settings.source("lazy_limit") == previous["lazy_limit"][1]


def test_placement_block_restores_value_and_source():
    before = {n: (settings.get(n), settings.source(n)) for n in ("placement", "host_threshold")}
    with tnp_ext.placement("auto", threshold=5):
        assert tnp_ext.current_placement() == ("auto", 5) == (tiers.MODE, tiers.THRESHOLD)
        assert settings.source("host_threshold") == "run time"
    assert {n: (settings.get(n), settings.source(n)) for n in before} == before


def test_run_time_errors():
    before = settings.get("placement"), settings.get("host_threshold")
    with pytest.raises(ValueError, match="TNP_HOST_THRESHOLD"):  # checked before any is set
        settings.update(placement="auto", host_threshold="many")
    assert (settings.get("placement"), settings.get("host_threshold")) == before
    with pytest.raises(ValueError, match="TNP_PLACEMENT.*device or auto"):
        tnp_ext.placement("gpu")
    with pytest.raises(ValueError, match="TNP_KERNEL_CACHE_SIZE.*at import"):
        settings.set("kernel_cache_size", 10)
    assert caches.LIMIT == settings.get("kernel_cache_size")


def test_readme_table_is_the_settings_table():
    readme = (ROOT / "README.md").read_text()
    assert settings.markdown() in readme, "regenerate it: python -m tnp config --markdown"
    for s in settings.SETTINGS:
        assert f"| `{s.env}` | `{s.shown}` |" in readme


def _tnp_literals(path):
    """Lines of ``path`` with a string literal naming a ``TNP_`` variable (docstrings aside)."""
    tree = ast.parse(path.read_text())
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr)}
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and n.value.startswith("TNP_") and id(n) not in docs]


def test_variables_are_read_in_one_module():
    """No module of tnp or tnp_ext but ``settings`` names a ``TNP_`` variable in its code
    (docstrings and comments aside): every variable is read there."""
    found = [f"{path.relative_to(ROOT)}:{line}"
             for pkg in ("tnp", "tnp_ext") for path in sorted((ROOT / pkg).rglob("*.py"))
             if path != ROOT / "tnp/_core/settings.py" for line in _tnp_literals(path)]
    assert not found, found
    assert len(_tnp_literals(ROOT / "tnp/_core/settings.py")) == len(settings.SETTINGS)
