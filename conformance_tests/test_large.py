"""Large inputs (10^4 to 10^5 elements) through every family the engine handles differently by
size: elementwise ufuncs, reductions, sorting and searching, indexing and writes, small linear
algebra in large batches, FFTs. Every other test file stays under 10^4 elements (almost all
under 100), so these are what exercise the device paths whatever placement tnp picks for small
arrays. Kept to about half a minute on 2 cores: one shape per case, compiled once."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import check
from strategies import LARGE_MAX, LARGE_MIN, large_array, large_arrays

N = 50_000  # elements of a 1-d case
SHAPE2 = (250, 200)  # a 2-d case


def _body(name):
    def body(xp, *args):
        with np.errstate(all="ignore"):
            return getattr(xp, name)(*args)
    return body


def test_sizes_are_large():
    assert LARGE_MIN <= N <= LARGE_MAX and LARGE_MIN <= np.prod(SHAPE2) <= LARGE_MAX


# --- elementwise ufuncs ---------------------------------------------------------------------
# (name, dtype, exact): exact functions compared with no tolerance
UNARY = [("sin", "float64", False), ("exp", "float32", False), ("sqrt", "float64", False),
         ("log1p", "float32", False), ("floor", "float64", True), ("rint", "float32", True),
         ("spacing", "float64", True), ("negative", "int32", True), ("absolute", "int8", True),
         ("isnan", "complex64", True), ("invert", "uint16", True), ("sign", "float16", True),
         ("exp", "complex128", False)]
BINARY = [("add", "float32", True), ("multiply", "int64", True), ("divide", "float64", False),
          ("maximum", "float64", True), ("fmin", "float32", True), ("arctan2", "float64", False),
          ("nextafter", "float64", True), ("copysign", "float32", True),
          ("floor_divide", "int32", True), ("remainder", "int16", True),
          ("less_equal", "uint64", True), ("bitwise_xor", "uint8", True),
          ("power", "float64", False), ("hypot", "float32", False)]


def _tol(dt, exact):
    if exact:
        return dict(exact=True)
    return dict(atol={"e": 1e-3, "f": 1e-6, "F": 1e-6}.get(np.dtype(dt).char, 1e-12))


@pytest.mark.parametrize("name,dt,exact", UNARY, ids=lambda v: str(v))
def test_unary_large(name, dt, exact):
    a = large_array(dt, (N,), seed=1)
    check(_body(name), a, **_tol(dt, exact))


@pytest.mark.parametrize("name,dt,exact", BINARY, ids=lambda v: str(v))
def test_binary_large(name, dt, exact):
    a, b = large_array(dt, SHAPE2, seed=2), large_array(dt, SHAPE2, seed=3)
    if name == "power":
        a, b = np.abs(a), b % 7  # finite powers, and nan/inf from the edge values
    check(_body(name), a, b, **_tol(dt, exact))
    check(_body(name), a, b[0], **_tol(dt, exact))  # broadcasting a row


@settings(max_examples=4, deadline=None)
@given(large_arrays(choices=[np.dtype(c) for c in ("int32", "float32", "float64")]),
       st.sampled_from(["negative", "floor", "isfinite", "square"]))
def test_unary_large_hypothesis(a, name):
    check(_body(name), a, exact=name != "square" or a.dtype.kind in "iu",
          **({} if name != "square" or a.dtype.kind in "iu" else {"atol": 0.0}))


def _moderate(a):
    if a.dtype.kind in "iu":
        return a % 100
    if a.dtype.kind in "fc":
        big = ~np.isfinite(a) | (np.abs(a) > 100)
        a[big] = 1.5
    return a


# --- reductions -----------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ["float64", "float32", "int64", "bool", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, -1], ids=repr)
def test_reductions_large(dt, axis):
    # moderate values: with +-max among them a sum overflows or not by summation order,
    # which NumPy (pairwise) and XLA (a tree) choose differently
    a = _moderate(large_array(dt, SHAPE2, seed=4, allow_special=False))
    # running sums of 10^4 terms reach ~10^3: their rounding (NumPy adds left to right, XLA
    # in a tree) differs by a few ulps of that, not of the (possibly cancelled) result
    rtol, atol = (1e-4, 1e-3) if dt == "float32" else (1e-9, 1e-9)

    def body(xp, a):
        with np.errstate(all="ignore"):
            r = [xp.sum(a, axis=axis), xp.max(a, axis=axis), xp.argmin(a, axis=axis),
                 xp.cumsum(a, axis=axis if axis is not None else 0)]
            if dt != "bool":
                r += [xp.mean(a, axis=axis), xp.std(a, axis=axis)]
            return r
    check(body, a, rtol=rtol, atol=atol)


def test_cumsum_leading_negative_zero():
    """NumPy's cumsum starts from the first element: cumsum([-0.0, 1.0]) == [-0.0, 1.0] (a
    scan that adds it to the identity 0.0 drops the sign; found by test_reductions_large)."""
    check(lambda xp, a: (xp.cumsum(a), xp.cumsum(a.reshape(2, 2), axis=0)),
          np.array([-0.0, 1.0, 2.0, -0.0]))


def test_nan_reductions_large():
    a = large_array("float64", SHAPE2, seed=5)
    nan = np.isnan(a)
    a = _moderate(a)
    a[nan] = np.nan
    check(lambda xp, a: [xp.nansum(a, axis=0), xp.nanmax(a, axis=1), xp.nanargmin(a),
                         xp.isnan(a).sum(), xp.any(xp.isnan(a), axis=0)], a, rtol=1e-9,
          atol=1e-9)


# --- sorting and searching ------------------------------------------------------------------
@pytest.mark.parametrize("dt", ["float64", "int16", "complex64", "uint32"])
def test_sort_large(dt):
    a = large_array(dt, (N,), seed=6)
    a[::7] = a[0]  # ties: stability is visible
    # stable: NumPy's default (SIMD) sort puts equal keys (-0.0 and 0.0) in any order
    check(lambda xp, a: (xp.sort(a, stable=True), xp.argsort(a, stable=True)), a, exact=True)
    check(lambda xp, a: xp.sort(a.reshape(SHAPE2), axis=0, stable=True), a, exact=True)


def test_unique_searchsorted_large():
    a = large_array("int32", (N,), seed=7) % 500
    v = large_array("int32", (1000,), seed=8) % 600
    check(lambda xp, a, v: (xp.unique(a, return_counts=True),
                            xp.searchsorted(xp.sort(a), v, side="right")), a, v, exact=True)


# --- indexing and writes --------------------------------------------------------------------
def test_gather_and_masks_large():
    a = large_array("float64", SHAPE2, seed=9)
    rng = np.random.default_rng(10)
    idx = rng.integers(-SHAPE2[0], SHAPE2[0], 30_000)
    mask = rng.integers(0, 2, SHAPE2).astype(bool)
    check(lambda xp, a, i, m: (a[i[:300]], a[i, 3], a[m], a[:, ::-3][i[:200] % 100],
                               xp.take(a, i), a.ravel()[i * 7]), a, idx, mask, exact=True)


def test_writes_large():
    rng = np.random.default_rng(11)
    a = large_array("float32", (N,), seed=12)
    idx = rng.permutation(N)[:20_000]  # distinct: NumPy's order of repeated writes aside
    vals = large_array("float32", (20_000,), seed=13)
    mask = rng.integers(0, 2, N).astype(bool)

    def body(xp, a, i, v, m):
        a[i] = v
        a[m] = -1.5
        a[::3] *= 2
        xp.add.at(a, i % 1000, v)  # repeated indices accumulate
        xp.put(a, i[:100], v[:100])
        return a
    check(body, a, idx, vals, mask, rtol=2e-6, atol=1e-6)


def test_inplace_operator_view_large():
    a = large_array("int64", SHAPE2, seed=14)

    def body(xp, a):
        v = a[10:-10, ::2]
        v += 3
        v[v > 500] = 0
        return a, v.sum()
    check(body, a, exact=True)


# --- small linear algebra in large batches, and a 10^4-element matrix ------------------------
def test_linalg_batched_small():
    rng = np.random.default_rng(15)
    a = rng.standard_normal((3000, 3, 3)) + 4 * np.eye(3)  # 27,000 elements, well conditioned
    b = rng.standard_normal((3000, 3))
    check(lambda xp, a, b: (xp.linalg.solve(a, b[..., None])[..., 0], xp.linalg.det(a),
                            xp.linalg.inv(a), a @ b[..., None]), a, b, rtol=1e-9, atol=1e-11)
    check(lambda xp, a: xp.linalg.eigvalsh(a + xp.swapaxes(a, -1, -2)), a, rtol=1e-9,
          atol=1e-11)


def test_linalg_matrix_1e4():
    rng = np.random.default_rng(16)
    a = rng.standard_normal((100, 100)) + 10 * np.eye(100)
    check(lambda xp, a: (a @ a.T, xp.linalg.solve(a, a[:, 0]), xp.linalg.norm(a),
                         xp.linalg.slogdet(a)), a, rtol=1e-9, atol=1e-10)


# --- FFT --------------------------------------------------------------------------------------
def test_fft_large():
    # moderate values: with +-max among them every output overflows, in an order that
    # depends on the FFT algorithm (pocketfft's or XLA's)
    x = _moderate(large_array("complex128", (2**15,), seed=17, allow_special=False))
    r = _moderate(large_array("float64", (N,), seed=18, allow_special=False))
    img = _moderate(large_array("float32", (128, 128), seed=19, allow_special=False))
    check(lambda xp, x: (xp.fft.fft(x), xp.fft.ifft(x, norm="ortho")), x, rtol=1e-9,
          atol=1e-7)
    check(lambda xp, r: xp.fft.irfft(xp.fft.rfft(r), n=r.shape[0]), r, rtol=1e-9, atol=1e-9)
    check(lambda xp, a: xp.fft.fft2(a), img, rtol=1e-4, atol=1e-2)


# --- large host-tier arrays over several threads (dispatch/host_threads) ---------------------
SPLIT = [("sin", "float64"), ("exp", "float32"), ("absolute", "complex128"), ("less", "float64"),
         ("add", "int8"), ("divmod", "float64"), ("divide", "float64"), ("power", "complex64")]


@pytest.fixture
def host_split(placement, monkeypatch):
    """In the default placement, large arrays kept on the host tier and its ufunc calls split
    in pieces of 4,096 elements over three threads (the device pass is unchanged)."""
    from tnp._core import settings
    from tnp._core.dispatch import host_threads
    previous = settings.update(host_threshold=1 << 40, host_threads=3) if (
        placement == "auto") else {}
    monkeypatch.setattr(host_threads, "MIN_PIECE", 4096)
    monkeypatch.setattr(host_threads, "SPLIT_AT", 8192 if placement == "auto" else float("inf"))
    yield
    settings.restore(previous)


@pytest.mark.parametrize("name,dtype", SPLIT, ids=[f"{n}-{d}" for n, d in SPLIT])
def test_ufuncs_split_over_threads(host_split, name, dtype):
    """NumPy's values, dtypes and warnings (a zero divisor in the first and last pieces: NumPy
    warns once) whatever the split."""
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(N) * 10).astype(dtype) if dtype != "complex128" and dtype != (
        "complex64") else (rng.standard_normal(N) + 1j * rng.standard_normal(N)).astype(dtype)
    b = np.ones(N, dtype)
    b[0] = b[-1] = 0
    args = (a,) if getattr(np, name).nin == 1 else (a, b)
    check(lambda xp, *x: getattr(xp, name)(*x), *args)
