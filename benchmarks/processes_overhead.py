"""The cost of running one program as several processes: ``python -m benchmarks.processes_overhead
[--workloads kmeans,heat] [--scales 1,16] [--steps 20] [--repeat 3] [--out FILE]``.

Per workload and size (``tests/processes_workload.py NAME --time STEPS --scale S``: the median
time of one call over STEPS calls after two warm-up calls, each ended by reading a scalar of its
result), in fresh processes taken in turns ``--repeat`` times, medians reported:

- ``numpy``: the program under NumPy;
- ``tnp, 1 process x 8 devices``: ``python -m tnp run``, ``TNP_PLACEMENT=sharded``,
  ``XLA_FLAGS=--xla_force_host_platform_device_count=8``;
- ``tnp, 2 processes x 4 devices``: ``python -m tnp run --processes 2 --devices-per-process 4``
  (JAX's distributed runtime on 127.0.0.1, gloo collectives between the processes).

Both tnp runs put every array on the device, split from 64 elements per device
(``TNP_HOST_THRESHOLD=0``, ``TNP_SHARD_THRESHOLD=64``, ``TNP_HOST_WARMUP_MS=0``,
``TNP_COLD=off``). All the devices are simulated on the same CPU cores, so this is overhead
(per-device kernels, collectives between threads or over gloo between processes), never a
speedup. The run's wall time (start-up, the distributed runtime's start, compiles) is reported
too.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = os.path.join(ROOT, "tests", "processes_workload.py")
SHARDED = {"TNP_PLACEMENT": "sharded", "TNP_HOST_THRESHOLD": "0", "TNP_SHARD_THRESHOLD": "64",
           "TNP_HOST_WARMUP_MS": "0", "TNP_COLD": "off"}
CONFIGS = {
    "numpy": ([], {}),
    "tnp, 1 process x 8 devices": (
        ["-m", "tnp", "run"],
        dict(SHARDED, XLA_FLAGS="--xla_force_host_platform_device_count=8")),
    "tnp, 2 processes x 4 devices": (
        ["-m", "tnp", "run", "--processes", "2", "--devices-per-process", "4"], SHARDED),
}
_STEP = re.compile(r"step ms ([\d.]+)")


def _run(config, name, steps, scale):
    prefix, extra = CONFIGS[config]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TNP_") and k != "XLA_FLAGS"}
    env.update(extra)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, *prefix, PROGRAM, name, "--time", str(steps),
                        "--scale", str(scale)], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=900)
    wall = time.perf_counter() - t0
    m = _STEP.search(p.stdout)
    if p.returncode or not m:
        raise RuntimeError(f"{config} {name}: {p.stdout[-2000:]}{p.stderr[-2000:]}")
    return float(m.group(1)), wall


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workloads", default="kmeans,heat")
    ap.add_argument("--scales", default="1,16")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out")
    ns = ap.parse_args(argv)
    rows = ["| workload | size | configuration | step (ms) | x NumPy | x 1 process "
            "| run wall (s) |", "|---|---|---|---|---|---|---|"]
    for name in ns.workloads.split(","):
        for scale in map(int, ns.scales.split(",")):
            got = {c: [] for c in CONFIGS}
            for _ in range(ns.repeat):
                for c in CONFIGS:
                    got[c].append(_run(c, name, ns.steps, scale))
            med = {c: (statistics.median(s for s, _ in v), statistics.median(w for _, w in v))
                   for c, v in got.items()}
            for c, (step, wall) in med.items():
                rows.append(f"| {name} | x{scale} | {c} | {step:.3f} | "
                            f"{step / med['numpy'][0]:.1f} | "
                            f"{step / med['tnp, 1 process x 8 devices'][0]:.2f} | {wall:.1f} |")
            print("\n".join(rows[-3:]), flush=True)
    text = "\n".join(rows)
    if ns.out:
        with open(ns.out, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
