"""Compactions that live on compile a bounded number of executables: every kernel of an
``x = x[m]`` loop and of ``nonzero``/``argwhere``/``compress``/``unique`` goes through the one
tiering mechanism (``jaxload.jit``), so on the CPU a count never seen runs on the NumPy tier
and only a count seen again compiles, in the background; no kernel lacks a NumPy rule (no
fallback compile on the program's path). NumPy is the oracle of the values
(``conformance_tests/test_compactions.py``); these count compiles, and compare the kernels run
on the NumPy tier with the same kernels compiled."""
import numpy
import pytest

import tnp
from tnp._core import settings
from tnp._core.engine import caches, tiering
from test_compactions import compacting_mandelbrot  # (conformance_tests/: the loop as written)


def _grid(h, w):
    return (numpy.linspace(-2.1, 0.7, w)[None, :] + 1j * numpy.linspace(-1.3, 1.3, h)[:, None]
            ).ravel()


def test_shrinking_loop_builds_bounded_executables(cold_tier):
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


def test_nonzero_family_loop_compiles_nothing_on_the_path(cold_tier):
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


def test_unique_axis_loop_builds_nothing(cold_tier):
    # unique(axis=)'s moveaxis/reshape were eager jnp operations: one compile per shape on the
    # program's path, outside the tiers; now in its kernels (a shape never seen: NumPy's tier)
    v = (numpy.arange(3 * 997) * 7919) % 7
    tiering.wait()
    before, stats = caches.executables_built(), tiering.stats()
    for n in range(8):  # a new row count every iteration
        for xp in (numpy, tnp):
            x = xp.asarray(v[:3 * (40 + 17 * n)]).reshape(3, -1)
            got = xp.unique(x, axis=1, return_inverse=True)
            if xp is numpy:
                want = got
        for g, w in zip(got, want):
            assert numpy.asarray(g).dtype == w.dtype
            numpy.testing.assert_array_equal(numpy.asarray(g), w)
    tiering.wait()
    assert caches.executables_built() == before
    assert tiering.stats()["critical"] == stats["critical"]


def _calls(xp, v, m, w):
    x = v.reshape(40, 50)
    return [xp.nonzero(m.reshape(40, 50)), xp.argwhere(m.reshape(8, 250)), xp.flatnonzero(m),
            xp.compress(m[:50], x, axis=1), xp.extract(m, v), v[m], x[m.reshape(40, 50)],
            x[m.reshape(40, 50).any(1)], xp.take(v, [3, -1, 7]),
            xp.unique(w, return_index=True, return_inverse=True, return_counts=True),
            xp.unique(w[::3]), xp.unique((w[:400] < 5).reshape(100, 4), axis=0),
            xp.intersect1d(v[:300], v[200:700]), xp.setdiff1d(w[:300], w[100:200])]


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int32, numpy.complex128])
def test_numpy_tier_of_compaction_kernels_matches_xla(device_placement, dtype):
    """The same compaction calls with every kernel on the NumPy tier (``TNP_COLD=force``: the
    interpreter's gather, scatter, cumsum, sort, reduction rules) and every kernel compiled
    (``off``): identical results, and both NumPy's."""
    v = ((numpy.arange(2000) * 7919) % 1009).astype(dtype)
    m = (v.real % 3) == 1
    w = (v.real % 37).astype(dtype)  # (values repeated)
    want = _calls(numpy, v, m, w)
    results = []
    for mode in ("force", "off"):
        previous, stats = settings.update(cold=mode), tiering.stats()
        try:
            results.append(_calls(tnp, tnp.asarray(v), tnp.asarray(m), tnp.asarray(w)))
        finally:
            settings.restore(previous)
        if mode == "force":  # every kernel ran on NumPy: none without a rule
            assert tiering.stats()["fallbacks"] == stats["fallbacks"]
            assert tiering.stats()["cold"] > stats["cold"]
    for cold, compiled, w in zip(*results, want):
        for c, x, e in zip(*(r if isinstance(r, tuple) else (r,) for r in (cold, compiled, w))):
            c, x = numpy.asarray(c), numpy.asarray(x)
            assert c.dtype == x.dtype == e.dtype and c.shape == x.shape == e.shape
            numpy.testing.assert_array_equal(c, x)
            numpy.testing.assert_array_equal(c, e)
