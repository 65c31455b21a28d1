"""A host-tier and a device-tier operand in one call, against NumPy: operators, in-place
operators and their casting rules, ufuncs with ``out=`` on the other tier, writes (slices, masks,
fancy indices, views) whose target and value or index live on different tiers, joins and
``where``; every written array compared (``engine.on_host`` / ``engine.on_device``)."""
import operator

import numpy as np
import pytest

from engine import check, on_device, on_host

RNG = np.random.default_rng(11)
F = RNG.standard_normal((4, 5))
G = RNG.standard_normal((4, 5)) + 3
I = RNG.integers(-6, 7, (4, 5))
J = RNG.integers(1, 5, (4, 5))
B = RNG.random((4, 5)) > 0.5

PAIRS = {
    "host-device": (on_host, on_device),
    "device-host": (on_device, on_host),
}

OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
             operator.mod, operator.pow, operator.lt, operator.eq, operator.ge]


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("op", OPERATORS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x,y", [(F, G), (I, J), (F, J), (B, I), (I, F[0])],
                         ids=["ff", "ii", "fi", "bi", "i-frow"])
def test_operator(pair, op, x, y):
    left, right = PAIRS[pair]
    check(lambda xp, a, b: op(a, b), left(x), right(y), rtol=1e-12)


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor, operator.lshift],
                         ids=lambda f: f.__name__)
def test_bitwise(pair, op):
    left, right = PAIRS[pair]
    check(lambda xp, a, b: op(a, b), left(I), right(J), exact=True)


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("op", [operator.iadd, operator.isub, operator.imul, operator.itruediv,
                                operator.ifloordiv, operator.ipow],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("x,y", [(F, G), (I, J), (F, J), (I, F)],
                         ids=["ff", "ii", "fi", "if (same_kind: UFuncTypeError)"])
def test_inplace(pair, op, x, y):
    """``a op= b``: the target keeps its tier and dtype; NumPy's casting error leaves it as
    it was."""
    left, right = PAIRS[pair]
    check(lambda xp, a, b: op(a, b), left(x), right(y), rtol=1e-12)


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("ufunc", [np.add, np.multiply, np.maximum, np.arctan2],
                         ids=lambda u: u.__name__)
def test_ufunc_out_on_the_other_tier(pair, ufunc):
    first, second = PAIRS[pair]

    def body(xp, a, b, out):
        r = getattr(xp, ufunc.__name__)(a, b, out=out)
        return r, r is out

    check(body, first(F), first(G), second(np.zeros((4, 5))), rtol=1e-12)


@pytest.mark.parametrize("pair", PAIRS)
def test_ufunc_where_mask_on_the_other_tier(pair):
    first, second = PAIRS[pair]
    check(lambda xp, a, m, out: xp.add(a, 1, out=out, where=m),
          first(F), second(B), first(np.zeros((4, 5))))


@pytest.mark.parametrize("pair", PAIRS)
def test_ufunc_out_cast_refused(pair):
    """An int ``out=`` for a float result: NumPy's UFuncTypeError, ``out`` unchanged."""
    first, second = PAIRS[pair]
    check(lambda xp, a, out: xp.add(a, 0.5, out=out), first(F), second(np.zeros((4, 5), int)))


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("write", [
    lambda xp, t, v: t.__setitem__(slice(1, 3), v[:2]),
    lambda xp, t, v: t.__setitem__((slice(None), 1), v[:, 2]),
    lambda xp, t, v: t.__setitem__(v > 0.5, 7),
    lambda xp, t, v: t.__setitem__(v > 0.5, v[v > 0.5] * 2),
    lambda xp, t, v: t.__setitem__((v[:, 0] > 0, slice(None)), -1),
    lambda xp, t, v: t.__setitem__(..., v.T.T),
    lambda xp, t, v: t.__setitem__((slice(None), slice(None, None, 2)), v[:, ::2] + 1),
    lambda xp, t, v: t.__setitem__(slice(None), v[:1]),  # broadcast of a row
    lambda xp, t, v: t.__setitem__(slice(None), v[:, :2]),  # ValueError: cannot broadcast
], ids=["rows", "column", "mask-scalar", "mask-values", "row-mask", "ellipsis", "strided",
        "broadcast", "bad-shape"])
def test_write_value_on_the_other_tier(pair, write):
    target, value = PAIRS[pair]
    check(lambda xp, t, v: write(xp, t, v) or t, target(F), value(G))


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("index", [
    lambda xp, ix: ix,  # fancy rows
    lambda xp, ix: (ix, ix[::-1]),  # pointwise
    lambda xp, ix: (slice(None), ix % 5),
], ids=["rows", "points", "columns"])
def test_fancy_index_on_the_other_tier(pair, index):
    """Reads and writes with an integer index array of the other tier (repeated indices: the
    last write wins, as in NumPy)."""
    target, idx = PAIRS[pair]
    ix = np.array([3, 0, 2, 0])

    def body(xp, t, i):
        got = t[index(xp, i)]
        t[index(xp, i)] = -got * 2
        return got, t

    check(body, target(F), idx(ix))


@pytest.mark.parametrize("pair", PAIRS)
def test_index_out_of_bounds_leaves_the_target(pair):
    target, idx = PAIRS[pair]
    check(lambda xp, t, i: t.__setitem__(i, 0), target(F), idx(np.array([1, 9])))


@pytest.mark.parametrize("pair", PAIRS)
def test_view_written_with_the_other_tier(pair):
    """A view of one tier's array written with the other's: the base sees it."""
    base, value = PAIRS[pair]

    def body(xp, t, v):
        w = t[1:, ::2]
        w += v[:3, :3]
        w[0] = v[0, 0]
        return t, w, w.base is t

    check(body, base(F), value(G))


@pytest.mark.parametrize("pair", PAIRS)
def test_read_only_target(pair):
    """A read-only target refuses a value of the other tier (ValueError), unchanged."""
    target, value = PAIRS[pair]

    def body(xp, t, v):
        t.flags.writeable = False
        t += v

    check(body, target(F), value(G))


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("join", [
    lambda xp, a, b: xp.concatenate([a, b]),
    lambda xp, a, b: xp.concatenate([a, b], axis=1),
    lambda xp, a, b: xp.stack([a, b], axis=-1),
    lambda xp, a, b: xp.vstack([a, b[:1]]),
    lambda xp, a, b: xp.hstack([a, b]),
    lambda xp, a, b: xp.block([[a, b], [b, a]]),
    lambda xp, a, b: xp.concatenate([a, b[:, :2]]),  # ValueError: sizes differ
    lambda xp, a, b: xp.concatenate([a, b.astype(np.int32)], dtype=np.int32),  # same_kind
], ids=["rows", "columns", "stack", "vstack", "hstack", "block", "bad-shape", "bad-cast"])
def test_join(pair, join):
    first, second = PAIRS[pair]
    check(join, first(F), second(G))


@pytest.mark.parametrize("tiers", ["hdh", "dhd", "hhd", "ddh"])
def test_where(tiers):
    place = {"h": on_host, "d": on_device}
    c, x, y = (place[t](v) for t, v in zip(tiers, (B, F, I)))
    check(lambda xp, c, x, y: xp.where(c, x, y), c, x, y)


@pytest.mark.parametrize("pair", PAIRS)
def test_copyto_and_put(pair):
    target, value = PAIRS[pair]

    def body(xp, t, v, m):
        xp.copyto(t, v, where=m)
        xp.put(t, [0, 7, 19], v[1, :3])
        xp.putmask(t, m[::-1], v)
        return t

    check(body, target(F), value(G), value(B))


@pytest.mark.parametrize("pair", PAIRS)
def test_reduction_with_out_on_the_other_tier(pair):
    data, out = PAIRS[pair]
    check(lambda xp, a, o: (xp.sum(a, axis=0, out=o), o.sum()), data(F), out(np.zeros(5)),
          rtol=1e-12)


@pytest.mark.parametrize("pair", PAIRS)
def test_matmul_and_dot(pair):
    first, second = PAIRS[pair]
    check(lambda xp, a, b: (a @ b.T, xp.dot(a[0], b[1]), xp.einsum("ij,ij->i", a, b)),
          first(F), second(G), rtol=1e-12)


@pytest.mark.parametrize("pair", PAIRS)
def test_set_routines_and_joins_of_compactions(pair):
    left, right = PAIRS[pair]

    def body(xp, a, b):
        x, y = a[a > -3], b[b > 1]  # on the device: compactions, bucketed as their lengths are read
        return (xp.intersect1d(x, y, return_indices=True), xp.intersect1d(a, b, True, True),
                xp.setxor1d(x, y), xp.setxor1d(a, y, True), xp.union1d(x, b), xp.setdiff1d(y, x),
                xp.concatenate((x, y, a[0])), xp.concatenate((x, b), axis=None),
                xp.unique(x, return_inverse=True), xp.unique(a, True, True, True))
    check(body, left(I), right(J))
