"""where, nonzero, argwhere, flatnonzero, extract, select, piecewise, choose, compress, take,
take_along_axis, searchsorted (and the ndarray methods that call them)."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tnp
from engine import check
from matrix import rotated
from strategies import ALL_DTYPES, PY_SCALARS, arrays, dtypes


def _data(dt):
    vals = np.array([[0, 1, 3, 0], [2, 0, 2, 5], [4, 6, 0, 3]])
    if dt.kind == "b":
        return (vals % 2).astype(dt)
    a = vals.astype(dt)
    if dt.kind == "f":
        a[1, 1] = np.nan
    if dt.kind == "c":
        a = a + (1j * (vals[::-1] % 2)).astype(dt)
    return a


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_nonzero_family(dt):
    check(lambda xp, a: xp.nonzero(a), _data(dt))
    check(lambda xp, a: a.nonzero(), _data(dt))
    check(lambda xp, a: xp.argwhere(a), _data(dt))
    check(lambda xp, a: xp.flatnonzero(a), _data(dt))
    check(lambda xp, a: xp.where(a), _data(dt))
    check(lambda xp, a: xp.extract(a, a), _data(dt))


@pytest.mark.parametrize("a", [np.array(0.0), np.array(3), np.zeros((0, 3)), np.zeros((2, 0)),
                               np.ones((2, 2), bool)], ids=repr)
def test_nonzero_edge(a):
    check(lambda xp, a: xp.nonzero(a), a)
    check(lambda xp, a: xp.argwhere(a), a)
    check(lambda xp, a: xp.flatnonzero(a), a)


def test_extract_shapes():
    check(lambda xp, c, a: xp.extract(c, a), np.array([True, False, True]), np.arange(6))
    check(lambda xp, c, a: xp.extract(c, a), np.array([1, 0, 0, 0, 0, 0, 0, 1]), np.arange(6))


@pytest.mark.parametrize("dt1", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("dt2", [np.dtype(c) for c in "?bBqfdD"], ids=str)
def test_where3_dtypes(dt1, dt2):
    check(lambda xp, c, x, y: xp.where(c, x, y), _data(np.dtype(bool)), _data(dt1),
          _data(dt2)[0])


@pytest.mark.parametrize("scalar", PY_SCALARS, ids=repr)
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bBqefdF"], ids=str)
def test_where3_weak_scalars(scalar, dt):
    check(lambda xp, c, x: xp.where(c, x, scalar), _data(np.dtype(bool)), _data(dt))
    check(lambda xp, c, x: xp.where(c, scalar, x), _data(dt), _data(dt))
    check(lambda xp, c: xp.where(c, scalar, 2.5), _data(np.dtype(bool)))


@pytest.mark.parametrize("v", [None, 1e150, -1e150, 1e10, float("inf")], ids=repr)
@pytest.mark.parametrize("dt", ["e", "f", "d"])
def test_where_none_and_overflowing_python_floats(v, dt):
    """``None`` is a value (an object array), not a missing argument; a Python float past the
    result dtype's range warns as NumPy's cast does (an error under errstate 'raise')."""
    def body(xp, c, x):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = xp.where(c, x, v)
        with xp.errstate(over="raise"):
            try:
                xp.where(c, x, v)
                raised = None
            except FloatingPointError as e:
                raised = str(e)
        return r, r.dtype, raised, [(m.category, str(m.message)) for m in w]
    check(body, np.array([True, False]), np.ones(2, dt))
    check(lambda xp: xp.where(True, None, None))


def test_where_errors():
    check(lambda xp, c: xp.where(c, 1), np.ones(3, bool))
    check(lambda xp, c: xp.where(c, y=1), np.ones(3, bool))
    check(lambda xp, c, x: xp.where(c, x, x), np.ones(3, bool), np.ones(4))
    check(lambda xp, c, x: xp.where(c, x, 300), np.ones(3, bool), np.ones(3, np.int8))



@pytest.mark.parametrize("x, y", [("#", " "), ("ab", "c"), (b"x", b"yz"), ("#", 2.5), ("a", 1)],
                         ids=repr)
def test_where3_text_scalars(x, y):
    """A str or bytes scalar is a value (NumPy's text dtype, the result on the host tier),
    never a dtype name; a condition on the device (``np.where(mask, "#", " ")`` in a maze
    printout)."""
    c = np.arange(12).reshape(3, 4) % 3 == 0
    check(lambda xp, c: xp.where(c, x, y), c)
    check(lambda xp, c, v: xp.where(c, x, v), c, np.array(["u", "vw", "x", "y"]))

@given(dtypes(), st.data())
def test_where_hypothesis(dt, data):
    c = data.draw(arrays(np.dtype(bool), (2, 3)))
    x = data.draw(arrays(dt, (2, 3)))
    check(lambda xp, c, x: (xp.where(c, x, x[::-1]), xp.nonzero(c)), c, x)


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bHqefdD"], ids=str)
def test_select(dt):
    a = _data(dt)
    check(lambda xp, a: xp.select([a != 0, a == 0], [a, a + a]), a)
    check(lambda xp, a: xp.select([xp.ones(4, bool)], [a], default=7), a)
    check(lambda xp, a, c: xp.select([c, ~c], [a, 2.5], default=1j), a, a[0] != 0)


@pytest.mark.parametrize("args", [([], []), ([True], [1, 2]), ([np.array([1, 0])], [1])])
def test_select_errors(args):
    check(lambda xp: xp.select(*args))


def test_piecewise():
    x = np.linspace(-2.5, 2.5, 6)
    check(lambda xp, x: xp.piecewise(x, [x < 0, x >= 0], [-1, 1]), x)
    check(lambda xp, x: xp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v]), x)
    check(lambda xp, x: xp.piecewise(x, [x < -1, x > 1], [lambda v: v * 2, 9, 0.5]), x)
    check(lambda xp, x: xp.piecewise(x, x > 0, [lambda v, k: v * k, 0], 3), x)
    check(lambda xp, x: xp.piecewise(x, [x > 0], [1, 2, 3]), x)
    check(lambda xp, x: xp.piecewise(x, [True], [7]), np.array(3))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bqHfdD"], ids=str)
def test_choose(mode, dt):
    choices = [_data(dt)[0], _data(dt)[1] * 2, _data(dt)[2]]
    check(lambda xp, a, *c: xp.choose(a, c, mode=mode), np.array([0, 2, 1, 0]), *choices)
    check(lambda xp, a, *c: xp.choose(a, c, mode=mode), np.array([[0], [2], [1]]), *choices)
    check(lambda xp, a, *c: a.choose(c, mode=mode), np.array([0, 2, 1, 1]), *choices)
    check(lambda xp, a, *c: xp.choose(a, c, mode=mode), np.array([-1, 3, 5, 0]), *choices)


def test_choose_out_and_errors():
    def body(xp, a, out):
        r = xp.choose(a, [[1.5, 2, 3], [4, 5, 6]], out=out)
        return r is out, out
    check(body, np.array([0, 1, 1]), np.zeros(3))
    check(lambda xp, a: xp.choose(a, [[1, 2], [3, 4]]), np.array([0.0, 1.0]))
    check(lambda xp, a: xp.choose(a, [[1, 2], [3, 4]], mode="bogus"), np.array([0, 1]))
    for n in (63, 64):  # NumPy's limit: 64 operands, ``a`` one of them
        check(lambda xp, a: a.choose([0, a] + [2] * (n - 2)), np.zeros((1,) * 32, np.intp))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bqHfdD"], ids=str)
def test_compress(dt):
    a = _data(dt)
    check(lambda xp, a: xp.compress([True, False, True], a, axis=0), a)
    check(lambda xp, a: xp.compress([False, True], a, axis=1), a)
    check(lambda xp, a: xp.compress([1, 0, 1, 1, 0], a), a)
    check(lambda xp, a: xp.compress([True] * 5, a, axis=1), a)
    check(lambda xp, a: xp.compress([[True]], a), a)

    def out_body(xp, a, out):
        xp.compress([True, False, True], a, axis=0, out=out)
        return out
    check(out_body, a, np.zeros((2, 4), dt))


def test_compress_method():
    check(lambda xp, a: a.compress([0, 1, 1], axis=0), _data(np.dtype(int)))


@pytest.mark.parametrize("mode,dt", rotated(itertools.product(
    ["raise", "wrap", "clip"], ALL_DTYPES), 2), ids=str)
def test_take(mode, dt):
    a = _data(dt)
    check(lambda xp, a: xp.take(a, [0, -1, 5], mode=mode), a)
    check(lambda xp, a: xp.take(a, [[0, 2], [-2, 1]], axis=1, mode=mode), a)
    check(lambda xp, a: xp.take(a, 2, axis=-2, mode=mode), a)
    check(lambda xp, a: a.take([7, -9, 3], axis=1, mode=mode), a)
    check(lambda xp, a: xp.take(a, np.zeros(0, int), axis=0, mode=mode), a)


def test_take_edge_and_errors():
    check(lambda xp, a: xp.take(a, [0]), np.zeros(0))
    check(lambda xp, a: xp.take(a, []), np.zeros(0))
    check(lambda xp, a: xp.take(a, [1], axis=2), np.zeros((2, 2)))
    check(lambda xp, a: xp.take(a, [1], mode="bogus"), np.zeros(3))
    check(lambda xp, a: xp.take(a, 0), np.array(5.0))

    def out_body(xp, a, out):
        r = xp.take(a, [2, 0], out=out)
        return r is out, out
    check(out_body, np.arange(4.0), np.zeros(2))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bqHfdD"], ids=str)
def test_take_along_axis(dt):
    a = _data(dt)
    check(lambda xp, a: xp.take_along_axis(a, xp.argsort(a, axis=1, stable=True), axis=1), a)
    check(lambda xp, a: xp.take_along_axis(a, np.array([[0, 2, -1, 1]]), axis=0), a)
    check(lambda xp, a: xp.take_along_axis(a, np.array([[1], [0], [3]]), axis=-1), a)
    check(lambda xp, a: xp.take_along_axis(a, np.array([3, 0, 11]), axis=None), a)


@pytest.mark.parametrize("idx,axis", [(np.array([[5]]), 1), (np.array([0, 1]), 1),
                                      (np.array([[0.0]]), 1), (np.array([[0]]), 2),
                                      (np.array([[0, 1]]), None), (np.array([[0]] * 2), 0)])
def test_take_along_axis_errors(idx, axis):
    check(lambda xp, a: xp.take_along_axis(a, idx, axis=axis), _data(np.dtype(float)))


@pytest.mark.parametrize("side,dt", rotated(itertools.product(
    ["left", "right"], ALL_DTYPES), 2), ids=str)
def test_searchsorted(side, dt):
    a = np.sort(_data(dt).ravel())
    check(lambda xp, a, v: xp.searchsorted(a, v, side=side), a, _data(dt))
    check(lambda xp, a: xp.searchsorted(a, a[3], side=side), a)
    check(lambda xp, a: a.searchsorted(a[::2], side=side), a)
    check(lambda xp, a, s: xp.searchsorted(a, a[:5], side=side, sorter=s), a[::-1].copy(),
          np.argsort(a[::-1], kind="stable"))


@pytest.mark.parametrize("v", [2, 2.5, -1, 1e300, float("nan"), 3 + 0j, True], ids=repr)
def test_searchsorted_scalars_and_specials(v):
    a = np.array([-np.inf, -1.0, -0.0, 0.0, 2.0, 2.0, np.inf, np.nan, np.nan])
    check(lambda xp, a: (xp.searchsorted(a, v), xp.searchsorted(a, v, side="right")), a)
    check(lambda xp, a: xp.searchsorted(a, v), np.array([0, 1, 2, 2, 3], np.int8))
    check(lambda xp, a: xp.searchsorted(a, v), np.zeros(0))


def test_searchsorted_errors():
    check(lambda xp, a: xp.searchsorted(a, 1, side="middle"), np.arange(3))
    check(lambda xp, a: xp.searchsorted(a, 1), np.zeros((2, 2)))
    check(lambda xp, a: xp.searchsorted(a, 1, sorter=[0, 1]), np.arange(3))


@pytest.mark.parametrize("sorter", [[0, 1, 2, 3, 5], [-1, 0, 1, 2, 3], [4, 0, -1, 2, 3],
                                    [4, 0, 1, 2, 3]])
def test_searchsorted_sorter_bounds(sorter):
    # NumPy's ValueError for a sorter index out of range (TestMethods::
    # test_searchsorted_with_invalid_sorter)
    # (NumPy checks the indices its binary search looks at, so the key decides)
    for key in (0, 2, 4, [0, 4, 2]):
        check(lambda xp, a, s: xp.searchsorted(a, key, sorter=s), np.arange(5),
              np.array(sorter))


@pytest.mark.parametrize("fn", [tnp.nonzero, tnp.flatnonzero, tnp.argwhere, tnp.where,
                                lambda v: tnp.take(v, v), lambda v: tnp.compress(v, v),
                                tnp.unique, lambda v: tnp.repeat(v, v)],
                         ids=["nonzero", "flatnonzero", "argwhere", "where1", "take", "compress",
                              "unique", "repeat"])
def test_sync_points_raise_under_jit(fn):
    import jax
    with pytest.raises(tnp.TnpTracingError):
        jax.jit(lambda v: fn(tnp.asarray(v)))(tnp.arange(4).data)


def test_jit_safe_forms_trace():
    import jax
    x = np.array([3.0, np.nan, 1.0, 2.0])
    got = jax.jit(lambda v: (tnp.sort(v), tnp.where(v > 1, v, 0.5), tnp.searchsorted(
        tnp.sort(v), v), tnp.take(v, tnp.asarray([0, 5]), mode="wrap")))(tnp.asarray(x))
    check(lambda xp, v: (xp.sort(v), xp.where(v > 1, v, 0.5), xp.searchsorted(xp.sort(v), v),
                         xp.take(v, [0, 5], mode="wrap")) if xp is np else got, x)


def test_piecewise_0d_condition():
    # a condition computed from a 0-d array (NumPy: a scalar; tnp on the device: a 0-d array)
    check(lambda xp, x: xp.piecewise(x, x > 3, [4, 0]), np.array(3))
    check(lambda xp, x: xp.piecewise(x, x > 3, [4, 0]), np.array(5.0))
    check(lambda xp, x: xp.piecewise(x, x < 4, [lambda v: v * 2]), np.array(3))
    check(lambda xp, x: xp.piecewise(x, xp.asarray(x > 1), [7]), np.arange(3))


def test_select_and_stack_of_many_arrays():
    # NumPy's own TestSelect.test_many_arguments: lists of 100 arrays (over the 64 elements
    # the host tier reads of a list of data)
    def body(xp):
        conditions = [xp.array([False, True])] * 99 + [xp.array([True, False])]
        choices = [xp.array([1, 2])] * 99 + [xp.array([3, 4])]
        return xp.select(conditions, choices, 7), xp.stack(choices), xp.concatenate(choices)
    check(body)
