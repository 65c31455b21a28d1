"""``python -m tnp run``: run an unmodified NumPy program on tnp, or compare it with NumPy.

``python -m tnp run SCRIPT.py [args]`` / ``python -m tnp run -m MODULE [args]`` run the program
with ``numpy`` resolved to ``tnp`` inside the program's own modules (the script and the modules
beside it); third-party libraries keep real NumPy and receive tnp arrays through ``__array__``.

``python -m tnp run --compare [--rtol R] SCRIPT.py [args]`` runs the program under NumPy and
under tnp in separate processes and reports SAME / DIFFERENT / ERROR, the first differing lines,
the wall time of each, and which NumPy names went through tnp's fallback path.
"""
import argparse
import builtins
import json
import os
import re
import runpy
import subprocess
import sys
import time

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan")


def _install_numpy_alias(program_dir):
    """Make ``import numpy`` give tnp inside modules that live under ``program_dir``."""
    import tnp
    real_import = builtins.__import__
    program_dir = os.path.abspath(program_dir)

    def in_program(globals_):
        if not globals_:
            return False
        if globals_.get("__name__") == "__main__":
            return True
        f = globals_.get("__file__")
        return bool(f) and os.path.abspath(f).startswith(program_dir + os.sep)

    def tnp_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "numpy" or name.startswith("numpy.")) and in_program(globals):
            tname = "tnp" + name[len("numpy"):]
            try:
                mod = real_import(tname, globals, locals, fromlist, level)
            except ImportError:
                return real_import(name, globals, locals, fromlist, level)
            return mod if fromlist or "." not in name else tnp
        return real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = tnp_import


def _write_report(path):
    from tnp._core.fallback import USED
    with open(path, "w") as f:
        json.dump({"fallback": dict(USED)}, f)


def run_program(target, args, is_module):
    program_dir = os.getcwd() if is_module else os.path.dirname(os.path.abspath(target))
    _install_numpy_alias(program_dir)
    report = os.environ.get("TNP_RUN_REPORT")
    sys.argv = [target] + list(args)
    sys.path.insert(0, program_dir)
    try:
        if is_module:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(target, run_name="__main__")
    finally:
        if report:
            _write_report(report)
    return 0


def _numbers_and_text(line):
    return [float(n) for n in _NUMBER.findall(line)], _NUMBER.sub("#", line)


def _close(a, b, rtol):
    if a != a and b != b:
        return True
    return a == b or abs(a - b) <= rtol * max(abs(a), abs(b))


def compare_outputs(expected, actual, rtol):
    """The first differing line pair, or None when the outputs agree."""
    el, al = expected.splitlines(), actual.splitlines()
    for i in range(max(len(el), len(al))):
        e = el[i] if i < len(el) else "<no line>"
        a = al[i] if i < len(al) else "<no line>"
        ne, te = _numbers_and_text(e)
        na, ta = _numbers_and_text(a)
        if te != ta or len(ne) != len(na) or not all(_close(x, y, rtol) for x, y in zip(ne, na)):
            return i + 1, e, a
    return None


def _run(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return p, time.perf_counter() - t0


def compare(target, args, is_module, rtol):
    import tempfile
    env = dict(os.environ)
    base = [sys.executable] + (["-m", target] if is_module else [target]) + list(args)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        tenv = dict(env, TNP_RUN_REPORT=report, PYTHONWARNINGS="ignore::UserWarning")
        ref, t_np = _run(base, env)
        tnp_cmd = [sys.executable, "-m", "tnp", "run"] + (["-m", target] if is_module else
                                                          [target]) + list(args)
        got, t_tnp = _run(tnp_cmd, tenv)
        used = json.load(open(report))["fallback"] if os.path.exists(report) else {}
    print(f"tnp run --compare {target} {' '.join(args)}".rstrip())
    print(f"  numpy: exit {ref.returncode}, {t_np:.2f} s    tnp: exit {got.returncode}, "
          f"{t_tnp:.2f} s")
    if got.returncode != 0 and ref.returncode == 0:
        verdict = "ERROR"
    else:
        diff = compare_outputs(ref.stdout, got.stdout, rtol)
        verdict = "SAME" if diff is None and ref.returncode == got.returncode else "DIFFERENT"
    print(f"  result: {verdict} (numbers to rtol={rtol:g}, text exactly)")
    if verdict == "DIFFERENT":
        diff = compare_outputs(ref.stdout, got.stdout, rtol)
        if diff:
            line, e, a = diff
            print(f"  first difference at stdout line {line}:\n    numpy: {e}\n    tnp:   {a}")
    if verdict == "ERROR":
        tail = got.stderr.strip().splitlines()[-6:]
        print("  tnp failed:\n    " + "\n    ".join(tail))
    if used:
        print("  NumPy names that ran through tnp's fallback path (calls): " + ", ".join(
            f"{k} ({v})" for k, v in sorted(used.items())))
    else:
        print("  fallback path: not used")
    return 0 if verdict == "SAME" else 1


def main(argv):
    p = argparse.ArgumentParser(prog="python -m tnp run")
    p.add_argument("--compare", action="store_true")
    p.add_argument("--rtol", type=float, default=1e-9)
    p.add_argument("-m", dest="module", action="store_true", help="run a module")
    p.add_argument("target")
    p.add_argument("args", nargs=argparse.REMAINDER)
    ns = p.parse_args(argv)
    if ns.compare:
        return compare(ns.target, ns.args, ns.module, ns.rtol)
    return run_program(ns.target, ns.args, ns.module)
