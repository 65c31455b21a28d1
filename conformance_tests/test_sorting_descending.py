"""sort/argsort ``descending=`` (NumPy 2.5: NaNs last in both orders; with ``kind`` a ValueError).

Under an older NumPy the keyword does not exist: NumPy raises TypeError and so must tnp, which
these same checks compare. Tie-sensitive checks use ``stable=True`` (see test_sorting.py).

The values of a descending sort have an oracle under every NumPy (``test_descending_values*``):
NumPy's own ``descending=`` where the installed NumPy has it, else ``descending_reference``,
NumPy's stable ascending sort reordered as the documented semantics say (the order reversed
within each NaN class, NaNs last, ties in their original order when stable). Under a NumPy
without the keyword, tnp's public ``sort`` replays NumPy's TypeError, so the value tests call
the kernel that ``sort(descending=True)`` runs under NumPy 2.5 (``_sort_kernel``).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from strategies import ALL_DTYPES, arrays, dtypes
from test_sorting import AXES, _data
from tnp._routines.sorting import _sort_kernel


def _numpy_has_descending():
    """Ask NumPy (never its version string) whether sort takes ``descending=``."""
    try:
        np.sort(np.zeros(1), descending=True)
    except TypeError:
        return False
    return True


NUMPY_HAS_DESCENDING = _numpy_has_descending()


def _nan_class(a):
    """NumPy's sort classes: 0 for ordinary values; reals: 1 for NaN; complex: R+nanj 1,
    nan+Rj 2, nan+nanj 3 (the order NumPy's sort puts them in, last)."""
    if a.dtype.kind == "f":
        return np.isnan(a).astype(np.int8)
    if a.dtype.kind == "c":
        return np.isnan(a.real).astype(np.int8) * 2 + np.isnan(a.imag).astype(np.int8)
    return np.zeros(a.shape, np.int8)


def descending_reference(a, axis=-1, arg=False):
    """A stable descending argsort (or sort) of NumPy array ``a`` from NumPy's stable ascending
    sort: the reverse of a stable sort of the reversed array orders every element from largest
    to smallest with ties in their original order; a stable sort of that by NaN class then puts
    the NaN classes last, in NumPy's class order, each reversed within."""
    if axis is None:
        a, axis = a.ravel(), 0
    if a.ndim == 0:
        return np.zeros((), np.intp) if arg else a.copy()
    m = np.moveaxis(a, axis, -1)
    n = m.shape[-1]
    order = (n - 1 - np.argsort(m[..., ::-1], axis=-1, kind="stable"))[..., ::-1]
    cls = np.take_along_axis(_nan_class(m), order, -1)
    order = np.take_along_axis(order, np.argsort(cls, axis=-1, kind="stable"), -1)
    out = order if arg else np.take_along_axis(m, order, -1)
    return np.moveaxis(out, -1, axis)


def _descending(xp, a, axis, arg):
    """sort/argsort(a, axis, stable=True, descending=True) by the oracle for NumPy, by tnp's
    public function or (NumPy without the keyword) the kernel it runs, for tnp."""
    if NUMPY_HAS_DESCENDING:
        return (xp.argsort if arg else xp.sort)(a, axis=axis, stable=True, descending=True)
    if xp is np:
        return descending_reference(a, axis, arg)
    ax = axis if axis is None or a.ndim == 0 else axis % a.ndim
    return _sort_kernel(a, ax, arg, True)


@pytest.mark.skipif(not NUMPY_HAS_DESCENDING, reason="the installed NumPy has no descending=")
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_descending_reference_is_numpys(dt):
    """Where NumPy has the keyword, the reference construction agrees with it."""
    for a in (_data(dt), _data(dt).T.copy()):
        for axis in AXES:
            for arg in (False, True):
                np.testing.assert_array_equal(
                    descending_reference(a, axis, arg),
                    (np.argsort if arg else np.sort)(a, axis=axis, stable=True,
                                                     descending=True))


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_descending_values(dt, axis):
    for a in (_data(dt), _data(dt, ties=False)):
        check(lambda xp, a: (_descending(xp, a, axis, False), _descending(xp, a, axis, True)),
              a, exact=True)


def test_descending_values_nan_zero_and_extremes():
    f = np.array([0.0, np.nan, -0.0, -np.inf, -np.nan, 1.0, -0.0, np.inf, 1.0, np.nan])
    c = np.array([complex(np.nan, np.nan), complex(1, np.nan), complex(np.nan, 0), 2 + 0j,
                  complex(0, np.nan), 1 + 1j, complex(np.nan, -1), 1 - 1j, 1 + 1j,
                  complex(3, np.nan), complex(np.nan, 5), complex(np.nan, np.nan)])
    ints = [np.array([0, i.max, i.min, 1, i.max, i.min, 0], dt) for dt in
            (np.int8, np.uint8, np.int64, np.uint64) for i in [np.iinfo(dt)]]
    for a in (f, c, f.astype(np.float16), f.astype(np.float32), c.astype(np.complex64),
              np.array([True, False, True, False]), *ints):
        check(lambda xp, a: (_descending(xp, a, -1, False), _descending(xp, a, -1, True)),
              a, exact=True)


def test_descending_values_large():
    rng = np.random.default_rng(23)
    f = rng.integers(-50, 50, 40_000).astype(np.float64)  # many ties
    f[rng.integers(0, f.size, 500)] = np.nan
    f[rng.integers(0, f.size, 500)] = -0.0
    for a in (f, f.reshape(200, 200), rng.integers(0, 2**32, 30_000, dtype=np.uint32)):
        check(lambda xp, a: (_descending(xp, a, -1, False), _descending(xp, a, -1, True)),
              a, exact=True)
    check(lambda xp, a: _descending(xp, a, 0, True), f.reshape(200, 200), exact=True)


@given(dtypes(), st.integers(0, 40), st.data())
def test_descending_values_hypothesis(dt, n, data):
    a = data.draw(arrays(dt, (n,)))
    check(lambda xp, a: (_descending(xp, a, -1, False), _descending(xp, a, -1, True)), a,
          exact=True)


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_descending(dt, axis):
    check(lambda xp, a: xp.sort(a, axis=axis, descending=True), _data(dt))
    check(lambda xp, a: (xp.sort(a, axis=axis, stable=True, descending=True),
                         xp.argsort(a, axis=axis, stable=True, descending=True)), _data(dt))
    if dt.kind != "b":
        check(lambda xp, a: xp.argsort(a, axis=axis, descending=True), _data(dt, ties=False))


@pytest.mark.parametrize("flag", [False, None, 1, np.True_, "yes"], ids=repr)
def test_descending_flag_values(flag):
    check(lambda xp, a: (xp.sort(a, stable=True, descending=flag),
                         xp.argsort(a, stable=True, descending=flag)), _data(np.dtype(float)))


def test_descending_nan_and_zero_order():
    f = np.array([0.0, np.nan, -0.0, -np.inf, -np.nan, 1.0, -0.0, np.inf])
    c = np.array([complex(np.nan, np.nan), complex(1, np.nan), complex(np.nan, 0), 2 + 0j,
                  complex(0, np.nan), 1 + 1j, complex(np.nan, -1), 1 - 1j, 1 + 1j])
    for a in (f, c, f.astype(np.float16), c.astype(np.complex64)):
        check(lambda xp, a: (xp.sort(a, stable=True, descending=True),
                             xp.argsort(a, stable=True, descending=True)), a)


def test_descending_integer_extremes():
    for dt in (np.int8, np.uint8, np.int64, np.uint64):
        info = np.iinfo(dt)
        a = np.array([0, info.max, info.min, 1, info.max, info.min], dt)
        check(lambda xp, a: (xp.sort(a, stable=True, descending=True),
                             xp.argsort(a, stable=True, descending=True)), a)


@given(dtypes(), st.integers(0, 12), st.data())
def test_descending_hypothesis(dt, n, data):
    a = data.draw(arrays(dt, (n,)))
    check(lambda xp, a: (xp.sort(a, stable=True, descending=True),
                         xp.argsort(a, stable=True, descending=True)), a)


@pytest.mark.parametrize("kwargs", [dict(kind="stable", descending=True),
                                    dict(kind="quicksort", descending=None),
                                    dict(axis=2, descending=True),
                                    dict(axis=None, kind="heapsort", descending=False)])
def test_descending_errors(kwargs):
    check(lambda xp, a: xp.sort(a, **kwargs), _data(np.dtype(float)))
    check(lambda xp, a: xp.argsort(a, **kwargs), _data(np.dtype(float)))


def test_descending_empty_and_0d():
    check(lambda xp, a: xp.sort(a, axis=0, descending=True), np.zeros((0, 3)))
    check(lambda xp, a: xp.argsort(a, axis=None, descending=True), np.array(3.0))
    check(lambda xp, a: xp.sort(a, descending=True), np.array(3.0))


def test_argsort_method_descending():
    check(lambda xp, a: a.argsort(stable=True, descending=True), _data(np.dtype(np.int32)))


def test_sort_method_descending():
    def body(xp, a):
        a.sort(axis=0, stable=True, descending=True)
        return a
    check(body, _data(np.dtype(np.int32)))
