"""Parallel tnp on 8 simulated CPU devices. Collected only in a subprocess started by
tests/test_parallel.py with XLA_FLAGS=--xla_force_host_platform_device_count=8."""
import os
import sys

import numpy
import pytest

import tnp
import tnp_ext
from tnp_ext import parallel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                                "conformance_tests"))
from engine import assert_same  # noqa: E402

N = 8
X = numpy.arange(N * 3, dtype=numpy.float64).reshape(N, 3) - 5.0


def test_eight_devices():
    assert parallel.device_count() == N


@pytest.mark.parametrize("name,reference", [
    ("psum", lambda x: numpy.broadcast_to(x.sum(axis=0), x.shape)),
    ("pmean", lambda x: numpy.broadcast_to(x.mean(axis=0), x.shape)),
    ("pmax", lambda x: numpy.broadcast_to(x.max(axis=0), x.shape)),
    ("pmin", lambda x: numpy.broadcast_to(x.min(axis=0), x.shape)),
])
def test_reducing_collectives_match_numpy(name, reference):
    coll = getattr(parallel, name)
    out = parallel.pmap(lambda v: coll(v, "i"), axis_name="i")(tnp.asarray(X))
    assert isinstance(out, tnp.ndarray)
    assert_same(out, numpy.ascontiguousarray(reference(X)))


def test_all_gather_all_to_all_ppermute_axis_index():
    t = tnp.asarray(X)
    out = parallel.pmap(lambda v: parallel.all_gather(v, "i"), axis_name="i")(t)
    assert_same(out, numpy.broadcast_to(X, (N,) + X.shape).copy())
    perm = [(i, (i + 1) % N) for i in range(N)]
    out = parallel.pmap(lambda v: parallel.ppermute(v, "i", perm=perm), axis_name="i")(t)
    assert_same(out, numpy.roll(X, 1, axis=0))
    out = parallel.pmap(lambda v: parallel.axis_index("i") + v * 0, axis_name="i")(t)
    assert_same(out, numpy.broadcast_to(numpy.arange(N, dtype=numpy.float64)[:, None],
                                        X.shape).copy())
    y = numpy.arange(N * N, dtype=numpy.float64).reshape(N, N)
    out = parallel.pmap(lambda v: parallel.all_to_all(v, "i", 0, 0), axis_name="i")(
        tnp.asarray(y))
    assert_same(out, y.T.copy())


def test_pmap_equals_vmap_and_collectives_in_vmap():
    f = lambda v: tnp.sin(v) * 2 + v.sum()  # noqa: E731
    expected = numpy.sin(X) * 2 + X.sum(axis=1, keepdims=True)  # f on every row, in NumPy
    assert_same(parallel.pmap(f)(tnp.asarray(X)), expected)
    assert_same(tnp_ext.vmap(f)(tnp.asarray(X)), expected)
    out = tnp_ext.vmap(lambda v: parallel.psum(v, "b"), axis_name="b")(tnp.asarray(X))
    assert_same(out, numpy.broadcast_to(X.sum(axis=0), X.shape).copy())


def test_sharded_arithmetic_keeps_sharding():
    mesh = parallel.make_mesh((N,), ("d",))
    a = numpy.linspace(0.5, 2, N * 16).reshape(N * 2, 8)
    sa = parallel.shard(tnp.asarray(a), mesh, parallel.PartitionSpec("d"))
    spec = sa.sharding
    assert isinstance(spec, parallel.NamedSharding) and len(sa.data.addressable_shards) == N
    for res, exp in (((sa * 2 + 1), a * 2 + 1), (tnp.sin(sa), numpy.sin(a)),
                     (sa.sum(axis=1), a.sum(axis=1))):
        assert_same(res, exp)
        assert len(res.data.sharding.device_set) == N  # still spread over all devices
    assert_same(sa @ tnp.asarray(a.T), a @ a.T)
    assert_same(sa.sum(), a.sum())
    assert repr(sa) == repr(a) and sa.tolist() == a.tolist()


def test_shard_map_psum():
    mesh = parallel.make_mesh((N,), ("d",))
    P = parallel.PartitionSpec
    f = parallel.shard_map(lambda v: parallel.psum(v.sum(axis=0, keepdims=True), "d"), mesh,
                           in_specs=P("d"), out_specs=P())
    sx = parallel.shard(tnp.asarray(X), mesh, P("d"))
    assert_same(f(sx), X.sum(axis=0, keepdims=True))


def test_bad_input_errors():
    with pytest.raises(ValueError):
        parallel.pmap(lambda v: v)(tnp.ones((N + 1, 2)))  # more than the devices
    with pytest.raises(ValueError):
        parallel.pmap(lambda a, b: a + b)(tnp.ones((N, 2)), tnp.ones((N - 1, 2)))
    with pytest.raises(NameError):
        parallel.pmap(lambda v: parallel.psum(v, "nope"), axis_name="i")(tnp.ones((N, 2)))


def test_data_parallel_example_equals_single_device():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                                    "examples"))
    import data_parallel_mlp as ex
    rng = numpy.random.default_rng(1)
    xs = rng.normal(size=(64, 8))
    ys = numpy.sin(xs.sum(axis=1, keepdims=True))
    got = ex.train_data_parallel(ex.init_params(), tnp.asarray(xs), tnp.asarray(ys), 20)
    for g, e in zip(got, _numpy_mlp_training(ex.init_params(), xs, ys, 20)):
        assert_same(g, e, rtol=1e-9, atol=1e-12)


def _numpy_mlp_training(params, x, y, steps, lr=0.1):
    """The example's training (tanh MLP, mean squared error, SGD) in NumPy with the gradient
    written out by hand: the oracle for the data-parallel run."""
    w1, b1, w2, b2 = (numpy.asarray(p) for p in params)
    n = y.size
    for _ in range(steps):
        h = numpy.tanh(x @ w1 + b1)
        d = 2 * (h @ w2 + b2 - y) / n
        dz = (d @ w2.T) * (1 - h * h)
        w1, b1, w2, b2 = (w1 - lr * (x.T @ dz), b1 - lr * dz.sum(axis=0),
                          w2 - lr * (h.T @ d), b2 - lr * d.sum(axis=0))
    return w1, b1, w2, b2
