"""The cost of the placement mode "sharded" on simulated devices, against the mode "device" on
one: ``python -m benchmarks.sharded_overhead [--examples] [--workloads] [--out DIR]``.

Every configuration runs in a fresh process (the device count is fixed when JAX starts), in
turns, ``--repeat`` times; medians are reported with the ratio sharded/device:

- ``device, 1 device``: ``TNP_PLACEMENT=device``, one CPU device (the NumPy tier for cold work
  on, as on any single-CPU run);
- ``sharded, 8 devices``: ``TNP_PLACEMENT=sharded`` with the default thresholds (what an
  unmodified program gets: small arrays on the host tier, device arrays split from 16,384
  elements per device, the host tier's warm-up),
  ``XLA_FLAGS=--xla_force_host_platform_device_count=8``;
- ``sharded all, 8 devices``: every numeric array on the device and split from 64 elements per
  device (``TNP_HOST_THRESHOLD=0``, ``TNP_HOST_WARMUP_MS=0``, ``TNP_SHARD_THRESHOLD=64``).

The 8 devices are simulated on the same CPU cores, so these numbers are the overhead of
partitioned programs (per-device kernels, collectives between threads, compiles of
partitioned graphs, the NumPy tier off with several devices), never a speedup. Examples:
the wall time of the tnp run of ``python -m tnp run --compare EXAMPLE`` (start-up and compiles
included; "failed" where the output is not NumPy's). Workloads
(``benchmarks/cases/workloads.py``, at the benchmarks' full sizes): the median time of one call
after two warm-up calls, in one process per configuration, every graph compiled
(``TNP_COLD=off``: on one device the NumPy tier would otherwise still be running the first calls
while their compiles finish in the background).
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = {
    "device, 1 device": {"TNP_PLACEMENT": "device"},
    "sharded, 8 devices": {"TNP_PLACEMENT": "sharded",
                           "XLA_FLAGS": "--xla_force_host_platform_device_count=8"},
    "sharded all, 8 devices": {"TNP_PLACEMENT": "sharded", "TNP_HOST_THRESHOLD": "0",
                               "TNP_HOST_WARMUP_MS": "0",
                               "TNP_SHARD_THRESHOLD": "64",
                               "XLA_FLAGS": "--xla_force_host_platform_device_count=8"},
}


def _env(config, **extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("XLA_FLAGS", "TNP_PLACEMENT", "TNP_HOST_THRESHOLD",
                        "TNP_SHARD_THRESHOLD", "TNP_COLD", "TNP_HOST_WARMUP_MS")}
    env.update(CONFIGS[config], JAX_PLATFORMS="cpu", PYTHONPATH=ROOT, **extra)
    return env


_TNP_TIME = re.compile(r"tnp: exit 0, ([\d.]+) s")


def examples(repeat):
    """``{example: {config: [seconds, ...]}}``: the tnp run's wall time of ``python -m tnp run
    --compare`` (None where its output is not NumPy's: reported as failed)."""
    paths = [p for p in sorted(glob.glob(os.path.join(ROOT, "examples", "*.py")))
             if "import tnp" not in open(p).read()]
    out = {}
    for path in paths:
        times = out.setdefault(os.path.basename(path), {c: [] for c in CONFIGS})
        for _ in range(repeat):
            for config in CONFIGS:
                p = subprocess.run([sys.executable, "-m", "tnp", "run", "--compare", path],
                                   env=_env(config), capture_output=True, text=True,
                                   timeout=1200, cwd=ROOT)
                t = _TNP_TIME.search(p.stdout)
                same = "result: SAME" in p.stdout
                times[config].append(float(t.group(1)) if t and same else None)
        print(os.path.basename(path), {c: v for c, v in times.items()}, flush=True)
    return out


_WORKLOADS = r"""
import json, statistics, time
import numpy as np
import tnp
from benchmarks.cases import workloads as w
cases = w.step_inputs(50)
res = {}
for name, (program, args) in cases.items():
    t_args = [tnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    def once():
        r = program(tnp, *t_args)
        for x in (r if isinstance(r, tuple) else (r,)):
            x.data.block_until_ready()
    once(); once()
    ts = []
    for _ in range(REPEAT):
        t = time.perf_counter(); once(); ts.append(time.perf_counter() - t)
    res[name] = statistics.median(ts)
print("RESULT" + json.dumps(res))
"""


def workloads(repeat):
    """``{workload: {config: seconds}}``: median per call, one process per configuration."""
    out = {}
    for config in CONFIGS:
        p = subprocess.run([sys.executable, "-c", _WORKLOADS.replace("REPEAT", str(repeat))],
                           env=_env(config, TNP_COLD="off"), capture_output=True, text=True,
                           timeout=1800,
                           cwd=ROOT)
        line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT")]
        if not line:
            raise RuntimeError(p.stderr[-3000:])
        for name, t in json.loads(line[0][6:]).items():
            out.setdefault(name, {})[config] = t
        print(config, flush=True)
    return out


def _table(rows, what):
    names = list(CONFIGS)
    lines = [f"| {what} | " + " | ".join(names) + " | sharded/device | sharded all/device |",
             "|---|" + "---:|" * (len(names) + 2)]
    for key, times in rows.items():
        med = {c: (statistics.median([t for t in v if t is not None])
                   if isinstance(v, list) and any(t is not None for t in v) else
                   v if not isinstance(v, list) else None) for c, v in times.items()}
        base = med[names[0]]

        def ratio(c):
            return f"{med[c] / base:.2f}" if base and med[c] else "-"
        lines.append(f"| {key} | " + " | ".join(
            "failed" if med[c] is None else f"{med[c]:.4g}" for c in names)
            + f" | {ratio(names[1])} | {ratio(names[2])} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", action="store_true")
    ap.add_argument("--workloads", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "sharded"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.workloads:
        table = _table(workloads(max(args.repeat, 5)), "workload (s per call)")
        open(os.path.join(args.out, "workloads.md"), "w").write(table + "\n")
        print(table)
    if args.examples:
        table = _table(examples(args.repeat), "example (s, process)")
        open(os.path.join(args.out, "examples.md"), "w").write(table + "\n")
        print(table)


if __name__ == "__main__":
    main()
