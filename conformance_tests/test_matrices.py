"""eye, identity, tri, tril, triu, diag, diagflat, vander against NumPy."""
import numpy as np
import pytest

from engine import check
from strategies import ALL_DTYPES


@pytest.mark.parametrize("dt", ALL_DTYPES + [int, float, complex, bool], ids=str)
def test_eye_identity_tri_dtypes(dt):
    check(lambda xp: xp.eye(3, dtype=dt))
    check(lambda xp: xp.identity(4, dtype=dt))
    check(lambda xp: xp.tri(3, 4, dtype=dt))


@pytest.mark.parametrize("n,m", [(3, None), (3, 5), (4, 2), (0, 3), (0, None), (-1, None),
                                 (3, -2), (2.0, None), (np.int8(3), np.int64(2))], ids=str)
@pytest.mark.parametrize("k", [0, 1, -2, 7, -9, 1.5])
def test_eye_tri_shapes(n, m, k):
    check(lambda xp: xp.eye(n, m, k))
    check(lambda xp: xp.tri(n, m, k))


def test_identity_errors():
    check(lambda xp: xp.identity(-2))
    check(lambda xp: xp.identity(2.5))


def test_numpy_only_dtype():
    check(lambda xp: xp.eye(2, dtype="U3"))  # on the host tier


MATS = [np.arange(12).reshape(3, 4), np.arange(24.0).reshape(2, 3, 4), np.arange(5),
        np.zeros((0, 3)), np.array(2.0), (np.arange(9) + 1j).reshape(3, 3)]


@pytest.mark.parametrize("m", MATS, ids=lambda m: f"{m.dtype}{m.shape}")
@pytest.mark.parametrize("k", [0, 1, -1, 5, -5, 1.5, np.int8(-1)], ids=repr)
def test_tril_triu(m, k):
    check(lambda xp, a: xp.tril(a, k), m)
    check(lambda xp, a: xp.triu(a, k), m)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_tril_triu_dtypes_and_lists(dt):
    check(lambda xp, a: xp.tril(a), np.arange(9).reshape(3, 3).astype(dt))
    check(lambda xp, a: xp.triu(a, -1), np.arange(9).reshape(3, 3).astype(dt))
    check(lambda xp: xp.triu([[1, 2], [3, 4]]))


@pytest.mark.parametrize("v", [np.arange(1, 4), np.arange(12).reshape(3, 4),
                               np.arange(12.0).reshape(4, 3), np.zeros(0), np.array(1.0),
                               np.zeros((2, 2, 2)), np.array([True, False])],
                         ids=lambda v: f"{v.dtype}{v.shape}")
@pytest.mark.parametrize("k", [0, 2, -1, -6])
def test_diag(v, k):
    check(lambda xp, a: xp.diag(a, k), v)
    check(lambda xp, a: xp.diagflat(a, k), v)


def test_diag_of_list_and_readonly_view():
    check(lambda xp: xp.diag([1, 2.5]))
    check(lambda xp: xp.diagflat([[1, 2], [3, 4]], 1))

    def body(xp, a):
        d = xp.diag(a)
        return d.flags.writeable, d.base is a
    check(body, np.arange(9).reshape(3, 3))

    def write(xp, a):
        xp.diag(a)[0] = 5
    check(write, np.arange(9).reshape(3, 3))

    def follows(xp, a):
        d = xp.diag(a, 1)
        a[0, 1] = 100
        return d
    check(follows, np.arange(9).reshape(3, 3))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("n", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(dt, n, increasing):
    x = np.array([1, 2, 3, 5]).astype(dt)
    check(lambda xp, a: xp.vander(a, n, increasing), x)


def test_vander_errors_and_lists():
    check(lambda xp: xp.vander([1.5, -2.0, 0.5]))
    check(lambda xp: xp.vander([[1, 2]]))
    check(lambda xp: xp.vander([1, 2], -1))
    check(lambda xp: xp.vander(3))
    check(lambda xp: xp.vander([]))


@pytest.mark.parametrize("order", ["C", "F", None, "A", "x"])
def test_eye_order(order):
    check(lambda xp: (lambda e: (e, e.flags.c_contiguous, e.flags.f_contiguous))(
        xp.eye(3, 4, order=order)))
