"""Fresh-process measurement: one NumPy program run as a new process per sample, process time
included (the interpreter's start, the import, compiles, the run), under NumPy and under tnp
(the same source, ``import numpy as np`` read as ``import tnp as np``; ``fresh_child.py``).

``measure`` alternates the implementations (the order rotating every round, so that a change in
the machine's load falls on all alike) and reports per implementation the medians of the wall
time (measured here, around the whole process), the CPU time and peak resident memory
(``VmHWM``) of the process, and tnp's XLA compiles and persistent-cache loads. A run past the
time limit is killed and recorded as a time-out (``>60 s``), not as a failure, and that
implementation is not run again for the case. Each run gets its own empty persistent
compilation cache unless the implementation names one (``cache_dir``): a program's first run.
"""
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT_S = 60


@dataclasses.dataclass
class Impl:
    """How one implementation runs the program: its module and environment settings."""
    module: str  # "numpy" or "tnp"
    env: dict = dataclasses.field(default_factory=dict)
    cache_dir: str = None  # a persistent compilation cache shared by its runs (None: a new one)


def run_once(impl, path, limit_s=LIMIT_S):
    """One fresh process running the program at ``path``: the child's JSON result plus
    ``wall_s``, or ``{"timed_out": True}``."""
    with tempfile.TemporaryDirectory() as own_cache:
        env = dict(os.environ, TNP_COMPILATION_CACHE_DIR=impl.cache_dir or own_cache, **impl.env)
        t0 = time.perf_counter()
        try:
            p = subprocess.run([sys.executable, "-m", "benchmarks.fresh_child", impl.module, path],
                               cwd=_REPO, env=env, capture_output=True, text=True,
                               timeout=limit_s)
        except subprocess.TimeoutExpired:
            return {"timed_out": True}
        wall = time.perf_counter() - t0
    if p.returncode != 0 or "FRESH_RESULT\n" not in p.stdout:
        raise RuntimeError(f"{impl.module} run of {path} failed (exit {p.returncode}):\n"
                           f"{p.stderr[-3000:]}")
    result = json.loads(p.stdout.split("FRESH_RESULT\n", 1)[1].splitlines()[0])
    result["wall_s"] = wall
    return result


def _median(runs, key):
    vals = [r[key] for r in runs if key in r]
    return statistics.median(vals) if vals else None


def measure(group, name, size, source, impls, repeats, limit_s=LIMIT_S):
    """A results row (``runner.run_case``'s form, plus ``fresh``: per implementation the medians
    of ``wall_s``, ``cpu_s``, ``peak_rss_mb``, ``compiles``, ``cache loads`` and of each mark,
    its runs and whether it timed out; ``same_output``: whether every finished run printed what
    the first implementation's first run printed)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    runs = {n: [] for n in impls}
    timed_out = set()
    order = list(impls)
    try:
        for r in range(repeats):
            for n in order[r % len(order):] + order[:r % len(order)]:
                if n in timed_out:
                    continue
                res = run_once(impls[n], f.name, limit_s)
                if res.get("timed_out"):
                    timed_out.add(n)
                else:
                    runs[n].append(res)
    finally:
        os.unlink(f.name)
    fresh = {}
    for n, rs in runs.items():
        stats = {k: _median(rs, k) for k in ("wall_s", "cpu_s", "peak_rss_mb", "compiles",
                                             "cache loads")}
        for mark in (rs[0]["marks"] if rs else {}):
            stats[f"peak_rss_mb@{mark}"] = statistics.median(x["marks"][mark] for x in rs)
        fresh[n] = dict(stats, runs=len(rs), timed_out=n in timed_out)
    outputs = {x["output"] for rs in runs.values() for x in rs}
    t = {n: fresh[n]["wall_s"] for n in impls}
    base = next(iter(impls))
    ratios = {f"{n}/{base}": t[n] / t[base] for n in impls
              if n != base and t[n] is not None and t[base] is not None}
    return {"group": group, "name": name, "size": size, "median_s": t, "ratios": ratios,
            "fresh": fresh, "limit_s": limit_s, "same_output": len(outputs) <= 1}


def _fmt(v, unit=""):
    return "—" if v is None else f"{v:,.2f}{unit}" if isinstance(v, float) else f"{v}{unit}"


def markdown(rows):
    """The table of a group of fresh-process rows: per case and implementation, the medians."""
    lines = ["Each sample a fresh process (interpreter start, import, compiles and run "
             "included); medians over the runs; `>N s`: killed at the time limit.\n",
             "| case | size | impl | runs | wall | vs first | CPU | peak RSS | XLA compiles | "
             "cache loads | same output |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        base = next(iter(r["fresh"]))
        for n, f in r["fresh"].items():
            if f["timed_out"] and not f["runs"]:
                wall = f">{r['limit_s']} s"
                b = r["fresh"][base]["wall_s"]
                ratio = f">{r['limit_s'] / b:.0f}" if n != base and b else "—"
            else:
                wall = _fmt(f["wall_s"], " s")
                ratio = "—" if n == base else _fmt(r["ratios"].get(f"{n}/{base}"))
            lines.append(f"| {r['name']} | {r['size']} | {n} | {f['runs']} | {wall} | {ratio} | "
                         f"{_fmt(f['cpu_s'], ' s')} | {_fmt(f['peak_rss_mb'], ' MB')} | "
                         f"{_fmt(f['compiles'])} | {_fmt(f['cache loads'])} | "
                         f"{'yes' if r['same_output'] else 'NO'} |")
    return lines
