"""``python -m tnp run``: the program's streams and exit code, ``-m``, ``--report``, error reports,
``--compare --rtol``, and the device-sync counter."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tnp
from tnp import _inventory, _porting
from tnp._core.engine import syncs

TIMEOUT = 600
_DEVICE = dict(os.environ, TNP_PLACEMENT="device")


def _write(path, text):
    path.write_text(textwrap.dedent(text).lstrip())
    return str(path)


def _tnp(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "tnp", "run", *args], capture_output=True,
                          text=True, timeout=TIMEOUT, cwd=cwd, env=env)


def _python(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=TIMEOUT)


# a fallback name (not native in tnp yet) at line 3, a sync point (bool of an array) at line 5
FALLBACK_AND_SYNC = """
    import numpy as np
    a = np.arange(6.0).reshape(2, 3)
    print(np.getbufsize() > 0)
    if a.sum() > 3:
        print("big", a[1])
    print(np.getbufsize() > 1)
"""


def test_report_names_fallbacks_and_syncs(tmp_path):
    prog = _write(tmp_path / "prog.py", FALLBACK_AND_SYNC)
    p = _tnp("--report", prog, env=_DEVICE)  # device syncs
    ref = _python(prog)
    assert p.returncode == 0, p.stderr
    assert p.stdout == ref.stdout  # the report goes to stderr, after the program
    report = p.stderr.split("---- tnp run --report")[1]
    assert (f"getbufsize: 2 calls, {_inventory.describe('getbufsize')}; fell back to NumPy at line 3 "
            f"of prog.py") in report
    assert _inventory.describe("getbufsize") == "not native in tnp yet"
    assert "scalar: 1 time, first at line 4 of prog.py" in report
    assert "to_numpy: 1 time, first at line 5 of prog.py" in report
    assert "TnpFallbackWarning" not in p.stderr  # the report lists the fallback names instead


# placement "auto" with a threshold of 1000 elements: ``big`` on the device, ``small`` on the host
AUTO = {"TNP_PLACEMENT": "auto", "TNP_HOST_THRESHOLD": "1000"}
TIER_MOVES = """
    import numpy as np
    big = np.zeros((1000, 3))
    small = np.arange(3.0)
    r = big + small
    print(r[0])
"""


def test_report_names_tier_moves(tmp_path):
    prog = _write(tmp_path / "prog.py", TIER_MOVES)
    p = _tnp("--report", prog, env=dict(os.environ, **AUTO))
    assert p.returncode == 0, p.stderr
    assert p.stdout == _python(prog).stdout
    report = p.stderr.split("---- tnp run --report")[1]
    small, row = np.arange(3.0), np.zeros((1000, 3))[0]
    assert (f"line 4 of prog.py: host -> device (to_device), {small.dtype}, shape {small.shape}: "
            f"1 time") in report
    assert (f"line 5 of prog.py: device -> host (to_numpy), {row.dtype}, shape {row.shape}: "
            f"1 time") in report
    assert "XLA compiles during the program: " in report


# lazy fusion on: reads (lines 3, 8, 12), a write to a pending array (line 6) and the graph-size
# bound (line 11)
LAZY = """
    import numpy as np
    a = np.linspace(0.0, 1.0, 10)
    print((a * 2.0 + 1.0 - 1.0).tolist())
    for _ in range(3):
        b = a * 2.0 + 1.0
        b[1] = 0.0
        c = b * 4.0 - 1.0  # (multiplying by 4 is exact: FMA contraction rounds alike)
        print(c.tolist())
    x = a
    for _ in range(70):
        x = x + 1.0
    print(x.tolist())
"""


def test_report_counts_lazy_flushes_by_line_and_reason(tmp_path):
    prog = _write(tmp_path / "prog.py", LAZY)
    report = tmp_path / "report.json"
    p = _tnp("--report", prog, env=dict(_DEVICE, TNP_LAZY="1", TNP_LAZY_LIMIT="64",
                                        **{_porting._REPORT_ENV: str(report)}))
    assert p.returncode == 0, p.stderr
    assert p.stdout == _python(prog).stdout
    flushes = {(line[1] if line else None, reason): n
               for line, reason, n in json.loads(report.read_text())["flushes"]}
    assert flushes == {(3, "read"): 1, (6, "write"): 3, (8, "read"): 3, (11, "limit"): 1,
                       (12, "read"): 1}
    assert "line 6 of prog.py: 3 times, write - a write to a pending array" in p.stderr
    assert "lazy flushes (pending operations run as one XLA computation): 9, " in p.stderr


def test_report_rows_are_capped():
    moves = [[["prog.py", 3], "to_device", [n], "float64", 1] for n in range(_porting.MOVE_ROWS + 2)]
    data = dict(fallback={}, fallback_lines={}, syncs={"to_device": len(moves)}, sync_lines={},
                moves=moves, compiles=0, error=None)
    lines = _porting.format_report(data)
    assert lines[-2:] == ["  ... 2 more rows (2 moves)", "XLA compiles during the program: 0"]


def test_small_arrays_of_many_sizes_compile_nothing(tmp_path):
    """Every array under the host threshold: NumPy runs it all, XLA compiles nothing."""
    prog = _write(tmp_path / "sizes.py", """
        import numpy as np
        total = 0.0
        for n in range(1, 301):
            a = np.arange(n) * 2.0 + 1
            total += a.sum() + a[a > n].sum()
        print(total)
    """)
    report = tmp_path / "report.json"
    env = dict(os.environ, TNP_PLACEMENT="auto", **{_porting._REPORT_ENV: str(report)})
    env.pop("TNP_HOST_THRESHOLD", None)
    p = _tnp("--report", prog, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout == _python(prog).stdout
    data = json.loads(report.read_text())
    assert data["compiles"] == 0 and data["moves"] == [] and data["syncs"] == {}
    assert "XLA compiles during the program: 0" in p.stderr and "tier moves: none" in p.stderr


def test_compare_prints_the_same_section(tmp_path):
    prog = _write(tmp_path / "prog.py", FALLBACK_AND_SYNC)
    p = _tnp("--compare", prog, env=_DEVICE)
    assert "result: SAME" in p.stdout and p.returncode == 0, p.stdout + p.stderr
    assert "getbufsize: 2 calls, not native in tnp yet; fell back to NumPy at line 3" in p.stdout
    assert "scalar: 1 time, first at line 4 of prog.py" in p.stdout


def test_str_and_datetime_programs_run_on_the_host_tier(tmp_path):
    """Arrays of dtypes XLA cannot hold are NumPy's own on the host tier: the program prints
    what it prints under NumPy."""
    prog = _write(tmp_path / "records.py", """
        import numpy as np
        names = np.array(["b", "a"])
        days = np.arange(np.datetime64("2020-01-01"), np.datetime64("2020-01-05"))
        print(np.sort(names), names == "a", days[1:] - days[:-1])
    """)
    p = _tnp("--compare", prog)
    assert "result: SAME" in p.stdout and p.returncode == 0, p.stdout + p.stderr


def test_device_only_dtype_error_is_explained():
    from tnp._core.rules import dtypes
    from tnp._porting import explain
    why = explain(dtypes.unsupported_dtype_error(np.dtype("U3")))
    assert why.startswith("str arrays live on the host tier (NumPy)"), why


def test_exit_code_and_streams_pass_through(tmp_path):
    prog = _write(tmp_path / "exits.py", """
        import sys, numpy as np
        print(type(np.zeros(1)).__module__, sys.argv[1:])
        print("err", file=sys.stderr)
        sys.exit(int(sys.argv[1]))
    """)
    p = _tnp(prog, "3", "--x")
    assert p.returncode == 3 and p.stderr == "err\n", p.stderr
    assert p.stdout == "tnp._core.array.ndarray ['3', '--x']\n"


def test_program_error_keeps_pythons_exit_status(tmp_path):
    prog = _write(tmp_path / "raises.py", """
        import numpy as np
        raise KeyError(np.__name__)
    """)
    p, ref = _tnp(prog), _python(prog)
    assert p.returncode == ref.returncode == 1, p.stderr
    assert p.stderr.splitlines()[-1] == "KeyError: 'tnp'", p.stderr  # not tnp's fault: no note
    assert p.stderr.splitlines()[1:3] == ref.stderr.splitlines()[1:3]  # the same frame


def test_module_form_and_third_party_numpy(tmp_path):
    pkg = tmp_path / "prog" / "pkg"
    pkg.mkdir(parents=True)
    _write(pkg / "__init__.py", "")
    _write(pkg / "helper.py", """
        import numpy
        KIND = type(numpy.ones(2)).__module__
    """)
    _write(pkg / "main.py", """
        import sys
        import numpy as np
        import thirdparty
        from pkg import helper
        print(np.__name__, helper.KIND, thirdparty.numpy_name(), sys.argv[1:])
    """)
    lib = tmp_path / "site"
    lib.mkdir()
    _write(lib / "thirdparty.py", """
        import numpy

        def numpy_name():
            return numpy.__name__
    """)
    # keep the caller's PYTHONPATH: it may be how this interpreter finds tnp (not installed)
    path = os.pathsep.join(filter(None, [str(lib), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    p = _tnp("-m", "pkg.main", "a", cwd=str(tmp_path / "prog"), env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "tnp tnp._core.array.ndarray numpy ['a']\n"


def test_rtol(tmp_path):
    prog = _write(tmp_path / "close.py", """
        import numpy as np
        print("value:", 1.0 + (1e-12 if np.__name__ == "tnp" else 0.0))
    """)
    same = _tnp("--compare", prog)
    assert "result: SAME (numbers to rtol=1e-09" in same.stdout and same.returncode == 0
    strict = _tnp("--compare", "--rtol", "1e-15", prog)
    assert "result: DIFFERENT (numbers to rtol=1e-15" in strict.stdout
    assert "numpy: value: 1.0" in strict.stdout and strict.returncode == 1


def test_compare_outputs_tolerance():
    assert _porting.compare_outputs("x 1.0 nan\n", "x 1.0000000001 nan\n", 1e-9) is None
    assert _porting.compare_outputs("x 1.0\n", "y 1.0\n", 1e-9) == (1, "x 1.0", "y 1.0")
    assert _porting.compare_outputs("1\n2\n", "1\n", 1e-9) == (2, "2", "<no line>")


@pytest.mark.usefixtures("device_placement")  # device syncs
def test_sync_counter_counts_without_stack_walks():
    assert not syncs.REPORTING  # lines are looked up only under `run --report` / `--compare`
    before = syncs.COUNTS.copy()
    a = tnp.arange(4.0)
    # (a[a > 1] waits on the mask's count when its shape is asked: ``masked``)
    bool(a[1] > 0), float(a[2]), a.item(3), a.tolist(), a[a > 1].shape, a[tnp.asarray([0, 1])]
    new = syncs.COUNTS - before
    assert new == {"scalar": 2, "item": 1, "to_numpy": 1, "mask": 1, "bounds": 1}
    assert set(syncs.SYNC_POINTS) >= set(new) and not syncs.LINES and not syncs.MOVES


def test_explain_a_jax_error():
    import jax.numpy as jnp
    with pytest.raises(TypeError) as info:
        jnp.ones(3).reshape(4)
    assert _porting.explain(info.value).startswith("JAX rejected an operation tnp gave it")


@pytest.mark.usefixtures("device_placement")  # device syncs
@pytest.mark.parametrize("name,call", [
    ("shape", lambda: tnp.unique(tnp.asarray([3, 1, 3]))),
    ("shape", lambda: tnp.nonzero(tnp.asarray([0, 2, 0, 5]))),
    ("shape", lambda: tnp.trim_zeros(tnp.asarray([0, 1, 0]))),
    ("check", lambda: tnp.linalg.inv(tnp.eye(2))),
    ("check", lambda: tnp.asarray_chkfinite(tnp.ones(3))),
    ("check", lambda: tnp.average(tnp.ones(3), weights=tnp.ones(3))),
])
def test_value_dependent_sync_points_are_counted(name, call):
    # a value read from the device to decide a result's shape or an error is a counted sync
    before = syncs.COUNTS.copy()
    call()
    assert (syncs.COUNTS - before)[name] >= 1


@pytest.mark.usefixtures("device_placement")  # device syncs
@pytest.mark.parametrize("call", [
    lambda xp: xp.unravel_index(xp.asarray([1, 5]), (3, 3)),
    lambda xp: xp.ravel_multi_index((xp.asarray([1, 2]), xp.asarray([0, 2])), (3, 3)),
])
def test_an_index_check_is_one_sync(call):
    """The bounds check of ``unravel_index``/``ravel_multi_index`` reads one flag: one "check"
    sync, not also a "scalar" one (``bool()`` of a tnp array); results are NumPy's."""
    before = syncs.COUNTS.copy()
    actual = call(tnp)
    new = syncs.COUNTS - before
    assert new["check"] == 1 and new["scalar"] == 0, new
    expected = call(np)
    for a, e in zip(*((actual, expected) if isinstance(expected, tuple)
                      else ((actual,), (expected,)))):
        assert a.dtype == e.dtype and a.shape == e.shape
        np.testing.assert_array_equal(np.asarray(a), e)
