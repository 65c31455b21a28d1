"""tnp imports JAX at the first device operation (``tnp/_core/jaxload.py``), or when the program
imports it, before or after tnp; each way JAX ends up configured for tnp (64-bit, matmul
precision, compilation cache, tnp arrays as pytrees) and the results are NumPy's.

Each case runs in a fresh process: the test process has imported JAX long ago.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Reports what a case needs as JSON on its last line.
_REPORT = """
import json, sys
def report(**kw):
    print(json.dumps(kw))
"""

# The state of JAX once it is in: configured for tnp, stand-ins replaced by the real objects.
_JAX_STATE = """
def jax_state():
    import jax, jax.numpy
    from tnp._core.engine import jaxload
    from tnp._core.ufunc import loops
    from tnp._core.array import write
    return dict(x64=jax.config.jax_enable_x64,
                precision=str(jax.config.jax_default_matmul_precision),
                cache=bool(jax.config.jax_compilation_cache_dir),
                replaced=loops.jnp is jax.numpy and write.ArrayImpl is type(jax.numpy.zeros(1)),
                loaded=jaxload.loaded())
"""


def _run(body, env=None):
    code = _REPORT + _JAX_STATE + body
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=_REPO, env=dict(os.environ, **(env or {})), timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _expected_state():
    return dict(x64=True, precision="highest", cache=True, replaced=True, loaded=True)


def test_import_and_a_host_program_do_not_import_jax():
    a = np.arange(12.0).reshape(3, 4)
    expected = (np.sqrt(a) * 2 + 1).sum(axis=1)
    got = _run("""
import tnp
after_import = 'jax' in sys.modules
a = tnp.arange(12.0).reshape(3, 4)
a[1, 2] = 7.0
r = (tnp.sqrt(a) * 2 + 1).sum(axis=1)
s = tnp.sort(tnp.array([3, 1, 2]))
m = tnp.linalg.inv(tnp.eye(3) * 2)
g = tnp.random.default_rng(0).normal(size=3)
report(after_import=after_import, after_program='jax' in sys.modules, r=r.tolist(),
       dtype=str(r.dtype), s=s.tolist(), m=m.tolist(), g=g.tolist())
""")
    assert not got["after_import"] and not got["after_program"]
    b = a.copy()
    b[1, 2] = 7.0
    want = (np.sqrt(b) * 2 + 1).sum(axis=1)
    assert got["dtype"] == str(want.dtype)
    np.testing.assert_allclose(got["r"], want, rtol=1e-12)
    assert not np.allclose(got["r"], expected)  # the write was seen
    assert got["s"] == np.sort(np.array([3, 1, 2])).tolist()
    np.testing.assert_allclose(got["m"], np.linalg.inv(np.eye(3) * 2), rtol=1e-12)
    np.testing.assert_allclose(got["g"], np.random.default_rng(0).normal(size=3), rtol=1e-12)


def test_no_routine_family_or_submodule_imports_jax():
    """Each family (imported at its first name's use) and submodule, imported alone after
    tnp, leaves JAX out (``sets`` took ``jnp.reshape`` at import: a program calling ``unique``
    on host arrays paid JAX's 0.4 s start)."""
    got = _run("""
import importlib, subprocess
from tnp import _routines
names = sorted(set(_routines.OWNER.values())) + ["fft", "linalg", "random", "lib", "testing"]
code = "import importlib, sys, tnp; importlib.import_module('tnp.' + sys.argv[1]); "\
       "print('jax' in sys.modules)"
report(loaded={n: subprocess.run([sys.executable, "-c", code, n], capture_output=True,
                                 text=True).stdout.strip() for n in names})
""")
    assert len(got["loaded"]) > 30
    assert {n: v for n, v in got["loaded"].items() if v != "False"} == {}


def test_the_first_device_operation_imports_and_configures_jax():
    got = _run("""
import tnp
before = 'jax' in sys.modules
x = tnp.arange(100000.0)       # over the host threshold: the device tier
r = float((x * 0.5).sum())
report(before=before, r=r, dtype=str((x * 0.5).dtype), state=jax_state(),
       device=type(x._buf).__module__.startswith('jax'))
""")
    x = np.arange(100000.0)
    assert not got["before"] and got["device"]
    assert got["dtype"] == str((x * 0.5).dtype)
    np.testing.assert_allclose(got["r"], float((x * 0.5).sum()), rtol=1e-12)
    assert got["state"] == _expected_state()


@pytest.mark.parametrize("order", ["jax after tnp", "jax before tnp"])
def test_a_program_importing_jax_gets_tnp_arrays_as_pytrees(order):
    imports = "import tnp\nimport jax" if order == "jax after tnp" else "import jax\nimport tnp"
    got = _run(imports + """
a = tnp.arange(5.0)            # small: a host-tier array
leaves = jax.tree_util.tree_leaves(a)
f = jax.jit(lambda v: v * 2 + 1)
r = f(a)
report(leaves=len(leaves), r=r.tolist(), is_tnp=type(r).__module__.startswith('tnp'),
       dtype=str(r.dtype), state=jax_state())
""")
    a = np.arange(5.0)
    assert got["leaves"] == 1 and got["is_tnp"]
    assert got["dtype"] == str((a * 2 + 1).dtype)
    np.testing.assert_allclose(got["r"], a * 2 + 1, rtol=1e-12)
    assert got["state"] == _expected_state()


def test_threads_racing_to_the_first_device_operation():
    got = _run("""
import threading, tnp
out = [None] * 8
def work(i):
    out[i] = float((tnp.full(100000, float(i)) * 3).sum())
ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in ts: t.start()
for t in ts: t.join()
report(out=out, state=jax_state())
""")
    assert got["out"] == [float((np.full(100000, float(i)) * 3).sum()) for i in range(8)]
    assert got["state"] == _expected_state()


def test_device_placement_from_the_environment():
    got = _run("""
import tnp
a = tnp.arange(6).reshape(2, 3)
report(r=(a + 1).tolist(), state=jax_state(),
       device=type(a._root._buf).__module__.startswith('jax'))
""", env={"TNP_PLACEMENT": "device"})
    assert got["device"]
    assert got["r"] == (np.arange(6).reshape(2, 3) + 1).tolist()
    assert got["state"] == _expected_state()


def test_a_stand_in_kept_past_the_set_up_answers_for_jax():
    """A stand-in that a module bound while JAX was being set up in another thread (so the
    swap missed it; a local variable here plays that module) still answers correctly: a class
    stand-in's isinstance/issubclass are the real class's, ``until_loaded`` gives ``after``."""
    r = _run("""
import numpy as np
import tnp
from tnp._core.engine import jaxload
A = jaxload.cls("jax", "Array")
f = jaxload.until_loaded(lambda x: ("before", x), lambda x: ("after", x))
before = dict(inst=isinstance(np.ones(1), A), sub=issubclass(np.ndarray, A), f=f(1)[0],
              loaded=jaxload.loaded())
t = tnp.add(tnp.ones(100000), 1.0)  # the first device operation: JAX set up
import jax.numpy as jnp
report(before=before, inst=isinstance(jnp.ones(1), A), sub=issubclass(type(jnp.ones(1)), A),
       numpy_inst=isinstance(np.ones(1), A), f=f(2),
       value=float(t[0]))
""")
    assert r["before"] == dict(inst=False, sub=False, f="before", loaded=False)
    assert r["inst"] and r["sub"] and not r["numpy_inst"]
    assert r["f"] == ["after", 2]
    assert r["value"] == float(np.add(np.ones(100000), 1.0)[0])
