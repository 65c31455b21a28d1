"""Compactions that live on are held in size buckets (``tnp._core.array.masked``): ``x[m]`` asked
for its length, or compacted again, is a buffer padded to a bucket with its true length beside
it. NumPy is the oracle: a bucketed array reads, writes, reduces, mixes and fails as NumPy's
compacted array does; the loops that keep compactions (the compacting Mandelbrot, ``x = x[x > t]``)
give NumPy's values and build their kernels per bucket, not per count."""
import jax
import jax.numpy as jnp
import numpy
import pytest

import tnp
from tnp._core.array import masked
from tnp._core.engine import caches, syncs
from test_compactions import compacting_mandelbrot  # (conformance_tests/: the loop as written)

pytestmark = pytest.mark.usefixtures("device_placement")

V = ((numpy.arange(300) * 37) % 301 - 150.5) / 7  # distinct values, both signs
IDX = numpy.arange(300)


def _bucketed(xp, v=V, t=0.0):
    """``v[v > t]`` and the positions it kept, as the loop keeps them: asked for its length."""
    x = xp.asarray(v)
    keep = x > t
    y, i = x[keep], xp.asarray(IDX[:len(v)])[keep]
    len(y)
    if xp is tnp:  # (the tnp side is bucketed: what these tests are about)
        assert type(y) is masked.MaskedValue and y._cache.length is not None
        assert y._cache.full.size >= len(y)
    return y, i


def _same(got, want):
    """``got`` (tnp) is NumPy's ``want``: type of result, dtype, shape and values."""
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, (numpy.ndarray, numpy.generic)):
        g = numpy.asarray(got)
        assert g.dtype == want.dtype and g.shape == want.shape
        numpy.testing.assert_allclose(g, want, rtol=1e-12)
    else:
        assert got == want and type(got) is type(want)


def both(body):
    """``body(xp, y, i)`` on a bucketed array and its positions, for NumPy and tnp."""
    want = body(numpy, *_bucketed(numpy))
    got = body(tnp, *_bucketed(tnp))
    _same(got, want)


def test_bucket_rule():
    sizes = [masked.bucket(n, 10 ** 9) for n in range(1, 5000)]
    assert all(b >= n for n, b in enumerate(sizes, 1))
    assert max(b / n for n, b in enumerate(sizes, 1) if n >= 8) <= 1.19  # 1/4 octave
    assert len(set(sizes[1000:])) <= 17  # 1,000 to 5,000: about 4 buckets an octave
    assert masked.bucket(900, 950) == 950  # never past the buffer compacted from


def test_attributes_printing_iteration_conversion():
    both(lambda xp, y, i: (y.shape, len(y), y.size, y.ndim, y.dtype, y.nbytes, repr(y),
                           str(i), [float(e) for e in y], y.tolist(), numpy.asarray(y),
                           list(i)[:5], i.dtype))


@pytest.mark.parametrize("name", ["sum", "mean", "min", "max", "any", "all", "prod"])
def test_reductions(name):
    def body(xp, y, i):
        b = y > 10  # a bucketed boolean array, for any/all
        a = b if name in ("any", "all") else y / 10 if name == "prod" else y
        return (getattr(a, name)(), getattr(xp, name)(a), getattr(a, name)(axis=0),
                getattr(a, name)(keepdims=True), getattr(i, name)())
    both(body)


def test_empty_bucketed_reductions_and_errors():
    def body(xp, y, i):
        e = y[y > 1e9]  # no true lane
        out = [e.shape, e.sum(), e.any(), e.all(), e.size]
        for f in (e.max, e.min):
            try:
                f()
            except ValueError as exc:
                out.append(type(exc).__name__)
        return out
    both(body)


def test_ufuncs_stay_bucketed_and_mix():
    def body(xp, y, i):
        z = y * y + 2.5 * y - i  # one bucket and length: computed on the padded buffers
        if xp is tnp:
            assert type(z) is masked.MaskedValue and z._cache.length == len(y)
        w = xp.abs(z) > 30
        plain = xp.asarray(numpy.linspace(0, 1, len(y)))
        return (z, w, z + plain, plain * y, y + xp.asarray(3.0), xp.maximum(y, i), -y, y ** 2)
    both(body)


def test_compaction_of_bucketed_stays_bucketed():
    def body(xp, y, i):
        m = y > 5
        z, j = y[m], i[m]
        if xp is tnp:
            assert type(z) is masked.MaskedValue and z._cache.length is not None
        zz = z[z < 15]
        return (z, j, zz, len(zz), i[y < -3], y[i % 2 == 0])
    both(body)


def test_indexing_reads():
    both(lambda xp, y, i: (y[0], y[-1], y[3:9], y[::-2], y[[0, 2, 4]], i[i > 100][:3],
                           y[xp.asarray(numpy.arange(len(V[V > 0])) % 3 == 0)]))


def test_writes_into_bucketed_and_through_views():
    def body(xp, y, i):
        i[::2] = -1
        v = y[1:6]
        v[0] = 99.0
        y += 1  # in place on the bucketed value
        y[y > 20] = 0
        return i, v, y
    both(body)


def test_scatter_by_bucketed_index():
    def body(xp, y, i):
        e = xp.zeros(300, xp.int32)
        e[i] = 5
        e[i[y > 10]] = 7  # a compaction of the index: bucketed again
        f = xp.zeros(300)
        f[i] = y * 2  # a value of the index's layout
        g = xp.full(300, -1)
        g[i - 300] = i  # negative indices
        return e, f, g
    both(body)


def test_errors_are_numpys():
    def body(xp, y, i):
        out = []
        for f in (lambda: y + xp.ones(len(y) + 1),  # broadcast: ValueError
                  lambda: y[y[:-1] > 0],  # a mask of another length: IndexError
                  lambda: y[len(y)],  # IndexError
                  lambda: xp.zeros(10)[i],  # out of bounds: IndexError
                  lambda: y.reshape(7, -1)):  # ValueError
            try:
                f()
            except (ValueError, IndexError) as exc:
                out.append(type(exc).__name__)
        return out
    both(body)


def test_scatter_out_of_bounds_writes_nothing():
    for xp in (numpy, tnp):
        _, i = _bucketed(xp)
        e = xp.zeros(200)
        with pytest.raises(IndexError, match="out of bounds"):
            e[i] = 1.0
        assert not numpy.asarray(e).any()


def test_jax_interop():
    y, _ = _bucketed(tnp)
    want, _ = _bucketed(numpy)
    numpy.testing.assert_allclose(numpy.asarray(jnp.asarray(y)), want)
    numpy.testing.assert_allclose(float(jax.jit(jnp.sum)(_bucketed(tnp)[0])), want.sum())


def test_length_asked_without_a_further_sync():
    y, _ = _bucketed(tnp)
    z = y * 2
    before = syncs.COUNTS.copy()
    assert (len(z), z.shape, z.size) == (len(y), y.shape, y.size)
    assert syncs.COUNTS == before


# ---- loops: NumPy's values, kernels per bucket -------------------------------------------------
def _grid(h, w):
    return (numpy.linspace(-2.1, 0.7, w)[None, :] + 1j * numpy.linspace(-1.3, 1.3, h)[:, None]
            ).ravel()


def _shrinking(xp, v, iterations):
    x = xp.asarray(v)
    lengths = []
    for n in range(iterations):
        x = x[x > n * 0.004]
        lengths.append(len(x))
    return x, lengths


@pytest.mark.usefixtures("compiled_tier")
def test_compacting_mandelbrot_builds_per_bucket():
    c = _grid(53, 61)
    compacting_mandelbrot(tnp, tnp.asarray(_grid(47, 43)), 60)  # the loop's kernels, once
    built = caches.executables_built()
    escape, z, idx, lengths = compacting_mandelbrot(tnp, tnp.asarray(c), 200)
    new = caches.executables_built() - built
    want = compacting_mandelbrot(numpy, c, 200)
    numpy.testing.assert_array_equal(numpy.asarray(escape), want[0])
    numpy.testing.assert_array_equal(numpy.asarray(idx), want[2])
    numpy.testing.assert_allclose(numpy.asarray(z), want[1], rtol=1e-9, atol=1e-12)
    assert lengths == want[3]
    counts = len(set(lengths))
    buckets = len({masked.bucket(n, c.size) for n in lengths})
    assert counts > 40 and buckets <= counts / 3
    # per bucket: its step's graphs, the gathers (complex, int) from its bucket and the scatter's
    # graph; built per count (before buckets): 370 for these 53 counts, now 80 for 8 buckets
    assert new <= 12 * buckets


@pytest.mark.usefixtures("compiled_tier")
def test_shrinking_compaction_loop_builds_per_bucket():
    v = numpy.sort((numpy.arange(4001) * 7919) % 4001 / 4001.0)[::-1].copy()
    _shrinking(tnp, v[:3000], 200)  # the loop's kernels, once
    built = caches.executables_built()
    x, lengths = _shrinking(tnp, v, 200)
    new = caches.executables_built() - built
    want, want_lengths = _shrinking(numpy, v, 200)
    assert lengths == want_lengths and len(set(lengths)) == 200
    numpy.testing.assert_array_equal(numpy.asarray(x), want)
    buckets = len({masked.bucket(n, v.size) for n in lengths})
    assert buckets <= 12
    assert new <= 2 * buckets  # built per count (before buckets): 400, now 6


def test_empty_2d_repeated_indices_and_value_errors():
    def body(xp):
        out = []
        x = xp.zeros(0)
        y = x[x > 0]  # an empty source
        out += [len(y), y.shape, y.sum(), repr(y), (y * 2).shape]
        a = xp.asarray(numpy.arange(12.).reshape(3, 4))
        b = a[a % 3 == 1]  # a 2-D source: the compaction is 1-D
        out += [len(b), b, b.max(), b.mean(), b[b > 4] + 1]
        f = xp.zeros(5, xp.int8)
        j = xp.asarray([1, 1, 3, 3, 4])[xp.arange(5) >= 0]
        len(j)
        f[j] = xp.asarray([1, 2, 3, 4, 5])[xp.arange(5) >= 0]  # repeated: the last one wins
        out.append(f)
        for v in (1000, 1j):  # NumPy's conversion errors
            try:
                f[j] = v
            except (OverflowError, TypeError) as exc:
                out.append(type(exc).__name__)
        return out
    _same(body(tnp), body(numpy))


def test_read_by_bucketed_index_stays_bucketed():
    def body(xp, y, i):
        a = xp.asarray(numpy.arange(300.0) * 1.5)
        r = a[i]  # a read by a bucketed index: of the index's layout
        if xp is tnp:
            assert type(r) is masked.MaskedValue and r._cache.length == len(i)
        out = [r, r + y, a[i - 300], a[i[y > 5]], r.sum()]
        try:
            xp.arange(100.0)[i]
        except IndexError as exc:
            out.append(type(exc).__name__)
        return out
    both(body)
