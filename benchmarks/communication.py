"""The communication of one step of each benchmark workload in the placement mode "sharded" on 8
simulated devices, read from the compiled HLO, against the minimum the algorithm needs:
``python -m benchmarks.communication [--out DIR]`` writes ``communication.md`` and
``communication.json`` (default ``benchmarks/results/sharded/``).

Each workload (``benchmarks/cases/workloads.py``, the benchmarks' sizes; the heat stencil one
step) runs in a fresh process with ``XLA_FLAGS=--xla_force_host_platform_device_count=8``,
``TNP_PLACEMENT=sharded``, every array on the device (``TNP_HOST_THRESHOLD=0``,
``TNP_HOST_WARMUP_MS=0``, ``TNP_COLD=off``) and split from ``SHARD`` elements per device: each
workload's data is split along its rows, the MLP's weights (4,096 elements) are replicated.
The step runs twice under ``python -m tnp run --report``'s accounting
(``tnp._core.engine.communication``): the first compiles (each executable's per-device HLO is
read once), the second is counted: the collectives its computations ran, the bytes all devices
sent (ring all-reduce 2(P-1)S, all-gather (P-1)S, collective-permute S per pair), and the
buffers of the per-device programs as large as a split array's global size (replicated
full-size intermediates; their fraction of the buffers at least a block's size).

``MINIMUM``: the bytes all devices must send in one step, P = 8 devices, float64, the layouts
above (written out in ``results/sharded/communication.md``).
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
P = 8
SHARD = 600  # elements per device from which an array is split
F8 = 8  # bytes of a float64

# workload -> (the minimum's bytes, how it is reached)
MINIMUM = {
    "k-means step": (2 * (P - 1) * (8 * 2 + 8) * F8,
                     "one all-reduce of the centroid sums (8x2) and counts (8): 2(P-1)S"),
    "N-body step": ((P - 1) * 2000 * 3 * F8,
                    "one all-gather of the positions (2000x3): every body needs every other"),
    "Mandelbrot": (0, "none: elementwise on each device's rows"),
    "pairwise distances": ((P - 1) * 2000 * 16 * F8,
                           "one all-gather of the points (2000x16) for x @ x.T and the norms"),
    "MLP training step": (2 * (P - 1) * (64 * 64 + 64) * F8,
                          "one all-reduce of the gradients (64x64 + 64x1): 2(P-1)S"),
    "2-D heat stencil": (2 * (P - 1) * 512 * F8,
                         "the halo rows: one 512-wide row each way across the 7 boundaries"),
}

_CHILD = r"""
import json, os, sys
import numpy as np
import tnp
from tnp._core.engine import communication, syncs
from benchmarks.cases import workloads as w
cases = w.step_inputs(1)
program, args = cases[sys.argv[1]]
t_args = [tnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
split = [list(a.data.sharding.spec) for a in t_args if isinstance(a, tnp.ndarray)]
syncs.set_program(os.path.dirname(w.__file__), True)
communication.watch()

def step():
    r = program(tnp, *t_args)
    for x in (r if isinstance(r, tuple) else (r,)):
        x.data.block_until_ready()
step()
communication.LINES.clear()
step()
kinds, full, buffers = {}, 0, 0
for counts in communication.LINES.values():
    for k, n in counts.items():
        if k[0] == "full":
            full += n
        elif k[0] == "buffers":
            buffers += n
        elif k[0] == "runs":
            kinds.setdefault(k[1], [0, 0])[0] += n
        elif k[0] != "reshards":
            kinds.setdefault(k[0], [0, 0])[1] += n
print("RESULT" + json.dumps({"collectives": kinds, "full": full, "buffers": buffers,
                             "layouts": split}))
"""


def measure(name):
    """One workload's step, in a fresh process: ``{collectives: {kind: [runs, bytes]}, full,
    buffers, layouts}``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TNP_", "XLA_FLAGS"))}
    env.update(XLA_FLAGS=f"--xla_force_host_platform_device_count={P}", JAX_PLATFORMS="cpu",
               TNP_PLACEMENT="sharded", TNP_HOST_THRESHOLD="0", TNP_HOST_WARMUP_MS="0",
               TNP_COLD="off", TNP_SHARD_THRESHOLD=str(SHARD), PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-c", _CHILD, name], env=env, capture_output=True,
                       text=True, timeout=1800, cwd=ROOT)
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT")]
    if not line:
        raise RuntimeError(p.stderr[-3000:])
    return json.loads(line[0][6:])


def _ratio(sent, minimum):
    if minimum == 0:
        return "1.00" if sent == 0 else "inf"
    return f"{sent / minimum:.2f}"


def table(results):
    lines = ["| workload | collectives in one step (runs, bytes all devices sent) | bytes sent "
             "| minimum | sent/minimum | full-size buffers (fraction) |",
             "|---|---|---:|---:|---:|---:|"]
    for name, r in results.items():
        sent = sum(b for _, b in r["collectives"].values())
        kinds = ", ".join(f"{k} x{n} ({b:,} B)" for k, (n, b) in sorted(r["collectives"].items()))
        frac = r["full"] / r["buffers"] if r["buffers"] else 0.0
        lines.append(f"| {name} | {kinds or 'none'} | {sent:,} | {MINIMUM[name][0]:,} | "
                     f"{_ratio(sent, MINIMUM[name][0])} | {r['full']} of {r['buffers']} "
                     f"({frac:.2f}) |")
    lines += ["", "Minimum used for each workload (P = 8 devices, float64):", ""]
    lines += [f"- {name}: {MINIMUM[name][1]} = {MINIMUM[name][0]:,} B" for name in results]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "sharded"))
    ap.add_argument("--only", nargs="*", help="workload names (default: all)")
    args = ap.parse_args()
    results = {}
    for name in args.only or MINIMUM:
        results[name] = measure(name)
        print(name, results[name], flush=True)
    md = table(results)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "communication.md"), "w") as f:
        f.write("# Communication of one step, mode \"sharded\" on 8 simulated devices\n\n"
                "`python -m benchmarks.communication` (its docstring says how it is "
                "measured).\n\n" + md + "\n")
    with open(os.path.join(args.out, "communication.json"), "w") as f:
        json.dump({name: dict(r, minimum=MINIMUM[name][0]) for name, r in results.items()},
                  f, indent=1)
    print(md)


if __name__ == "__main__":
    main()
