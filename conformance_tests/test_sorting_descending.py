"""sort/argsort ``descending=`` (NumPy 2.5: NaNs last in both orders; with ``kind`` a ValueError).

Under an older NumPy the keyword does not exist: NumPy raises TypeError and so must tnp, which
these same checks compare. Tie-sensitive checks use ``stable=True`` (see test_sorting.py).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from strategies import ALL_DTYPES, arrays, dtypes
from test_sorting import AXES, _data


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
