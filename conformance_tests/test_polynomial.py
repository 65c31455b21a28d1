"""The legacy polynomial API against NumPy (roots compared as sorted sets: NumPy gives no order)."""
import numpy as np
import pytest

from engine import assert_same, check

import tnp

DTYPES = ["int8", "int64", "uint8", "float32", "float64", "complex128", "bool"]


def _c(dt, n=4, start=1):
    v = (np.arange(start, start + n) * 3) % 7 - 2
    if np.dtype(dt).kind == "b":
        return v % 2 == 1
    if np.dtype(dt).kind == "u":
        v = np.abs(v)
    v = v.astype(dt)
    return v + 1j * v[::-1] if np.dtype(dt).kind == "c" else v


@pytest.mark.parametrize("dt", DTYPES)
def test_arith(dt):
    a, b = _c(dt, 4), _c(dt, 2, 3)
    check(lambda xp, a, b: xp.polyadd(a, b), a, b)
    check(lambda xp, a, b: xp.polyadd(b, a), a, b)
    check(lambda xp, a, b: xp.polysub(a, b), a, b)
    check(lambda xp, a, b: xp.polymul(a, b), a, b)
    check(lambda xp, a, b: xp.polyval(a, b), a, b)
    check(lambda xp, a, b: xp.polyval(a, 2), a, b)
    check(lambda xp, a, b: xp.polyder(a), a, b)
    check(lambda xp, a, b: xp.polyder(a, 2), a, b)
    check(lambda xp, a, b: xp.polyder(a, 0), a, b)
    check(lambda xp, a, b: xp.polyint(a), a, b)
    check(lambda xp, a, b: xp.polyint(a, 2, k=[1.0, 2.0]), a, b)
    check(lambda xp, a, b: xp.polyint(a, 3, k=5), a, b)


@pytest.mark.parametrize("dt", ["int64", "float32", "float64", "complex128"])
def test_polydiv(dt):
    u = np.array([1, -3, 2, 5, 4]).astype(dt)
    v = np.array([2, -1]).astype(dt)
    check(lambda xp, u, v: xp.polydiv(u, v), u, v)
    check(lambda xp, u, v: xp.polydiv(xp.polymul(u, v), v), u, v)
    check(lambda xp, u, v: xp.polydiv(v, u), u, v)


def test_errors():
    a = np.array([1.0, 2.0, 3.0])
    check(lambda xp, a: xp.polyder(a, -1), a)
    check(lambda xp, a: xp.polyint(a, -1), a)
    check(lambda xp, a: xp.polyint(a, 3, k=[1, 2]), a)
    check(lambda xp, a: xp.roots(a.reshape(3, 1)), a)
    check(lambda xp, a: xp.poly(a.reshape(1, 3)), a)
    check(lambda xp, a: xp.polyfit(a, a, -1), a)
    check(lambda xp, a: xp.polyfit(a.reshape(3, 1), a, 1), a)
    check(lambda xp, a: xp.polyfit(a, a[:2], 1), a)
    check(lambda xp, a: xp.polyfit(a, a, 1, w=a[:2]), a)
    check(lambda xp, a: xp.polyfit(a, a, 2, cov=True), a)


def _sorted_roots(r):
    r = np.asarray(r)
    return np.sort_complex(r) if r.size else r


@pytest.mark.parametrize("p", [[1, -3, 2], [1, 0, 1], [2, -4, 0, 0], [0, 0, 1, -1], [0, 0],
                               [5], [1, -6, 11, -6], [1.0 + 1j, 2.0, -1j]])
def test_roots(p):
    p = np.array(p)
    exp, act = np.roots(p), tnp.roots(tnp.asarray(p))
    assert isinstance(act, tnp.ndarray)
    assert act.dtype == exp.dtype and act.shape == exp.shape
    if exp.size:  # roots in a canonical order, both sorted on the host
        assert_same(_sorted_roots(act), _sorted_roots(exp), rtol=1e-10, atol=1e-12,
                    host_ok=True)


@pytest.mark.parametrize("seq", [[1, 2], [1.0, -1.0, 3.5], [1j, -1j], [1j, 2.0], [],
                                 [[1.0, 2.0], [3.0, 4.0]], np.array([2, 3], np.int8)])
def test_poly(seq):
    check(lambda xp, s: xp.poly(s), np.asarray(seq), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dt", ["int64", "float32", "float64"])
def test_polyfit(dt):
    x = np.linspace(0, 3, 9).astype(dt) if dt != "int64" else np.arange(9)
    y = (2 * x ** 2 - x + 1 + np.sin(np.arange(9))).astype(np.float64)
    y2 = np.stack([y, y[::-1]], 1)
    w = np.linspace(1, 2, 9)
    kw = {"rtol": 1e-6, "atol": 1e-8}
    check(lambda xp, x, y: xp.polyfit(x, y, 2), x, y, **kw)
    check(lambda xp, x, y: xp.polyfit(x, y, 1, w=w), x, y, **kw)
    check(lambda xp, x, y: xp.polyfit(x, y, 3, full=True), x, y, **kw)
    check(lambda xp, x, y: xp.polyfit(x, y, 2, cov=True), x, y, **kw)
    check(lambda xp, x, y: xp.polyfit(x, y, 2, cov="unscaled"), x, y, **kw)
    check(lambda xp, x, y: xp.polyfit(x, y, 2, cov=True), x, y2, **kw)
    check(lambda xp, x, y: xp.polyfit(x, y, 2, full=True), x, y2, **kw)


def test_poly1d():
    def body(xp, c):
        p = xp.poly1d(c)
        q = xp.poly1d([1, -1], variable="z")
        out = [p.coeffs, p.order, len(p), p(2.0), p(c), (p * q).coeffs, (p + q).c, (p - q).c,
               (q - p).c, (2 * p).c, (p * 2).c, (-p).c, (p ** 2).c, p.deriv().c, p.integ().c,
               p.deriv(2).c, p.integ(2, k=1).c, p[0], p[1], p[10], str(p), repr(p), str(q),
               xp.poly1d([1, 3, 2], r=True).c, p == xp.poly1d(c), p != q, (p / 2).c,
               [v.c for v in p / q], xp.polyadd(p, q).c, xp.polyval(p, 3)]
        p[5] = 7
        out.append(p.coeffs)
        return out
    check(body, np.array([0.0, 3.0, -1.0, 2.0]))
    check(lambda xp: xp.poly1d([[1, 2]]))


def test_poly1d_through_the_functions():
    # NumPy's own test_poly1d_math/test_polydiv: a poly1d given to the poly* functions and to
    # a poly1d's call stays a poly1d (composition), complex quotients keep their dtype
    def body(xp):
        p, q = xp.poly1d([1.0, 2, 3]), xp.poly1d([3.0, 2, 1])
        b, a = xp.poly1d([2, 6, 6, 1]), xp.poly1d([-1j, (1 + 2j), -(2 + 1j), 1])
        quot, rem = xp.polydiv(b, a)
        out = [p(q), q(p), xp.polyadd(p, q), xp.polysub(p, [1, 2]), xp.polymul(p, q),
               xp.polyder(p), xp.polyint(p, 2), quot, rem, quot * a + rem]
        assert all(isinstance(o, xp.poly1d) for o in out)
        return [o.coeffs for o in out]
    check(body)
