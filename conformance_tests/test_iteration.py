"""ndindex, ndenumerate, nditer (read and readwrite cases) against NumPy."""
import numpy as np
import pytest

import tnp
from engine import check


def test_ndindex_ndenumerate():
    a = np.arange(6).reshape(2, 3).astype(np.float32)
    check(lambda xp, a: list(xp.ndindex(2, 3)) + list(xp.ndindex((1, 2))), a)
    check(lambda xp, a: [v for v in xp.ndenumerate(a)], a)


@pytest.mark.parametrize("dt", ["int16", "float64", "complex64", "bool"])
def test_nditer_read(dt):
    # tnp's nditer is NumPy's iterator over host copies of the operands (a documented sync
    # point, tnp/_routines/iteration.py): what it yields are NumPy arrays, so host_ok
    a = np.arange(6).reshape(2, 3).astype(dt)
    check(lambda xp, a: [x.copy() for x in xp.nditer(a)], a, host_ok=True)
    check(lambda xp, a: [x.copy() for x in xp.nditer(a.T, order="C")], a, host_ok=True)

    def multi(xp, a):
        it = xp.nditer(a, flags=["multi_index"])
        out = []
        while not it.finished:
            out.append((it.multi_index, it[0].copy()))
            it.iternext()
        return out
    check(multi, a, host_ok=True)
    check(lambda xp, a: [x.copy() for x in xp.nditer(a, flags=["external_loop"])], a,
          host_ok=True)


def test_nditer_readwrite():
    def body(xp, a, b):
        with xp.nditer([a, b], op_flags=[["readwrite"], ["readonly"]]) as it:
            for x, y in it:
                x[...] = x * 2 + y
        return a
    check(body, np.arange(6.0).reshape(2, 3), np.arange(3.0))

    def alloc(xp, a, b):
        it = xp.nditer([a, b, None])
        with it:
            for x, y, z in it:
                z[...] = x * y
            return it.operands[2]
    check(alloc, np.arange(6.0).reshape(2, 3), np.arange(3.0))


def test_flat_array_writeable_as_numpy():
    # NumPy's TestFlat.test___array__: a.flat's array is writeable only for a writeable
    # C-contiguous a (NumPy's is a itself there, a read-only copy otherwise)
    def flags(xp):
        a0 = xp.arange(20.0)
        a = a0.reshape(4, 5)
        a0 = a0.reshape((4, 5))
        a.flags.writeable = False
        return [x.flat.__array__().flags.writeable
                for x in (a, a[::2, ::2], a0, a0[::2, ::2], a0.T)]
    assert flags(tnp) == flags(np)
