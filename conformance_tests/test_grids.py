"""meshgrid, mgrid, ogrid, indices, ix_ against NumPy."""
import numpy as np
import pytest

import tnp

from engine import check
from strategies import ALL_DTYPES

X, Y, Z = np.array([1, 2, 3]), np.array([4.5, 5.5]), np.array([[6, 7]], np.int8)


@pytest.mark.parametrize("copy,sparse,indexing", [
    pytest.param(copy, sparse, indexing, id=f"{copy}-{sparse}-{indexing}")
    for copy in (True, False) for sparse in (False, True) for indexing in ("xy", "ij", "bad")])
def test_meshgrid(indexing, sparse, copy):
    check(lambda xp, x, y, z: xp.meshgrid(x, y, z, indexing=indexing, sparse=sparse, copy=copy),
          X, Y, Z)
    check(lambda xp, x, y: xp.meshgrid(x, y, indexing=indexing, sparse=sparse, copy=copy), X, Y)
    check(lambda xp, x: xp.meshgrid(x, indexing=indexing, sparse=sparse, copy=copy), X)
    check(lambda xp: xp.meshgrid(indexing=indexing, sparse=sparse, copy=copy))


def test_meshgrid_lists_and_scalars():
    check(lambda xp: xp.meshgrid([1, 2], 3.5, [True, False]))


def test_meshgrid_copy_is_independent():
    def body(xp, x, y):
        gx, gy = xp.meshgrid(x, y)
        gx[0, 0] = 100
        return x, gx, gy
    check(body, X, Y)


KEYS = [np.s_[0:5], np.s_[1:10:3], np.s_[0:5:4j], np.s_[0:5:1j], np.s_[0.5:5], np.s_[-1:1:5j],
        np.s_[5:0:-1], np.s_[:3], np.s_[0:1:3j, 0:2], np.s_[5:0, 0:2], np.s_[0:2, 0:3:0.5],
        np.s_[-1:1:0.5, 2:0:-1, 0:1:2j], np.s_[()], np.s_[0:3, np.float32(0):1:0.5], np.s_[1, 2]]


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
def test_mgrid_ogrid(grid, key):
    check(lambda xp: getattr(xp, grid)[key])


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (0, 2), (2, -1)], ids=str)
@pytest.mark.parametrize("sparse", [False, True])
def test_indices(dims, sparse):
    check(lambda xp: xp.indices(dims, sparse=sparse))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_indices_dtypes(dt):
    check(lambda xp: xp.indices((2, 3), dtype=dt))
    check(lambda xp: xp.indices((2, 3), dtype=dt, sparse=True))


ARGS = [([0, 1], [2, 3, 4]), ([True, False, True], [1]), ([], [0, 2]), (np.arange(3),),
        (np.array([], float), [1]), ([[0, 1]], [2]), (np.array([1, 0], np.uint8), [1.5]), ()]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_ix(args):
    check(lambda xp, *a: xp.ix_(*a), *args)


def test_ix_indexes_like_numpy():
    check(lambda xp, a: a[xp.ix_([0, 2], [1, 3])], np.arange(20).reshape(4, 5))


@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
def test_grid_docstring(grid):
    assert getattr(tnp, grid).__doc__ == getattr(np, grid).__doc__


@pytest.mark.parametrize("key", [
    np.s_[np.longdouble(0):np.longdouble(1):np.longdouble(0.25)],
    np.s_[0:np.longdouble(1):0.5, 0:2],
    np.s_[0:1:np.clongdouble(5j)],
    np.s_[0:np.longdouble(1):3j, 0:2:2j],
], ids=["line", "dense", "line-count", "dense-count"])
@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
def test_grids_of_longdouble(grid, key):
    # NumPy's grid where XLA cannot hold the dtype (it lives on the host in both placements)
    check(lambda xp: getattr(xp, grid)[key])
