"""histogram, histogram_bin_edges, histogram2d, histogramdd, bincount, digitize vs NumPy."""
import itertools

import numpy as np
import pytest

from engine import check
from matrix import rotated
from strategies import FLOATS, INTS, UINTS

RNG = np.random.default_rng(1)
DATA = RNG.normal(size=40)
W = RNG.random(40)

BINS = [10, 3, 1, [-2.0, -0.5, 0.0, 0.3, 2.5], [0, 1, 2], "auto", "fd", "doane", "scott",
        "stone", "rice", "sturges", "sqrt"]


@pytest.mark.parametrize("bins", BINS, ids=str)
def test_histogram_bins(bins):
    check(lambda xp, a: xp.histogram(a, bins=bins), DATA)
    check(lambda xp, a: xp.histogram_bin_edges(a, bins=bins), DATA)


@pytest.mark.parametrize("dt,kw", rotated(itertools.product(
    INTS + UINTS + FLOATS + [np.dtype("?")],
    [dict(), dict(bins=4, range=(0, 3)), dict(density=True), dict(bins=[0, 1, 5, 7])]), 2),
    ids=str)
def test_histogram_dtypes(dt, kw):
    a = (np.abs(DATA) * 3).astype(dt)
    check(lambda xp, a: xp.histogram(a, **kw), a)


@pytest.mark.parametrize("wdt", ["f8", "f4", "i4", "c16"])
@pytest.mark.parametrize("kw", [dict(), dict(bins=5, density=True), dict(bins=[-1, 0, 1]),
                                dict(range=(-1.0, 1.5))], ids=str)
def test_histogram_weights(wdt, kw):
    w = (W * 4).astype(wdt)
    check(lambda xp, a, w: xp.histogram(a, weights=w, **kw), DATA, w, rtol=1e-5)


def test_histogram_edge_cases():
    check(lambda xp, a: xp.histogram(a), np.zeros(0))
    check(lambda xp, a: xp.histogram(a), np.full(5, 3.0))
    check(lambda xp, a: xp.histogram(a, bins=3), np.array([0.0, 1.0, np.nan]))
    check(lambda xp, a: xp.histogram(a, bins=3, range=(0, 1)), np.array([0.0, 1.0, np.nan]))
    check(lambda xp, a: xp.histogram(a, bins=3, range=(2, 1)), DATA)
    check(lambda xp, a: xp.histogram(a, bins=0), DATA)
    check(lambda xp, a: xp.histogram(a, bins=[1, 0, 2]), DATA)
    check(lambda xp, a: xp.histogram(a, bins="bogus"), DATA)
    check(lambda xp, a: xp.histogram(a, weights=np.ones(3)), DATA)
    check(lambda xp, a: xp.histogram(a.reshape(5, 8), bins=4), DATA)
    check(lambda xp, a: xp.histogram(a, bins=np.linspace(-1, 1, 6)), DATA)


@pytest.mark.parametrize("kw", [dict(), dict(bins=3), dict(bins=(2, 5)),
                                dict(bins=[[-1, 0, 1], [-2, 0, 2, 3]]),
                                dict(bins=[-1, 0, 0.5, 1]),
                                dict(bins=4, range=[[-1, 1], [0, 2]]), dict(density=True),
                                dict(bins=[3, [-1, 0, 1]])], ids=str)
def test_histogram2d(kw):
    y = RNG.normal(size=40)
    check(lambda xp, a, b: xp.histogram2d(a, b, **kw), DATA, y)
    check(lambda xp, a, b, w: xp.histogram2d(a, b, weights=w, **kw), DATA, y, W)


@pytest.mark.parametrize("kw", [dict(), dict(bins=2), dict(bins=(2, 3, 4)),
                                dict(density=True, bins=3),
                                dict(bins=(2, 2), range=None),
                                dict(range=[(-1, 1), (-1, 1), (0, 1)], bins=2)], ids=str)
def test_histogramdd(kw):
    s = RNG.normal(size=(30, 3))
    check(lambda xp, s: xp.histogramdd(s, **kw), s)
    check(lambda xp, s: xp.histogramdd(s, weights=np.arange(30.0), **kw), s)


def test_histogramdd_sample_forms():
    s = RNG.normal(size=(20, 2))
    check(lambda xp, a, b: xp.histogramdd([a, b], bins=3), s[:, 0].copy(), s[:, 1].copy())
    check(lambda xp, a: xp.histogramdd(a, bins=4), s[:, 0].copy())
    check(lambda xp, a: xp.histogramdd(a, bins=[[0, 1], [1, 0]]), s)


@pytest.mark.parametrize("dt", INTS + UINTS + [np.dtype("?")], ids=str)
def test_bincount(dt):
    x = np.array([0, 1, 1, 3, 2, 1, 7]).astype(dt)
    check(lambda xp, x: xp.bincount(x), x)
    check(lambda xp, x: xp.bincount(x, minlength=12), x)
    check(lambda xp, x: xp.bincount(x, weights=np.arange(7) * 0.5), x)
    check(lambda xp, x: xp.bincount(x, weights=np.arange(7, dtype=np.int32)), x)


@pytest.mark.parametrize("x", [[], (), np.array([], np.int64), np.array([])], ids=repr)
def test_bincount_empty(x):
    # Python data straight to intp: an empty list is no float64 array NumPy would refuse
    check(lambda xp: xp.bincount(x))
    check(lambda xp: xp.bincount(x, minlength=3))
    # (the ValueError's message is NumPy's conversion of [[]] to a 1-d intp array, not
    # bincount's: tnp converts with its own asarray)
    check(lambda xp: xp.bincount([[]]), message=False)


def test_bincount_errors():
    check(lambda xp, x: xp.bincount(x), np.array([0, -1, 2]))
    check(lambda xp, x: xp.bincount(x), np.array([0.0, 1.0]))
    check(lambda xp, x: xp.bincount(x), np.zeros((2, 2), int))
    check(lambda xp, x: xp.bincount(x, weights=np.ones(2)), np.array([0, 1, 2]))
    check(lambda xp, x: xp.bincount(x), np.zeros(0, int))
    check(lambda xp, x: xp.bincount(x, minlength=-1), np.array([1, 2]))


@pytest.mark.parametrize("dt", INTS + FLOATS, ids=str)
@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", [[0, 1, 2, 3], [3, 2, 1, 0], [0, 1, 1, 2], [1.5],
                                  [2, 2, 2]], ids=str)
def test_digitize(dt, right, bins):
    x = np.array([-1, 0, 1, 2, 3, 4, 1, 2]).astype(dt)
    check(lambda xp, x: xp.digitize(x, bins, right=right), x)


def test_digitize_errors_and_nan():
    x = np.array([0.5, np.nan, 2.0])
    check(lambda xp, x: xp.digitize(x, [0, 1, 2]), x)
    check(lambda xp, x: xp.digitize(x, [0, 2, 1]), x)
    check(lambda xp, x: xp.digitize(x, [0, 1, 2]), x.astype(complex))
    check(lambda xp, x: xp.digitize(x, [[0, 1], [1, 2]]), x)
    check(lambda xp, x: xp.digitize(x, [1, 2, 3 + 1j]), x)
    check(lambda xp, x: xp.digitize(x, np.array([1, 2, 3], complex)), x)


@pytest.mark.parametrize("nx,ny", [(10, 11), (20, 19), (0, 1)])
def test_histogram2d_lengths_differ(nx, ny):
    check(lambda xp, a, b: xp.histogram2d(a, b), np.ones(nx), np.ones(ny))
    check(lambda xp: xp.histogram2d([1.0, 2.0], [1.0]))


def test_bincount_0d():
    # a 0-d x (or weights) is NumPy's ValueError ("object of too small depth")
    check(lambda xp, x: xp.bincount(x), np.array(2))
    check(lambda xp: xp.bincount(2))
    check(lambda xp, w: xp.bincount([1, 2], weights=w), np.array(2.0))
