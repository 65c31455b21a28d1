"""packbits and unpackbits over dtypes, axes, counts and bit orders."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import check
from strategies import ALL_DTYPES, arrays, shapes


def _data(dt, shape=(3, 10)):
    a = (np.arange(int(np.prod(shape))).reshape(shape) * 7) % 5 - 1
    return a.astype(dt) if dt.kind != "b" else (a > 1)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_packbits_dtypes(dt):
    check(lambda xp, a: xp.packbits(a), _data(dt))
    check(lambda xp, a: xp.packbits(a, axis=-1, bitorder="little"), _data(dt))


@pytest.mark.parametrize("kw", [dict(axis=0), dict(axis=1), dict(axis=-2, bitorder="little"),
                                dict(axis=2), dict(bitorder="x"), dict(bitorder="L"),
                                dict(bitorder=None), dict(axis=1.0)])
@pytest.mark.parametrize("shape", [(3, 10), (2, 8), (0, 3), (4,)])
def test_packbits_args(kw, shape):
    check(lambda xp, a: xp.packbits(a, **kw), _data(np.dtype(np.int16), shape))


@pytest.mark.parametrize("kw", [dict(), dict(axis=0)])
def test_packbits_scalar_and_list(kw):
    check(lambda xp: xp.packbits(3, **kw))
    check(lambda xp: xp.packbits([[1, 0, 1], [0, 0, 1]], **kw))
    check(lambda xp: xp.packbits([1.0, 0.0], **kw))


@pytest.mark.parametrize("dt", [np.dtype(c) for c in "?bBhHqQfd"], ids=str)
def test_unpackbits_dtypes(dt):
    check(lambda xp, a: xp.unpackbits(a), (np.arange(12).reshape(3, 4) * 37).astype(dt))


@pytest.mark.parametrize("kw", [dict(), dict(axis=0), dict(axis=1, bitorder="little"),
                                dict(axis=-1, count=5), dict(count=40), dict(count=-3),
                                dict(axis=0, count=-100), dict(count=0), dict(count=1.5),
                                dict(axis=0, count=np.int8(30)), dict(axis=3),
                                dict(bitorder="b"), dict(bitorder="q")])
@pytest.mark.parametrize("shape", [(3, 4), (0, 2)])
def test_unpackbits_args(kw, shape):
    a = (np.arange(int(np.prod(shape))).reshape(shape) * 37).astype(np.uint8)
    count = kw.get("count", 0)
    if a.size == 0 and isinstance(count, (int, np.integer)) and count > 0 and np.unpackbits(
            a, **kw).size:
        # NumPy pads an empty input's `count` bits with uninitialised memory (np.empty): its
        # values are no oracle. NumPy documents the padding as zeros, as tnp pads: NumPy gives
        # the shape and dtype, zeros the values.
        check(lambda xp, a: xp.unpackbits(a, **kw) if xp is not np else
              np.zeros_like(np.unpackbits(a, **kw)), a, exact=True)
        return
    check(lambda xp, a: xp.unpackbits(a, **kw), a, exact=True)


@pytest.mark.parametrize("kw", [dict(count=40), dict(axis=0, count=np.int8(30))])
def test_unpackbits_empty_count_shape(kw):
    check(lambda xp, a: (xp.unpackbits(a, **kw).shape, xp.unpackbits(a, **kw).dtype),
          np.zeros((0, 2), np.uint8))


def test_unpackbits_scalar_and_roundtrip():
    check(lambda xp, a: xp.unpackbits(a), np.array(5, np.uint8))
    check(lambda xp, a: xp.unpackbits(xp.packbits(a, axis=1), axis=1, count=10), _data(
        np.dtype(bool)))


@given(shapes(min_dims=1, max_dims=3, max_side=10).flatmap(
    lambda sh: st.tuples(arrays(np.dtype(np.uint8), sh), st.integers(-len(sh), len(sh) - 1))),
    st.sampled_from(["big", "little"]))
def test_pack_unpack_random(data, bitorder):
    a, axis = data
    check(lambda xp, a: xp.packbits(a, axis=axis, bitorder=bitorder), a)
    check(lambda xp, a: xp.unpackbits(a, axis=axis, bitorder=bitorder), a)
