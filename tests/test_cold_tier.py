"""The NumPy tier (``tnp._core.engine.tiering``): a cold graph or kernel runs on NumPy and gives
NumPy's values; a hot one is compiled in the background and swapped in; a megamorphic family
stops compiling; background compiles under threads. NumPy is the oracle of every value."""
import threading

import numpy
import pytest

import tnp as np
from tnp._core import settings
from tnp._core.engine import caches, compilecache, tiering


@pytest.fixture
def cold(device_placement, monkeypatch):
    # (no persistent-cache index: what earlier processes compiled is not asked here; the
    # cache-first path has its own test, in fresh processes with a cache of their own)
    monkeypatch.setattr(compilecache, "_enabled", [False])
    monkeypatch.setattr(compilecache, "_index", [])
    previous = settings.update(cold="auto", cold_compiles=1)
    tiering.wait()  # (compiles other tests started do not count here)
    tiering._eager.clear()  # (nor their first-sighting compiles)
    yield
    tiering.wait()
    settings.restore(previous)


def _program(xp, x):
    y = xp.sin(x) * 2.5 + xp.exp(-x / 7.0)
    z = xp.where(y > 1, y, -y).cumsum()
    return z[::3].reshape(-1, 2) @ xp.ones((2, 3)), (x.astype(xp.int32) // 3) % 5


def test_cold_run_is_numpys_and_compiles_nothing(cold):
    a = numpy.linspace(-5, 5, 240)  # (a cumsum of 240 steps: under SCAN_STEPS)
    want = _program(numpy, a)
    before, stats = caches.executables_built(), tiering.stats()
    got = _program(np, np.asarray(a))
    for g, w in zip(got, want):
        g = numpy.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        numpy.testing.assert_array_equal(g, w)  # NumPy's rounding, bit for bit
    assert caches.executables_built() == before
    assert tiering.stats()["cold"] > stats["cold"]


def test_hot_graph_compiles_in_background_and_swaps(cold):
    a = numpy.arange(1000.0)
    x = np.asarray(a)
    stats = tiering.stats()
    for i in range(6):
        r = numpy.asarray(np.sqrt(x) * 3 - i)
        # (compiled: XLA's fused rounding, within an ulp)
        numpy.testing.assert_allclose(r, numpy.sqrt(a) * 3 - i, rtol=1e-15, atol=1e-13)
        tiering.wait()
    now = tiering.stats()
    assert now["background"] > stats["background"]
    assert now["compiled"] > stats["compiled"]
    assert now["critical"] == stats["critical"]
    built = caches.executables_built()  # the swapped-in executable is the one calls run:
    for i in range(3):  # (the background compile's cache key is the call's)
        r = numpy.asarray(np.sqrt(x) * 3 - i)
        numpy.testing.assert_allclose(r, numpy.sqrt(a) * 3 - i, rtol=1e-15, atol=1e-13)
    assert caches.executables_built() == built


def test_megamorphic_family_stops_compiling(cold):
    before = tiering.stats()["megamorphic"]
    for n in range(1, 40):
        a = numpy.arange(float(n * 7))
        for _ in range(2):  # seen twice: hot, compiled in the background
            r = numpy.asarray(np.cos(np.asarray(a)) + 1)
            numpy.testing.assert_allclose(r, numpy.cos(a) + 1, rtol=1e-15)
            tiering.wait()
    assert tiering.stats()["megamorphic"] > before


def test_background_compiles_under_threads(cold):
    a = numpy.arange(2000.0).reshape(40, 50)
    errors = []

    def work(k):
        try:
            x = np.asarray(a)
            for i in range(8):
                r = numpy.asarray((x * k + i).sum(axis=1))
                numpy.testing.assert_allclose(r, (a * k + i).sum(axis=1), rtol=1e-15)
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tiering.wait()
    assert not errors, errors


def test_forced_tier_runs_every_call_on_numpy(device_placement):
    previous = settings.update(cold="force")
    tiering.wait()
    try:
        a = numpy.arange(100.0)
        x = np.asarray(a)
        before = caches.executables_built()
        for i in range(4):
            numpy.testing.assert_array_equal(numpy.asarray(np.tanh(x) - i), numpy.tanh(a) - i)
        assert caches.executables_built() == before
    finally:
        settings.restore(previous)


def test_outputs_are_device_buffers_without_copy():
    from tnp._core.engine.interpreter_base import aligned
    buf = aligned((1000,), numpy.float64)
    buf[:] = 1.5
    dev = tiering._to_device([buf])[0]
    assert dev.unsafe_buffer_pointer() == buf.ctypes.data  # aliased, not copied
    view = numpy.arange(10.0)[::2]
    moved = tiering._to_device([view])[0]
    numpy.testing.assert_array_equal(numpy.asarray(moved), view)


def test_integer_division_on_numpy_tier(device_placement):
    """The NumPy tier's integer ``div``/``rem`` rules (``_safe_divisor``): division by zero and
    the minimum over -1 give NumPy's values through tnp's own kernels."""
    previous = settings.update(cold="force")
    try:
        for dtype in (numpy.int32, numpy.int64, numpy.uint8):
            info = numpy.iinfo(dtype)
            a = numpy.array([7, -7, 0, info.min, info.max, 5, info.min, -1]).astype(dtype)
            b = numpy.array([2, 2, 3, -1, 0, 0, 1, -1]).astype(dtype)
            x, y = np.asarray(a), np.asarray(b)
            for name in ("floor_divide", "remainder", "fmod"):
                with numpy.errstate(all="ignore"), np.errstate(all="ignore"):
                    want = getattr(numpy, name)(a, b)
                    got = numpy.asarray(getattr(np, name)(x, y))
                assert got.dtype == want.dtype and got.shape == want.shape
                numpy.testing.assert_array_equal(got, want, err_msg=f"{name} {dtype}")
    finally:
        settings.restore(previous)


def test_abs_of_complex_on_numpy_tier(device_placement, monkeypatch):
    """``abs`` of a complex array traces to ``hypot(real(z), imag(z))``: the NumPy tier runs it
    as NumPy's ``abs(z)`` (``interpreter_elementwise._abs``), bit for bit, infinities and NaN
    parts included, alone and inside a graph (the masked Mandelbrot's ``abs(Z) < 2``);
    ``hypot`` of two real arrays stays its own jaxpr, within NumPy's rounding."""
    from tnp._core.engine import interpreter_base
    function, rule = interpreter_base.PARTS["hypot"]
    ran = []
    monkeypatch.setitem(interpreter_base.PARTS, "hypot",
                        (function, lambda eqn, z: ran.append(z.dtype) or rule(eqn, z)))
    previous = settings.update(cold="force")
    try:
        parts = numpy.array([0.0, 1.0, -3.0, numpy.inf, -numpy.inf, numpy.nan, 1e308, 1e-320,
                             5.0, 0.1])
        for dtype in (numpy.complex128, numpy.complex64):
            z = numpy.empty(5000, dtype)  # (over the rules' BIG: an aligned output)
            with numpy.errstate(over="ignore"):  # (1e308 is inf in complex64)
                z.real, z.imag = numpy.resize(parts, 5000), numpy.resize(parts[::-1], 5000)
            for a in (z[:10], z):
                x = np.asarray(a)
                got, want = numpy.asarray(abs(x)), abs(a)
                assert got.dtype == want.dtype and got.shape == want.shape
                numpy.testing.assert_array_equal(got, want)
                got, want = numpy.asarray(abs(-x) < 2), abs(-a) < 2
                assert got.dtype == want.dtype
                numpy.testing.assert_array_equal(got, want)
        assert set(ran) == {numpy.dtype(numpy.complex128), numpy.dtype(numpy.complex64)}
        ran.clear()
        a, b = numpy.linspace(-3, 5, 3000), numpy.linspace(7, -12, 3000)
        got, want = numpy.asarray(np.hypot(np.asarray(a), np.asarray(b))), numpy.hypot(a, b)
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got, want, rtol=4e-16)
        assert not ran
    finally:
        settings.restore(previous)


def _accelerations(xp, pos, mass):
    diff = pos[None, :, :] - pos[:, None, :]
    r2 = (diff ** 2).sum(axis=2) + 1e-4
    return (diff * (mass[None, :] / r2 ** 1.5)[:, :, None]).sum(axis=1)


def _check_sums(got, want):
    """A compiled sum's order differs from NumPy's: within 1e-12 of the largest value."""
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * numpy.abs(want).max())


def test_large_graph_compiles_at_first_sighting(cold):
    """The cost rule (``tiercost``): an N-body step's graph over 2,000 x 2,000 pairs (as in
    examples/nbody.py) costs the NumPy tier more than a compile: compiled at once (``eager``),
    not run cold."""
    rng = numpy.random.default_rng(0)
    pos, mass = rng.normal(size=(2000, 3)), rng.uniform(0.5, 1.5, 2000)
    before = tiering.stats()
    _check_sums(_accelerations(np, np.asarray(pos), np.asarray(mass)),
                _accelerations(numpy, pos, mass))
    now = tiering.stats()
    assert now["eager"] == before["eager"] + 1
    assert now["cold"] == before["cold"]


def test_small_graph_runs_cold_and_growing_family_waits(cold):
    """A small cold graph runs on NumPy; large graphs compiled at their first sighting that
    never run again (an array growing every call) stop those compiles after
    ``EAGER_WASTE``."""
    before = tiering.stats()
    a = numpy.linspace(-1, 1, 1000)
    numpy.testing.assert_array_equal(numpy.asarray(np.sin(np.asarray(a)) * 3 - 1),
                                     numpy.sin(a) * 3 - 1)  # (NumPy's rounding: cold)
    assert tiering.stats()["cold"] == before["cold"] + 1
    assert tiering.stats()["eager"] == before["eager"]
    rng = numpy.random.default_rng(1)
    eager = tiering.stats()["eager"]
    for n in range(2000, 2000 + tiering.EAGER_WASTE + 2):  # a new shape each call, large
        pos, mass = rng.normal(size=(n, 3)), rng.uniform(0.5, 1.5, n)
        _check_sums(_accelerations(np, np.asarray(pos), np.asarray(mass)),
                    _accelerations(numpy, pos, mass))
    assert tiering.stats()["eager"] == eager + tiering.EAGER_WASTE


_CACHED_PROGRAM = """
import json, sys
import numpy
import tnp as np
from tnp._core import settings
from tnp._core.engine import compilecache, tiercost, tiering
settings.update(placement="device", cold="auto")
tiercost.COMPILE_BASE = 1e3  # (the rule never compiles at a first sighting: only the cache)
tiercost.LOAD_BASE = tiercost.LOAD_PER_EQN = 0.0
a = numpy.linspace(-2, 2, 5000)
out = []
for i in range(3):
    out.append(numpy.asarray(np.cos(np.asarray(a + i)) * 2.5).tolist())
    tiering.wait()
print(json.dumps({"values": out, "stats": tiering.stats(), "counts": compilecache.counts()}))
"""


def test_second_process_loads_what_the_first_compiled(tmp_path):
    """A graph compiled by an earlier process (its stable key in the persistent cache's
    index) is loaded at its first sighting in the next one: no NumPy-tier run, no compile."""
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, TNP_COMPILATION_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TNP_COLD", None)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runs = [json.loads(subprocess.run([sys.executable, "-c", _CACHED_PROGRAM], env=env, cwd=root,
                                      check=True, capture_output=True, text=True).stdout)
            for _ in range(2)]
    a = numpy.linspace(-2, 2, 5000)
    for run in runs:
        for i, got in enumerate(run["values"]):
            numpy.testing.assert_allclose(got, numpy.cos(a + i) * 2.5, rtol=1e-15, atol=1e-15)
    first, second = runs[0]["stats"], runs[1]["stats"]
    assert first["cold"] >= 1 and first["background"] >= 1 and first["cached"] == 0
    assert second["cold"] == 0 and second["cached"] >= 1 and second["background"] == 0
    assert runs[1]["counts"]["compiles"] == 0 and runs[1]["counts"]["loaded"] >= 1


def test_fft_on_numpy_tier(device_placement):
    """``fft`` (every transform type) has a NumPy rule (``interpreter_reductions._fft``): a cold
    transform of a new length runs NumPy's pocketfft, no fallback compile, NumPy's values (the
    NumPy test suite's ``TestFFT1D::test_identity`` loops over 511 lengths)."""
    previous = settings.update(cold="force")
    try:
        rng = numpy.random.default_rng(0)
        before, stats = caches.executables_built(), tiering.stats()
        for n in (5, 8, 13):
            z = rng.random((3, n)) + 1j * rng.random((3, n))
            r = rng.random((3, n)).astype(numpy.float32)
            for got, want in ((np.fft.fft(np.asarray(z)), numpy.fft.fft(z)),
                              (np.fft.ifft(np.asarray(z), axis=0), numpy.fft.ifft(z, axis=0)),
                              (np.fft.fft2(np.asarray(z)), numpy.fft.fft2(z)),
                              (np.fft.rfft(np.asarray(r)), numpy.fft.rfft(r)),
                              (np.fft.irfft(np.asarray(z), n), numpy.fft.irfft(z, n)),
                              (np.fft.ifft(np.asarray(z), 2 * n), numpy.fft.ifft(z, 2 * n))):
                got = numpy.asarray(got)
                assert got.dtype == want.dtype and got.shape == want.shape
                numpy.testing.assert_allclose(got, want, rtol=1e-6 if r.dtype == got.dtype
                                              else 1e-12, atol=1e-6)
        assert caches.executables_built() == before
        assert tiering.stats()["fallbacks"] == stats["fallbacks"] and not tiering.MISSING["fft"]
    finally:
        settings.restore(previous)


def test_outer_product_on_numpy_tier_keeps_signed_zeros(device_placement):
    """A ``dot_general`` without a contraction (an optimised ``einsum('i,j->ij')``) is the
    products themselves on the NumPy tier: ``0.0 * -1.0`` is NumPy's ``-0.0`` (a BLAS product
    sums from +0.0)."""
    previous = settings.update(cold="force")
    try:
        a, b = numpy.array([0.0, 1.0]), numpy.array([-0.0, -1.0, -2.0])
        for got, want in ((np.einsum("i,j->ij", np.asarray(a), np.asarray(b), optimize=True),
                           numpy.einsum("i,j->ij", a, b, optimize=True)),
                          (np.outer(np.asarray(a), np.asarray(b)), numpy.outer(a, b))):
            got = numpy.asarray(got)
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_array_equal(got, want)
            numpy.testing.assert_array_equal(numpy.signbit(got), numpy.signbit(want))
    finally:
        settings.restore(previous)
