"""The NumPy tier (``tnp._core.engine.tiering``): a cold graph or kernel runs on NumPy and gives
NumPy's values; a hot one is compiled in the background and swapped in; a megamorphic family
stops compiling; background compiles under threads. NumPy is the oracle of every value."""
import threading

import numpy
import pytest

import tnp as np
from tnp._core import settings
from tnp._core.engine import caches, tiering


@pytest.fixture
def cold(device_placement):
    previous = settings.update(cold="auto", cold_compiles=1)
    tiering.wait()  # (compiles other tests started do not count here)
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
