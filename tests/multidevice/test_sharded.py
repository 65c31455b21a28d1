"""The placement mode "sharded" on 8 simulated CPU devices: an unmodified NumPy program's large
arrays are laid out over every device at birth, computations follow them, writes keep them, and
values leaving the array world are NumPy's. Collected only in the subprocess that
tests/test_parallel.py starts (``XLA_FLAGS=--xla_force_host_platform_device_count=8``)."""
import os
import subprocess
import sys

import jax
import numpy
import pytest

import tnp
import tnp_ext
from tnp._core.array import roots
from tnp._core.engine import lazy

ROOT = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)
sys.path.insert(0, os.path.join(ROOT, "conformance_tests"))
sys.path.insert(0, ROOT)
from engine import assert_same  # noqa: E402
from benchmarks.cases import workloads  # noqa: E402

N = 8
SHARD = 64  # elements per device from which an array is split (the tests' small arrays)


@pytest.fixture(autouse=True)
def sharded():
    """Mode "sharded" with the host tier's threshold at 1,024 elements and arrays split from
    64 elements per device, so that the tests' arrays of a few thousand elements are split."""
    with tnp_ext.placement("sharded", threshold=1024, shard_threshold=SHARD):
        yield


def _split(a, axis=0):
    """Whether tnp's ``a`` is a device array split along ``axis`` over all 8 devices."""
    s = a.data.sharding
    return (len(s.device_set) == N and s.spec[axis:axis + 1] == ("devices",)
            and not s.is_fully_replicated)


def _replicated(a):
    s = a.data.sharding
    return len(s.device_set) == N and s.is_fully_replicated


def _shard_pointers(a):
    return [s.data.unsafe_buffer_pointer() for s in roots.buffer(a._root).addressable_shards]


X = numpy.random.default_rng(0).normal(size=(64, 48))


@pytest.mark.parametrize("make", [
    lambda xp: xp.zeros((64, 48)),
    lambda xp: xp.ones(4096, dtype=xp.int32),
    lambda xp: xp.full((64, 40), 2.5),
    lambda xp: xp.zeros_like(X),
    lambda xp: xp.full_like(X, 7, dtype=xp.int64),
    lambda xp: xp.arange(4096),
    lambda xp: xp.arange(0.0, 409.6, 0.1),
    lambda xp: xp.linspace(-1.0, 1.0, 4096),
    lambda xp: xp.geomspace(1.0, 1000.0, 4096),
    lambda xp: xp.eye(64),
    lambda xp: xp.tri(64, 72),
    lambda xp: xp.indices((64, 40))[0],
    lambda xp: xp.mgrid[0:64, 0:40][1],
    lambda xp: xp.asarray(X),
    lambda xp: xp.array(X.tolist()),
    lambda xp: xp.random.default_rng(5).normal(size=(64, 48)),
    lambda xp: xp.random.default_rng(5).integers(0, 100, size=4096),
], ids=["zeros", "ones", "full", "zeros_like", "full_like", "arange", "arange_float",
        "linspace", "geomspace", "eye", "tri", "indices", "mgrid", "asarray", "array_lists",
        "normal", "integers"])
def test_created_split_at_birth(make):
    """Creation routines, ``asarray`` of host data and the exact random streams: NumPy's values
    (the random ones NumPy's own stream), split along the first axis over every device."""
    got, expected = make(tnp), make(numpy)
    assert_same(got, expected)
    assert _split(got)


@pytest.mark.parametrize("draw", [lambda g: g.random((64, 48)), lambda g: g.normal(size=4096),
                                  lambda g: g.integers(0, 100, size=(1024, 3))],
                         ids=["random", "normal", "integers"])
def test_device_random_stream_split_at_birth(draw):
    """The device engine (``Generator(Threefry(seed))``) draws split at birth, the values those
    of the same stream on one device (mode "device")."""
    got = draw(tnp.random.default_rng(tnp.random.Threefry(11)))
    with tnp_ext.placement("device"):
        one = draw(tnp.random.default_rng(tnp.random.Threefry(11)))
    assert len(one.data.sharding.device_set) == 1
    assert_same(got, numpy.asarray(one), rtol=0, atol=0)
    assert _split(got)


def test_empty_split_at_birth():
    got = tnp.empty((128, 32))
    assert got.shape == (128, 32) and got.dtype == numpy.float64 and _split(got)


def test_file_readers_split_at_birth(tmp_path):
    numpy.save(tmp_path / "x.npy", X)
    numpy.savetxt(tmp_path / "x.txt", X)
    for got in (tnp.load(tmp_path / "x.npy"), tnp.loadtxt(tmp_path / "x.txt")):
        assert_same(got, X, rtol=0, atol=0)
        assert _split(got)


def test_split_axis_small_and_host_arrays():
    """The first axis the device count divides is split; an array without one, or under the
    shard threshold, is replicated; one under the host threshold is NumPy's, on the host."""
    a = tnp.zeros((30, 64))  # 30 rows: split along the columns
    assert_same(a, numpy.zeros((30, 64)))
    assert _split(a, axis=1)
    odd = tnp.ones((33, 35))
    assert _replicated(odd) and not _split(odd)
    with tnp_ext.placement(threshold=0):
        small = tnp.ones(16)
    assert _replicated(small)
    host = tnp.ones(100)
    assert type(host._root._buf) is numpy.ndarray  # the host tier, as in mode auto
    assert_same(host + 1, numpy.ones(100) + 1)


@pytest.mark.parametrize("op", [
    lambda xp, a: xp.sin(a) * 2 + a,
    lambda xp, a: a.sum(axis=1),
    lambda xp, a: (a - a.mean(axis=1, keepdims=True)) / a.std(axis=1, keepdims=True),
    lambda xp, a: xp.where(a > 0, a, -a).max(axis=1),
    lambda xp, a: a.argmin(axis=1),
    lambda xp, a: xp.cumsum(a, axis=1),
], ids=["elementwise", "sum_axis1", "normalise_rows", "where_max", "argmin", "cumsum"])
def test_operations_keep_the_split(op):
    """Lazy graphs and kernels take split arrays as they are: elementwise work and reductions
    over the other axis stay split over every device (XLA's partitioner)."""
    a = tnp.asarray(X)
    got = op(tnp, a)
    assert_same(got, op(numpy, X))
    assert _split(got)


@pytest.mark.parametrize("op", [
    lambda xp, a: a.sum(),
    lambda xp, a: a.sum(axis=0),
    lambda xp, a: a @ a.T,
    lambda xp, a: a.T @ a,
    lambda xp, a: a[::3, 5:],
    lambda xp, a: a[xp.asarray([3, 60, 7, 7])],
    lambda xp, a: a.reshape(48, 64)[5],
    lambda xp, a: xp.sort(a, axis=0),
    lambda xp, a: xp.concatenate([a, a[:8]]),
], ids=["sum", "sum_axis0", "matmul", "gram", "slice", "fancy", "reshape", "sort_axis0",
        "concatenate"])
def test_operations_across_the_split(op):
    """Reductions along the split axis, products, views and gathers that need other devices'
    rows: NumPy's values (XLA inserts the collectives)."""
    assert_same(op(tnp, tnp.asarray(X)), op(numpy, X), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("lazy_on", [True, False], ids=["lazy", "eager"])
def test_writes_keep_the_split_and_donate(lazy_on, watch_donations):
    """The write path on a split array: the result keeps the split, and the old buffers are
    donated: an indexed or masked write updates each device's block in place; ``a *= s`` makes
    the product's buffer ``a``'s, donating the old one (``write._claim`` says so)."""
    old = lazy.enable(lazy_on)
    a, ref = tnp.asarray(X), X.copy()
    a[3:9] = 1.5  # compile
    ref[3:9] = 1.5
    before = _shard_pointers(a)
    for i in range(4):
        a[i] = float(i)
        a[i:i + 3] += 1.0
        ref[i] = float(i)
        ref[i:i + 3] += 1.0
    a[a > 3] = 0.0
    ref[ref > 3] = 0.0
    assert _shard_pointers(a) == before
    donated = watch_donations()
    a *= 2.0
    a += 1.0
    ref *= 2.0
    ref += 1.0
    assert_same(a, ref)
    assert _split(a)
    assert donated and all(donated)
    lazy.enable(old)


def test_ext_jit_takes_and_writes_split_arrays():
    """``tnp_ext.jit`` of NumPy code: split inputs, results and written-back buffers keep the
    split."""
    a, ref = tnp.asarray(X), X.copy()
    got = tnp_ext.jit(lambda v: (v * 2).sum(axis=1))(a)
    assert_same(got, (X * 2).sum(axis=1))
    assert _split(got)

    def step(u):
        u[1:-1] += 0.5 * u[:-2]
    tnp_ext.jit(step)(a)
    step(ref)
    assert_same(a, ref)
    assert _split(a)


def test_values_leaving_gather(tmp_path):
    """print, repr, str, tolist, numpy.asarray, scalar conversion, iteration and file writes
    see the whole array, as NumPy's."""
    a = tnp.asarray(X)
    assert _split(a)
    assert repr(a) == repr(X) and str(a) == str(X)
    assert a.tolist() == X.tolist()
    host = numpy.asarray(a)
    assert type(host) is numpy.ndarray and numpy.array_equal(host, X)
    assert float(a[63, 47]) == float(X[63, 47]) and a.sum().item() == pytest.approx(X.sum())
    assert int(tnp.arange(4096)[4095]) == 4095
    assert [r.tolist() for r in a[60:]] == [r.tolist() for r in X[60:]]
    tnp.save(tmp_path / "a.npy", a)
    tnp.savetxt(tmp_path / "a.txt", a)
    numpy.savetxt(tmp_path / "x.txt", X)
    assert numpy.array_equal(numpy.load(tmp_path / "a.npy"), X)
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "x.txt").read_text()


def _workload_inputs():
    rng = numpy.random.default_rng(3)
    return {
        "kmeans": (workloads.kmeans_step, (rng.normal(size=(4096, 2)),
                                           rng.normal(size=(8, 2)))),
        "nbody": (workloads.nbody_step, (rng.normal(size=(512, 3)), numpy.zeros((512, 3)),
                                         0.01)),
        "heat": (workloads.heat, (rng.random((64, 64)), 10)),
        "pairwise": (workloads.pairwise, (rng.normal(size=(256, 16)),)),
        "mandelbrot": (workloads.mandelbrot, (numpy.add.outer(
            numpy.linspace(-1.5, 1.5, 64) * 1j, numpy.linspace(-2, 1, 64)), 20)),
        "mlp": (workloads.mlp_step, (rng.normal(size=(64, 64)) / 8,
                                     rng.normal(size=(64, 1)) / 8, rng.normal(size=(512, 64)),
                                     rng.normal(size=(512, 1)), 0.1)),
    }


@pytest.mark.parametrize("name", ["kmeans", "nbody", "heat", "pairwise", "mandelbrot", "mlp"])
def test_benchmark_workloads_unmodified(name):
    """The benchmark workloads, written once in NumPy, give NumPy's results on split inputs
    (reductions may reorder: the conformance tolerances), their results spread over every
    device."""
    program, args = _workload_inputs()[name]
    t_args = [tnp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]
    assert all(_split(a) for a in t_args if isinstance(a, tnp.ndarray) and a.size >= 1024)
    got, expected = program(tnp, *t_args), program(numpy, *args)
    assert_same(got, expected, rtol=1e-9, atol=1e-6)  # (pairwise: a cancellation at 0)
    for g in (got if isinstance(got, tuple) else (got,)):
        assert len(g.data.sharding.device_set) == N


EXAMPLES = os.path.join(ROOT, "examples")


def _compare(name):
    env = dict(os.environ, TNP_PLACEMENT="sharded", TNP_HOST_THRESHOLD="1024",
               TNP_HOST_WARMUP_MS="0", TNP_SHARD_THRESHOLD=str(SHARD))
    return subprocess.run([sys.executable, "-m", "tnp", "run", "--compare",
                           os.path.join(EXAMPLES, name)], capture_output=True, text=True,
                          env=env, timeout=900)


QUICK_EXAMPLES = ["heat_equation.py"]
ALL_EXAMPLES = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py")
                      and "import tnp" not in open(os.path.join(EXAMPLES, f)).read())


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=() if n in QUICK_EXAMPLES else pytest.mark.slow)
    for n in ALL_EXAMPLES])
def test_example_same_when_sharded(name):
    """Every example, unmodified, under mode "sharded" on 8 devices prints NumPy's output
    (``python -m tnp run --compare``); the default run takes the heat equation, the rest are
    marked slow."""
    p = _compare(name)
    assert "result: SAME" in p.stdout, p.stdout + p.stderr
    assert p.returncode == 0


def test_sharded_mode_spans_processes_devices():
    """The mesh is every device JAX sees (``jax.devices()``: all processes' under
    ``jax.distributed``)."""
    from tnp._core.engine import devices
    assert list(devices.mesh().devices) == jax.devices() and devices.mesh().size == N

