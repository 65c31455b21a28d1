"""Index tricks: diag/tril/triu/mask indices, ravel_multi_index, unravel_index, r_, c_, s_,
index_exp."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine import check
from strategies import shapes

INT_DTYPES = [np.dtype(c) for c in "bhilBHIL"]


@pytest.mark.parametrize("args", [(3,), (4, 3), (0,), (2, 1)])
def test_diag_indices(args):
    check(lambda xp: xp.diag_indices(*args))


@pytest.mark.parametrize("shape", [(3, 3), (2, 2, 2), (3,), (2, 3), ()])
def test_diag_indices_from(shape):
    check(lambda xp, a: xp.diag_indices_from(a), np.zeros(shape))


@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("args", [(4,), (4, 1), (4, -1, 3), (3, 0, 5), (0,), (3, 5, 2),
                                  (3, -5), (-2,), (3, 0, -1), (2.5,), (3, 0.5),
                                  (3, 1, 2.5), (3, -0.5)])
def test_tri_indices(name, args):
    check(lambda xp: getattr(xp, name)(*args))


@pytest.mark.parametrize("name", ["tril_indices_from", "triu_indices_from"])
@pytest.mark.parametrize("shape,k", [((3, 4), 0), ((4, 2), 1), ((3, 3), -1), ((3,), 0),
                                     ((2, 2, 2), 0)])
def test_tri_indices_from(name, shape, k):
    check(lambda xp, a: getattr(xp, name)(a, k=k), np.zeros(shape))


@pytest.mark.parametrize("func", ["triu", "tril"])
@pytest.mark.parametrize("k", [0, 1, -2])
def test_mask_indices(func, k):
    check(lambda xp: xp.mask_indices(4, getattr(xp, func), k))


@pytest.mark.parametrize("dt", INT_DTYPES + [np.dtype("?"), np.dtype("d")], ids=str)
def test_ravel_multi_index_dtypes(dt):
    idx = (np.array([[0, 1], [2, 1]]).astype(dt), np.array([1, 3]).astype(dt))
    check(lambda xp, i, j: xp.ravel_multi_index((i, j), (3, 4)), *idx)
    check(lambda xp, i, j: xp.ravel_multi_index((i, j), (3, 4), order="F"), *idx)


@pytest.mark.parametrize("kw", [dict(), dict(mode="wrap"), dict(mode="clip"),
                                dict(mode=("clip", "wrap", "raise")), dict(mode=1),
                                dict(order="F", mode="clip"), dict(order="A"), dict(mode="w")])
@pytest.mark.parametrize("idx", [([1, 5, -1], [0, 3, 2], [1, 1, 1]), ([1, 0], [0, 3], [1, 1]),
                                 (1, 2, 0)])
def test_ravel_multi_index_modes(kw, idx):
    arrs = tuple(np.array(i) for i in idx)
    check(lambda xp, *a: xp.ravel_multi_index(a, (3, 4, 2), **kw), *arrs)


@pytest.mark.parametrize("dims", [(3,), (3, 4, 5), 12, (2, 2)])
def test_ravel_multi_index_bad(dims):
    check(lambda xp, i, j: xp.ravel_multi_index((i, j), dims, mode="clip"),
          np.array([0, 1]), np.array([1, 0]))
    check(lambda xp, i, j: xp.ravel_multi_index((i, j), (3, 4)), np.array([0, 1]),
          np.array([1, 0, 2]))


@pytest.mark.parametrize("dt", INT_DTYPES + [np.dtype("d"), np.dtype("?")], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index(dt, order):
    check(lambda xp, i: xp.unravel_index(i, (3, 4, 2), order=order),
          np.array([[0, 5], [23, 7]]).astype(dt))
    check(lambda xp, i: xp.unravel_index(i, 24, order=order), np.array(17).astype(dt))


@pytest.mark.parametrize("case", [(np.array([24]), (3, 4, 2)), (np.array([-1, 2]), (3, 4)),
                                  (np.array([1]), (3, 0)), (np.array([], int), (3, 4)),
                                  (np.array([3]), (3, -4)), (np.array(3), ())])
def test_unravel_index_bad(case):
    i, shape = case
    check(lambda xp, i: xp.unravel_index(i, shape), i)
    check(lambda xp, i: xp.unravel_index(i, (3, 4), order="A"), i)


@given(shapes(min_dims=1, max_dims=3, min_side=1).flatmap(lambda dims: st.tuples(
    st.just(dims), hnp.arrays(np.int64, (4,), elements=st.integers(-1, int(np.prod(dims)))))),
    st.sampled_from(["C", "F"]), st.sampled_from(["raise", "wrap", "clip"]))
def test_unravel_ravel_random(data, order, mode):
    dims, flat = data
    check(lambda xp, i: xp.unravel_index(i, dims, order=order), flat)
    multi = np.unravel_index(np.clip(flat, 0, int(np.prod(dims)) - 1), dims)
    check(lambda xp, *m: xp.ravel_multi_index(tuple(x + 1 for x in m), dims, mode=mode,
                                              order=order), *multi)


R_CASES = [
    lambda xp, a, b: xp.r_[a, b],
    lambda xp, a, b: xp.r_[a, 0, 4, b],
    lambda xp, a, b: xp.r_[1:4, a, 0.5],
    lambda xp, a, b: xp.r_[-1:1:6j, a],
    lambda xp, a, b: xp.r_[0:10:3j],
    lambda xp, a, b: xp.r_[3, 4.0],
    lambda xp, a, b: xp.r_["-1", a, b],
    lambda xp, a, b: xp.r_["0,2", a, b],
    lambda xp, a, b: xp.r_["0,2,0", a, b],
    lambda xp, a, b: xp.r_["1,2,0", a, b],
    lambda xp, a, b: xp.r_["0,3,-1", a, b],
    lambda xp, a, b: xp.r_["0,2", 1:4, a],
    lambda xp, a, b: xp.r_["0,2,0", 1:4, a],
    lambda xp, a, b: xp.r_[a, "0"],
    lambda xp, a, b: xp.r_["x", a],
    lambda xp, a, b: xp.r_["0,x", a],
    lambda xp, a, b: xp.r_[()],
    lambda xp, a, b: xp.r_[a[:, None], b],
    lambda xp, a, b: xp.c_[a, b],
    lambda xp, a, b: xp.c_[a, b, 1:4],
    lambda xp, a, b: xp.c_[a[None, :], 0, 0, b[None, :]],
    lambda xp, a, b: xp.c_[a[:, None], a[:, None]],
    lambda xp, a, b: xp.c_["0", a, b],
]


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bBhqefdD"], ids=str)
@pytest.mark.parametrize("case", range(len(R_CASES)))
def test_r_c(case, dt):
    check(R_CASES[case], np.array([1, 0, 3]).astype(dt), np.array([4, 5, 6], np.int8))


def test_r_c_matrix():
    def body(xp, a, b):
        return (xp.r_["r", a, b], xp.r_["c", a, b], xp.r_["c", a].shape,
                type(xp.r_["r", a]).__name__, xp.r_["a, b; b, a"])
    check(body, np.array([1, 2]), np.array([3, 4]))


def test_r_len_and_types():
    check(lambda xp: (len(xp.r_), len(xp.c_), type(xp.s_[1:2]).__name__, xp.s_[1:2, ..., None],
                      xp.index_exp[1:2], xp.index_exp[3], xp.s_[3]))


@pytest.mark.parametrize("case", [
    lambda xp: xp.unravel_index(0, ()), lambda xp: xp.unravel_index(xp.asarray(0), ()),
    lambda xp: xp.unravel_index([0], ()), lambda xp: xp.unravel_index([1], ()),
    lambda xp: xp.unravel_index(1, ()), lambda xp: xp.unravel_index([[0]], ()),
    lambda xp: xp.unravel_index(5, (0,)), lambda xp: xp.unravel_index(xp.zeros(0, int), (2, 0)),
], ids=["0", "0-d-array", "[0]", "[1]", "1", "[[0]]", "5-in-size-0", "empty-in-size-0"])
def test_unravel_index_of_shape_0d_and_empty(case):
    # shape (): a 0-d index 0 is its one element (NumPy checks bounds before refusing more)
    check(case)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("shape", [(3, 0), (3, 1), (3, 2, 2)], ids=str)
def test_ravel_multi_index_with_a_zero_dimension(shape, mode):
    # any index into a shape with a zero dimension is an error, whatever the mode
    check(lambda xp, i: xp.ravel_multi_index(i, (2, 1, 0), mode=mode), np.zeros(shape, np.intp))


@pytest.mark.parametrize("case", [
    lambda xp: xp.unravel_index([], (10, 3, 5)), lambda xp: xp.unravel_index((), (10, 3, 5)),
    lambda xp: xp.unravel_index(xp.asarray([]), (10, 3)),
    lambda xp: xp.ravel_multi_index(([], []), (10, 3)),
    lambda xp: xp.ravel_multi_index(([], ["abc"]), (10, 3)),
    lambda xp: xp.ravel_multi_index((xp.asarray([]), xp.asarray([])), (5, 3)),
], ids=["unravel-[]", "unravel-()", "unravel-float-array", "ravel-[]", "ravel-[]-str",
        "ravel-float-arrays"])
def test_empty_index_sequences(case):
    # NumPy's message for an empty Python sequence names the dtype it inferred
    check(case)
