"""Masked updates keep static shapes (``tnp._core.array.masked``): a masked loop builds a bounded
number of executables, whatever its iteration count, and waits on no count. NumPy is the oracle
of the values (also ``conformance_tests/test_masked_updates.py``); these count compiles and
syncs."""
import numpy as np
import pytest

import tnp
from tnp._core.engine import caches, lazy, syncs
from test_masked_updates import mandelbrot  # (conformance_tests/: the loop as users write it)

pytestmark = pytest.mark.usefixtures("compiled_tier", "device_placement")


def _grid(h, w):
    return np.linspace(-2, 0.5, w)[None, :] + 1j * np.linspace(-1.25, 1.25, h)[:, None]


@pytest.mark.parametrize("lazy_on", [True, False], ids=["lazy", "eager"])
def test_masked_loop_builds_executables_independent_of_iterations(lazy_on):
    previous = lazy.enable(lazy_on)
    try:
        c = _grid(37, 29 if lazy_on else 31)  # shapes of this test's own
        built = caches.executables_built()
        for iterations in (30, 3):  # the loop's executables built (the first call's first
            mandelbrot(tnp, tnp.asarray(c), iterations)  # graphs differ from later calls')
        assert caches.executables_built() - built <= 12  # a few, for the first iterations
        built, counts = caches.executables_built(), syncs.COUNTS.copy()
        n, z = mandelbrot(tnp, tnp.asarray(c), 1000)
        assert caches.executables_built() == built  # 1,000 iterations: nothing new
        assert syncs.COUNTS == counts  # no iteration waited on a mask's count
        want_n, want_z = mandelbrot(np, c, 1000)
        np.testing.assert_array_equal(np.asarray(n), want_n)
        np.testing.assert_allclose(np.asarray(z), want_z, rtol=1e-6)
    finally:
        lazy.enable(previous)


def test_masked_loop_one_graph_per_iteration():
    c = tnp.asarray(_grid(23, 19))
    mandelbrot(tnp, c, 5)
    graphs = lazy.STATS["graphs"]
    flushes = lazy.STATS["flushes"]
    mandelbrot(tnp, c, 200)
    assert lazy.STATS["graphs"] == graphs  # every iteration's graph is a cached one
    assert lazy.STATS["flushes"] - flushes <= 200 + 2  # one per iteration (and the reads)


def test_masked_statement_syncs_nothing_and_materialising_syncs_once():
    x = tnp.asarray(np.arange(-6.0, 6.0).reshape(3, 4))
    y = tnp.asarray(np.linspace(1, 2, 12).reshape(3, 4))
    before = syncs.COUNTS.copy()
    m = x > 0
    x[m] = x[m] * y[m] + 1
    x[m] += 2
    x[m] = 0.5
    v = x[m] - y[m]
    assert syncs.COUNTS == before  # the masked forms: no count asked
    assert v.shape == (5,)  # asking the shape: the mask's count, once
    assert syncs.COUNTS - before == {"mask": 1}
    want_x = np.arange(-6.0, 6.0).reshape(3, 4)
    want_m = want_x > 0
    want_x[want_m] = 0.5
    np.testing.assert_array_equal(np.asarray(x), want_x)
    np.testing.assert_array_equal(np.asarray(v), want_x[want_m] - np.linspace(1, 2, 12).reshape(
        3, 4)[want_m])
