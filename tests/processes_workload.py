"""A benchmark workload (``benchmarks/cases/workloads.py``: kmeans, nbody, heat, pairwise,
mandelbrot, mlp) as a NumPy program: ``python tests/processes_workload.py NAME`` prints a summary
of its results (shape, dtype, sums of magnitudes, maximum of each). ``tests/test_processes.py``
runs it under NumPy and under ``python -m tnp run --processes 2`` and compares the two outputs.
``NAME --time STEPS [--scale S]`` (``benchmarks/processes_overhead.py``) instead prints the
median wall time of one call over STEPS calls after two warm-up calls, each ended by reading a
scalar of its result (kmeans and heat: S times the rows, the heat grid S x S times larger)."""
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks.cases import workloads  # noqa: E402


def inputs(name, scale=1):
    rng = np.random.default_rng(3)
    return {
        "kmeans": lambda: (rng.normal(size=(4096 * scale, 2)), rng.normal(size=(8, 2))),
        "nbody": lambda: (rng.normal(size=(512, 3)), np.zeros((512, 3)), 0.01),
        "heat": lambda: (rng.random((64 * scale, 64 * scale)), 10),
        "pairwise": lambda: (rng.normal(size=(256, 16)),),
        "mandelbrot": lambda: (np.add.outer(np.linspace(-1.5, 1.5, 64) * 1j,
                                            np.linspace(-2, 1, 64)), 20),
        "mlp": lambda: (rng.normal(size=(64, 64)) / 8, rng.normal(size=(64, 1)) / 8,
                        rng.normal(size=(512, 64)), rng.normal(size=(512, 1)), 0.1),
    }[name]()


def main(name, steps=None, scale=1):
    program = getattr(workloads, {"kmeans": "kmeans_step", "nbody": "nbody_step",
                                  "mlp": "mlp_step"}.get(name, name))
    args = inputs(name, scale)
    if steps:
        times = []
        for i in range(steps + 2):
            t0 = time.perf_counter()
            out = program(np, *args)
            float(np.asarray(out[0] if isinstance(out, tuple) else out).flat[0])
            times.append(time.perf_counter() - t0)
        print(f"{name} step ms {1e3 * statistics.median(times[2:]):.3f}")
        return
    out = program(np, *args)
    for r in out if isinstance(out, tuple) else (out,):
        print(name, r.shape, r.dtype, abs(r).sum(), (r * r).sum(), r.max())  # (no cancellation)


if __name__ == "__main__":
    opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    main(sys.argv[1], int(opts.get("--time", 0)), int(opts.get("--scale", 1)))
