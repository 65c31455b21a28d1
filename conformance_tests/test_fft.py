"""numpy.fft: every transform with n/s, axis/axes, norm and out=, the frequency helpers, shifts."""
import inspect
import itertools

import numpy as np
import pytest

import tnp
from engine import check
from matrix import rotated
from strategies import ALL_DTYPES

NORMS = [None, "backward", "ortho", "forward"]
REAL = [d for d in ALL_DTYPES if d.kind != "c"]


def _tol(dt):
    """FFT round-off: pocketfft and XLA's FFT differ by a few ulps of the largest term."""
    return dict(rtol=1e-4, atol=1e-3) if np.dtype(dt).char in "eFf" else dict(rtol=1e-10,
                                                                               atol=1e-10)


def _data(dt, shape=(2, 3, 4)):
    dt = np.dtype(dt)
    rng = np.random.default_rng(0)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(0, 5, shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _prec(dt):
    return np.result_type(dt, 1j)


@pytest.mark.parametrize("norm,dt", rotated(itertools.product(NORMS, ALL_DTYPES), 2), ids=str)
def test_1d_transforms(dt, norm):
    a = _data(dt)
    tol = _tol(_prec(dt))

    def body(xp, a):
        out = [xp.fft.fft(a, norm=norm), xp.fft.ifft(a, norm=norm),
               xp.fft.fft(a, n=3, axis=1, norm=norm), xp.fft.ifft(a, n=6, axis=0, norm=norm),
               xp.fft.irfft(a, norm=norm), xp.fft.irfft(a, n=5, axis=1, norm=norm),
               xp.fft.hfft(a, norm=norm), xp.fft.hfft(a, n=7, axis=0, norm=norm)]
        if a.dtype.kind != "c":
            out += [xp.fft.rfft(a, norm=norm), xp.fft.rfft(a, n=5, axis=0, norm=norm),
                    xp.fft.ihfft(a, norm=norm), xp.fft.ihfft(a, n=3, axis=1, norm=norm)]
        return out
    check(body, a, **tol)


@pytest.mark.parametrize("norm,dt", rotated(itertools.product(
    NORMS, ["float32", "float64", "complex64", "complex128", "int16"]), 2), ids=str)
def test_nd_transforms(dt, norm):
    a = _data(dt)
    tol = _tol(_prec(dt))

    def body(xp, a):
        out = [xp.fft.fftn(a, norm=norm), xp.fft.ifftn(a, norm=norm),
               xp.fft.fft2(a, norm=norm), xp.fft.ifft2(a, norm=norm),
               xp.fft.fftn(a, s=(3, 5), axes=(0, 2), norm=norm),
               xp.fft.ifftn(a, axes=(1,), norm=norm), xp.fft.fftn(a, axes=(0, 0), norm=norm),
               xp.fft.fft2(a, s=(2, -1), norm=norm),
               xp.fft.irfftn(a, norm=norm), xp.fft.irfft2(a, norm=norm),
               xp.fft.irfftn(a, s=(4, 5), axes=(2, 1), norm=norm),
               xp.fft.irfft2(a, s=(3, 3), norm=norm)]
        if a.dtype.kind != "c":
            out += [xp.fft.rfftn(a, norm=norm), xp.fft.rfft2(a, norm=norm),
                    xp.fft.rfftn(a, s=(3, 6), axes=(2, 0), norm=norm)]
        return out
    check(body, a, **tol)


def test_round_trips():
    a = _data("float64")
    check(lambda xp, a: xp.fft.irfftn(xp.fft.rfftn(a), s=a.shape, axes=(0, 1, 2)), a,
          **_tol("complex128"))
    check(lambda xp, a: xp.fft.ifft(xp.fft.fft(a)), a, **_tol("complex128"))
    check(lambda xp, a: xp.fft.hfft(xp.fft.ihfft(a), n=a.shape[-1]), a, **_tol("complex128"))


def test_deprecated_s_forms():
    a = _data("float64")
    check(lambda xp, a: xp.fft.fftn(a, s=(3, 5)), a, **_tol("complex128"))
    check(lambda xp, a: xp.fft.fftn(a, s=(None, 5), axes=(0, 1)), a, **_tol("complex128"))


def test_errors():
    a = _data("float64")
    c = _data("complex128")
    check(lambda xp, a: xp.fft.fft(a, n=0), a)
    check(lambda xp, a: xp.fft.fft(a, norm="bogus"), a)
    check(lambda xp, a: xp.fft.hfft(a, norm="bogus"), a)
    check(lambda xp, a: xp.fft.fft(a, axis=3), a)
    check(lambda xp, a: xp.fft.fft(a, axis=-4), a)
    check(lambda xp, a: xp.fft.fftn(a, s=(2, 2), axes=(0,)), a)
    check(lambda xp, a: xp.fft.fftn(a, axes=(5,)), a)
    check(lambda xp, a: xp.fft.rfft(a), c)
    check(lambda xp, a: xp.fft.ihfft(a), c)
    check(lambda xp, a: xp.fft.fft(a), np.zeros((2, 0)))
    check(lambda xp, a: xp.fft.irfft(a), np.ones(1))
    check(lambda xp, a: xp.fft.fft(a), np.float64(1.0))


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
def test_out(dt):
    a = _data(dt)
    cdt, rdt = _prec(dt), np.empty(0, _prec(dt)).real.dtype

    def body(xp, a):
        o1 = xp.zeros(a.shape, cdt)
        r1 = xp.fft.fft(a, out=o1)
        o2 = xp.zeros(a.shape[:-1] + (6,), rdt)
        r2 = xp.fft.irfft(a, out=o2)
        o3 = xp.zeros(a.shape, cdt)
        r3 = xp.fft.fftn(a, out=o3)
        return r1 is o1, r2 is o2, r3 is o3, o1, o2, o3
    check(body, a, **_tol(cdt))
    check(lambda xp, a: xp.fft.fft(a, out=xp.zeros((2, 3, 5), cdt)), a)


@pytest.mark.parametrize("n", [1, 4, 7])
@pytest.mark.parametrize("d", [1.0, 0.25, np.float32(2.0), 3, 1j])
def test_frequencies(n, d):
    check(lambda xp: [xp.fft.fftfreq(n, d), xp.fft.rfftfreq(n, d)], rtol=1e-12)


def test_frequency_errors_and_device():
    check(lambda xp: xp.fft.fftfreq(4, device="cpu"))
    check(lambda xp: xp.fft.rfftfreq(4, 0.5, device="cpu"))
    check(lambda xp: xp.fft.fftfreq(4, device="gpu"))
    check(lambda xp: xp.fft.fftfreq(4.0))
    check(lambda xp: xp.fft.rfftfreq(np.int8(5)))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_shifts(dt):
    a = _data(dt, (3, 4))
    check(lambda xp, a: [xp.fft.fftshift(a), xp.fft.ifftshift(a), xp.fft.fftshift(a, axes=0),
                         xp.fft.ifftshift(a, axes=(1,)), xp.fft.fftshift(a, axes=(-1, 0)),
                         xp.fft.ifftshift(xp.fft.fftshift(a))], a)
    check(lambda xp, a: xp.fft.fftshift(a, axes=2), a)
    check(lambda xp: xp.fft.fftshift([1, 2, 3]))
    check(lambda xp: xp.fft.ifftshift([[1, 2, 3], [4, 5, 6]]))
    check(lambda xp: xp.fft.fftshift(5.0))  # NumPy raises (a 0-d input has no axes to unpack)


def test_namespace_complete_and_signatures():
    import tnp.fft as tf
    for name in np.fft.__all__:
        assert name in vars(tf), f"tnp.fft.{name} is not native"
        ours = [(p.name, p.kind, p.default) for p in inspect.signature(
            getattr(tf, name)).parameters.values()]
        theirs = [(p.name, p.kind, p.default) for p in inspect.signature(
            getattr(np.fft, name)).parameters.values()]
        assert ours == theirs, name
    assert isinstance(tnp.fft.fft(tnp.ones(4)), tnp.ndarray)


@pytest.mark.parametrize("call", [
    lambda xp, x, c: xp.fft.fft(x, out=""),
    lambda xp, x, c: xp.fft.fft(x, out=xp.zeros((5, 6))),  # wrong shape before any cast
    lambda xp, x, c: xp.fft.fft(x, out=xp.zeros(30)),  # complex into float: NumPy's TypeError
    lambda xp, x, c: xp.fft.rfft(x, out=xp.zeros(16, "int64")),
    lambda xp, x, c: xp.fft.irfft(c, out=xp.zeros((10, 5, 9), complex)),
    lambda xp, x, c: xp.fft.fftn(c, out=xp.zeros_like(c), s=(3, 3, 3), axes=(0, 1, 2)),
    lambda xp, x, c: xp.fft.rfftn(c.real, out=xp.zeros_like(c), s=(3, 3, 3), axes=(0, 1, 2)),
    lambda xp, x, c: xp.fft.fftn(c, out=xp.zeros((3, 5, 6), complex), s=(3, 5, 6),
                                 axes=(0, 1, 2)),  # each step is written to out: its shape
    lambda xp, x, c: xp.fft.irfftn(c, out=xp.zeros((3, 3, 3)), s=(3, 3, 3), axes=(0, 1, 2)),
    lambda xp, x, c: xp.fft.fft(x, out=xp.zeros(30, "complex64")),
])
def test_out_errors(call):
    # out= is checked as NumPy's ufuncs check it: its type, its shape, the 'same_kind' cast
    x = np.arange(30.0)
    c = np.random.default_rng(0).random((10, 5, 6)) + 1j
    check(call, x, c, **_tol("complex64"))
