"""Lazy fusion (``tnp._core.engine.lazy``, on by default): pending values are NumPy's.

Every test runs with lazy recording on and the device placement; NumPy on the same inputs is
the oracle (values, dtypes, shapes).
"""
import weakref

import numpy
import pytest
from jax._src.array import ArrayImpl

import tnp as np
import tnp_ext
from tnp._core.engine import caches, lazy, lazygraph, syncs
from tnp._core.dispatch import tiers
from tnp._core.ufunc import ufunc

pytestmark = pytest.mark.usefixtures("compiled_tier")

EPS = numpy.finfo(numpy.float64).eps

@pytest.fixture(autouse=True)
def lazy_on():
    previous = tiers.configure("device")
    old = lazy.enable(True)
    yield
    lazy.enable(old)
    tiers.configure(*previous)


def _data(n=1000, seed=0):
    return numpy.random.default_rng(seed).random(n)


def _pending(x):
    return type(x._buf) is lazy.Node


def _warm(f, *args):
    """Run ``f`` once (its ufunc loops reach the fast path) and read its results."""
    r = f(*args)
    for v in r if isinstance(r, tuple) else (r,):
        numpy.asarray(v)
    return r


def _same(x, ref, rtol=0.0):
    assert x.shape == ref.shape and x.dtype == ref.dtype
    if rtol:
        numpy.testing.assert_allclose(numpy.asarray(x), ref, rtol=rtol)
    else:
        numpy.testing.assert_array_equal(numpy.asarray(x), ref)


def test_chain_is_pending_and_numpy_valued():
    h = _data()

    def f(x, m):
        for _ in range(5):
            x = m.sin(x) * 1.5 - 0.25
        return m.exp(-x)
    a = np.asarray(h)
    _warm(f, a, np)
    r = f(a, np)
    assert _pending(r)
    _same(r, f(h, numpy), rtol=4 * EPS)  # contraction to FMA: see test_fma_contraction
    assert not _pending(r)


@pytest.mark.parametrize("make", [
    lambda a: a + 1, lambda a: a * 2.5, lambda a: a < 0.5, lambda a: -a,
    lambda a: a.astype(numpy.float32) * 2.0, lambda a: (a * 10).astype(numpy.int32) + 3,
    lambda a: a[0] * 3.0, lambda a: np.sqrt(a) / (a + 1)])
def test_dtypes_and_shapes_are_numpys(make):
    h = _data(12).reshape(3, 4)
    a = np.asarray(h)
    _warm(make, a)
    r = make(a)
    ref = make(h)
    assert r.shape == numpy.shape(ref) and r.dtype == ref.dtype
    numpy.testing.assert_array_equal(numpy.asarray(r), ref)


@pytest.mark.parametrize("read", [repr, str, lambda x: float(x.sum()), lambda x: bool(x.all()),
                                  lambda x: x.tolist(), numpy.asarray, lambda x: x.item(),
                                  lambda x: list(x), lambda x: int(x[0])])
def test_host_reads_flush(read):
    h = _data(1)
    a = np.asarray(h)
    _warm(lambda x: x * 2.0 + 1.0, a)
    r = a * 2.0 + 1.0
    assert _pending(r)
    assert repr(read(r)) == repr(read(h * 2.0 + 1.0))
    assert not _pending(r)


def test_write_after_pending_read_keeps_old_value():
    h = _data()
    a = np.asarray(h)
    _warm(lambda x: x * 2.0, a)
    b = a * 2.0
    c = b + 1.0
    assert _pending(b) and _pending(c)
    a[...] = 0.0  # donation must not reach the buffer the pending node holds
    a += 5.0
    a[3] = -1.0
    _same(c, h * 2.0 + 1.0)
    _same(b, h * 2.0)
    ref = numpy.full_like(h, 5.0)
    ref[3] = -1.0
    _same(a, ref)


def test_write_to_pending_root_and_its_readers():
    h = _data()
    a = np.asarray(h)
    _warm(lambda x: x * 3.0 + 1.0, a)
    b = a * 3.0
    c = b + 1.0  # reads b's pending value
    b[0] = 7.0  # forces b (and c's graph: b is live), then writes
    b += 1.0
    ref_b = h * 3.0
    ref_c = ref_b + 1.0
    ref_b[0] = 7.0
    ref_b += 1.0
    _same(b, ref_b)
    _same(c, ref_c)


def test_views_of_pending_roots():
    h = _data(24)
    a = np.asarray(h)
    _warm(lambda x: x * 2.0, a)
    b = a * 2.0
    v = b.reshape(4, 6)[1:, ::2]
    _same(v, (h * 2.0).reshape(4, 6)[1:, ::2])
    b2 = a * 2.0
    w = b2[::3]
    w[...] = 0.0  # a write through a view of a pending root
    ref = h * 2.0
    ref[::3] = 0.0
    _same(b2, ref)


def test_unreferenced_intermediates_stay_unmaterialised():
    a = np.asarray(_data())
    _warm(lambda x: np.sin(x * 2.0) + 1.0, a)
    t = a * 2.0
    node_t = weakref.ref(t._buf)  # (a reference to the node would hold it: an output)
    r = np.sin(t) + 1.0
    del t
    float(r[0])
    assert node_t() is None or node_t().value is None  # not an output: nothing held it
    t = a * 2.0
    r = np.sin(t) + 1.0
    float(r[0])
    assert type(t._buf) is ArrayImpl  # a live root's value is an output of the same graph


def test_results_of_one_graph_are_computed_by_one_flush():
    h, g = _data(12).reshape(3, 4), _data(12, 1).reshape(3, 4)
    a, b = np.asarray(h), np.asarray(g)

    def f(m, x, y):
        t = m.tanh(x @ y.T)
        return t.sum(axis=0) * 2.0, (t * 2.0).T, m.where(t > 0.5, x[:, :3], 0.0)
    _warm(f, np, a, b)
    flushes = lazy.STATS["flushes"]
    r = f(np, a, b)
    assert all(_pending(v._root) for v in r)  # (the second is a view of a pending root)
    for v, ref in zip(r, f(numpy, h, g)):
        _same(v, ref, rtol=8 * EPS)
    assert lazy.STATS["flushes"] - flushes == 1


def test_compiled_graph_cache_hit_in_loop():
    h = _data()
    x = np.asarray(h)
    ref = h

    def body(x, i, m):
        return m.sin(x * 0.999 + 0.001 * (i % 7))
    for i in range(3):
        x = body(x, i, np)
        ref = body(ref, i, numpy)
        float(x[0])
    built, graphs = caches.executables_built(), lazy.STATS["graphs"]
    for i in range(3, 200):
        x = body(x, i, np)
        ref = body(ref, i, numpy)
        float(x[0])
    assert caches.executables_built() == built
    assert lazy.STATS["graphs"] == graphs
    _same(x, ref, rtol=8 * EPS)


def test_loop_without_reads_compiles_its_graphs_once():
    """A loop of 1,000 iterations that never reads a value is flushed at the limit; a second run
    of the loop compiles nothing (its graphs, one per place a flush falls in the body, cached)."""
    h = _data()
    a = np.asarray(h)

    def body(m, x, y):
        return m.sin(x) * 0.5 + y, y * 0.999 + 0.001
    for run in range(2):
        built, graphs, flushes = (caches.executables_built(), lazy.STATS["graphs"],
                                  lazy.STATS["flushes"])
        x, y, rx, ry = a, a, h, h
        for _ in range(1000):
            x, y = body(np, x, y)
            rx, ry = body(numpy, rx, ry)
        _same(x, rx, rtol=8 * EPS)
        _same(y, ry, rtol=8 * EPS)
        assert lazy.STATS["flushes"] - flushes >= 5000 // (2 * lazy.LIMIT)
    assert caches.executables_built() == built and lazy.STATS["graphs"] == graphs


def test_new_graph_with_several_outputs_is_compiled_once(monkeypatch):
    # ``lazygraph._compiled`` compiles a graph with several outputs for XLA's cost analysis; its
    # calls run that executable, never a second compilation of the same graph (no split
    # compiled to compare: ``SPLIT`` out of reach)
    monkeypatch.setattr(lazygraph, "SPLIT", float("inf"))
    h = _data(1001)
    a = np.asarray(h)
    _warm(lambda x: ((x - 0.5) * 2.5, (x - 0.5) + 0.75), a)
    built, graphs = caches.executables_built(), lazy.STATS["graphs"]
    p = a - 0.25
    x, y = p * 1.5, p + 0.5
    del p
    _same(x, (h - 0.25) * 1.5)
    assert not _pending(y)
    _same(y, (h - 0.25) + 0.5)
    assert lazy.STATS["graphs"] == graphs + 1
    assert caches.executables_built() == built + 1


def test_graph_size_is_bounded():
    a = np.asarray(_data())
    _warm(lambda x: x + 1.0, a)
    flushes = lazy.STATS["flushes"]
    x = a
    ref = _data()
    for _ in range(3 * lazy.LIMIT + 1):  # (a graph at the limit is flushed by the next round)
        x = x + 1.0
        ref = ref + 1.0
        assert not _pending(x) or x._buf.ops <= lazy.LIMIT
    assert lazy.STATS["flushes"] - flushes >= 3
    _same(x, ref)


def test_limit_flushes_at_the_next_statement(monkeypatch):
    """A graph reaching ``LIMIT`` is flushed by the next statement's first recording: the
    statement that reached it has finished, its temporaries are dead, and the flush's outputs
    are the arrays the program holds (here ``x`` and ``y``), not the temporaries."""
    h = _data()
    a = np.asarray(h)
    _warm(lambda x, y: (y + x * 0.5, (x + 0.25) * 0.5 - 0.125), a, a)
    outputs, reasons = [], []
    real = lazygraph._outputs

    def spy(g):
        outs = real(g)
        outputs.append(len(outs))
        return outs
    monkeypatch.setattr(lazygraph, "_outputs", spy)
    monkeypatch.setattr(syncs, "note_flush", reasons.append)
    monkeypatch.setattr(lazy, "LIMIT", 8)
    x, y, rx, ry = a, a, h, h
    for _ in range(8):  # (halving is exact: FMA contraction rounds alike)
        x = (x + 0.25) * 0.5 - 0.125  # 3 operations, 2 of them temporaries
        y = y + x * 0.5
        rx = (rx + 0.25) * 0.5 - 0.125
        ry = ry + rx * 0.5
    assert reasons == ["limit"] * 4  # 8 reached within x's statement in rounds 2, 4, 6, 8
    assert outputs == [2] * 4
    _same(x, rx)
    _same(y, ry)


def test_one_statement_is_capped(monkeypatch):
    """A statement recording ``2 * LIMIT`` operations is flushed within it ("cap")."""
    h = _data()
    a = np.asarray(h)
    _warm(lambda x: x + 1.0, a)
    reasons = []
    monkeypatch.setattr(syncs, "note_flush", reasons.append)
    monkeypatch.setattr(lazy, "LIMIT", 8)
    expr = "(" * 40 + "x" + " + 1.0)" * 40  # 40 operations on one line
    got = eval(expr, {"x": a})
    assert reasons == ["cap", "cap"] and _pending(got) and got._buf.ops == 8
    _same(got, eval(expr, {"x": h}))


def test_first_graph_after_a_wait_is_flushed_early(monkeypatch):
    """After the program waited on a value (a read), the first graph reaching ``EARLY``
    operations is flushed by the next statement's first recording ("early": the device computes
    it while the program records the rest); the rest stays pending until read."""
    h = _data()
    a = np.asarray(h)
    _warm(lambda x: (x + 0.25) * 0.5, a)
    reasons = []
    monkeypatch.setattr(syncs, "note_flush", reasons.append)
    monkeypatch.setattr(lazy, "EARLY", 6)
    for _ in range(2):
        x, rx = a, h
        for _ in range(5):  # (halving is exact: FMA contraction rounds alike)
            x = (x + 0.25) * 0.5  # 6 operations reached in round 3, flushed in round 4
            rx = (rx + 0.25) * 0.5
        assert _pending(x) and x._buf.ops == 4
        _same(x, rx)
    assert reasons == ["early", "read"] * 2


def test_early_flush_declined_when_xla_would_recompute(monkeypatch):
    """An early flush whose computation recomputes values its two outputs share (``_sqrt_loop``,
    see the next tests) is declined: the graph records on and is computed whole when read, on
    every run (the declined graph is compiled once, never run)."""
    h, z = _data(), numpy.zeros(1000, dtype=numpy.int64)
    a, n = np.asarray(h), np.asarray(z)
    _warm(_sqrt_loop, np, a, n)
    reasons = []
    monkeypatch.setattr(syncs, "note_flush", reasons.append)
    monkeypatch.setattr(lazy, "EARLY", 20)
    for run in range(2):
        graphs = lazy.STATS["graphs"]
        got = _sqrt_loop(np, a, n)
        assert all(map(_pending, got)) and got[0]._buf.ops == 54
        for g, ref in zip(got, _sqrt_loop(numpy, h, z)):
            _same(g, ref, rtol=8 * EPS)  # contraction to FMA: see test_fma_contraction
        assert lazy.STATS["graphs"] - graphs == (1 if run == 0 else 0)  # the declined one
    assert reasons == ["read"] * 2


def test_graph_bytes_are_bounded(monkeypatch):
    """``TNP_LAZY_BYTES``: the results of a pending graph's live nodes and its concrete operands.
    A program keeping its results (``kept``) reaches the bound; dropped temporaries do not
    count (``x``'s own loop never does)."""
    h = _data(1000)
    a = np.asarray(h)
    _warm(lambda x: x * 0.5 + a, a)
    monkeypatch.setattr(lazy, "LIMIT", 10**6)
    monkeypatch.setattr(lazy, "EARLY", 10**6)
    monkeypatch.setattr(lazy, "BYTES", 12 * h.nbytes)
    flushes = lazy.STATS["flushes"]
    x, ref = a, h
    for _ in range(40):
        x = x * 0.5 + a  # one live result (its temporary dies) and one concrete operand
        ref = ref * 0.5 + h
        assert x._buf.bytes == 2 * h.nbytes
    assert lazy.STATS["flushes"] == flushes
    _same(x, ref)  # (halving is exact: FMA contraction rounds alike)
    flushes = lazy.STATS["flushes"]
    x, kept, refs = a, [], []
    for _ in range(20):
        x = x * 0.5 + a
        kept.append(x)
        refs.append(refs[-1] * 0.5 + h if refs else h * 0.5 + h)
        assert not _pending(x) or x._buf.bytes < lazy.BYTES
    assert lazy.STATS["flushes"] - flushes >= 2
    for k, r in zip(kept, refs):
        _same(k, r)


def _sqrt_loop(m, x, n):
    for _ in range(6):
        x = x * x * 0.5 + 0.3
        n = n + (m.sqrt(x) > 0.7)
        x = m.where(m.sqrt(x) > 0.75, 0.25, x)
    return x, n


def _shared_sum(m, x):
    s = (x * x).sum()
    return x + s * 1e-3, m.sin(x) * s


@pytest.mark.parametrize("program, copies, rtol", [(_sqrt_loop, 2, 8 * EPS),
                                                   (_shared_sum, 1, 1e-12)],
                         ids=["shared sqrt", "shared reduction"])  # (XLA sums in another order)
def test_outputs_computed_apart_when_xla_would_recompute(monkeypatch, program, copies, rtol):
    """A graph with several outputs: XLA's CPU compiler (no multi-output fusion) stores a value
    that several outputs read and is expensive (a square root), and each fusion reading it
    recomputes the cheap chain before it, quadratic along a loop; such a graph computes each
    output from its own copy of the leaves (``_compiled``, from XLA's cost analysis). Outputs
    sharing a reduction (stored, nothing recomputed) stay one computation."""
    plans = []
    real = lazygraph._compiled

    def spy(key, leaves):
        plans.append(real(key, leaves))
        return plans[-1]
    monkeypatch.setattr(lazygraph, "_compiled", spy)
    monkeypatch.setattr(lazygraph, "_GRAPHS", caches.KernelTable())
    h = _data()
    args = (h, numpy.zeros(h.shape, dtype=numpy.int64))[:program.__code__.co_argcount - 1]
    _warm(program, np, *map(np.asarray, args))
    got = program(np, *map(np.asarray, args))
    for g, ref in zip(got, program(numpy, *args)):
        _same(g, ref, rtol=rtol)  # contraction to FMA: see test_fma_contraction
    # (the measured call compiles again when its donations differ from the warm-up's; a
    # graph with floating-point checks donates no temporary: the warm-up's plan serves)
    assert plans and {p.copies for p in plans} == {copies}


@pytest.mark.parametrize("v, w", [(512, 700), (-129, -200), (2**40, 2**40 + 3), (3, 100)],
                         ids=str)
def test_python_ints_take_the_ufunc_fast_path(monkeypatch, v, w):
    """A Python int operand is keyed by what decides NumPy's loop and errors for it (its sign
    and bit length, ``fast_path.fast_key``): a call with another int of the same key is recorded
    by the fast path, without the slow path's dtype resolution."""
    h = _data()
    a = np.asarray(h)
    _same(a / v, h / v, rtol=EPS)  # (XLA's CPU compiler divides by a scalar as by 1 / it)
    _same(v - a, v - h)
    slow = []
    real = ufunc._call
    monkeypatch.setattr(ufunc, "_call", lambda *args, **kw: slow.append(1) or real(
        *args, **kw))
    r, s = a / w, w - a
    assert _pending(r) and _pending(s) and not slow
    _same(r, h / w, rtol=EPS)
    _same(s, w - h)


def test_shape_errors_at_the_call():
    a, b = np.asarray(_data(3)), np.asarray(_data(4))
    _warm(lambda x: x + x, a)
    with pytest.raises(ValueError, match="could not be broadcast"):
        a + b


def test_tnp_ext_jit_reads_pending_arguments():
    h = _data()
    a = np.asarray(h)
    _warm(lambda x: x * 2.0, a)
    f = tnp_ext.jit(lambda x: x - 1.0)
    b = a * 2.0
    assert _pending(b)
    _same(f(b), h * 2.0 - 1.0)

    @tnp_ext.jit
    def g(x):
        x += 1.0
    c = a * 2.0
    g(c)
    _same(c, h * 2.0 + 1.0)


def test_off_is_eager():
    lazy.enable(False)
    a = np.asarray(_data())
    _warm(lambda x: x * 2.0, a)
    assert type((a * 2.0)._buf) is ArrayImpl


def test_fma_contraction():
    """XLA's CPU compiler contracts a fused ``a*b - c`` to an FMA (one rounding, not NumPy's
    two) unless the CPU ISA is capped below FMA (``--xla_cpu_max_isa=AVX``): the result is then
    within an ulp of ``a*b`` and one of the result of NumPy's, not always equal to it."""
    h, g, k = _data(10000, 1), _data(10000, 2), _data(10000, 3)
    a, b, c = map(np.asarray, (h, g, k))
    _warm(lambda: a * b - c)
    r = numpy.asarray(a * b - c)
    ref = h * g - k
    assert numpy.all(numpy.abs(r - ref) <= EPS * (numpy.abs(h * g) + numpy.abs(ref)))


def test_inplace_operators_are_recorded():
    h, g = _data(), _data(seed=1)
    a, b = np.asarray(h), np.asarray(g)
    v = a[::2]
    _same(v, h[::2])  # a view whose cache must be renewed
    for _ in range(3):
        a *= 1.0001
        a += b
        h *= 1.0001
        h += g
    a *= 1.0001
    first = weakref.ref(a._buf)  # an intermediate: the root is rebound by the next write
    a += b
    h *= 1.0001
    h += g
    assert _pending(a)
    _same(v, h[::2], rtol=4 * EPS)  # FMA contraction: see test_fma_contraction
    _same(a, h, rtol=4 * EPS)
    assert first() is None or first().value is None  # not materialised


def test_inplace_casting_and_shape_errors_are_numpys():
    i = np.arange(4)
    i += 1
    with pytest.raises(numpy._core._exceptions._UFuncOutputCastingError):
        i += 1.5
    a = np.asarray(_data(3))
    a += 1.0
    with pytest.raises(ValueError):
        a += np.asarray(_data(6)).reshape(2, 3)
    _same(i, numpy.arange(4) + 1)


def test_out_of_another_dtype_leaves_the_plain_loop_alone():
    """An eager ``out=`` call of another dtype (its own kernel) does not become the kernel of
    the plain call on the same inputs."""
    a, b = numpy.arange(5), numpy.arange(5)
    ta, tb = np.asarray(a), np.asarray(b)
    o, to = numpy.zeros(5), np.zeros(5)
    np.add(ta, tb, out=to)
    numpy.add(a, b, out=o)
    _same(to, o)
    _same(ta + tb, a + b)
    _same(ta + tb, a + b)


# ---- reductions, where, matmul/dot, astype and views as pending nodes ------------------------
REDUCTIONS = [
    lambda m, x: m.sum(x), lambda m, x: m.sum(x, axis=0), lambda m, x: x.sum(axis=1, keepdims=True),
    lambda m, x: m.mean(x, axis=(0, 1)), lambda m, x: x.mean(axis=-1, keepdims=True),
    lambda m, x: m.max(x, axis=1), lambda m, x: x.min(), lambda m, x: m.prod(x, axis=0),
    lambda m, x: m.sum(x > 0.5, axis=0), lambda m, x: m.add.reduce(x, axis=1),
    lambda m, x: m.argmin(x, axis=1), lambda m, x: m.std(x, axis=0)]


@pytest.mark.parametrize("reduce", REDUCTIONS)
def test_reductions_of_pending_values_are_pending(reduce):
    h = _data(12).reshape(3, 4)
    a = np.asarray(h)

    def f(m, x):
        return reduce(m, x * 2.0 - 0.5) + 1
    _warm(f, np, a)
    r = f(np, a)
    assert _pending(r)
    _same(r, f(numpy, h), rtol=8 * EPS)


def test_where_matmul_dot_astype_are_pending():
    h, g = _data(12).reshape(3, 4), _data(20, 1).reshape(4, 5)
    a, b = np.asarray(h), np.asarray(g)

    def f(m, x, y):
        w = m.where(x > 0.5, x, -1.0)
        p = w @ y
        d = m.dot(w, y * 2.0)
        return (p + d).astype(numpy.float32), m.where(p > 1.0, 1, 0)
    _warm(f, np, a, b)
    r = f(np, a, b)
    assert all(_pending(v) for v in r)
    for v, ref in zip(r, f(numpy, h, g)):
        _same(v, ref, rtol=8 * EPS if ref.dtype == numpy.float64 else 0)


def test_views_of_pending_values_are_pending():
    h = _data(24).reshape(4, 6)
    a = np.asarray(h)

    def f(m, x):
        y = x * 2.0
        return y[1:-1, ::2] + y[:2, 1::2].T.T - y.T[::-1][:3, 1]
    _warm(f, np, a)
    r = f(np, a)
    assert _pending(r)
    _same(r, f(numpy, h))


def test_view_operands_are_read_by_the_recording_node():
    """A ufunc's view operand is read by the ufunc's own node (``lazy.read``: no node of its
    own), from a concrete or a pending root, in a graph joined into another one too."""
    h, g = _data(24).reshape(4, 6), _data(24, 1).reshape(4, 6)
    a, b = np.asarray(h), np.asarray(g)

    def f(m, x, y):
        p = x[1:, ::2] * 2.0  # a concrete root's view
        q = (y[:-1, 1::2] + 1.0) * 0.5 - 0.25  # (halving is exact: FMA contraction alike)
        return p + q[:, ::-1] - q  # the smaller graph joined into the other, a pending view
    _warm(f, np, a, b)
    recorded = lazy.STATS["recorded"]
    r = f(np, a, b)
    assert _pending(r) and r._buf.ops == 6 and lazy.STATS["recorded"] - recorded == 6
    _same(r, f(numpy, h, g))


def test_views_of_host_roots_are_read_by_the_recording_node(monkeypatch):
    """A view of a host-tier root read by a recorded operation: the node reads the root's device
    copy (moved once per version) through the view's lenses, with no eager dispatch of the view;
    a later write to the host root leaves the pending result as it was."""
    tiers.configure("auto", threshold=100)
    h, big = _data(50), _data(50 * 50, seed=1).reshape(50, 50)
    s, d = np.asarray(h), np.asarray(big)
    assert s._on_host and not d._on_host
    _warm(lambda: s[:, None] + s[None, ::-1] * d)
    monkeypatch.setattr(lazy, "_Read", _CountedRead)
    _CountedRead.made = 0
    got = s[:, None] + s[None, ::-1] * d
    assert _pending(got) and _CountedRead.made == 2
    ref = h[:, None] + h[None, ::-1] * big
    s[3] = 7.0
    h2 = h.copy()
    h2[3] = 7.0
    _same(got, ref, rtol=4 * EPS)  # contraction to FMA: see test_fma_contraction
    _same(s, h2)


class _CountedRead(lazy._Read):
    __slots__ = ()
    made = 0

    def __init__(self):
        type(self).made += 1


def test_pending_reads_keep_values_across_writes():
    """A pending node that read a root, or a view of it, keeps the value it read when the root
    is written afterwards (in place, through a view, or lazily)."""
    h = _data(24).reshape(4, 6)
    a = np.asarray(h)
    _warm(lambda x: ((x[1:, :] * 2.0).sum(axis=0), x.T[0] + 1.0, x.max(axis=1)), a)
    s = (a[1:, :] * 2.0).sum(axis=0)  # reads a through a view
    t = a.T[0] + 1.0
    u = a.max(axis=1)
    assert _pending(s) and _pending(t) and _pending(u)
    a[1:, :] = 0.0
    a *= 3.0
    a[0] += 1.0
    _same(s, (h[1:, :] * 2.0).sum(axis=0))
    _same(t, h.T[0] + 1.0)
    _same(u, h.max(axis=1))
    ref = h.copy()
    ref[1:, :] = 0.0
    ref *= 3.0
    ref[0] += 1.0
    _same(a, ref)


def test_inplace_writes_through_views_are_recorded():
    h = _data(36).reshape(6, 6)
    u, ref = np.asarray(h), h.copy()

    def step(m, u):
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += 0.25 * lap
    step(np, u)
    step(numpy, ref)
    old, ref_old = u * 1.0, ref * 1.0  # pending: reads u's value before the next writes
    v = u[::2]
    step(np, u)
    step(numpy, ref)
    assert _pending(u) and _pending(old)
    _same(v, ref[::2], rtol=16 * EPS)  # FMA contraction: see test_fma_contraction
    _same(u, ref, rtol=16 * EPS)
    _same(old, ref_old, rtol=16 * EPS)


@pytest.mark.parametrize("call", [
    lambda m, x, y: x @ y, lambda m, x, y: m.dot(x, y), lambda m, x, y: m.where(x > 0, x, y),
    lambda m, x, y: x.sum(axis=2), lambda m, x, y: m.mean(x, axis=(0, 0)),
    lambda m, x, y: x + y, lambda m, x, y: m.sum(x, axis=0, dtype="S3")])
def test_errors_at_the_recording_call(call):
    """Shape, axis and dtype errors are NumPy's (class and message), raised by the call that
    records (not at a later flush)."""
    hx, hy = _data(6).reshape(2, 3), _data(8).reshape(2, 4)
    x, y = np.asarray(hx), np.asarray(hy)
    _warm(lambda: (x * 1.0, x > 0))
    x, y = x * 1.0, y * 1.0  # pending operands
    assert _pending(x)
    with pytest.raises(Exception) as ref:
        call(numpy, hx, hy)
    with pytest.raises(type(ref.value)) as got:
        call(np, x, y)
    assert str(got.value) == str(ref.value)


def _program(m, x):
    """Ufuncs, views, in-place writes through views, reductions, where/dot/mean, astype."""
    y = m.sqrt(x * x + 1.0) - 0.5
    y[1:-1] += 0.25 * (y[:-2] - 2 * y[1:-1] + y[2:])
    z = m.where(y > 0.7, y, -y).reshape(10, 100)
    s = z.sum(axis=0) + z.mean(axis=1).dot(z)
    return s.astype(m.float32), (z[:, ::3] ** 2).max(axis=1), y


@pytest.mark.parametrize("on", [True, False], ids=["lazy", "eager"])
def test_program_with_lazy_on_and_off(on):
    """The same program with lazy fusion on and off (``TNP_LAZY=0``): NumPy's values either way."""
    lazy.enable(on)
    h = _data()
    got = _program(np, np.asarray(h))
    assert all(_pending(g) for g in got) == on
    for g, ref in zip(got, _program(numpy, h.copy())):
        _same(g, ref, rtol=8 * EPS)  # contraction to FMA: see test_fma_contraction


@pytest.mark.parametrize("value, on", [(None, True), ("1", True), ("0", False)])
def test_on_by_default(value, on):
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "TNP_LAZY"}
    if value is not None:
        env["TNP_LAZY"] = value
    out = subprocess.run([sys.executable, "-c", "from tnp._core.engine import lazy; print(lazy.on)"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == str(on)


def test_broadcast_past_32_dimensions():
    """Operands of more than 32 dimensions (NumPy's ``broadcast_shapes`` stops there; arrays go
    to 64) are computed eagerly: NumPy's shape and values."""
    h, g = numpy.full((1,) * 40, 2.0), numpy.arange(3.0).reshape((3,) + (1,) * 19)
    _same(np.asarray(h) + np.asarray(g), h + g)
    _same(np.add.outer(np.ones((1,) * 33), np.ones((1,) * 31)),
          numpy.add.outer(numpy.ones((1,) * 33), numpy.ones((1,) * 31)))


def _slow_graph_then_an_early_read(xp, n=2_000_000):
    """An array computed, then a slow graph dividing 0 by 0 flushed (not read: an ``out=``
    call's operand), then the early array read, then the slow result: (the early value, the
    warnings before its read, whether the slow result was still running after it, all the
    warnings)."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        early = xp.arange(3.0) + 1
        numpy.asarray(early)  # computed before the slow graph
        x = xp.linspace(0.0, 1.0, n)
        y = x
        for _ in range(12):
            y = xp.sin(y) * 1.0001
        z = xp.zeros(n)
        xp.divide(y, x, out=z)
        got = numpy.asarray(early)
        before = len(caught)
        running = xp is np and not z._root._buf.is_ready()
        numpy.asarray(z)
    return got, before, running, [str(w.message) for w in caught]


def test_a_read_does_not_wait_for_graphs_it_does_not_need():
    """A sync point delivers the floating-point warnings of the graphs already done, which
    include those of the value it reads, and does not wait for a graph still running that the
    value does not come from (``fpcheck.deliver``): reading an array computed before a slow
    graph was dispatched leaves that graph's warning pending (the read does not wait for it),
    and reading the slow graph's result gives it first. The warnings in all are NumPy's."""
    _slow_graph_then_an_early_read(np)  # (its kernels compiled: the next run is dispatched)
    want = _slow_graph_then_an_early_read(numpy)
    got = _slow_graph_then_an_early_read(np)
    numpy.testing.assert_array_equal(got[0], want[0])
    assert got[2] and got[1] == 0  # the early read neither waited nor warned
    assert got[3] == want[3] == ["invalid value encountered in divide"]
