"""The index routines that make data-dependent lengths give bucketed values on the device
(``tnp._core.array.masked.nonzero``): ``nonzero`` (one bucketed int64 value per axis, of one
layout), ``flatnonzero``, ``compress`` and ``extract`` (``a.ravel()[cond]``, kept as ``x[m]``);
``argwhere`` is read on the host and placed (no kernel per count). NumPy is the oracle: the
results read, index, write, reduce and fail as NumPy's do, and loops over a shrinking set build
their kernels per bucket, not per count."""
import jax.numpy as jnp
import numpy
import pytest

import tnp
from tnp._core.array import masked
from tnp._core.engine import caches, syncs
from test_buckets import _same

pytestmark = pytest.mark.usefixtures("device_placement")

V = ((numpy.arange(24 * 25) * 37) % 601 - 300.5) / 7  # distinct values, both signs


def _bucketed(v):
    """Whether the tnp value ``v`` is held in a bucket (its length known, its buffer padded)."""
    return type(v) is masked.MaskedValue and v._cache.length is not None and (
        v._cache.full.size >= v._cache.length)


def both(body, *args):
    """``body(xp, *arrays)`` for NumPy and for tnp (the arrays on the device) compared."""
    want = body(numpy, *args)
    got = body(tnp, *(tnp.asarray(a) for a in args))
    _same(got, want)


def _errors(*calls):
    out = []
    for f in calls:
        try:
            f()
            out.append(None)
        except (ValueError, IndexError, TypeError) as exc:
            out.append(type(exc).__name__)
    return out


@pytest.mark.parametrize("shape", [(600,), (24, 25), (4, 6, 25)], ids=["1d", "2d", "3d"])
def test_nonzero_is_bucketed_and_reads_as_numpys(shape):
    def body(xp, v):
        m = v.reshape(shape) > 10
        nz = xp.nonzero(m)
        if xp is tnp:
            assert all(_bucketed(i) for i in nz)
            assert len({(i._cache.length, i._cache.full.size) for i in nz}) == 1  # one layout
        i = nz[-1]
        return (nz, [k.shape for k in nz], len(i), i.size, i.ndim, i.dtype, repr(i), str(nz[0]),
                list(i)[:7], i.tolist(), numpy.asarray(i), [int(k) for k in i][-3:],
                m.nonzero(), xp.where(m))
    both(body, V)


def test_flatnonzero_extract_compress():
    def body(xp, v):
        m = v > 10
        f = xp.flatnonzero(m.reshape(24, 25))
        e = xp.extract(m.reshape(24, 25), v.reshape(24, 25))
        c = xp.compress(m, v)
        cn = xp.compress(m, v, axis=0)
        if xp is tnp:
            len(c), len(cn), len(e)
            assert all(_bucketed(r) for r in (f, e, c, cn))
        return (f, e, c, cn, len(c), repr(e), xp.compress(v > 0, v, axis=-1),
                v.compress(m), xp.compress(m[:25], v.reshape(24, 25), axis=1),  # N-D axis
                xp.compress(m[:30], v.reshape(24, 25)),  # shorter than a: the rest False
                xp.extract(v, v),  # a non-boolean condition
                xp.compress(xp.asarray([0, 1, 0, 2]), v[:4]))
    both(body, V)


def test_argwhere_read_on_the_host():
    def body(xp, v):
        m = v.reshape(24, 25) > 10
        a = xp.argwhere(m)
        return (a, a.shape, a.dtype, xp.argwhere(v > 10), xp.argwhere(v.reshape(4, 6, 25) > 40),
                xp.argwhere(v[0] > 0), xp.argwhere(v[0] < 0), xp.argwhere(v > 1e9),
                list(a[:3]), a[:, 1].sum())
    both(body, V)


def test_empty_and_zero_d_inputs():
    def body(xp, v):
        none = v > 1e9
        out = [xp.nonzero(none), xp.flatnonzero(none), xp.compress(none, v), xp.extract(none, v),
               xp.argwhere(none), xp.nonzero(v[:0]), xp.flatnonzero(v[:0]),
               xp.flatnonzero(v[0]), xp.flatnonzero(v[0] > 1e9), xp.argwhere(v[0]),
               xp.compress(v[:0] > 0, v[:0]), xp.nonzero(none.reshape(24, 25))]
        i = xp.nonzero(none)[0]
        out += [len(i), i.shape, repr(i), i.sum(), v[i], v[i] + 1]
        w = v.copy()
        w[i] = 5.0  # writes nothing
        out.append(w)
        return out
    both(body, V)


def test_errors_are_numpys():
    def body(xp, v):
        m = v > 10
        i = xp.nonzero(m)[0]
        ij = xp.nonzero(m.reshape(24, 25))
        return _errors(lambda: xp.nonzero(v[0]),  # 0-d: ValueError
                       lambda: xp.compress(m.reshape(24, 25), v),  # not 1-d: ValueError
                       lambda: xp.compress(xp.asarray([0, 0, 0, 1]), v[:3]),  # past the end
                       lambda: xp.extract(xp.asarray([0, 0, 0, 1]), v[:3]),
                       lambda: v[:100][i],  # out of bounds: IndexError
                       lambda: v.reshape(25, 24)[ij],  # axis 1 out of bounds
                       lambda: v.reshape(24, 25)[ij[::-1]],  # axis 0 out of bounds
                       lambda: v.reshape(24, 25).__setitem__(ij[::-1], 1.0),
                       lambda: xp.zeros(10).__setitem__(i, 1.0))
    both(body, V)


def test_reads_and_writes_by_nonzero_tuples_stay_bucketed():
    def body(xp, v):
        x = v.reshape(24, 25).copy()
        m = x > 10
        ij = xp.nonzero(m)
        r = x[ij]
        if xp is tnp:
            assert _bucketed(r) and r._cache.length == len(ij[0])
        s = (r * r + 2.5 * ij[1] - ij[0]).sum()
        x[ij] = x[ij] ** 2 + ij[1]  # a value of the indices' layout
        y = xp.zeros((24, 25), xp.int32)
        y[ij] = 7  # a scalar
        y[ij[0] - 24, ij[1] - 25] += 3  # negative indices, read and write
        z = v.copy()
        (k,) = xp.nonzero(z > 0)
        z[k] = z[k] * 0.5 + k
        return (r, s, x, y, z, x[ij].max(), xp.mean(r), v[k][k < 300], v[:300][k[k < 300]])
    both(body, V)


def test_nonzero_of_bucketed_values_and_repeated_lanes():
    def body(xp, v):
        y = v[v > 0]  # a compaction that lives on
        len(y)
        (i,) = xp.nonzero(y > 20)  # positions in the bucketed value
        if xp is tnp:
            assert _bucketed(i)
        f = xp.zeros(8)
        j = xp.flatnonzero(v > 10) % 8  # repeated indices: NumPy's last-wins order
        f[j] = v[xp.flatnonzero(v > 10)]
        return i, y[i], xp.flatnonzero(y < 5), xp.compress(y > 20, y), xp.extract(y > 20, y), f
    both(body, V)


def test_no_sync_after_the_positions():
    x = tnp.asarray(V)
    (i,) = tnp.nonzero(x > 10)
    before = syncs.COUNTS.copy()
    r = x[i]
    x[i] = r * 2  # bounds checks from the positions kept on the host: no read back
    n = int((V > 10).sum())
    assert (len(i), i.shape, len(r), r.shape) == (n, (n,), n, (n,))
    assert syncs.COUNTS == before


# ---- loops over a shrinking set: NumPy's values, kernels per bucket ---------------------------
W = numpy.sort((numpy.arange(4001) * 7919) % 4001 / 4001.0)[::-1].copy()  # 200 distinct counts


def nonzero_loop(xp, v, iterations):
    """``idx = nonzero(active)[0]; acc[idx] = ...`` over an active set shrinking every iteration."""
    x = xp.asarray(v)
    acc = xp.zeros_like(x)
    lengths = []
    for n in range(iterations):
        (idx,) = xp.nonzero(x > n * 0.004)
        acc[idx] = acc[idx] * 0.5 + x[idx] + idx
        lengths.append(len(idx))
    return acc, lengths


def grid_loop(xp, v, iterations):
    """``i, j = nonzero(active)`` of a 2-D set and ``flatnonzero`` of it."""
    x = xp.asarray(v[:v.size // 100 * 100]).reshape(-1, 100)
    acc = xp.zeros(x.shape)
    lengths = []
    for n in range(iterations):
        active = x > n * 0.004
        i, j = xp.nonzero(active)
        acc[i, j] += x[i, j] * j
        pts = xp.flatnonzero(active)
        lengths.append(int((pts % 7).sum()) + len(i))
    return acc, lengths


def compress_loop(xp, v, iterations):
    """``vals = compress(keep, vals)``: a compaction living on, reduced every iteration."""
    vals = xp.asarray(v)
    sums, lengths = [], []
    for n in range(iterations):
        vals = xp.compress(vals > n * 0.004, vals)
        sums.append(float(vals.sum()))
        lengths.append(len(vals))
    return vals, sums, lengths


def _per_bucket(loop, v):
    """The executables ``loop`` builds over 200 iterations (its kernels built once first on
    shapes of their own), with NumPy's results."""
    loop(tnp, v[:3000], 200)
    built = caches.executables_built()
    got = loop(tnp, v, 200)
    new = caches.executables_built() - built
    want = loop(numpy, v, 200)
    for g, w in zip(got, want):
        numpy.testing.assert_allclose(numpy.asarray(g), numpy.asarray(w), rtol=1e-12)
    return new


@pytest.mark.usefixtures("compiled_tier")
@pytest.mark.parametrize("loop", [nonzero_loop, grid_loop, compress_loop])
def test_shrinking_loop_builds_per_bucket(loop):
    lengths = [int((W > n * 0.004).sum()) for n in range(200)]
    assert len(set(lengths)) == 200
    buckets = len({masked.bucket(n, W.size) for n in lengths})
    assert buckets <= 12
    new = _per_bucket(loop, W)
    # built per count before (nonzero's kernel and every kernel of its result's count): 1,018
    # for nonzero_loop; now 21, 24 and 8 for the three loops (10 buckets)
    assert new <= 4 * buckets


def test_positions_changed_in_place():
    """An in-place operator on nonzero's positions: their values, bounds and reads are the new
    ones (the host copy kept for the bounds checks is dropped)."""
    def body(xp, v):
        (i,) = xp.nonzero(v > 10)
        i += 1
        j = xp.flatnonzero(v > 10)
        j *= 2
        out = [i, v[i % 600], j.max()]
        out += _errors(lambda: v[j], lambda: v.copy().__setitem__(j, 0.0))
        i -= 1
        return out + [i, v[i], len(i)]
    both(body, V)


@pytest.mark.parametrize("ordered", [True, False], ids=["cpu-order", "last-lane-rule"])
def test_lanes_write_of_2d_root_with_repeats(ordered):
    """``write.assign_lanes``'s kernel on an N-D root, both rules (the CPU's ordered scatter,
    elsewhere only each position's last true lane scattered): NumPy's last-wins values, the
    padding lanes dropped, negative indices."""
    from tnp._core.array import write
    rows = numpy.array([0, 2, -1, 0, 1, 2, 0, 0])  # 6 true lanes, 2 of padding
    cols = numpy.array([1, 3, 0, 1, -4, 3, 0, 0])
    vals = numpy.arange(8.0) + 10
    want = numpy.zeros((3, 4))
    want[rows[:6], cols[:6]] = vals[:6]
    got = write._lanes_kernel(ordered)(jnp.zeros((3, 4)), 6, jnp.asarray(vals),
                                       jnp.asarray(rows), jnp.asarray(cols))
    numpy.testing.assert_array_equal(numpy.asarray(got), want)


# ---- unique of integer and boolean values: sorted distinct values in a bucket ------------------
L = (numpy.arange(4001) * 7919) % 4001  # a permutation of 0..4000


def test_unique_of_integers_is_bucketed():
    def body(xp, v):
        x = v.reshape(1, -1)[:, :3000]
        u = xp.unique(x // 7)
        if xp is tnp:
            assert _bucketed(u)
        y = v[v > 2000]  # a compaction that lives on
        len(y)
        w = xp.unique(y % 13)
        if xp is tnp:
            assert _bucketed(w)
        return (u, u.shape, len(u), repr(w), list(w), w.tolist(), u.sum(), u[u > 400],
                xp.unique(v > 100), xp.unique((v % 300).astype(xp.uint8)),
                xp.unique((v % 9).astype(xp.int8) - 4), xp.unique(v[:1]), xp.unique(v[:0]),
                xp.unique(v % 5, return_counts=True),  # other results: as before
                xp.unique(v.astype(float) % 3), (u * 2)[w])
    both(body, L)


def unique_loop(xp, v, iterations):
    """``u = unique(x // k)`` for a new ``k`` every iteration (a new count each time)."""
    x = xp.asarray(v)
    sums, lengths = [], []
    for n in range(iterations):
        u = xp.unique(x // (n + 1))
        sums.append(int((u * 3).sum()))
        lengths.append(len(u))
    return sums, lengths


@pytest.mark.usefixtures("compiled_tier")
def test_unique_loop_builds_per_bucket():
    lengths = [len(numpy.unique(L // (n + 1))) for n in range(100)]
    buckets = len({masked.bucket(n, L.size) for n in lengths})
    new = _per_bucket(lambda xp, v, k: unique_loop(xp, v, 100), L)
    # built per count before: 267 for these 86 counts; now 46 for 22 buckets
    assert len(set(lengths)) > 60 and buckets <= 30 and new <= 4 * buckets


# ---- unique of float and complex values: NumPy's order, NaNs and signed zeros -----------------
F = numpy.concatenate([numpy.round(numpy.sin(numpy.arange(3000.0)) * 40) / 4,
                       [numpy.nan, -0.0, 0.0, numpy.inf, -numpy.inf, numpy.nan, -0.0]])


@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_of_floats_and_complex_is_bucketed(equal_nan):
    def body(xp, v):
        with numpy.errstate(invalid="ignore"):  # (1j * inf)
            z = v[::-1] + 1j * xp.where(v > 3, numpy.nan, v[::-1] * 0.5)
        first_nan = xp.concatenate([v[-7:], v[:50]])  # a NaN in lane 0
        y = v[v > -5]  # a compaction that lives on: its padding lanes hold lane 0's value
        len(y)
        results = [xp.unique(v, equal_nan=equal_nan), xp.unique(z, equal_nan=equal_nan),
                   xp.unique(first_nan, equal_nan=equal_nan), xp.unique(y, equal_nan=equal_nan),
                   xp.unique(v.astype(xp.float32), equal_nan=equal_nan),
                   xp.unique(v[(v < 0) & (v > -20)] * 0.0, equal_nan=equal_nan)]  # all -0.0
        if xp is tnp:
            assert all(_bucketed(u) for u in results)
        u = results[0]
        # (which of equal zeros NumPy keeps depends on its unstable sort: only -0.0 compared)
        return results + [numpy.signbit(numpy.asarray(results[-1])), u.shape, len(u),
                          repr(results[1]), u[:9].tolist(), u[u > 1], xp.unique_values(v),
                          xp.unique(v, sorted=False)]
    both(body, F)


def unique_float_loop(xp, v, iterations):
    """``u = unique(round(x * k))`` for a new ``k`` every iteration (a new count each time)."""
    x = xp.asarray(v)
    sums, lengths = [], []
    for n in range(iterations):
        u = xp.unique(xp.round(x * (n + 1) / 20))
        sums.append(float((u * 3).sum()))
        lengths.append(len(u))
    return sums, lengths


@pytest.mark.usefixtures("compiled_tier")
def test_unique_float_loop_builds_per_bucket():
    x = numpy.sin(numpy.arange(4001.0)) * 50
    lengths = [len(numpy.unique(numpy.round(x * (n + 1) / 20))) for n in range(100)]
    buckets = len({masked.bucket(n, x.size) for n in lengths})
    new = _per_bucket(lambda xp, v, k: unique_float_loop(xp, v, 100), x)
    # built per count before (the kernels of the unique and of its results): 273 for these 87
    # counts; now 41 for 20 buckets
    assert len(set(lengths)) > 60 and buckets <= 30 and new <= 4 * buckets


# ---- the set routines of device arrays: bucketed values --------------------------------------
R = numpy.random.default_rng(7)
SA, SB = R.integers(0, 900, 3000), R.integers(300, 1200, 2000)


def test_set_routines_are_bucketed():
    fa, fb = numpy.round(numpy.sin(SA * 1.0) * 30) / 4, numpy.round(numpy.cos(SB * 1.0) * 30) / 4
    fa[[3, 9]], fb[5] = numpy.nan, numpy.nan

    def body(xp, a, b, fa, fb):
        kept = a[a > 100]  # a compaction that lives on, then a bucketed unique of it
        len(kept)
        u, w = xp.unique(kept), xp.unique(b)
        results = [xp.union1d(a, b), xp.intersect1d(a, b), xp.setdiff1d(a, b),
                   xp.union1d(fa, fb), xp.intersect1d(fa, fb), xp.setdiff1d(fa, fb),
                   xp.setdiff1d(kept, b), xp.intersect1d(kept, b), xp.isin(u, w),
                   xp.isin(u, w, invert=True), u[xp.isin(u, w)], xp.setxor1d(a, b),
                   xp.setxor1d(fa, fb), xp.setxor1d(kept, fb), xp.setxor1d(u, w, True),
                   *xp.intersect1d(a, b, return_indices=True),
                   *xp.intersect1d(fa, fb, return_indices=True),
                   *xp.intersect1d(kept, b, return_indices=True),
                   xp.concatenate((u, b, kept)), xp.concatenate((w, fa[:9]), axis=None),
                   xp.concatenate((kept,), dtype=xp.float32)]
        if xp is tnp:
            assert all(_bucketed(r) for r in results)
        return results + [
            xp.intersect1d(a, fb),  # other dtypes: NumPy's exact path
            xp.intersect1d(a, fb, return_indices=True), xp.intersect1d(a, b, True, True),
            xp.setxor1d(a, b, assume_unique=True), xp.setxor1d(a[:0], b),
            xp.concatenate((u, fa[:6].reshape(2, 3)), axis=None),  # N-D: NumPy's path
            xp.setdiff1d(a, b, assume_unique=True), xp.isin(a[:7], w), xp.isin(u, b[:0]),
            xp.setdiff1d(a[:0], b), xp.union1d(a[:0], b[:0]), xp.isin(u, w, kind="table"),
            [len(r) for r in results[:8]], repr(results[2]), results[4].tolist()]
    both(body, SA, SB, fa, fb)


# The loops' thresholds ``t`` over ``L`` (``x < t`` keeps ``t`` values): 60 counts in 4 buckets
# (``x >= t``'s in 4 too: the default run), or spread over about 20 (the ``slow`` profile: a
# kernel set per bucket, 4.7x the compiles)
NARROW = [1500 + n * 17 for n in range(60)]
WIDE = [50 + n * 61 for n in range(60)]
SPANS = [pytest.param(NARROW, id="narrow"), pytest.param(WIDE, id="wide", marks=pytest.mark.slow)]


def setdiff_loop(xp, v, thresholds):
    """``d = setdiff1d(x, x[x < t])`` for a new 0-d ``t`` every iteration (a new count each
    time: its sets' lengths are bucketed values)."""
    x = xp.asarray(v)
    sums, lengths = [], []
    for t in thresholds:
        d = xp.setdiff1d(x, x[x < xp.asarray(t)])
        sums.append(int(d.sum()))
        lengths.append(len(d))
    return sums, lengths


@pytest.mark.usefixtures("compiled_tier")
@pytest.mark.parametrize("thresholds", SPANS)
def test_setdiff_loop_builds_per_bucket(thresholds):
    lengths = [len(numpy.setdiff1d(L, L[L < t])) for t in thresholds]
    buckets = len({masked.bucket(n, L.size) for n in lengths})
    new = _per_bucket(lambda xp, v, k: setdiff_loop(xp, v, thresholds), L)
    # built per count before (the set routines' kernels of each count): 317 for the wide span's
    # 60 counts; now 124 for its 14 buckets (a dozen kernels a bucket: the unique, isin and
    # compaction of each)
    assert len(set(lengths)) > 40 and new <= 10 * buckets


@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_index_and_counts_are_bucketed(equal_nan):
    def body(xp, v, f):
        kept = v[v > 900]  # a compaction that lives on
        len(kept)
        results = [xp.unique(v % 37, return_counts=True, equal_nan=equal_nan),
                   xp.unique(f, return_index=True, equal_nan=equal_nan),
                   xp.unique(f, return_index=True, return_counts=True, equal_nan=equal_nan),
                   xp.unique(kept % 11, return_index=True, return_counts=True),
                   xp.unique_counts(f), xp.unique(kept % 11, True, True, True)[:2],
                   xp.unique_all(f)[:2], xp.unique(f, return_inverse=True)[:1]]
        if xp is tnp:
            assert all(_bucketed(r) for rs in results for r in rs)
        values, counts = results[0]
        inverses = [xp.unique(f, return_inverse=True, equal_nan=equal_nan)[1],
                    xp.unique(v[:4000].reshape(-1, 4) % 37, True, True)[2],  # its shape
                    xp.unique(kept % 11, True, True, True)[2],  # the input's layout
                    xp.unique_all(f)[2], xp.unique_inverse(kept % 5).inverse_indices]
        if xp is tnp:
            assert [_bucketed(i) for i in inverses] == [False, False, True, False, True]
        return results + inverses + [
            values[counts > 80], counts.sum(), len(results[1][1]), len(inverses[2]),
            xp.unique(f[:0], return_counts=True), xp.unique(v[:4000].reshape(-1, 4), axis=0)[:3],
            values[inverses[1]], xp.unique(v % 7, return_inverse=True, axis=0)]
    both(body, L, F)


def counts_loop(xp, v, thresholds):
    """``u, c = unique(x[x < t] // 3, return_counts=True)`` for a new 0-d ``t`` every
    iteration (a new length each time)."""
    x = xp.asarray(v)
    sums, lengths = [], []
    for t in thresholds:
        u, c = xp.unique(x[x < xp.asarray(t)] // 3, return_counts=True)
        sums.append(int((u * c).sum()))
        lengths.append(len(c))
    return sums, lengths


@pytest.mark.usefixtures("compiled_tier")
@pytest.mark.parametrize("thresholds", SPANS)
def test_unique_counts_loop_builds_per_bucket(thresholds):
    lengths = [len(numpy.unique(L[L < t] // 3)) for t in thresholds]
    buckets = len({masked.bucket(n, L.size) for n in lengths})
    new = _per_bucket(lambda xp, v, k: counts_loop(xp, v, thresholds), L)
    # built per count before (the exact path's kernels of each count): 308 for the wide span's
    # 60 counts; now 93 for its 19 buckets
    assert len(set(lengths)) > 40 and new <= 6 * buckets


def xor_loop(xp, v, thresholds):
    """``setxor1d``, ``intersect1d(return_indices=True)`` and ``unique(return_inverse=True)``
    of compactions by a new 0-d ``t`` every iteration (new lengths each time)."""
    x = xp.asarray(v)
    sums, lengths = [], []
    for t in thresholds:
        t = xp.asarray(t)
        y = x[x < t]
        s = xp.setxor1d(x[:2000] // 2, y // 3)
        i, i1, i2 = xp.intersect1d(y // 5, x[x >= t] // 7, return_indices=True)
        u, inv = xp.unique(y % 97, return_inverse=True)
        sums.append([int(s.sum()), int(i.sum()), int(i1.sum()), int(i2.sum()), int(inv.sum())])
        lengths.append(len(s))
    return sums, lengths


@pytest.mark.usefixtures("compiled_tier")
@pytest.mark.parametrize("thresholds", SPANS)
def test_xor_intersect_inverse_loop_builds_per_bucket(thresholds):
    counts = [int((L < t).sum()) for t in thresholds]
    buckets = len({masked.bucket(n, L.size) for n in counts})  # the compactions' buckets
    new = _per_bucket(lambda xp, v, k: xor_loop(xp, v, thresholds), L)
    # built per count before (the exact paths' kernels of each count): 4,800 for the wide
    # span's 60 iterations; now 605 for its 20 buckets of the compactions (their sets' buckets
    # in each), 129 for the narrow span's 4
    assert len(set(counts)) == 60 and new <= 40 * buckets
