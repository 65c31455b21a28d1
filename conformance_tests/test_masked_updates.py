"""Masked updates against NumPy: ``x[m] = f(x[m], y[m], ...)`` and ``x[m] op= v`` with a boolean
mask of the target's shape (kept full size on the device: ``tnp._core.array.masked``), the
forms that stay masked and those that fall back to NumPy's compacted array (another mask, a
masked value printed, measured, reduced, iterated, converted), every written array compared."""
import warnings

import numpy as np
import pytest

import tnp
from engine import check

RNG = np.random.default_rng(7)
X = RNG.standard_normal((6, 5)) * 2
Y = RNG.standard_normal((6, 5)) * 2
I = RNG.integers(-5, 6, (6, 5))
C = (np.linspace(-2, 0.5, 5)[None, :] + 1j * np.linspace(-1.2, 1.2, 6)[:, None])


def mandelbrot(xp, c, iterations=12):
    z = xp.zeros_like(c)
    n = xp.zeros(c.shape, dtype=int)
    for k in range(iterations):
        m = abs(z) < 2
        n[m] = k
        z[m] = z[m] ** 2 + c[m]
    return n, z


def test_mandelbrot():
    check(lambda xp, c: mandelbrot(xp, c), C, rtol=1e-9)


@pytest.mark.parametrize("body", [
    lambda xp, x, y: x.__setitem__(x > 0, 3) or x,  # N[I] = n
    lambda xp, x, y: x.__setitem__(x > 0, x[x > 0] * 2 + 1) or x,  # a new mask each time
    lambda xp, x, y: (lambda m: x.__setitem__(m, x[m] * y[m] - 1.5))(x > y) or x,
    lambda xp, x, y: (lambda m: x.__setitem__(m, xp.sqrt(x[m]) + xp.exp(-y[m])))(x > 0) or x,
    lambda xp, x, y: (lambda m: x.__setitem__(m, xp.maximum(x[m], y[m]) / 3))(x < 1) or x,
    lambda xp, x, y: (lambda m: x.__setitem__(m, -x[m] ** 2))(y > 0) or x,
    lambda xp, x, y: (lambda m: x.__setitem__(m, y[m]))(y > 0) or x,
    lambda xp, x, y: (lambda m: x.__setitem__(m, x[m] * xp.asarray(2.0)))(y > 0) or x,
    lambda xp, x, y: (lambda m: x.__setitem__(m, x[m] + xp.float32(0.25)))(y > 0) or x,
], ids=["scalar", "same-expression", "two-arrays", "functions", "maximum", "power",
        "copy", "0-d", "numpy-scalar"])
def test_float_updates(body):
    check(body, X, Y)


def _iadd(xp, x, y):
    m = x > 0
    x[m] += 1
    return x


def _imul(xp, x, y):
    m = x > y
    x[m] *= y[m]
    return x


def _chain(xp, x, y):
    m = abs(x) < 1.5
    x[m] -= 0.5
    x[m] /= y[m]
    x[m] **= 2
    return x


@pytest.mark.parametrize("body", [_iadd, _imul, _chain])
def test_inplace_operators(body):
    check(body, X, Y)


def test_inplace_on_the_masked_value_itself():
    def body(xp, x, y):
        v = x[x > 0]
        v += 1
        v *= 2
        return v, x
    check(body, X, Y)


def test_masked_value_keeps_the_values_taken():
    def body(xp, x, y):
        m = x > 0
        v = x[m]
        x[m] = 0
        x += 1
        return v, x
    check(body, X, Y)


@pytest.mark.parametrize("body", [
    lambda xp, i, x: i.__setitem__(x > 0, x[x > 0] * 3) or i,  # float into int: truncation
    lambda xp, i, x: (lambda m: i.__setitem__(m, i[m] * 2 - 7))(i > 0) or i,
    lambda xp, i, x: (lambda m: i.__setitem__(m, i[m] // 2 + i[m] % 3))(i != 0) or i,
    lambda xp, i, x: i.__setitem__(i < 0, 2.9) or i,
    lambda xp, i, x: x.__setitem__(i > 0, i[i > 0] + 0.5) or x,  # int into float
    lambda xp, i, x: (lambda m: x.__setitem__(m, x[m] > 0))(i > 0) or x,  # bool into float
], ids=["float-into-int", "int", "floordiv", "float-scalar-into-int", "int-into-float",
        "bool-into-float"])
def test_mixed_dtypes(body):
    check(body, I, X)


def test_int_division_by_zero_outside_the_mask():
    def body(xp, i, d):
        m = d != 0
        i[m] = i[m] // d[m]
        return i
    check(body, I, np.where(I > 0, 0, I))


def test_int_negative_powers_outside_the_mask():
    def body(xp, i, e):
        m = e >= 0
        i[m] = i[m] ** e[m]
        return i
    check(body, I, I % 4 - 1)


def test_inplace_casting_refused_as_numpy():
    def body(xp, i, x):
        m = i > 0
        i[m] += 1.5  # NumPy: the float64 result is not cast to int64 ('same_kind')
        return i
    check(body, I, X)


def test_python_int_out_of_range():
    def body(xp, i):
        m = i > 0
        i[m] = i[m] + 200
        return i
    check(body, I.astype(np.int8))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.int16, np.uint8, np.bool_])
def test_dtypes(dtype):
    def body(xp, x, y):
        m = y > 0
        x[m] = x[m] + y[m].astype(x.dtype)
        return x
    check(body, (X * 3).astype(dtype), Y)


def test_float32_target_float64_values():
    def body(xp, x, y):
        m = y > 0
        x[m] = x[m] + y[m]  # float64 values, written as float32
        return x
    check(body, X.astype(np.float32), Y)


def test_complex():
    def body(xp, z, c):
        m = abs(z) < 1.5
        z[m] = z[m] * c[m] + 1j
        z[~m] = z[~m].conj()
        return z
    check(body, C * 0.9, C)


def test_complex_into_float_warns_as_numpy():
    results = []
    for xp in (np, tnp):
        x, c = xp.asarray(X.copy()), xp.asarray(C.copy())
        m = x > 0
        with pytest.warns(np.exceptions.ComplexWarning):
            x[m] = c[m] * 2
        results.append(np.asarray(x))
    np.testing.assert_array_equal(results[1], results[0])


def test_overflow_outside_the_mask_is_not_written():
    def body(xp, x):
        m = abs(x) < 1e200
        x[m] = x[m] ** 2
        return x
    big = X.copy()
    big[::2] = 1e300
    check(body, big)


def test_errstate_raise_sees_only_the_masked_elements():
    def body(xp, x):
        m = x != 0
        with xp.errstate(divide="raise"):
            x[m] = 1 / x[m]
        return x
    check(body, np.where(X > 0, 0.0, X))


def test_errstate_raise_inside_the_mask():
    def body(xp, x):
        m = x <= 0
        with xp.errstate(divide="raise"):
            x[m] = 1 / x[m]
        return x
    check(body, np.where(X > 0, 0.0, X))


@pytest.mark.parametrize("body", [
    lambda xp, x, y: x.__setitem__(x > 0, y[(x > 0).copy()]) or x,  # an equal, other mask
    lambda xp, x, y: x.__setitem__(x > 0, y[y > 0]) or x,  # counts differ: NumPy's ValueError
    lambda xp, x, y: x[:3].__setitem__(x[:3] > 0, y[:3][x[:3] > 0]) or x,
    lambda xp, x, y: y.__setitem__(Ellipsis, x[x > 0]) or y,  # broadcast: NumPy's error
    lambda xp, x, y: x[x > 0] + xp.arange(int((x > 0).sum())),  # another array: the count
    lambda xp, x, y: x[x > 0] + y[y > 0],  # another mask
    lambda xp, x, y: xp.add(x[x > 0], 1, dtype=np.float32),  # keywords
    lambda xp, x, y: x[x > 0][1:3],
    lambda xp, x, y: x[:, :2].__setitem__(x > 0, x[x > 0]) or x,  # the mask's shape differs
], ids=["equal-mask", "other-count", "view-of-mask", "broadcast", "arange", "other-mask",
        "keywords", "sliced", "shape-mismatch"])
def test_fallbacks(body):
    check(body, X, Y)


def test_mask_changed_in_between():
    def body(xp, x, y):
        m = x > 0
        v = y[m]
        m[0] = ~m[0]  # the mask written: v keeps the count it had
        x[m] = v
        return x
    check(body, X, Y)


@pytest.mark.parametrize("ask", [
    repr, str, len, lambda v: v.shape, lambda v: v.size, lambda v: v.ndim, lambda v: v.sum(),
    lambda v: list(v), lambda v: v.tolist(), lambda v: v.copy(), lambda v: v.dtype,
    lambda v: v.__class__.__name__, lambda v: v.mean() > 0, lambda v: v[1:3], lambda v: v[-1],
    lambda v: v.reshape(-1, 1), lambda v: bool(v[0] > 0),
], ids=["repr", "str", "len", "shape", "size", "ndim", "sum", "iter", "tolist", "copy",
        "dtype", "class", "mean", "slice", "element", "reshape", "bool"])
def test_masked_value_asked(ask):
    def body(xp, x, y):
        m = x > y
        return ask(x[m] * 2 + y[m])
    check(body, X, Y)


def test_masked_value_to_numpy():
    def body(xp, x, y):
        m = x > y
        return np.asarray(x[m] * 2 + y[m]), np.array(x[m])
    check(body, X, Y, host_ok=True)


@pytest.mark.parametrize("make", [
    lambda xp, x: x[1:, ::2],
    lambda xp, x: x.T,
    lambda xp, x: x[::-1],
], ids=["slice", "transpose", "reversed"])
def test_views_as_targets(make):
    def body(xp, x, y):
        v = make(xp, x)
        m = v > 0
        v[m] = v[m] * 10 + 1
        v[m] += 1
        return v, x
    check(body, X, Y)


def test_read_only_targets_raise():
    def body(xp, x, y):
        b = xp.broadcast_to(y[0], x.shape)
        m = x > 0
        b[m] = x[m] + 1
    check(body, X, Y)

    def body_inplace(xp, x, y):
        b = xp.broadcast_to(y[0], x.shape)
        b[x > 0] += 1
    check(body_inplace, X, Y)

    def body_scalar(xp, x, y):
        b = xp.broadcast_to(y[0], x.shape)
        b[x > 0] = 1
    check(body_scalar, X, Y)


@pytest.mark.parametrize("fill", [False, True], ids=["empty", "full"])
def test_empty_and_full_masks(fill):
    def body(xp, x, y):
        m = xp.full(x.shape, fill)
        x[m] = x[m] * y[m] + 1
        y[m] += 3
        v = x[m]
        return x, y, v, len(v)
    check(body, X, Y)


def test_one_dimensional_and_three_dimensional():
    def body(xp, a, b):
        m = a > 0
        a[m] = a[m] - b[m]
        return a
    check(body, X.ravel(), Y.ravel())
    check(body, X.reshape(2, 3, 5), Y.reshape(2, 3, 5))


def test_comparison_of_masked_values():
    def body(xp, x, y):
        m = x > 0
        k = x[m] > y[m]  # a masked bool: ``where`` (no ufunc) gets the compacted arrays
        x[m] = xp.where(k, x[m], 2.0)
        return x, k
    check(body, X, Y)


def test_masked_value_of_a_pending_and_of_a_host_mask():
    def body(xp, x, y):
        z = x * 2  # pending on the device
        m = xp.asarray(np.asarray(Y) > 0)
        z[m] = z[m] + y[m]
        return z
    check(body, X, Y)


def test_no_warning_for_masked_out_lanes():
    x = tnp.asarray(np.where(X > 0, 0.0, X))
    m = x != 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x[m] = 1 / x[m]
        np.asarray(x)


# Arrays over the host tier's split size (540,000 elements): in the default placement they stay
# on the host (the threshold over them) with two threads, so the masked steps run in pieces
# (``tnp._core.dispatch.host_pieces``); the device pass keeps them masked on the device.
LARGE = np.linspace(-2, 0.8, 900)[None, :] + 1j * np.linspace(-1.4, 1.4, 600)[:, None]


@pytest.fixture
def large_on_host(placement):
    from tnp._core import settings
    changed = settings.update(host_threshold=10 ** 8 if placement == "auto" else None,
                              host_threads=2)
    yield
    settings.restore(changed)


def _large_joined(xp, c):
    n, z = mandelbrot(xp, c, 4)
    m = abs(z) < 1
    v = z[m] * 2 + 1  # its length, a reduction and a slice of it: NumPy's compaction
    return n, z, len(v), abs(v).sum(), v[::1000]  # (v.sum(): its imaginary part cancels)


def _large_scalar_writes(xp, c):
    n = xp.zeros(c.shape, dtype=np.int32)
    m = abs(c) < 1
    n[m] = 7
    n[~m] = -3
    b = xp.zeros(c.shape, dtype=bool)
    b[m] = True
    return n, b


def _large_casts(xp, c):
    r = abs(c)
    m = r < 1.2
    r[m] = c[m]  # complex into float: NumPy's ComplexWarning and cast
    f = r.astype(np.float32)
    f[m] = r[m] * 3  # float64 into float32
    k = xp.zeros(c.shape, dtype=np.int64)
    k[m] = (r > 0.5)[m]  # bool into int
    return r, f, k


@pytest.mark.parametrize("body", [lambda xp, c: mandelbrot(xp, c, 5), _large_joined,
                                  _large_scalar_writes, _large_casts])
def test_large_masked_updates(large_on_host, body):
    check(body, LARGE, rtol=1e-9)  # (as test_mandelbrot: the device fuses z**2 + c)
