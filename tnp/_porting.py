"""``python -m tnp run``: run an unmodified NumPy program on tnp, or compare it with NumPy.

``python -m tnp run SCRIPT.py [args]`` / ``python -m tnp run -m MODULE [args]`` run the program
with ``numpy`` resolved to ``tnp`` inside the program's own modules (the script and the modules
beside it); third-party libraries keep real NumPy and receive tnp arrays through ``__array__``.
The program's exit code, stdout and stderr pass through. If it fails, the traceback shows only
the program's own frames, followed by a line naming the NumPy feature tnp lacks.

``python -m tnp run --report SCRIPT.py [args]`` prints after the program (on stderr) which NumPy
names went through tnp's fallback path and which device-sync points were hit, with counts and the
program line of each first use; the tier moves (each array copied between the host and the
device, by program line, direction, shape and dtype); with lazy fusion on (the default;
``TNP_LAZY=0`` turns it off), the lazy flushes (by program line and reason) and the graphs compiled;
the communication between devices (mode "sharded": by program line, the collectives its
compiled computations ran, the bytes they sent and the reshardings; ``communication``); and the
XLA compiles the program caused (executables loaded from the persistent compilation cache
counted apart).

``python -m tnp run --compare [--rtol R] SCRIPT.py [args]`` runs the program under NumPy and
under tnp in separate processes and reports SAME / DIFFERENT / ERROR, the first differing lines,
the wall time of each, and the same fallback / sync section.

``python -m tnp run --processes N [--devices-per-process K] ...`` runs the program as N local
processes, one program over all their devices (``tnp._launch``); it combines with ``--report``
(process 0's) and ``--compare`` (the tnp side run so).
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
import traceback

from tnp._core import settings

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan")
# the tnp child of --compare writes its report (JSON) to the file this variable names (the
# setting ``run_report``, read by ``tnp._core.settings``)
_REPORT_ENV = settings.BY_NAME["run_report"].env


def _install_numpy_alias(in_program):
    """Make ``import numpy`` give tnp inside the program's own modules."""
    import tnp
    real_import = builtins.__import__

    def importer_in_program(globals_):
        if not globals_:
            return False
        if globals_.get("__name__") == "__main__":
            return True
        f = globals_.get("__file__")
        return bool(f) and in_program(f)

    def tnp_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "numpy" or name.startswith("numpy.")) and \
                importer_in_program(globals):
            tname = "tnp" + name[len("numpy"):]
            try:
                mod = real_import(tname, globals, locals, fromlist, level)
            except ImportError:
                return real_import(name, globals, locals, fromlist, level)
            return mod if fromlist or "." not in name else tnp
        return real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = tnp_import


# ---- explaining a failure ----------------------------------------------------------------
_DTYPE_MSG = re.compile(r"dtype (dtype\('[^']*'\)|\S+) \((\w+)\) cannot be held on JAX")


def _frames(exc):
    return list(traceback.walk_tb(exc.__traceback__))


def _fallback_name(exc):
    """The fallback name whose NumPy call raised ``exc``, or None."""
    from tnp._core.dispatch import fallback
    for frame, _ in _frames(exc):
        if frame.f_code.co_name == "fallback" and frame.f_code.co_filename == fallback.__file__:
            return frame.f_locals.get("qualname")
    return None


def explain(exc):
    """A one-line explanation naming what tnp lacks, or None for an error of the program's own
    (one NumPy would raise too)."""
    from tnp import TnpTracingError
    text = str(exc).splitlines()[0] if str(exc) else ""
    what = f"{type(exc).__module__}.{type(exc).__qualname__}".replace("builtins.", "")
    m = _DTYPE_MSG.search(str(exc))
    if isinstance(exc, TypeError) and m:
        return (f"{m.group(2)} arrays live on the host tier (NumPy), and this operation "
                f"needed the device ({m.group(1)}): XLA holds bool, integer, float and "
                f"complex arrays only")
    if isinstance(exc, TnpTracingError):
        return f"a NumPy operation that needs concrete values ran under a JAX trace: {text}"
    name = _fallback_name(exc)
    if name:
        return (f"raised inside numpy.{name}, which is not native in tnp yet and ran through "
                f"the fallback path (NumPy on the host): {what}: {text}")
    frames = _frames(exc)
    deepest = os.path.abspath(frames[-1][0].f_code.co_filename) if frames else ""
    in_jax = any(os.sep + d + os.sep in deepest for d in ("jax", "jaxlib"))
    if in_jax or type(exc).__module__.split(".")[0] in ("jax", "jaxlib"):
        return (f"JAX rejected an operation tnp gave it (a NumPy feature tnp does not cover "
                f"yet): {what}: {text}")
    tnp_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep
    if isinstance(exc, NotImplementedError) and deepest.startswith(tnp_dir):
        return f"not supported by tnp yet: {text.removeprefix('tnp: ')}"
    return None


def _where(loc):
    return f"line {loc[1]} of {os.path.basename(loc[0])}" if loc else "an unknown line"


def _fallbacks_before():
    """Names that fell back to NumPy (whose results may be the unsupported arrays), as a suffix."""
    from tnp._core.dispatch import fallback
    from tnp._core.engine import syncs
    if not fallback.USED:
        return ""
    names = [n + (f" at {_where(syncs.FALLBACK_LINES[n])}" if n in syncs.FALLBACK_LINES else "")
             for n in fallback.USED]
    return "; before it, these fell back to NumPy: " + ", ".join(names)


def _failure(exc):
    """Print the program's traceback (its own frames only) and tnp's explanation of it (where
    tnp is the cause); return the error as a dict for the report."""
    from tnp._core.engine import syncs
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if syncs.in_program(f.filename)]
    lines = ["Traceback (most recent call last):\n"] + traceback.format_list(frames)
    lines += [ln for ln in traceback.format_exception_only(type(exc), exc)  # not JAX's notes
              if "JAX_TRACEBACK_FILTERING" not in ln and ln.strip() != "-" * 20]
    loc = (frames[-1].filename, frames[-1].lineno) if frames else None
    why = explain(exc)
    if why:
        why = f"{why} (at {_where(loc)})" + (_fallbacks_before() if _DTYPE_MSG.search(str(exc))
                                              else "")
        lines.append(f"tnp: {why}\n")
    sys.stderr.write("".join(lines))
    return {"type": type(exc).__name__, "message": str(exc).splitlines()[0] if str(exc) else "",
            "explanation": why, "where": loc}


# ---- the report ----------------------------------------------------------------------------
MOVE_ROWS = 12  # the tier moves listed, most frequent first


def _report_data(error, compiles, loaded):
    """The report as JSON-serialisable data; ``compiles``: XLA executables the program built by
    compiling, ``loaded``: those it loaded from the persistent compilation cache instead."""
    from tnp._core.dispatch import fallback
    from tnp._core.engine import communication, lazy, syncs, tiering
    moves = [[line, name, list(shape), dtype, n]
             for (line, name, shape, dtype), n in syncs.MOVES.most_common()]
    flushes = [[line, reason, n] for (line, reason), n in syncs.FLUSHES.most_common()]
    tiers = [[line, event, n] for (line, event), n in syncs.TIERS.most_common()]
    return {"fallback": dict(fallback.USED), "fallback_lines": dict(syncs.FALLBACK_LINES),
            "syncs": dict(syncs.COUNTS), "sync_lines": dict(syncs.LINES), "moves": moves,
            "flushes": flushes, "graphs": lazy.STATS["graphs"], "compiles": compiles,
            "compiles_loaded": loaded, "tiers": tiers, "communication": communication.rows(),
            "error": error}


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def format_report(data):
    """The fallback / device-sync section of ``--report`` and ``--compare`` (lines)."""
    from tnp import _inventory
    from tnp._core.engine.syncs import SYNC_POINTS
    out = []
    err = data.get("error")
    if err and err.get("explanation"):
        out.append(f"tnp failed: {err['explanation']}")
    elif err:
        out.append(f"the program raised {err['type']}: {err['message']} (at "
                   f"{_where(err['where'])})")
    used, lines = data["fallback"], data["fallback_lines"]
    if used:
        out.append("NumPy names that ran through tnp's fallback path (NumPy on the host):")
        for name, n in sorted(used.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"  {name}: {_plural(n, 'call')}, {_inventory.describe(name)}; fell back "
                       f"to NumPy at {_where(lines.get(name))}")
    else:
        out.append("fallback path: not used")
    syncs, lines = data["syncs"], data["sync_lines"]
    if syncs:
        out.append("sync points (a device value read on the host; to_device: a host array "
                   "copied to the device):")
        for name, n in sorted(syncs.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"  {name}: {_plural(n, 'time')}, first at {_where(lines.get(name))} - "
                       f"{SYNC_POINTS.get(name, name)}")
    else:
        out.append("sync points: none")
    out += _format_moves(data["moves"])
    out += _format_flushes(data.get("flushes"), data.get("graphs", 0))
    out += _format_tiers(data.get("tiers"))
    out += _format_communication(data.get("communication"))
    loaded = data.get("compiles_loaded")
    out.append(f"XLA compiles during the program: {data['compiles']}"
               + (f" ({_plural(loaded, 'executable')} loaded from the persistent compilation "
                  "cache)" if loaded else ""))
    return out


def _format_flushes(flushes, graphs):
    """The lazy-flush lines (none when nothing was pending): by program line and reason, the
    most frequent ``MOVE_ROWS`` rows."""
    from tnp._core.engine.lazy import REASONS
    if not flushes:
        return []
    out = [f"lazy flushes (pending operations run as one XLA computation): "
           f"{sum(r[-1] for r in flushes)}, {_plural(graphs, 'graph')} compiled:"]
    for line, reason, n in flushes[:MOVE_ROWS]:
        out.append(f"  {_where(line)}: {_plural(n, 'time')}, {reason} - {REASONS[reason]}")
    rest = flushes[MOVE_ROWS:]
    if rest:
        out.append(f"  ... {_plural(len(rest), 'more row')} "
                   f"({sum(r[-1] for r in rest)} flushes)")
    return out


def _format_tiers(tiers):
    """The tiering lines (``tiering``): by program line, NumPy-tier runs, compiles on the
    program's path, background compiles, fallbacks and megamorphic structures; the most
    frequent ``MOVE_ROWS`` rows."""
    from tnp._core.engine.syncs import TIER_EVENTS
    if not tiers:
        return []
    out = ["tiers (cold graphs and kernels on NumPy, hot ones compiled):"]
    for line, event, n in tiers[:MOVE_ROWS]:
        out.append(f"  {_where(line)}: {_plural(n, 'time')}, {event} - {TIER_EVENTS[event]}")
    rest = tiers[MOVE_ROWS:]
    if rest:
        out.append(f"  ... {_plural(len(rest), 'more row')}")
    return out


def _bytes(n):
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.3g} {unit}"
        n /= 1000


def _format_communication(rows):
    """The lines of communication between devices (``communication``): by program line, the
    collectives its compiled computations ran (runs, bytes all devices sent) and the
    reshardings, and the buffers as large as a split array on each device; the ``MOVE_ROWS``
    lines that moved most."""
    if rows is None:
        return []
    if not rows:
        return ["communication between devices: none"]
    total = sum(b for _, kinds, _, _ in rows for _, b in kinds.values())
    out = [f"communication between devices (collectives in the compiled computations; bytes "
           f"all devices sent): {_bytes(total)}:"]
    for line, kinds, reshards, full in rows[:MOVE_ROWS]:
        parts = [f"{kind} x{runs} ({_bytes(b)})" for kind, (runs, b) in sorted(kinds.items())]
        if full:
            parts.append(f"{_plural(full, 'full-size buffer')} (a split array's whole size on "
                         "each device)")
        if reshards:
            parts.append(f"{_plural(sum(reshards.values()), 'resharding')} ("
                         + ", ".join(f"{op} {n}" for op, n in sorted(reshards.items())) + ")")
        out.append(f"  {_where(line)}: " + ", ".join(parts))
    if rows[MOVE_ROWS:]:
        out.append(f"  ... {_plural(len(rows) - MOVE_ROWS, 'more row')}")
    return out


def _format_moves(moves):
    """The tier-moves lines: the most frequent ``MOVE_ROWS`` rows, then how many more."""
    from tnp._core.engine.syncs import direction
    if not moves:
        return ["tier moves: none"]
    out = ["tier moves (an array copied between the host and the device):"]
    for line, name, shape, dtype, n in moves[:MOVE_ROWS]:
        out.append(f"  {_where(line)}: {direction(name)} ({name}), {dtype}, shape {tuple(shape)}: "
                   f"{_plural(n, 'time')}")
    rest = moves[MOVE_ROWS:]
    if rest:
        out.append(f"  ... {_plural(len(rest), 'more row')} "
                   f"({_plural(sum(r[-1] for r in rest), 'move')})")
    return out


# ---- running ------------------------------------------------------------------------------
def run_program(target, args, is_module, report=False):
    """Run the program under tnp; with ``report``, print the report on stderr after it."""
    import warnings
    from tnp import TnpFallbackWarning
    from tnp._core.engine import communication, compilecache, syncs, tiering
    program_dir = os.getcwd() if is_module else os.path.dirname(os.path.abspath(target))
    report_path = settings.get("run_report")
    os.environ.pop(_REPORT_ENV, None)  # (not passed on to the program's own processes)
    syncs.set_program(program_dir, report or report_path)
    if report or report_path:
        communication.watch()
    if report:
        warnings.simplefilter("ignore", TnpFallbackWarning)  # the report lists them
    _install_numpy_alias(syncs.in_program)
    sys.argv = [target] + list(args)
    sys.path.insert(0, program_dir)
    error, code = None, 0
    before = compilecache.counts()
    try:
        if is_module:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(target, run_name="__main__")
    except Exception as exc:  # noqa: BLE001  (reported, exit status 1 as Python's)
        error, code = _failure(exc), 1
    finally:
        tiering.wait()  # (the background compiles the program started are counted)
        after = compilecache.counts()
        data = _report_data(error, after["compiles"] - before["compiles"],
                            after["loaded"] - before["loaded"])
        if report_path:
            with open(report_path, "w") as f:
                json.dump(data, f)
        if report:
            sys.stdout.flush()
            print(f"\n---- tnp run --report {target} ----", file=sys.stderr)
            print("\n".join(format_report(data)), file=sys.stderr)
    return code


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


def compare(target, args, is_module, rtol, launcher=()):
    """Run the program under NumPy and under tnp (with the ``launcher`` options of ``run``:
    ``--processes``), compare; the exit status."""
    import tempfile
    env = dict(os.environ)
    env.pop(_REPORT_ENV, None)
    prog = (["-m", target] if is_module else [target]) + list(args)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        tenv = dict(env, **{_REPORT_ENV: report}, PYTHONWARNINGS="ignore::UserWarning")
        ref, t_np = _run([sys.executable] + prog, env)
        got, t_tnp = _run([sys.executable, "-m", "tnp", "run", *launcher] + prog, tenv)
        data = None
        if os.path.exists(report):
            with open(report) as f:
                data = json.load(f)
    print(f"tnp run --compare {' '.join(prog)}")
    print(f"  numpy: exit {ref.returncode}, {t_np:.2f} s    tnp: exit {got.returncode}, "
          f"{t_tnp:.2f} s")
    diff = compare_outputs(ref.stdout, got.stdout, rtol)
    if got.returncode != 0 and ref.returncode == 0:
        verdict = "ERROR"
    else:
        verdict = "SAME" if diff is None and ref.returncode == got.returncode else "DIFFERENT"
    print(f"  result: {verdict} (numbers to rtol={rtol:g}, text exactly)")
    if verdict == "DIFFERENT" and diff:
        line, e, a = diff
        print(f"  first difference at stdout line {line}:\n    numpy: {e}\n    tnp:   {a}")
    if verdict == "ERROR" and data is None:  # it failed before tnp's report was written
        tail = got.stderr.strip().splitlines()[-1:]
        print("  tnp failed: " + ("".join(tail) or f"exit status {got.returncode}"))
    if data is not None:
        print("\n".join("  " + line for line in format_report(data)))
    return 0 if verdict == "SAME" else 1


def main(argv):
    p = argparse.ArgumentParser(prog="python -m tnp run",
                                description="Run a NumPy program with numpy resolved to tnp.")
    p.add_argument("--compare", action="store_true", help="run under NumPy and tnp, compare")
    p.add_argument("--report", action="store_true",
                   help="after the program, report fallback names and device syncs (stderr)")
    p.add_argument("--rtol", type=float, default=1e-9,
                   help="relative tolerance for numbers in --compare (default 1e-9)")
    p.add_argument("--processes", type=int, metavar="N",
                   help="run the program as N local processes, one program over all their "
                        "devices (JAX's distributed runtime on 127.0.0.1; placement 'sharded' "
                        "unless TNP_PLACEMENT is set); process 0's output is shown, another's "
                        "only if it fails; one failing stops all")
    p.add_argument("--devices-per-process", type=int, default=1, metavar="K",
                   help="with --processes: each process's devices (K simulated CPU devices, or "
                        "K GPUs of this machine: process i gets GPUs i*K to i*K+K-1); default 1")
    p.add_argument("-m", dest="module", action="store_true", help="run a module")
    p.add_argument("target", help="the program: SCRIPT.py, or MODULE with -m")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    ns = p.parse_args(argv)
    launcher = [] if ns.processes is None else [
        "--processes", str(ns.processes), "--devices-per-process", str(ns.devices_per_process)]
    if ns.compare:
        return compare(ns.target, ns.args, ns.module, ns.rtol, launcher)
    if launcher:
        from tnp import _launch
        program = (["-m"] if ns.module else []) + [ns.target] + list(ns.args)
        return _launch.launch((["--report"] if ns.report else []) + program, ns.processes,
                              ns.devices_per_process)
    from tnp._core.engine import distributed
    try:
        code = run_program(ns.target, ns.args, ns.module, ns.report)
    except SystemExit as exc:  # the program's sys.exit
        code = exc.code if isinstance(exc.code, int) else (exc.code is not None)
        if not code:
            raise
        if not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    distributed.end_failed(code)  # (one of several processes: not JAX's exit barrier)
    return code
