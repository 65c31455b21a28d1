"""``import tnp`` loads what a first NumPy call needs: routine families, the ufunc table and the
submodules are imported at the first use of one of their names (``tnp/_routines/__init__.py``'s
``FAMILIES``), and tnp's namespace (``__all__``, ``dir``, ``from tnp import *``, the error for
a missing name) is NumPy's as before. A fresh process for each start-up case."""
import importlib
import json
import os
import pickle
import pkgutil
import subprocess
import sys

import numpy as np
import pytest

import tnp
from tnp import _routines
from tnp._core.dispatch.fallback import is_fallback

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _fresh(code):
    """Run ``code`` in a fresh process; its last stdout line, parsed as JSON."""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=_REPO,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


_LOADED = """
import json, sys
def loaded():
    return sorted(m for m in sys.modules if m.startswith(("tnp._routines.", "tnp._ufuncs.",
                  "tnp.linalg", "tnp.fft", "tnp.random", "tnp.lib", "tnp.testing")))
"""


def test_families_table_is_each_modules_all():
    families = {f"_routines.{m.name}" for m in pkgutil.iter_modules(_routines.__path__)
                if not m.name.startswith("_")} | {"_ufuncs.table"}
    assert set(_routines.FAMILIES) == families
    for module, names in _routines.FAMILIES.items():
        family = importlib.import_module(f"tnp.{module}")
        assert sorted(names) == sorted(family.__all__), module
    assert len(_routines.OWNER) == sum(len(n) for n in _routines.FAMILIES.values())  # one owner


def test_import_tnp_loads_no_family_submodule_or_jax():
    # Beyond what ``import numpy`` loads, only tnp's own modules, ``threading`` and ``atexit``:
    # not JAX, nor hashlib (the compiled tier's cache index), socket (a distributed run's wait
    # for its coordinator) or numpy.fft (the NumPy tier's fft rule), each loaded at first use.
    out = _fresh(_LOADED + "import numpy\nbefore = set(sys.modules)\nimport tnp\n"
                 "print(json.dumps([loaded(), sorted(m for m in set(sys.modules) - before "
                 "if m.split('.')[0] not in ('tnp', 'tnp_ext'))]))")
    assert out == [[], ["atexit", "threading"]]


def test_a_name_loads_its_family_not_the_others():
    out = _fresh(_LOADED + "import tnp\nf = tnp.sort\nprint(json.dumps(loaded()))")
    assert "tnp._routines.sorting" in out  # (and the families it imports itself)
    assert not set(out) & {"tnp._routines.polynomial", "tnp._routines.histograms",
                           "tnp._routines.io", "tnp._routines.window", "tnp.linalg", "tnp.fft"}


def test_first_calls_in_a_fresh_process_are_numpys():
    """Methods and operators reach their routines (looked up at first use) before any family
    was named by the program; NumPy's functions reach tnp's through ``__array_function__``."""
    code = """
import json, numpy, tnp
a = tnp.arange(12.0).reshape(3, 4)
r = [(a + 1).tolist(), a.sum(axis=0).tolist(), float(a.mean()), a.T.tolist(),
     numpy.sum(a, axis=1).tolist(), (a > 5).any(axis=1).tolist(), a.argsort(axis=1).tolist()]
print(json.dumps(r))
"""
    a = np.arange(12.0).reshape(3, 4)
    expected = [(a + 1).tolist(), a.sum(axis=0).tolist(), float(a.mean()), a.T.tolist(),
                np.sum(a, axis=1).tolist(), (a > 5).any(axis=1).tolist(),
                a.argsort(axis=1).tolist()]
    assert _fresh(code) == expected


@pytest.mark.parametrize("placement", ["device", "auto"])
def test_numpy_ufunc_first_in_a_fresh_process_is_tnps(placement, monkeypatch):
    """A NumPy ufunc called on a tnp array before the program named any tnp ufunc finds tnp's
    (the ufunc table imported at that lookup), not the fallback path; a NumPy ``out`` with
    ``where=`` keeps what it does not write and is returned; a pickled tnp ufunc loads in a
    fresh process."""
    code = """
import json, warnings, numpy, tnp
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    o = numpy.full(3, -1.0)
    r = numpy.add(tnp.arange(3.0), 1, out=o, where=tnp.array([True, False, True]))
    s = numpy.sin(tnp.arange(3.0))
print(json.dumps([o.tolist(), r is o, type(s).__module__, s.tolist(),
                  [x.category.__name__ for x in w]]))
"""
    o = np.full(3, -1.0)
    r = np.add(np.arange(3.0), 1, out=o, where=np.array([True, False, True]))
    expected = [o.tolist(), r is o, "tnp._core.array.ndarray", np.sin(np.arange(3.0)).tolist(),
                []]
    monkeypatch.setenv("TNP_PLACEMENT", placement)
    assert _fresh(code) == expected
    pickled = pickle.dumps(tnp.multiply)
    p = subprocess.run([sys.executable, "-c", "import pickle, sys, tnp\n"
                        "print(pickle.loads(sys.stdin.buffer.read()) is tnp.multiply)"],
                       input=pickled, capture_output=True, cwd=_REPO, timeout=300)
    assert p.stdout.decode().strip() == "True", p.stderr.decode()


def test_namespace_listing_before_and_after_loading():
    """``dir`` and ``__all__`` list every family's names before any is loaded, the same after."""
    code = """
import json, tnp
before = [dir(tnp), tnp.__all__]
for n in tnp.__all__:
    getattr(tnp, n)
print(json.dumps([before, [dir(tnp), tnp.__all__]]))
"""
    (dir0, all0), (dir1, all1) = _fresh(code)
    assert all0 == all1
    assert set(dir0) <= set(dir1) and set(dir1) - set(dir0) <= {"_ufuncs"}  # a subpackage
    public = {n for n in _routines.OWNER if not n.startswith("_")}
    assert public <= set(all0) and set(_routines.OWNER) <= set(dir0)
    assert {n for n in dir(np) if not n.startswith("_")} <= set(dir0)


@pytest.mark.parametrize("name", sorted(n for n in tnp.__all__))
def test_every_public_name_resolves(name):
    obj = getattr(tnp, name)
    if name in _routines.OWNER:
        assert not is_fallback(obj)  # a family's own function, not NumPy's through the fallback
        assert obj is getattr(tnp, name)  # defined once, kept


def test_star_import_defines_all():
    out = _fresh("import json, tnp\nns = {}\nexec('from tnp import *', ns)\n"
                 "print(json.dumps(sorted(set(ns) - {'__builtins__'})))")
    assert out == sorted(tnp.__all__)


def test_missing_name_raises_numpys_attribute_error():
    with pytest.raises(AttributeError) as theirs:
        np.no_such_name  # noqa: B018
    with pytest.raises(AttributeError) as ours:
        tnp.no_such_name  # noqa: B018
    assert str(ours.value) == str(theirs.value).replace("numpy", "tnp")
