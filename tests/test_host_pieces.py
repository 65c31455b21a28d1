"""Large host-tier compactions kept in pieces (``tnp._core.dispatch.host_pieces``): a masked
update of large host arrays gives NumPy's values, shapes, dtypes, warnings and errors, writes
what NumPy writes, and the pieces value behaves as NumPy's compacted array everywhere."""
import threading
import warnings

import numpy as np
import pytest

import tnp
from tnp._core import settings
from tnp._core.dispatch import host_pieces, host_threads

SHAPE = (600, 900)  # 540,000 elements: two pieces (host_threads.SPLIT_AT with two threads)


@pytest.fixture(autouse=True)
def host_two_threads():
    """Large arrays on the host tier (the threshold over them), two threads."""
    previous = settings.update(placement="auto", host_threshold=10 ** 8, host_threads=2)
    assert SHAPE[0] * SHAPE[1] >= host_threads.SPLIT_AT
    yield
    settings.restore(previous)


def _grid(xp):
    y, x = xp.ogrid[-1.4:1.4:SHAPE[0] * 1j, -2:0.8:SHAPE[1] * 1j]
    return x + 1j * y


def _fractal(xp, iterations):
    C = _grid(xp)
    Z = xp.zeros_like(C)
    N = xp.zeros(C.shape, dtype=int)
    for n in range(iterations):
        I = abs(Z) < 2
        N[I] = n
        Z[I] = Z[I] ** 2 + C[I]
    return N, Z, I


def _same(got, want):
    assert isinstance(got, tnp.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


def test_masked_update_loop_is_numpys_and_uses_pieces():
    got, want = _fractal(tnp, 12), _fractal(np, 12)
    for g, w in zip(got, want):
        _same(g, w)
    Z, I = got[1], got[2]
    assert type(Z[I]) is host_pieces.PiecesValue  # (the loop above ran in pieces)


def _values(xp):
    N, Z, I = _fractal(xp, 6)
    return N, Z, I, _grid(xp)


def test_pieces_value_is_numpys_compaction_everywhere():
    N, Z, I, C = _values(tnp)
    n, z, i, c = _values(np)
    v, w = Z[I], z[i]
    assert type(v) is host_pieces.PiecesValue
    assert v.shape == w.shape and len(v) == len(w) and v.size == w.size and v.dtype == w.dtype
    assert v.ndim == 1 and isinstance(v, tnp.ndarray) and v.__class__ is tnp.ndarray
    assert type(v) is host_pieces.PiecesValue  # (shape, len and dtype asked no join)
    assert repr(v) == repr(w) and str(v) == str(w)
    for got, want in ((v.sum(), w.sum()), (v[3], w[3]), (v[-1], w[-1])):
        assert type(got) is type(want) and got == want
    _same(v[5:50:3], w[5:50:3])
    assert [complex(x) for x in v[:4]] == [complex(x) for x in w[:4]]
    assert list(iter(Z[I]))[:3] == list(iter(w))[:3]
    np.testing.assert_array_equal(np.asarray(Z[I]), w)
    u = C[I]
    u[0] = 5  # a write to it: an ordinary array after
    x = c[i]
    x[0] = 5
    _same(u, x)
    assert type(u) is tnp.ndarray and u.flags.writeable and u.flags.c_contiguous


def test_ufuncs_of_pieces_values():
    N, Z, I, C = _values(tnp)
    n, z, i, c = _values(np)
    cases = [
        (lambda a, b: a * 2.0 + b, "a Python scalar"),
        (lambda a, b: np.float32(3) * a - b, "a NumPy scalar"),
        (lambda a, b: abs(a) < 1.5, "a comparison (bool)"),
        (lambda a, b: a.real.astype(np.float32) + 1, "after a join (real)"),
    ]
    for fn, name in cases:
        _same(fn(Z[I], C[I]), fn(z[i], c[i]))
    assert type(Z[I] * 2.0 + C[I]) is host_pieces.PiecesValue  # (kept in pieces)
    k = int(np.count_nonzero(i))
    _same(Z[I] + tnp.ones(k), z[i] + np.ones(k))  # an ordinary array: joined, NumPy's sum
    J = I.copy()
    _same(Z[I] + C[J], z[i] + c[i.copy()])  # another mask array: joined


def test_snapshot_writes_and_masks_changed_after():
    N, Z, I, C = _values(tnp)
    n, z, i, c = _values(np)
    v, w = Z[I], z[i]
    Z[...] = 7  # the value was taken before: NumPy's copy keeps the old values
    z[...] = 7
    _same(v, w)
    v, w = C[I] * 2, c[i] * 2
    I[:300] = False  # the mask written since: the write joins the value, NumPy's error
    i[:300] = False
    with pytest.raises(ValueError) as want:
        z[i] = w
    with pytest.raises(type(want.value)):
        Z[I] = v
    _same(Z, z)


def test_masked_write_casts_and_read_only_targets():
    N, Z, I, C = _values(tnp)
    n, z, i, c = _values(np)
    F, f = abs(Z), abs(z)
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        F[I] = Z[I]  # complex into float: not a safe cast, NumPy's write and ComplexWarning
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        f[i] = z[i]
    assert [w.category for w in got_w] == [w.category for w in want_w]
    _same(F, f)
    F2, f2 = abs(Z).astype(np.float32), abs(z).astype(np.float32)
    F2[I] = abs(Z)[I] * 2  # float64 into float32: NumPy's unsafe setitem cast
    f2[i] = abs(z)[i] * 2
    _same(F2, f2)
    N[I] = (abs(Z) < 1)[I]  # bool into int: safe, in pieces
    n[i] = (abs(z) < 1)[i]
    _same(N, n)
    R = tnp.array(N)
    R.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        R[I] = Z[I].real.astype(int)
    _same(R, n)


@pytest.mark.parametrize("value", [3, 2.75, True, 1 + 2j, 2 ** 70, -1])
@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.float32, np.complex128, np.bool_])
def test_scalar_masked_writes(value, dtype):
    _, _, I, _ = _values(tnp)
    _, _, i, _ = _values(np)
    T, t = tnp.zeros(SHAPE, dtype), np.zeros(SHAPE, dtype)
    try:
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            t[i] = value
    except Exception as e:
        with pytest.raises(type(e)):
            T[I] = value
    else:
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            T[I] = value
        assert [w.category for w in got_w] == [w.category for w in want_w]
    _same(T, t)


def test_scalar_masked_write_is_in_pieces():
    _, _, I, _ = _values(tnp)
    _, _, i, _ = _values(np)
    T, t = tnp.zeros(SHAPE, np.int32), np.zeros(SHAPE, np.int32)
    assert host_pieces.fills(T, I, 9)
    t[i] = 9
    _same(T, t)
    assert not host_pieces.fills(T, I, "9")  # (not a Python number: NumPy's own setitem)


def test_floating_point_errors_are_numpys():
    N, Z, I, C = _values(tnp)
    n, z, i, c = _values(np)
    big, bbig = Z[I] * 1e200, z[i] * 1e200
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = big * big
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = bbig * bbig
    assert [(w.category, str(w.message)) for w in got_w] == [
        (w.category, str(w.message)) for w in want_w]
    _same(got, want)
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError):
            Z[I] * 1e200 * 1e200


def test_masked_updates_in_threads():
    """Each thread updates its own arrays in pieces (the pool shared): NumPy's results."""
    results, errors = {}, []

    def run(k):
        try:
            results[k] = _fractal(tnp, 3 + k)
        except BaseException as e:  # (reported below)
            errors.append(e)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(3):
        for g, w in zip(results[k], _fractal(np, 3 + k)):
            _same(g, w)


def test_small_and_views_are_not_pieces():
    N, Z, I, C = _values(tnp)
    small = Z[:10, :10]
    assert type(Z[:100][I[:100]]) is tnp.ndarray  # a view: NumPy's own indexing
    assert type(tnp.array(small)[abs(small) < 2]) is tnp.ndarray  # small
    none = tnp.zeros(SHAPE, bool)
    none[0, :5] = True
    assert type(Z[none]) is tnp.ndarray  # few true elements: joined at once


def test_a_site_whose_pieces_were_joined_takes_numpys_compaction():
    """A compaction whose pieces value was joined (``x[m].sum()``: a copy as long as the
    gather) makes that program site's next compactions NumPy's own; one written piece by
    piece keeps its site in pieces."""
    N, Z, I, C = _values(tnp)
    n, z, i, c = _values(np)
    kinds = []
    for _ in range(3):
        v = Z[I]
        kinds.append(type(v))
        assert v.sum() == z[i].sum()
    assert kinds == [host_pieces.PiecesValue, tnp.ndarray, tnp.ndarray]
    kinds = []
    for _ in range(3):
        v = C[I]
        kinds.append(type(v))
        Z[I] = v * 0.5
    z[i] = c[i] * 0.5
    assert kinds == [host_pieces.PiecesValue] * 3
    _same(Z, z)
