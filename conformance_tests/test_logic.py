"""all, any, isclose, allclose, array_equal, array_equiv, isscalar, isreal, iscomplex,
isrealobj, iscomplexobj, real_if_close, isneginf, isposinf."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from matrix import rotated
from strategies import ALL_DTYPES, PY_SCALARS, arrays, dtypes


def _data(dt):
    vals = np.array([[0, 1, 3, 0], [2, 1, 2, 5], [4, 6, 1, 3]])
    if dt.kind == "b":
        return (vals % 2).astype(dt)
    a = vals.astype(dt)
    if dt.kind in "fc":
        a[1, 1] = np.nan
        a[2, 0] = -np.inf
        a[0, 3] = np.inf
    if dt.kind == "c":
        a[2, 2] = 1j
    return a


@pytest.mark.parametrize("fn,dt", rotated(itertools.product(
    ["all", "any"], ALL_DTYPES), 2), ids=str)
def test_all_any(fn, dt):
    a = _data(dt)
    for kw in [{}, dict(axis=0), dict(axis=-1, keepdims=True), dict(axis=(0, 1)),
               dict(axis=None, keepdims=True), dict(where=a[0] != 0), dict(axis=1, where=False)]:
        check(lambda xp, a: getattr(xp, fn)(a, **kw), a)
        check(lambda xp, a: getattr(a, fn)(**kw), a)


@pytest.mark.parametrize("fn", ["all", "any"])
def test_all_any_edge(fn):
    check(lambda xp, a: getattr(xp, fn)(a), np.zeros((0, 3)))
    check(lambda xp, a: getattr(xp, fn)(a, axis=0), np.zeros((0, 3)))
    check(lambda xp, a: getattr(xp, fn)(a), np.array(np.nan))
    check(lambda xp, a: getattr(xp, fn)(a, axis=2), np.zeros((2, 3)))
    check(lambda xp, a: getattr(xp, fn)(a, axis=(0, 0)), np.zeros((2, 3)))
    check(lambda xp: getattr(xp, fn)([[1, 0], [1, 1]], axis=1))

    def out_body(xp, a, out):
        r = getattr(xp, fn)(a, axis=0, out=out)
        return r is out, out
    check(out_body, _data(np.dtype(float)), np.zeros(4))
    check(out_body, _data(np.dtype(float)), np.zeros(4, bool))


@given(dtypes(), st.data())
def test_all_any_hypothesis(dt, data):
    a = data.draw(arrays(dt, (2, 3)))
    check(lambda xp, a: (xp.all(a), xp.any(a, axis=0), xp.all(a, axis=1)), a)


@pytest.mark.parametrize("dt1,dt2", rotated(itertools.product(
    [np.dtype(c) for c in "?bBqefdFD"], [np.dtype(c) for c in "?qefdD"]), 2), ids=str)
def test_isclose_dtypes(dt1, dt2):
    a, b = _data(dt1), _data(dt2)
    check(lambda xp, a, b: xp.isclose(a, b), a, b)
    check(lambda xp, a, b: xp.isclose(a, b, equal_nan=True), a, b)
    check(lambda xp, a, b: xp.allclose(a, b), a, b)
    check(lambda xp, a, b: xp.allclose(a, b, equal_nan=True), a, b)


@pytest.mark.parametrize("s", PY_SCALARS, ids=repr)
def test_isclose_scalars(s):
    a = np.array([1.0, 1 + 1e-6, np.nan, np.inf, 1e30, 0.5, 3.0], np.float32)
    check(lambda xp, a: xp.isclose(a, s), a)
    check(lambda xp, a: xp.isclose(s, a, rtol=0.1, atol=0.0), a)
    check(lambda xp: xp.isclose(s, 3))
    check(lambda xp: xp.allclose(s, 1.0))


def test_isclose_tolerances():
    a = np.array([1.0, 1.001, 1.01, 2.0])
    b = np.array([1.0, 1.0, 1.0, 1.0])
    check(lambda xp, a, b: xp.isclose(a, b, rtol=1e-3, atol=1e-3), a, b)
    check(lambda xp, a, b: xp.isclose(a, b, rtol=np.array([0, 0.1, 0.01, 1])), a, b)
    check(lambda xp, a, b: xp.isclose(a, b[:3]), a, b)
    check(lambda xp, a, b: xp.isclose(a.astype(np.float16), b.astype(np.float16), 1e-3), a, b)


@pytest.mark.parametrize("mode", ["warn", "raise", "ignore"])
@pytest.mark.parametrize("atol, rtol", [(np.inf, 1e-5), (1e-8, np.nan), (np.array([0, np.inf]), 0),
                                        (1e-8, 1e-5)], ids=repr)
def test_isclose_invalid_tolerances(mode, atol, rtol):
    """NumPy's RuntimeWarning (FloatingPointError under errstate 'raise') for a non-finite
    tolerance, with its message."""
    def body(xp, a):
        with warnings.catch_warnings(record=True) as w, xp.errstate(invalid=mode):
            warnings.simplefilter("always")
            r = xp.isclose(a, a, atol=atol, rtol=rtol)
        return r, [(x.category, str(x.message)) for x in w]
    check(body, np.array([1.0, 2.0]))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_array_equal_equiv(dt):
    a = _data(dt)
    check(lambda xp, a, b: (xp.array_equal(a, b), xp.array_equal(a, b, equal_nan=True)),
          a, a.copy())
    check(lambda xp, a: (xp.array_equal(a, a[:2]), xp.array_equal(a, a.astype(np.float64))), a)
    check(lambda xp, a: (xp.array_equiv(a, a), xp.array_equiv(a[:1], xp.concatenate([a[:1]] * 3)),
                         xp.array_equiv(a, a[:, :2]), xp.array_equiv(a[0], a)), a)
    check(lambda xp, a: xp.array_equal(a, [[0, 1, 3, 0]] * 3), a)


def test_array_equal_without_a_loop_is_false():
    """Arrays no ufunc loop compares (a string and an integer): NumPy's ``==`` gives False
    throughout, so ``array_equal`` and ``array_equiv`` are False (no error)."""
    check(lambda xp: (xp.array_equal(xp.array("foo"), xp.array(1)),
                      xp.array_equiv(xp.array("foo"), xp.array(1)),
                      xp.array_equal(xp.array(["a", "b"]), xp.arange(2.0))))


def test_array_equal_nan_cases():
    a = np.array([1.0, np.nan, 3.0])
    check(lambda xp, a: (xp.array_equal(a, a), xp.array_equal(a, a, equal_nan=True),
                         xp.array_equal(a, a[::-1], equal_nan=True)), a)
    c = np.array([1 + 1j, complex(np.nan, 0)])
    check(lambda xp, c: xp.array_equal(c, c, equal_nan=True), c)


@pytest.mark.parametrize("x", [3, 3.0, 1j, True, "s", None, [1], (1,), np.float32(1),
                               np.array(1), np.arange(2)], ids=repr)
def test_isscalar_and_objs(x):
    check(lambda xp: xp.isscalar(x))
    if x is not None and not isinstance(x, str):
        check(lambda xp: (xp.isrealobj(x), xp.iscomplexobj(x)))


def test_isscalar_of_results():
    """Results NumPy returns as NumPy scalars (tnp: 0-d stand-ins) and those it returns as 0-d
    arrays."""
    check(lambda xp, a: [xp.isscalar(r) for r in (
        a.sum(), a[0, 1], a[0][1], xp.isclose(1, 1), xp.add(a[0, 0], 1), a.max(axis=None),
        a[0, 1, ...], a[..., 0, 1], xp.array(1.0), xp.asarray(a[0, 0]), a.sum(keepdims=True),
        a[:0].sum(axis=0), xp.float64(2))], np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_real_complex_tests(dt):
    a = _data(dt)
    check(lambda xp, a: (xp.isreal(a), xp.iscomplex(a), xp.isrealobj(a),
                         xp.iscomplexobj(a)), a)
    check(lambda xp, a: (xp.isreal(a[0, 0]), xp.iscomplex(a[0, 0])), a)
    check(lambda xp, a: xp.real_if_close(a), a)


def test_real_if_close():
    check(lambda xp, a: xp.real_if_close(a), np.array([1 + 1e-15j, 2 - 1e-15j]))
    check(lambda xp, a: xp.real_if_close(a), np.array([1 + 1e-5j, 2 - 1e-15j], np.complex64))
    check(lambda xp, a: xp.real_if_close(a, tol=1e-3), np.array([1 + 1e-4j]))
    check(lambda xp, a: xp.real_if_close(a), np.zeros(0, complex))
    check(lambda xp: (xp.isreal(1 + 0j), xp.isreal([1, 1j]), xp.iscomplex([1, 1j])))


@pytest.mark.parametrize("fn", ["isneginf", "isposinf"])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_isinf_signed(fn, dt):
    check(lambda xp, a: getattr(xp, fn)(a), _data(dt))

    def out_body(xp, a, out):
        r = getattr(xp, fn)(a, out=out)
        return r is out, out
    check(out_body, _data(dt), np.zeros((3, 4), bool))
