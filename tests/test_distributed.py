"""Two processes on 127.0.0.1 run a cross-process psum and a data-parallel training step; the
results equal the single-process computation. Bounded in time; both processes always reaped."""
import json
import os
import socket
import subprocess
import sys
import time

import numpy

from engine import assert_same

WORKER = os.path.join(os.path.dirname(__file__), "distributed_worker.py")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_psum_and_training_step():
    port = _free_port()
    env = dict(os.environ, XLA_FLAGS="", JAX_PLATFORMS="cpu")
    procs = [subprocess.Popen([sys.executable, WORKER, str(port), str(i)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    deadline = time.monotonic() + 240
    outs = []
    try:
        for p in procs:
            remaining = max(1.0, deadline - time.monotonic())
            try:
                out, err = p.communicate(timeout=remaining)
            except subprocess.TimeoutExpired:
                raise AssertionError("a distributed worker did not finish within 240 s "
                                     "(a peer died or the coordinator is unreachable)") from None
            assert p.returncode == 0, f"worker exited with {p.returncode}:\n{err[-3000:]}"
            outs.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
    # NumPy oracle: the psum of the two processes' rows, and one gradient step of the mean
    # squared error computed by hand (d/dw mean((xw - y)^2) = 2/n x^T (xw - y)); the pmean of
    # the two halves' gradients is the whole batch's.
    psum = sum(numpy.arange(3.0)[None, :] + 10 * pid for pid in range(2))
    for o in outs:
        assert_same(numpy.array(o["psum"]), psum, host_ok=True)
    rng = numpy.random.default_rng(0)
    xs, ys = rng.normal(size=(8, 4)), rng.normal(size=(8, 1))
    w = numpy.linspace(-1, 1, 4)[:, None]
    single = w - 0.1 * (2 / xs.shape[0]) * xs.T @ (xs @ w - ys)
    for o in outs:
        assert_same(numpy.array(o["w"]), single, rtol=1e-10, host_ok=True)
