"""One process of the two-process test (tests/test_distributed.py): a cross-process psum and a
data-parallel training step over JAX's distributed runtime on 127.0.0.1."""
import json
import sys

from tnp_ext import distributed

port, pid = int(sys.argv[1]), int(sys.argv[2])
distributed.initialize(f"127.0.0.1:{port}", num_processes=2, process_id=pid,
                       initialization_timeout=60)

import numpy  # noqa: E402

import tnp  # noqa: E402
import tnp_ext  # noqa: E402
from tnp_ext import parallel  # noqa: E402

assert distributed.process_count() == 2 and parallel.device_count() == 2
local = tnp.asarray(numpy.arange(3.0)[None, :] + 10 * pid)
total = parallel.pmap(lambda v: parallel.psum(v, "p"), axis_name="p")(local)

rng = numpy.random.default_rng(0)
xs, ys = rng.normal(size=(8, 4)), rng.normal(size=(8, 1))
w = tnp.asarray(numpy.linspace(-1, 1, 4)[:, None])


def loss(w, x, y):
    return ((x @ w - y) ** 2).mean()


def step(w, x, y):
    return w - 0.1 * parallel.pmean(tnp_ext.grad(loss)(w, x, y), "p")


half = slice(4 * pid, 4 * pid + 4)
new_w = parallel.pmap(step, axis_name="p", in_axes=(None, 0, 0), out_axes=None)(
    w, tnp.asarray(xs[half])[None], tnp.asarray(ys[half])[None])
print(json.dumps({"psum": numpy.asarray(total).tolist(), "w": numpy.asarray(new_w).tolist()}))
sys.stdout.flush()
distributed.shutdown()
