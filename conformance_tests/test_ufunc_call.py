"""ufunc.__call__ keywords against NumPy: out (array, tuple, partial tuple, positional), where,
casting, dtype, signature; and the floating-point error state (errstate/seterr)."""
import inspect
import warnings

import numpy as np
import pytest

import tnp
from engine import check

X = np.array([1.5, -2.0, 0.0, 4.0])
I = np.array([3, -4, 5, 0], "int32")


def test_out_array_and_positional():
    def body(xp, a, o):
        r = xp.add(a, 1.0, out=o)
        assert r is o
        r = xp.multiply(a, 2.0, o)
        assert r is o
        return o
    check(body, X, np.zeros(4))


def test_out_tuple_partial():
    def both(xp, a, o1, o2):
        q, r = xp.divmod(a, 3, out=(o1, o2))
        assert q is o1 and r is o2
        return o1, o2
    check(both, I, np.zeros(4, "int64"), np.zeros(4, "int64"))

    def second(xp, a, o2):
        q, r = xp.divmod(a, 3, out=(None, o2))
        assert r is o2
        return q, o2
    check(second, I, np.zeros(4, "int32"))

    def first_positional(xp, a, o1):
        q, r = xp.modf(a, o1)
        return q, r, o1
    check(first_positional, X, np.zeros(4))


def test_where_keeps_out():
    mask = np.array([True, False, True, False])

    def body(xp, a, o):
        xp.sqrt(a, out=o, where=mask)
        xp.add(a, 10, out=o, where=[False, True, False, False])
        return o
    check(body, np.abs(X), np.full(4, -1.0))


def test_device_out_with_inputs_only_numpy_holds():
    # Object and void inputs run on NumPy (the host tier) whatever the placement; a numeric
    # ``out`` lives on the device and is written with NumPy's result (with ``where=``, what
    # NumPy leaves alone keeps its values).
    def body(xp, o):
        r = xp.add(xp.array([1, 2, 3, 4], dtype=object), 1, out=o, casting="unsafe",
                   where=[True, False, True, False])
        assert r is o
        return o
    check(body, np.full(4, -1.0))

    def void(xp, o, o0):
        a = xp.array(b"1", dtype="V3")
        r = xp.logical_and(a, xp.array([1.0, 2.0]), out=o)
        assert r is o
        return o, xp.logical_or.reduce(a, out=o0), o0
    check(void, np.zeros(2, np.int32), np.zeros((), np.int32))

    def tuple_out(xp, o1):
        q, r = xp.divmod(xp.array([7, 8], dtype=object), 3, out=(o1, None))
        assert q is o1
        return q, r
    check(tuple_out, np.zeros(2))
    # NumPy's own error for the object loop's cast ("invalid literal for int()")
    check(lambda xp, o: xp.add(xp.array([1, "s"], dtype=object), 1, out=o, casting="unsafe"),
          np.zeros(2, np.intp))


def test_device_out_with_python_data():
    check(lambda xp, o: xp.positive([2], out=o), np.empty(()))  # NumPy's ValueError
    check(lambda xp, o: xp.add(np.ones(()), [1, 2], out=o), np.empty(1))
    check(lambda xp, o: (xp.positive([[2.5]], out=o), o), np.empty((2, 1)))


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_casting(casting):
    check(lambda xp, a, o: xp.add(a, 1.5, out=o, casting=casting), I, np.zeros(4, "int32"))
    check(lambda xp, a, o: xp.add(a, a, out=o, casting=casting), I, np.zeros(4, "int16"))
    check(lambda xp, a: xp.add(a, a, dtype="int8", casting=casting), I)
    check(lambda xp, a: xp.sqrt(a, dtype="float32", casting=casting), X)


def test_dtype_and_signature():
    check(lambda xp, a: xp.add(a, a, dtype="float32"), I)
    check(lambda xp, a: xp.divide(a, 3, dtype="float16"), I)
    check(lambda xp, a: xp.add(a, 2, signature=("f8", "f8", "f8")), I)
    check(lambda xp, a: xp.add(a, 2, signature=(None, None, "f4")), I)
    check(lambda xp, a: xp.add(a, 2, signature="dd->d"), I)
    check(lambda xp, a: xp.add(a, 2, signature="ii->i"), X)
    # ``sig``, NumPy's older name of ``signature``; a signature that is no str or tuple
    check(lambda xp, a: xp.add(a, 0.5, sig="ii->i", casting="unsafe"), X)
    check(lambda xp: xp.add([3], [4], sig=(None, None, None)))
    check(lambda xp: xp.add([3], [4], sig="ll->l", signature="ll->l"))
    check(lambda xp: xp.add(1, 2, sig=None))
    check(lambda xp: xp.add(1, 2, signature=["l", "l", "l"]))
    # a byte string is parsed as a str is
    check(lambda xp, a: xp.add(a, 2, signature=b"dd->d"), I)
    check(lambda xp: xp.add(3, 4, signature=b"ii-i"))


def test_bad_calls():
    check(lambda xp, a: xp.add(a), X)
    check(lambda xp, a: xp.add(a, a, a, a), X)
    check(lambda xp, a, o: xp.add(a, a, o, out=o), X, np.zeros(4))
    check(lambda xp, a, o: xp.add(a, a, out=(o, o)), X, np.zeros(4))
    check(lambda xp, a, o: xp.add(a, np.ones((3, 1)), out=o), X, np.zeros(4))
    check(lambda xp, a: xp.add(a, 2**70), I)
    check(lambda xp, a: xp.equal(a, 2**70), I)
    check(lambda xp, a: xp.less(-300, a.astype("uint8")), I)


def test_errstate_shared_with_numpy():
    assert tnp.geterr() == np.geterr()
    with tnp.errstate(divide="raise"):
        assert np.geterr()["divide"] == "raise"
    old = tnp.seterr(over="ignore")
    try:
        assert np.geterr()["over"] == "ignore"
    finally:
        tnp.seterr(**old)
    f = lambda *a: None  # noqa: E731
    old = tnp.seterrcall(f)
    assert np.geterrcall() is f and tnp.geterrcall() is f
    tnp.seterrcall(old)


@pytest.mark.parametrize("cat,name,args", [
    ("divide", "divide", (np.array([1.0, 2.0]), np.array([0.0, 1.0]))),
    ("divide", "log", (np.array([0.0, 1.0]),)),
    ("invalid", "sqrt", (np.array([-1.0, 1.0]),)),
    ("invalid", "subtract", (np.array([np.inf]), np.array([np.inf]))),
    ("over", "multiply", (np.array([1e300]), np.array([1e300]))),
    ("over", "exp", (np.array([1000.0], "float32"),)),
])
def test_errstate_raise(cat, name, args):
    def body(xp, *a):
        with xp.errstate(**{cat: "raise"}):
            return getattr(xp, name)(*a)
    check(body, *args)

    def ok(xp, *a):
        with xp.errstate(all="raise"):
            return getattr(xp, name)(*[np.ones_like(v) for v in a])
    check(ok, *args)


@pytest.mark.parametrize("name", ["equal", "less", "greater_equal", "add", "power", "gcd"])
@pytest.mark.parametrize("a, b", [(2**200, -2**200), (np.int64(1), 2**100), (2**100, 3**70),
                                  (np.uint64(1), 2**63), (2**64, 1)], ids=str)
def test_python_ints_no_integer_dtype_holds(name, a, b):
    # NumPy's object loop (comparisons) or its OverflowError: never JAX's
    check(lambda xp: getattr(xp, name)(a, b))


@pytest.mark.parametrize("name", ["bitwise_count", "negative", "absolute", "invert"])
@pytest.mark.parametrize("v", [2**63 - 1, 2**63, 2**64 - 1, -2**63, -2**63 - 1, 2**64], ids=str)
def test_python_int_alone_past_int64(name, v):
    # a lone Python int past int64: NumPy's uint64 or object loop (bitwise_count(2**64 - 1))
    check(lambda xp: getattr(xp, name)(v))
    check(lambda xp: xp.add(v, 1))


def test_out_ellipsis():
    def body(xp, a):
        return [xp.add(a, 2, out=...), xp.add.reduce(a, out=...), xp.divmod(a, 2, out=...),
                xp.add.accumulate(a, out=...), xp.add(1, 2, out=...)]
    check(body, np.arange(3.0))
    for bad in (lambda xp, a: xp.add(a, 2, ...), lambda xp, a: xp.add.reduce(a, (), None, ...),
                lambda xp, a: xp.negative(a, out=(...,)),
                lambda xp, a: xp.divmod(a, 2, out=(xp.empty(3), ...)),
                lambda xp, a: xp.add.reduce(a, out=(...,))):
        check(bad, np.arange(3.0))


def test_resolve_dtypes():
    i4, f4 = np.dtype("i4"), np.dtype("f4")

    def body(xp):
        return [xp.add.resolve_dtypes((i4, f4, None)), xp.equal.resolve_dtypes((i4, f4, None)),
                xp.add.resolve_dtypes((i4, i4, None), signature=(None, None, "f4")),
                xp.add.resolve_dtypes((f4, int, None)),
                xp.add.resolve_dtypes((None, np.dtype("i2"), None), reduction=True)]
    check(body)
    check(lambda xp: xp.add.resolve_dtypes((i4, f4, None), casting="no"))
    assert list(inspect.signature(tnp.ufunc.resolve_dtypes).parameters) == list(
        inspect.signature(np.ufunc.resolve_dtypes).parameters)


def test_where_without_out_warns():
    # NumPy's UserWarning for where= without out= (uninitialised output), only then
    def warned(xp):
        a = xp.arange(7)
        calls = [lambda: xp.add(a, a, where=a > 2), lambda: xp.negative(a, where=False),
                 lambda: xp.add(a, a, where=True), lambda: xp.add(a, a, where=a > 2, out=None),
                 lambda: xp.add(a, a, xp.empty(7, a.dtype), where=a > 2),
                 lambda: xp.add.reduce(a, where=a > 2)]
        found = []
        for call in calls:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                call()
            found.append([(x.category, str(x.message)) for x in w])
        return found
    assert warned(tnp) == warned(np)


@pytest.mark.parametrize("dt", ["intp", "int8", "int32", "uint64"])
@pytest.mark.parametrize("x", [[1.0, np.nan], [1.5, 1e30], [1.5, -2.5], [3e9, 1.0],
                               [1 + 2j, np.nan]], ids=str)
def test_input_cast_invalid_raises(dt, x):
    # errstate(invalid='raise'): the loop's input cast of NaN, inf or an out-of-range float
    # to an integer is NumPy's FloatingPointError ("invalid value encountered in cast")
    def body(xp, a):
        with xp.errstate(invalid="raise"):
            return xp.add(a, a, dtype=dt, casting="unsafe")
    check(body, np.array(x))


@pytest.mark.parametrize("a, b", [((4, 2), (4, 1)), ((4, 2), ()), ((2, 1, 2), (2, 2)),
                                  ((2, 1, 1), (3, 1, 1))], ids=str)
def test_gufunc_core_dimension_errors(a, b):
    # NumPy's ValueError (a core dimension missing or mismatched), eager and recorded
    def body(xp, x, y):
        return xp.vecdot(x, y), xp.vecdot(x, y)
    check(body, np.ones(a), np.ones(b))
