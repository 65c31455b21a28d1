"""ufunc methods against NumPy: reduce, accumulate, reduceat, outer, at."""
import functools

import numpy as np
import pytest

import tnp
from engine import assert_same, check, xla_xfail
from matrix import rotated

A = np.array([[1, -2, 3, 0], [4, 5, -6, 7], [-8, 9, 10, 2]])
F = np.array([[1.5, np.nan, -0.0, 2.0], [np.inf, -3.0, 0.5, 1.0], [0.0, 4.0, -1.0, -np.inf]])
REDUCERS = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "subtract", "divide",
            "logical_and", "logical_or", "bitwise_xor", "bitwise_and", "logaddexp", "power",
            "gcd", "lcm"]
AXES = [0, 1, -1, None, (0, 1), (), 2]


_IDENTITY = ("NumPy's reduce over no axes (axis=()) applies the identity to each element "
             "(add: 0.0 + -0.0 == 0.0; complex multiply: (1+0j) * (inf+0j) == inf+nanj); tnp "
             "returns the elements unchanged (-0.0, inf+0j): XLA folds identity-op-x to x")


def _reduce_params():
    for dt in ["int8", "uint8", "bool", "float32", "float64", "complex128"]:
        for name in REDUCERS:
            for axis in AXES:
                reason = None
                if axis == () and (name == "add" and dt[0] in "fc" or (
                        name == "multiply" and dt[0] == "c")):
                    reason = _IDENTITY
                yield pytest.param(name, dt, axis, id=f"{dt}-{name}-{axis!r}",
                                   marks=xla_xfail(reason) if reason else ())


def _stepwise_power(a, axis):
    """``power.reduce(a, axis)`` as NumPy defines it: ``power`` applied in turn along ``axis``."""
    return functools.reduce(np.power, np.moveaxis(a, axis, 0))


@pytest.mark.parametrize("name,dt,axis", rotated(_reduce_params(), 2))
def test_reduce_axes(name, dt, axis, placement):
    x = (F if dt[0] in "fc" else A).astype(dt)
    with np.errstate(all="ignore"):
        if placement != "auto" and name == "power" and dt[0] == "f" and isinstance(
                axis, int) and axis in (1, -1) and (
                not np.array_equal(np.power.reduce(x, axis=axis), _stepwise_power(x, axis),
                                   equal_nan=True)):
            # NumPy's AVX512 power reduce along the last axis (x86-64-v4 CPUs) gives F's rows
            # as [2.25, inf, inf], not power in turn's [1, 0, 0]: on the device the definition
            # is the oracle (the host tier runs NumPy's own loop: NumPy's answer)
            got = tnp.power.reduce(tnp.asarray(x), axis=axis)
            assert_same(got, _stepwise_power(x, axis).astype(dt))
            return
    check(lambda xp, a: getattr(xp, name).reduce(a, axis=axis), x)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "bitwise_or"])
def test_reduce_keywords(name):
    x = A.astype("int16")
    uf = name
    check(lambda xp, a: getattr(xp, uf).reduce(a, axis=1, keepdims=True), x)
    check(lambda xp, a: getattr(xp, uf).reduce(a, axis=0, dtype="float32"), x)
    check(lambda xp, a: getattr(xp, uf).reduce(a, axis=1, initial=5), x)
    mask = np.array([True, False, True, True])
    check(lambda xp, a: getattr(xp, uf).reduce(a, axis=1, where=mask, initial=1), x)
    check(lambda xp, a: getattr(xp, uf).reduce(a, axis=0, where=mask), x)

    def with_out(xp, a):
        o = xp.zeros(4, "int64")
        r = getattr(xp, uf).reduce(a, axis=0, out=o)
        assert r is o
        return o
    check(with_out, x)

    def bad_out(xp, a):
        return getattr(xp, uf).reduce(a, axis=0, out=xp.zeros(4, "int8"))
    check(bad_out, A.astype("float64"))


@pytest.mark.parametrize("name", ["add", "maximum", "minimum", "multiply", "fmax", "bitwise_and"])
@pytest.mark.parametrize("dt", ["int32", "float64", "bool"])
def test_reduce_empty(name, dt):
    check(lambda xp, a: getattr(xp, name).reduce(a), np.zeros(0, dt))
    check(lambda xp, a: getattr(xp, name).reduce(a, axis=1), np.zeros((0, 3), dt))
    check(lambda xp, a: getattr(xp, name).reduce(a, axis=0), np.zeros((0, 3), dt))
    check(lambda xp, a: getattr(xp, name).reduce(a, axis=0, initial=2), np.zeros((0, 3), dt))


def test_reduce_python_list_and_unary():
    check(lambda xp: xp.maximum.reduce([]))
    check(lambda xp: xp.add.reduce([1, 2, 3]))
    check(lambda xp: xp.sin.reduce([1.0, 2.0]))
    check(lambda xp: xp.divmod.reduce([1.0, 2.0]))


@pytest.mark.parametrize("axis", [0, 1, -1, 2], ids=repr)
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "fmin", "subtract",
                                  "logical_or", "divide"])
@pytest.mark.parametrize("dt", ["int8", "bool", "float64"])
def test_accumulate(name, dt, axis):
    x = (F if dt[0] == "f" else A).astype(dt)
    check(lambda xp, a: getattr(xp, name).accumulate(a, axis=axis), x)


def test_accumulate_dtype_out():
    check(lambda xp, a: xp.add.accumulate(a, dtype="float32"), A)

    def with_out(xp, a):
        o = xp.zeros((3, 4), "int64")
        xp.multiply.accumulate(a, axis=1, out=o)
        return o
    check(with_out, A)


@pytest.mark.parametrize("idx", [[0, 2, 3], [0, 1, 1, 3], [2, 0], [3], [0, 5]], ids=repr)
@pytest.mark.parametrize("name", ["add", "maximum", "multiply", "subtract"])
def test_reduceat(name, idx):
    check(lambda xp, a: getattr(xp, name).reduceat(a, idx, axis=1), A.astype("float64"))
    check(lambda xp, a: getattr(xp, name).reduceat(a, [0, 2], axis=0), A)


@pytest.mark.parametrize("idx", [[], (), [0.0, 2.0], np.array([], np.int64), np.array([]),
                                 np.array([0.0, 1.0])], ids=repr)
def test_reduceat_indices_as_numpy_converts_them(idx):
    # Python data straight to intp (an empty list is no float64 array), arrays cast safely
    check(lambda xp, a: xp.add.reduceat(a, idx), np.arange(4.0))


@pytest.mark.parametrize("name", ["add", "multiply", "less", "power", "arctan2", "divmod"])
def test_outer(name):
    check(lambda xp, a, b: getattr(xp, name).outer(a, b), np.array([1.0, 2.0, -3.0]),
          np.array([[0.5, 2.0], [1.0, -1.0]]))
    check(lambda xp: xp.sin.outer([1.0], [2.0]))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum",
                                  "bitwise_or", "power"])
@pytest.mark.parametrize("dt", ["int32", "float64"])
def test_at_repeated_indices(name, dt):
    def body(xp, a, b):
        getattr(xp, name).at(a, [0, 1, 1, 3, 0], b)
        return a
    check(body, np.arange(1, 6).astype(dt), np.array([2, 3, 1, 2, 2]).astype(dt))

    def scalar(xp, a):
        getattr(xp, name).at(a, (slice(1, 4),), 2)
        return a
    check(scalar, np.arange(1, 6).astype(dt))


def test_at_unary_and_2d():
    def neg(xp, a):
        xp.negative.at(a, [0, 0, 2])
        return a
    check(neg, np.arange(4.0))

    def two_d(xp, a):
        xp.add.at(a, (np.array([0, 1, 0]), np.array([1, 2, 1])), 10)
        return a
    check(two_d, np.arange(6).reshape(2, 3))

    def view(xp, a):
        v = a[1:]
        xp.add.at(v, [0, 0], 1.0)
        return a
    check(view, np.arange(4.0))


@pytest.mark.parametrize("dt", ["g", ">f4", "m8[s]", object], ids=str)
def test_at_on_dtypes_only_numpy_holds(dt):
    # Arrays of these dtypes live on the host tier whatever the placement: NumPy's own ``at``
    # writes them in place (a view's writes reach its base).
    def body(xp, a, b):
        xp.multiply.at(a, [1, 1, 4], b)
        xp.negative.at(a[::2], [0, 2])
        xp.add.at(a, [0, 0], 1)
        return a
    check(body, np.arange(5).astype(dt), np.array([2, 3, 4]))
    # NumPy's errors: a non-broadcastable b, an index out of range, no loop for the dtypes
    check(lambda xp, a: xp.add.at(a, [0, 1], [1, 2, 3]), np.arange(5).astype(dt))
    check(lambda xp, a: xp.add.at(a, [7], 1), np.arange(5).astype(dt))
    check(lambda xp, a: xp.bitwise_and.at(a, [0], 1), np.arange(5).astype(dt))


@pytest.mark.parametrize("axis", [0, -1, 1, (0,), None])
@pytest.mark.parametrize("fn", ["add.reduce", "maximum.reduce", "sum", "prod", "nansum", "max",
                                "any", "all"])
def test_reduce_of_a_0d_array_along_axis_0(fn, axis):
    # NumPy takes axis 0 or -1 of a 0-d array (it reduces nothing); other axes are AxisErrors
    def body(xp, a):
        f = xp
        for part in fn.split("."):
            f = getattr(f, part)
        return f(a, axis=axis), f(a, axis=axis, keepdims=True)
    check(body, np.array(3.5))
    check(body, np.array(7, np.int16))


@pytest.mark.parametrize("nd", [(33, 32), (33, 31), (64, 1), (64, 0)])
def test_outer_dimension_limit(nd):
    # NumPy's arrays have at most 64 dimensions (XLA's have no such limit): outer beyond is
    # NumPy's ValueError
    check(lambda xp, a, b: xp.add.outer(a, b).shape, np.ones((1,) * nd[0]), np.ones((1,) * nd[1]))


@pytest.mark.parametrize("dt", [np.int8, np.uint64, np.int32])
def test_reduce_errstate_raise_of_pending_operand(dt):
    # a pending (lazily recorded) operand checked by errstate's 'raise' after the reduction
    def body(xp):
        with xp.errstate(divide="raise", over="raise"):
            return xp.floor_divide.reduce(xp.arange(-100, 100).astype(dt))
    check(body)

    def body_ok(xp):
        with xp.errstate(divide="raise", over="raise"):
            return xp.add.reduce(xp.arange(1, 50).astype(dt) * 1)
    check(body_ok)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
def test_sum_from_negative_zero_initial(dt):
    neg = np.array(complex(-0.0, -0.0) if dt[0] == "c" else -0.0, dt)[()]
    mask = np.arange(150) % 3 == 0

    def body(xp, a):
        return [xp.add.reduce(a, axis=1, initial=neg), xp.sum(a, initial=neg),
                xp.sum(a, axis=1, initial=neg, where=mask), xp.sum(a[:, :0], axis=1, initial=neg),
                xp.sum(a + 1, axis=1, initial=neg)]
    check(body, np.full((3, 150), neg))
    check(lambda xp, a: xp.sum(a, initial=0.1), np.array([0.2], dt))  # one element: initial added


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor", "add", "maximum"])
@pytest.mark.parametrize("out_dt", ["int32", "float32", "int8"])
def test_reduce_into_out_of_another_dtype(name, out_dt):
    # NumPy reduces in its loop's dtype (bool for the logical ufuncs), then casts into ``out``
    def body(xp, a):
        out = xp.zeros((), out_dt)
        getattr(xp, name).reduce(a, out=out)
        return out
    check(body, np.array([3], "int32"))
    check(body, np.array([3, 5, 2], "int32"))


def test_at_of_a_ufunc_with_a_core_signature():
    check(lambda xp, a, b: xp.matmul.at(a, [0], b), np.ones((2, 2, 2)), np.ones((1, 2, 2)))
