"""Compactions that live on compile a bounded number of executables: every kernel of an
``x = x[m]`` loop and of ``nonzero``/``argwhere``/``compress``/``unique`` goes through the one
tiering mechanism (``jaxload.jit``), so on the CPU a count never seen runs on the NumPy tier
and only a count seen again compiles, in the background; no kernel lacks a NumPy rule (no
fallback compile on the program's path). NumPy is the oracle of the values
(``conformance_tests/test_compactions.py``); these count compiles."""
import numpy
import pytest

import tnp
from tnp._core import settings
from tnp._core.engine import caches, tiering
from test_compactions import compacting_mandelbrot  # (conformance_tests/: the loop as written)


@pytest.fixture
def cold(device_placement):
    previous = settings.update(cold="auto", cold_compiles=1)
    tiering.wait()  # (compiles other tests started do not count here)
    yield
    tiering.wait()
    settings.restore(previous)


def _grid(h, w):
    return (numpy.linspace(-2.1, 0.7, w)[None, :] + 1j * numpy.linspace(-1.3, 1.3, h)[:, None]
            ).ravel()


def test_shrinking_loop_builds_bounded_executables(cold):
    compacting_mandelbrot(tnp, tnp.asarray(_grid(43, 39)), 30)  # the loop's kernels, once
    c = _grid(37, 41)  # shapes of this test's own
    before, stats = caches.executables_built(), tiering.stats()
    escape, z, idx, lengths = compacting_mandelbrot(tnp, tnp.asarray(c), 400)
    tiering.wait()
    now = tiering.stats()
    assert len(set(lengths)) > 30  # the active set's count changed that often ...
    # ... and only counts seen again compiled (the steady tail's), whatever the iterations
    assert caches.executables_built() - before <= 32
    assert now["critical"] == stats["critical"]  # none on the program's path
    assert now["fallbacks"] == stats["fallbacks"]  # every primitive has a NumPy rule
    want = compacting_mandelbrot(numpy, c, 400)
    numpy.testing.assert_array_equal(numpy.asarray(escape), want[0])
    numpy.testing.assert_array_equal(numpy.asarray(idx), want[2])
    numpy.testing.assert_allclose(numpy.asarray(z), want[1], rtol=1e-9, atol=1e-12)
    assert lengths == want[3]


def test_nonzero_family_loop_compiles_nothing_on_the_path(cold):
    v = (numpy.arange(7919) * 7919) % 10007
    stats = tiering.stats()
    for n in range(12):  # a new count every iteration
        for xp in (numpy, tnp):
            x = xp.asarray(v)
            sel = x < 3000 + 211 * n
            got = [xp.nonzero(sel)[0], xp.argwhere(sel), xp.flatnonzero(sel),
                   xp.extract(sel, x), xp.compress(sel, x), xp.unique(x[sel] % (97 + n)),
                   xp.unique(x[sel] % 13, return_inverse=True, return_counts=True)[1:]]
            if xp is numpy:
                want = got
        for g, w in zip(got, want):
            for gi, wi in zip(g if isinstance(w, tuple) else (g,),
                              w if isinstance(w, tuple) else (w,)):
                assert numpy.asarray(gi).dtype == wi.dtype
                numpy.testing.assert_array_equal(numpy.asarray(gi), wi)
    tiering.wait()
    now = tiering.stats()
    assert now["critical"] == stats["critical"]
    assert now["fallbacks"] == stats["fallbacks"]
