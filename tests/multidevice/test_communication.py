"""Communication between devices as ``python -m tnp run --report`` counts it
(``tnp._core.engine.communication``), on 8 simulated CPU devices: the collectives read from
the compiled computations' HLO, their bytes against what the algorithm needs, and the
reshardings. Collected only in the subprocess that tests/test_parallel.py starts
(``XLA_FLAGS=--xla_force_host_platform_device_count=8``). Each test uses shapes no other test
of the process compiles (an executable JAX already holds is not made again, so not read)."""
import os
import subprocess
import sys

import jax
import numpy
import pytest

import tnp
import tnp_ext
from tnp._core.engine import communication, syncs

ROOT = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)
sys.path.insert(0, os.path.join(ROOT, "conformance_tests"))
from engine import assert_same  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
N = 8
RNG = numpy.random.default_rng(7)


@pytest.fixture
def counted():
    """The report's accounting on, this file the program: yields a function giving what was
    counted since the test began (``{kind: bytes}``, reshardings)."""
    old = syncs._program_dir, syncs.REPORTING
    syncs.set_program(HERE, True)
    communication.watch()
    communication.LINES.clear()

    def totals():
        kinds, reshards = {}, 0
        for _, k, r, _ in communication.rows():
            for kind, (_, b) in k.items():
                kinds[kind] = kinds.get(kind, 0) + b
            reshards += sum(r.values())
        return kinds, reshards
    yield totals
    communication.LINES.clear()
    syncs._program_dir, syncs.REPORTING = old


@pytest.fixture
def sharded():
    with tnp_ext.placement("sharded", threshold=0, shard_threshold=64):
        yield


def _heat_step(xp, u):
    u[1:-1, 1:-1] += 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                            - 4 * u[1:-1, 1:-1])


def test_heat_stencil_exchanges_halo_rows(sharded, counted):
    """A stencil step on a row-split array: collective-permutes of neighbouring rows only (no
    gather of the array), within twice the halo's bytes (a row each way across each of the 7
    boundaries), and NumPy's values."""
    x = RNG.random((80, 40))
    u, ref = tnp.asarray(x), x.copy()
    _heat_step(tnp, u)
    _heat_step(numpy, ref)
    assert_same(u, ref)
    kinds, reshards = counted()
    assert set(kinds) == {"collective-permute"} and reshards == 0
    halo = 2 * (N - 1) * ref[0].nbytes
    assert 0 < kinds["collective-permute"] <= 2 * halo


def test_sum_is_an_all_reduce(sharded, counted):
    x = RNG.normal(size=(88, 24))
    a = tnp.asarray(x)
    got = a.sum(axis=0)
    assert_same(got, x.sum(axis=0), rtol=1e-12)
    kinds, reshards = counted()
    assert set(kinds) == {"all-reduce"} and reshards == 0
    assert kinds["all-reduce"] == 2 * (N - 1) * x.sum(axis=0).nbytes  # a ring all-reduce


def test_resharding_reshape_and_device_put_are_counted(sharded, counted):
    """A reshape whose blocks lie on other devices (rows i and i + 32 summed) and a split
    array put on one device are reshardings: allowed, counted, NumPy's values."""
    x = RNG.normal(size=(64, 40))
    a = tnp.asarray(x)
    assert_same(a.reshape(2, 32, 40).sum(axis=0), x.reshape(2, 32, 40).sum(axis=0))
    _, after_reshape = counted()
    assert after_reshape >= 1
    one = a.to_device(jax.devices()[0])
    assert_same(one, x.to_device("cpu"))
    assert counted()[1] == after_reshape + 1


def test_mode_auto_communicates_nothing(counted):
    """Mode "auto" keeps every array on one device: nothing counted."""
    with tnp_ext.placement("auto", threshold=0):
        x = RNG.random((72, 48))
        u, ref = tnp.asarray(x), x.copy()
        _heat_step(tnp, u)
        _heat_step(numpy, ref)
        assert_same(u, ref)
        assert_same(u.sum(axis=0), ref.sum(axis=0), rtol=1e-12)
    assert counted() == ({}, 0)


PROGRAM = """import numpy as np
u = np.random.default_rng(0).random((96, 48))
for _ in range(3):
    u[1:-1, 1:-1] += 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
print(float(u.sum()))
"""


@pytest.mark.parametrize("mode", ["sharded", "auto"])
def test_run_report_lists_communication(tmp_path, mode):
    """``python -m tnp run --report`` of an unmodified stencil: in mode "sharded" the line
    that ran it moved rows by collective-permute; in mode "auto" nothing moved."""
    (tmp_path / "heat.py").write_text(PROGRAM)
    env = dict(os.environ, TNP_PLACEMENT=mode, TNP_HOST_THRESHOLD="0", TNP_HOST_WARMUP_MS="0",
               TNP_SHARD_THRESHOLD="64")
    p = subprocess.run([sys.executable, "-m", "tnp", "run", "--report",
                        str(tmp_path / "heat.py")], capture_output=True, text=True, env=env,
                       timeout=600)
    ref = subprocess.run([sys.executable, str(tmp_path / "heat.py")], capture_output=True,
                         text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert float(p.stdout) == pytest.approx(float(ref.stdout), rel=1e-12)
    lines = p.stderr.splitlines()
    if mode == "auto":
        assert "communication between devices: none" in lines
        return
    start = next(i for i, ln in enumerate(lines) if ln.startswith("communication between"))
    assert lines[start + 1].startswith("  line 5 of heat.py: ")
    assert "collective-permute x" in lines[start + 1]
    assert "all-gather" not in lines[start + 1] and "resharding" not in lines[start + 1]


def test_full_size_intermediates_read_from_hlo():
    """``full_size`` finds a buffer of a split array's global size computed on every device (the
    ``sin`` of a split array made replicated by a sharding constraint) and none when the
    computation stays split; the gather's own result is communication, not counted."""
    mesh = jax.sharding.Mesh(jax.devices(), ("d",))
    split = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("d"))
    whole = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
    x = jax.device_put(numpy.arange(64 * 16, dtype=numpy.float64).reshape(64, 16), split)

    def replicated(v):
        return jax.lax.with_sharding_constraint(jax.numpy.sin(v) * 2, whole)

    def kept(v):
        return jax.numpy.sin(v) * 2
    full, _ = communication.full_size(jax.jit(replicated).lower(x).compile().as_text())
    assert full >= 1
    assert communication.full_size(jax.jit(kept).lower(x).compile().as_text())[0] == 0
    kinds = {c.kind for c in communication.collectives(
        jax.jit(replicated).lower(x).compile().as_text())}
    assert kinds == {"all-gather"}
