"""apply_along_axis, apply_over_axes, vectorize against NumPy."""
import math

import numpy as np
import pytest

from engine import check


@pytest.mark.parametrize("dt", ["int8", "int64", "float32", "float64", "complex128", "bool"])
def test_vectorize_dtypes(dt):
    a = np.arange(6).reshape(2, 3).astype(dt)
    check(lambda xp, a: xp.vectorize(lambda x: x * 2)(a), a)
    check(lambda xp, a: xp.vectorize(lambda x, y: x + y)(a, a[0]), a)
    check(lambda xp, a: xp.vectorize(lambda x: x * 2, otypes=[np.float32])(a), a)
    check(lambda xp, a: xp.vectorize(lambda x: (x, x * 2))(a), a)


def test_vectorize_untraceable_and_forms():
    a = np.array([-2.0, -0.5, 0.0, 1.5, 3.0])
    check(lambda xp, a: xp.vectorize(lambda x: x if x > 0 else -x)(a), a)
    check(lambda xp, a: xp.vectorize(lambda x: math.floor(x))(a), a)
    check(lambda xp, a: xp.vectorize(lambda x: 1 if x > 0 else 0.5)(a), a)
    check(lambda xp, a: xp.vectorize(lambda x, p: x ** p, excluded={1})(a, 2), a)
    check(lambda xp, a: xp.vectorize(lambda x, p=1: x * p)(a, p=3), a)
    check(lambda xp, a: xp.vectorize(lambda x: x, otypes="d")(a[:0]), a)
    check(lambda xp, a: xp.vectorize(lambda x: x)(a[:0]), a)
    check(lambda xp, a: xp.vectorize(lambda x: x)(2.5), a)

    def deco(xp, a):
        @xp.vectorize(otypes=[np.int64])
        def f(x):
            return int(x) * 3
        return f(a)
    check(deco, a)


@pytest.mark.parametrize("signature,otypes", [("()->()", "i"), ("()->()", None),
                                              ("(n)->(n)", "i"), ("(n)->(n)", None),
                                              ("()->(n)", "i")])
def test_vectorize_signature_size_zero(signature, otypes):
    x = np.zeros((0, 5), dtype=int)
    check(lambda xp, x: xp.vectorize(lambda v: v, signature=signature, otypes=otypes)(x), x)
    check(lambda xp, x: xp.vectorize(lambda v: v, signature=signature, otypes=otypes)(x.T), x)


def test_vectorize_name_and_doc():
    def names(xp):
        def f(x):
            """f's doc"""
            return x

        @xp.vectorize
        def g(x):
            return x

        @xp.vectorize(otypes="d", doc="given")
        def h(x):
            """h's doc"""
            return x
        v = xp.vectorize(f)
        return (v.__name__, v.__doc__, g.__name__, h.__name__, h.__doc__,
                hasattr(xp.vectorize(lambda x: x), "__name__"))
    check(names)


def test_vectorize_signature():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    check(lambda xp, a, b: xp.vectorize(lambda x, y: (x * y).sum(), signature="(n),(n)->()")(a, b),
          a, b)
    check(lambda xp, a, b: xp.vectorize(lambda x: x[::-1], signature="(n)->(n)")(a), a, b)
    check(lambda xp, a, b: xp.vectorize(lambda x: (x.min(), x.max()),
                                        signature="(n)->(),()")(a), a, b)
    check(lambda xp, a, b: xp.vectorize(lambda x, y: x + y, signature="(n),(n)->(n)")(a, b[:2]),
          a, b)


@pytest.mark.parametrize("dt", ["int32", "float64", "complex64"])
def test_apply_along_axis(dt):
    a = np.arange(24).reshape(2, 3, 4).astype(dt)
    check(lambda xp, a: xp.apply_along_axis(lambda v: v.sum(), 0, a), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: v[::-1] * 2, 1, a), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: xp.outer(v, v), -1, a), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v, k: v[:k], 2, a, 2), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: v, 3, a), a)
    check(lambda xp, a: xp.apply_along_axis(lambda v: v, 0, a[:, :0]), a)


def test_apply_over_axes():
    a = np.arange(24.0).reshape(2, 3, 4)
    check(lambda xp, a: xp.apply_over_axes(xp.sum, a, [0, 2]), a)
    check(lambda xp, a: xp.apply_over_axes(xp.sum, a, -1), a)
    check(lambda xp, a: xp.apply_over_axes(lambda x, ax: x[0], a, 1), a)


def test_frompyfunc():
    a = np.arange(6).reshape(2, 3)
    check(lambda xp, a: xp.frompyfunc(lambda x, y: x * 10 + y, 2, 1)(a, a[0]), a)
    check(lambda xp, a: xp.frompyfunc(lambda x: (x, -x), 1, 2)(a), a)
    check(lambda xp, a: xp.frompyfunc(lambda x, y: x + y, 2, 1).reduce(a, axis=1), a)
    check(lambda xp, a: xp.frompyfunc(lambda x, y: x + y, 2, 1).outer(a[0], a[1]), a)
    check(lambda xp, a: (xp.frompyfunc(abs, 1, 1).nin, xp.frompyfunc(abs, 1, 1).nout), a)


@pytest.mark.parametrize("use", [
    lambda xp: xp.vectorize(lambda x: [x], otypes=[object])(xp.arange(3)),
    lambda xp: xp.vectorize(lambda s, x: s * x)(["ab", "c"], xp.arange(2)),
    lambda xp: xp.vectorize(lambda s: s + "!")(xp.array(["ab", "c"])),
    lambda xp: xp.vectorize(lambda s: s)("0123456789" * 10),
    lambda xp: xp.vectorize(lambda o, x: o.f(x))(_Holder(), xp.arange(4.0)),
    lambda xp: xp.vectorize(lambda x: x, otypes=["datetime64[ns]"])(
        xp.array(["2024-01-01", "2024-01-03"], dtype="datetime64[ns]")),
    lambda xp: xp.vectorize(lambda x: x, signature="(i)->(j)", otypes=["datetime64[ns]"])(
        xp.array(["2024-01-01", "2024-01-03"], dtype="datetime64[ns]")),
    lambda xp: xp.vectorize(lambda x: str(x))(xp.arange(3)),
], ids=["object_otype", "str_operand", "str_array", "long_str", "object_operand", "datetime",
        "datetime_signature", "str_result"])
def test_vectorize_host_dtypes(use):
    # an operand or an output type XLA cannot hold: NumPy's own vectorize, on the host
    check(use)


class _Holder:
    def f(self, x):
        return x ** 2


@pytest.mark.parametrize("func,signature,arg", [
    (lambda x: x[:-1], "(n)->(n)", [1, 2, 3]),
    (lambda x: x, "()->(),()", 1),
    (lambda x: (x, x), "()->()", [1, 2]),
    (lambda x: x.sum(), "(n)->(m)", [[1, 2]]),
    (lambda x: (x, x[:1]), "(n)->(n),(m)", [[1, 2, 3]]),
    (lambda x: 0, "(n,m)->()", [1, 2])],
    ids=["core shrinks", "one output for two", "two outputs for one", "new core dimension",
         "second output's core", "core dimensions missing"])
def test_vectorize_signature_checks_outputs(func, signature, arg):
    # NumPy checks the number of results and their core dimensions against the signature
    check(lambda xp, a: xp.vectorize(func, signature=signature)(a), np.asarray(arg))
