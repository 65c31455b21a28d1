"""A benchmark workload (``benchmarks/cases/workloads.py``: kmeans, nbody, heat, pairwise,
mandelbrot, mlp) as a NumPy program: ``python tests/processes_workload.py NAME`` prints a summary
of its results (shape, dtype, sums of magnitudes, maximum of each). ``tests/test_processes.py`` runs it under
NumPy and under ``python -m tnp run --processes 2`` and compares the two outputs."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from benchmarks.cases import workloads  # noqa: E402


def inputs(name):
    rng = np.random.default_rng(3)
    return {
        "kmeans": lambda: (rng.normal(size=(4096, 2)), rng.normal(size=(8, 2))),
        "nbody": lambda: (rng.normal(size=(512, 3)), np.zeros((512, 3)), 0.01),
        "heat": lambda: (rng.random((64, 64)), 10),
        "pairwise": lambda: (rng.normal(size=(256, 16)),),
        "mandelbrot": lambda: (np.add.outer(np.linspace(-1.5, 1.5, 64) * 1j,
                                            np.linspace(-2, 1, 64)), 20),
        "mlp": lambda: (rng.normal(size=(64, 64)) / 8, rng.normal(size=(64, 1)) / 8,
                        rng.normal(size=(512, 64)), rng.normal(size=(512, 1)), 0.1),
    }[name]()


def main(name):
    program = getattr(workloads, {"kmeans": "kmeans_step", "nbody": "nbody_step",
                                  "mlp": "mlp_step"}.get(name, name))
    out = program(np, *inputs(name))
    for r in out if isinstance(out, tuple) else (out,):
        print(name, r.shape, r.dtype, abs(r).sum(), (r * r).sum(), r.max())  # (no cancellation)


if __name__ == "__main__":
    main(sys.argv[1])
