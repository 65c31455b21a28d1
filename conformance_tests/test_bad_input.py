"""Bad input, differentially: every case runs with NumPy and with tnp on fresh copies of the same
inputs. Where NumPy raises, tnp must raise exactly NumPy's exception class (not a JAX class),
with a message free of JAX/XLA internals; where NumPy returns (the few "must work" rows,
e.g. ``ones(3)[0:array(2)]``), tnp must return the same. Either way every input array must
afterwards equal NumPy's after-state, or be unchanged where NumPy raised (a failed write leaves
nothing half done in tnp; NumPy may have written the items before the bad one).

The table covers indexing, broadcasting, dtype strings, casting, axes, reshape, joins, Python
ints out of range on every write form, comparisons with strings, ``can_cast``, ``searchsorted``,
``where=``/``out=`` and argument counts, plus the bad-input rows of issues 18 and 21.
An xfail names the NumPy behaviour not matched and the file where the fix belongs.
"""
import re
import warnings

import numpy as np
import pytest

import tnp
from engine import assert_same, to_xp

# Text that must never reach a user: JAX's, XLA's and StableHLO's own words.
INTERNAL = re.compile(
    r"jax|xla|stablehlo|\blax\.|Traced|INVALID_ARGUMENT|RESOURCE_EXHAUSTED|jnp\.|"
    r"got incompatible shapes for broadcasting|Incompatible shapes for broadcasting|"
    r"Incompatible types for broadcasting|requested type=|mhlo|ShapedArray|"
    r"ConcretizationTypeError|tracer|dynamic_slice|dynamic_update_slice|gather|scatter|"
    r"float64\[|int64\[|bool\[", re.IGNORECASE)


def _run(xp, body, inputs):
    args = to_xp(xp, inputs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return args, body(xp, *args), None
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return args, None, e


def check_bad(body, *inputs):
    """Run ``body(xp, *inputs)`` with NumPy and tnp; compare the exception (or result) and the
    inputs' after-state."""
    np_args, expected, np_exc = _run(np, body, inputs)
    tnp_args, actual, tnp_exc = _run(tnp, body, inputs)
    if np_exc is not None:
        assert tnp_exc is not None, (
            f"NumPy raised {type(np_exc).__name__}: {np_exc}; tnp returned {actual!r}")
        # exactly NumPy's class (NumPy's own subclasses such as UFuncTypeError and AxisError
        # included), which also keeps JAX's exception classes out
        assert type(tnp_exc) is type(np_exc), (
            f"NumPy raised {type(np_exc).__name__}: {np_exc}; tnp raised "
            f"{type(tnp_exc).__module__}.{type(tnp_exc).__name__}: {tnp_exc}")
        # tnp's own message for a dtype XLA cannot hold names JAX/XLA by design (README)
        msg = str(tnp_exc).replace("cannot be held on JAX/XLA", "")
        assert not INTERNAL.search(msg), (
            f"tnp's {type(tnp_exc).__name__} carries JAX/XLA text: {msg[:500]!r} "
            f"(NumPy: {np_exc})")
    else:
        if tnp_exc is not None:
            raise AssertionError(f"NumPy returned {expected!r}, tnp raised "
                                 f"{type(tnp_exc).__name__}: {tnp_exc}") from tnp_exc
        assert_same(actual, expected)
    for i, (a, e, x) in enumerate(zip(tnp_args, np_args, inputs)):
        if isinstance(e, np.ndarray):
            if np_exc is not None and np.array_equal(np.asarray(a), x):
                # A failed write leaves nothing half done in tnp; NumPy may have written the
                # items before the bad one (a[:] = [1, 2, 1000] writes 1 and 2 into int8).
                continue
            assert_same(a, e, path=f"argument {i} after the call")


CASES = []


def case(id_, body, *inputs, xfail=None):
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    CASES.append(pytest.param(body, inputs, id=id_, marks=marks))


def I(*shape, dtype=np.int64):  # noqa: E743 - an arange input of ``shape``
    n = int(np.prod(shape)) if shape else 1
    return np.arange(n, dtype=dtype).reshape(shape)


def F(*shape):
    return np.arange(int(np.prod(shape)) if shape else 1, dtype=np.float64).reshape(shape)


def B(*vals):
    return np.array(vals, dtype=bool)


def _setitem(a, key, value):
    a[key] = value
    return a


def _iop(op):
    def f(a, b):
        a = op(a, b)
        return a
    return f


# ------------------------------------------------------------------------------------------
# Indexing: reads
# ------------------------------------------------------------------------------------------
for key_id, key in [
    ("int5", 5), ("int-6", -6), ("int100", 100), ("tuple2", (0, 0)), ("tuple3", (0, 0, 0)),
    ("float", 1.0), ("float1.5", 1.5), ("npfloat", np.float64(1.0)), ("str", "a"),
    ("list_oob", [0, 5]), ("list_neg_oob", [-6]), ("list_float", [1.0, 2.0]),
    ("list_nested_oob", [[0, 1], [2, 9]]), ("arr_oob", np.array([0, 7])),
    ("arr_float", np.array([1.0])), ("mask_short", B(True, False)),
    ("mask_long", B(True, False, True, False, True, True)), ("mask_2d", np.ones((5, 1), bool)),
    ("two_ellipsis", (Ellipsis, Ellipsis)), ("slice_float", slice(0, 2.5)),
    ("slice_str", slice("a", 2)), ("slice_step0", slice(None, None, 0)),
    ("slice_arr1", slice(0, np.array([2]))), ("slice_arr_float", slice(0, np.array(2.0))),
    ("int_2_63", 2**63), ("int_-2_63-1", -2**63 - 1), ("none_then_oob", (None, 5)),
    ("dict", {}), ("bool_and_oob", (True, 7)),
]:
    case(f"getitem-1d-{key_id}", lambda xp, a, k=key: a[k], I(5))

for key_id, key in [
    ("row3", 3), ("col4", (slice(None), 4)), ("neg_col", (0, -5)), ("tuple3", (0, 0, 0)),
    ("fancy_mismatch", ([0, 1], [0, 1, 2])), ("fancy_oob_col", ([0, 1], [0, 4])),
    ("mask_rows_short", B(True, False)), ("mask_2d_shape", np.ones((3, 3), bool)),
    ("mask_2d_cols", (slice(None), B(True, False, True))), ("ell_oob", (Ellipsis, 4)),
    ("float_tuple", (0, 1.0)), ("arr_float_tuple", (np.array([0.0]), 0)),
]:
    case(f"getitem-2d-{key_id}", lambda xp, a, k=key: a[k], I(3, 4))

# 0-d arrays as slice bounds must work (issue 18).
case("getitem-slice-0d-stop", lambda xp: xp.ones(3)[0:xp.array(2)])
case("getitem-slice-0d-start", lambda xp, a: a[xp.array(1):], I(5))
case("getitem-slice-0d-step", lambda xp, a: a[::xp.array(2)], I(5))
case("getitem-slice-npint", lambda xp, a: a[np.int64(1):np.int32(4)], I(5))
case("getitem-0d-int-index", lambda xp, a: a[xp.array(2)], I(5))
case("getitem-0d-int-index-oob", lambda xp, a: a[xp.array(9)], I(5))
case("getitem-0d-float-index", lambda xp, a: a[xp.array(2.0)], I(5))
case("getitem-0d-scalar-int", lambda xp: xp.array(3)[0])
case("getitem-0d-scalar-empty-ok", lambda xp: xp.array(3)[()])
case("getitem-empty-oob", lambda xp: xp.zeros(0)[0])
case("getitem-empty-list-oob", lambda xp: xp.zeros((0, 3))[[0]])

# take / item / compress / choose / delete / insert
case("take-oob", lambda xp, a: xp.take(a, 10), I(5))
case("take-list-oob", lambda xp, a: xp.take(a, [0, 10]), I(5))
case("take-axis-oob", lambda xp, a: xp.take(a, [0], axis=2), I(3, 4))
case("take-mode-bad", lambda xp, a: xp.take(a, [0], mode="bogus"), I(5))
case("take-float", lambda xp, a: xp.take(a, [1.5]), I(5))
case("method-take-oob", lambda xp, a: a.take(-6), I(5))
case("item-oob", lambda xp, a: a.item(10), I(5))
case("item-too-many", lambda xp, a: a.item(0, 0), I(5))
case("item-size2", lambda xp, a: a.item(), I(5))
case("compress-long", lambda xp, a: xp.compress([True] * 7, a), I(5))
case("compress-axis-oob", lambda xp, a: xp.compress([True], a, axis=3), I(3, 4))
case("choose-oob", lambda xp: xp.choose([0, 3], [[1, 2], [3, 4]]))
case("choose-mode-bad", lambda xp: xp.choose([0, 1], [[1, 2], [3, 4]], mode="x"))
case("delete-oob", lambda xp, a: xp.delete(a, 10), I(5))
case("delete-axis-oob", lambda xp, a: xp.delete(a, 0, axis=2), I(3, 4))
case("insert-oob", lambda xp, a: xp.insert(a, 10, 1), I(5))
case("insert-axis-oob", lambda xp, a: xp.insert(a, 0, 1, axis=3), I(3, 4))
case("diagonal-axes-same", lambda xp, a: xp.diagonal(a, axis1=0, axis2=0), I(3, 4))
case("diagonal-axis-oob", lambda xp, a: xp.diagonal(a, axis1=0, axis2=5), I(3, 4))
case("diagonal-1d", lambda xp, a: xp.diagonal(a), I(5))
case("trace-1d", lambda xp, a: xp.trace(a), I(5))
case("take_along_axis-ndim", lambda xp, a: xp.take_along_axis(a, xp.array([0]), axis=0),
     I(3, 4))
case("take_along_axis-oob", lambda xp, a: xp.take_along_axis(a, xp.array([[9]]), axis=0),
     I(3, 4))
case("unravel_index-oob", lambda xp: xp.unravel_index(12, (3, 4)))
case("unravel_index-neg", lambda xp: xp.unravel_index(-1, (3, 4)))
case("ravel_multi_index-oob", lambda xp: xp.ravel_multi_index(([0, 3], [0, 0]), (3, 4)))
case("ravel_multi_index-mode-bad",
     lambda xp: xp.ravel_multi_index(([0], [0]), (3, 4), mode="x"))
case("ravel_multi_index-len", lambda xp: xp.ravel_multi_index(([0],), (3, 4)))

# ------------------------------------------------------------------------------------------
# Indexing: writes
# ------------------------------------------------------------------------------------------
for key_id, key, val in [
    ("int_oob", 5, 1), ("neg_oob", -6, 1), ("list_oob", [0, 7], 1), ("arr_oob", np.array([9]), 1),
    ("float", 1.5, 1), ("too_many", (0, 0), 1), ("mask_short", B(True, False), 1),
    ("seq_into_elem", 0, [1, 2]), ("shape_mismatch", slice(None), [1, 2]),
    ("fancy_shape_mismatch", [0, 1, 2], [1, 2]), ("mask_value_2d", B(1, 0, 1, 0, 1),
                                                   np.array([[1, 2]])),
    ("mask_value_len", B(1, 0, 1, 0, 1), [1, 2]), ("str_value", 0, "a"),
    ("none_value", 0, None), ("complex_value", 0, 1 + 2j), ("nan_to_int", 0, float("nan")),
    ("inf_to_int", slice(None), float("inf")), ("slice_step0", slice(None, None, 0), 1),
    ("int_2_63", 2**63, 1), ("dict_value", 0, {}),
]:
    case(f"setitem-1d-{key_id}", lambda xp, a, k=key, v=val: _setitem(a, k, v), I(5))

case("setitem-2d-row-shape", lambda xp, a: _setitem(a, 0, [1, 2, 3]), F(3, 4))
case("setitem-2d-broadcast", lambda xp, a: _setitem(a, slice(None), F(4, 3)), F(3, 4))
case("setitem-2d-fancy-mismatch", lambda xp, a: _setitem(a, ([0, 1], [0, 1, 2]), 1), F(3, 4))
case("setitem-2d-mask-shape", lambda xp, a: _setitem(a, np.ones((3, 3), bool), 1), F(3, 4))
case("setitem-issue18-mask-2d-value",  # a = arange(5.); a[a > 2] = array([[1., 2.]])
     lambda xp, a: _setitem(a, a > 2, xp.array([[1.0, 2.0]])), F(5))
case("setitem-issue21-seq-into-elem", lambda xp, a: _setitem(a, 0, [1, 2]), I(5))
case("setitem-0d-index", lambda xp, a: _setitem(a, 0, 1), np.array(1.0))
case("setitem-view-oob", lambda xp, a: _setitem(a[1:], 4, 1), I(5))
case("setitem-readonly-broadcast", lambda xp: _setitem(xp.broadcast_to(xp.ones(3), (2, 3)),
                                                        0, 5))
case("put-oob", lambda xp, a: xp.put(a, [10], 1), I(5))
case("put-mode-bad", lambda xp, a: xp.put(a, [0], 1, mode="x"), I(5))
case("put-float-index", lambda xp, a: xp.put(a, [1.5], 1), I(5))
case("put-into-list", lambda xp: xp.put([1, 2], [0], 1))
case("putmask-shape", lambda xp, a: xp.putmask(a, B(True, False), 1), I(5))
case("place-shape", lambda xp, a: xp.place(a, B(True, False), [1]), I(5))
case("place-empty-vals", lambda xp, a: xp.place(a, B(1, 0, 0, 0, 0), []), I(5))
case("fill_diagonal-1d", lambda xp, a: xp.fill_diagonal(a, 1), I(5))
case("put_along_axis-ndim", lambda xp, a: xp.put_along_axis(a, xp.array([0]), 1, axis=0),
     I(3, 4))
case("copyto-shape", lambda xp, a: xp.copyto(a, xp.ones(4)), F(3))
case("copyto-where-shape", lambda xp, a: xp.copyto(a, 1.0, where=B(True, False)), F(3))
case("copyto-dst-list", lambda xp: xp.copyto([1.0, 2.0], xp.ones(2)))

# ------------------------------------------------------------------------------------------
# Broadcasting: operators, in-place operators, ufuncs (issue 18)
# ------------------------------------------------------------------------------------------
import operator as _op  # noqa: E402

BINARY_OPS = {
    "add": _op.add, "sub": _op.sub, "mul": _op.mul, "truediv": _op.truediv,
    "floordiv": _op.floordiv, "mod": _op.mod, "pow": _op.pow, "and": _op.and_, "or": _op.or_,
    "xor": _op.xor, "lshift": _op.lshift, "rshift": _op.rshift, "eq": _op.eq, "ne": _op.ne,
    "lt": _op.lt, "le": _op.le, "gt": _op.gt, "ge": _op.ge, "matmul": _op.matmul,
    "divmod": divmod,
}
INPLACE_OPS = {
    "iadd": _op.iadd, "isub": _op.isub, "imul": _op.imul, "itruediv": _op.itruediv,
    "ifloordiv": _op.ifloordiv, "imod": _op.imod, "ipow": _op.ipow, "iand": _op.iand,
    "ior": _op.ior, "ixor": _op.ixor, "ilshift": _op.ilshift, "irshift": _op.irshift,
    "imatmul": _op.imatmul,
}
for name, op in BINARY_OPS.items():
    case(f"broadcast-op-{name}", lambda xp, a, b, op=op: op(a, b), I(3) + 1, I(4) + 1)
for name in ("add", "mul", "eq", "lt", "and"):
    op = BINARY_OPS[name]
    case(f"broadcast-op-{name}-2d", lambda xp, a, b, op=op: op(a, b), I(2, 3) + 1, I(3, 2) + 1)
for name, op in INPLACE_OPS.items():
    case(f"broadcast-{name}", lambda xp, a, b, op=op: _iop(op)(a, b), I(3) + 1, I(4) + 1)
for name in ("iadd", "imul", "isub", "iand"):
    # The result shape (2, 3) does not fit the output (3,): "non-broadcastable output operand".
    op = INPLACE_OPS[name]
    case(f"broadcast-{name}-grow-output", lambda xp, a, b, op=op: _iop(op)(a, b),
         I(3) + 1, I(2, 3) + 1)
case("broadcast-iadd-float-into-int", lambda xp, a, b: _iop(_op.iadd)(a, b), I(3), F(3))
case("broadcast-itruediv-int", lambda xp, a, b: _iop(_op.itruediv)(a, b), I(3), I(3) + 1)
case("broadcast-ior-float", lambda xp, a, b: _iop(_op.ior)(a, b), F(3), F(3))

UFUNCS2 = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
           "remainder", "fmod", "maximum", "minimum", "fmax", "fmin", "logical_and",
           "logical_or", "logical_xor", "arctan2", "hypot", "copysign", "nextafter",
           "heaviside", "logaddexp", "logaddexp2", "float_power", "equal", "not_equal", "less",
           "less_equal", "greater", "greater_equal", "bitwise_and", "bitwise_or", "bitwise_xor",
           "left_shift", "right_shift", "gcd", "lcm", "ldexp", "divmod"]
for name in UFUNCS2:
    case(f"broadcast-ufunc-{name}", lambda xp, a, b, n=name: getattr(xp, n)(a, b),
         I(3) + 1, I(4) + 1)
for name in ("add", "maximum", "logical_and", "equal"):
    case(f"broadcast-ufunc-{name}-out-shape",
         lambda xp, a, b, o, n=name: getattr(xp, n)(a, b, out=o), F(3), F(3), F(4))
    case(f"broadcast-ufunc-{name}-out-smaller",
         lambda xp, a, b, o, n=name: getattr(xp, n)(a, b, out=o), F(2, 3), F(3), F(3))
case("broadcast-ufunc-matmul", lambda xp, a, b: xp.matmul(a, b), F(2, 3), F(2, 3))
case("broadcast-ufunc-matmul-0d", lambda xp, a: xp.matmul(a, 2.0), F(3))
case("broadcast-ufunc-vecdot", lambda xp, a, b: xp.vecdot(a, b), F(3), F(4))
case("broadcast-ufunc-unary-out", lambda xp, a, o: xp.negative(a, out=o), F(3), F(4))
case("broadcast-ufunc-sin-out", lambda xp, a, o: xp.sin(a, out=o), F(2, 3), F(3))
case("broadcast-where", lambda xp, a, b: xp.where(B(True, False), a, b), F(3), F(3))
case("broadcast-clip", lambda xp, a: xp.clip(a, xp.zeros(2), 3), F(3))
case("broadcast-isclose", lambda xp, a, b: xp.isclose(a, b), F(3), F(4))
case("broadcast-allclose", lambda xp, a, b: xp.allclose(a, b), F(3), F(4))
case("broadcast-array_equal-ok", lambda xp, a, b: xp.array_equal(a, b), F(3), F(4))
case("broadcast-to", lambda xp, a: xp.broadcast_to(a, (4,)), F(3))
case("broadcast-to-fewer-dims", lambda xp, a: xp.broadcast_to(a, (3,)), F(2, 3))
case("broadcast-to-negative", lambda xp, a: xp.broadcast_to(a, (-1,)), F(3))
case("broadcast-arrays", lambda xp, a, b: xp.broadcast_arrays(a, b), F(3), F(4))
case("broadcast-shapes", lambda xp: xp.broadcast_shapes((3,), (4,)))
case("broadcast-outer-out", lambda xp, a, o: xp.multiply.outer(a, a, out=o), F(3), F(3))
case("broadcast-reduce-out", lambda xp, a, o: xp.add.reduce(a, axis=0, out=o), F(2, 3), F(2))
case("broadcast-accumulate-out", lambda xp, a, o: xp.add.accumulate(a, out=o), F(3), F(4))
case("broadcast-at-values", lambda xp, a: xp.add.at(a, [0, 1], [1.0, 2.0, 3.0]), F(3))
case("broadcast-at-oob", lambda xp, a: xp.add.at(a, [0, 5], 1.0), F(3))

# ------------------------------------------------------------------------------------------
# Comparisons and arithmetic with strings and other non-numbers (issue 18: UFuncTypeError)
# ------------------------------------------------------------------------------------------
for name, op in [("lt", _op.lt), ("le", _op.le), ("gt", _op.gt), ("ge", _op.ge),
                 ("add", _op.add), ("mul", _op.mul), ("sub", _op.sub)]:
    case(f"str-op-{name}", lambda xp, a, op=op: op(a, "a"), F(3))
case("str-op-eq-ok", lambda xp, a: a == "a", F(3))
case("str-op-ne-ok", lambda xp, a: a != "a", F(3))
for name in ("less", "maximum", "add", "logical_and", "equal"):
    case(f"str-ufunc-{name}", lambda xp, a, n=name: getattr(xp, n)(a, "a"), F(3))
case("str-ufunc-sin", lambda xp: xp.sin("a"))
case("none-op-add", lambda xp, a: a + None, F(3))
case("none-ufunc-sin", lambda xp: xp.sin(None))
case("dict-ufunc-add", lambda xp, a: xp.add(a, {}), F(3))

# ------------------------------------------------------------------------------------------
# Ufuncs on dtypes they have no loop for
# ------------------------------------------------------------------------------------------
case("loop-bitwise-float", lambda xp, a: xp.bitwise_and(a, a), F(3))
case("loop-invert-float", lambda xp, a: ~a, F(3))
case("loop-lshift-float", lambda xp, a: a << 1, F(3))
case("loop-mod-complex", lambda xp: xp.ones(3, complex) % 2)
case("loop-floor-complex", lambda xp: xp.floor(xp.ones(3, complex)))
case("loop-maximum-ok-complex", lambda xp: xp.maximum(xp.ones(3, complex), 1))
case("loop-gcd-float", lambda xp, a: xp.gcd(a, a), F(3))
case("loop-isnat-float", lambda xp, a: xp.isnat(a), F(3))
case("loop-sub-bool", lambda xp: xp.ones(3, bool) - xp.ones(3, bool))
case("loop-neg-bool", lambda xp: -xp.ones(3, bool))
case("loop-ldexp-float-exp", lambda xp, a: xp.ldexp(a, a), F(3))
case("loop-arctan2-complex", lambda xp: xp.arctan2(xp.ones(2, complex), 1))
case("loop-signbit-complex", lambda xp: xp.signbit(xp.ones(2, complex)))

# ------------------------------------------------------------------------------------------
# dtype strings and objects
# ------------------------------------------------------------------------------------------
for bad in ["flot", "int7", "i3", "f3", "u3", "c4", "foo", "float128x", "q9", "?2", "int128",
            "uint256", "<f3", "f8x", "b3", "float16x"]:
    case(f"dtype-zeros-{bad}", lambda xp, d=bad: xp.zeros(3, dtype=d))
for bad in ["nope", "i9", "complex8"]:
    case(f"dtype-astype-{bad}", lambda xp, a, d=bad: a.astype(d), F(3))
    case(f"dtype-array-{bad}", lambda xp, d=bad: xp.array([1, 2], dtype=d))
    case(f"dtype-arange-{bad}", lambda xp, d=bad: xp.arange(3, dtype=d))
    case(f"dtype-ones-{bad}", lambda xp, d=bad: xp.ones(2, d))
    case(f"dtype-full-{bad}", lambda xp, d=bad: xp.full(2, 1, d))
    case(f"dtype-sum-{bad}", lambda xp, a, d=bad: xp.sum(a, dtype=d), F(3))
    case(f"dtype-ufunc-{bad}", lambda xp, a, d=bad: xp.add(a, a, dtype=d), F(3))
    case(f"dtype-np.dtype-{bad}", lambda xp, d=bad: xp.dtype(d))
case("dtype-int-object", lambda xp: xp.zeros(3, dtype=123))
case("dtype-list-bad-field", lambda xp: xp.dtype([("a", "x")]))
case("dtype-result_type-bad", lambda xp: xp.result_type("bogus"))
case("dtype-can_cast-bad", lambda xp: xp.can_cast("bogus", "f8"))
case("dtype-finfo-int", lambda xp: xp.finfo(xp.int32))
case("dtype-iinfo-float", lambda xp: xp.iinfo(xp.float64))
case("dtype-iinfo-bad", lambda xp: xp.iinfo("bogus"))
case("dtype-issubdtype-bad", lambda xp: xp.issubdtype("bogus", xp.floating))
case("dtype-frombuffer-bad", lambda xp: xp.frombuffer(b"\x00" * 3, dtype="f8"))

# Dtypes XLA cannot hold: NumPy's own arrays on the host tier.
case("dtype-host-object", lambda xp: xp.zeros(2, dtype=object))
case("dtype-host-str", lambda xp: xp.array(["a", "b"]))
case("dtype-host-bytes", lambda xp: xp.zeros(2, dtype="S3"))
case("dtype-host-datetime", lambda xp: xp.zeros(2, dtype="M8[s]"))
case("dtype-host-timedelta", lambda xp: xp.zeros(2, dtype="m8[s]"))
case("dtype-host-longdouble", lambda xp: xp.zeros(2, dtype=xp.longdouble))

# ------------------------------------------------------------------------------------------
# Casting: casting= rules, astype, copyto, out= of wrong dtype/shape/type
# ------------------------------------------------------------------------------------------
case("cast-ufunc-out-same_kind", lambda xp, a, o: xp.add(a, a, out=o), F(3), I(3))
case("cast-ufunc-casting-no", lambda xp, a: xp.add(a, 1.0, casting="no", dtype=xp.float32),
     F(3))
case("cast-ufunc-casting-safe", lambda xp, a, o: xp.add(a, a, out=o, casting="safe"),
     I(3), np.zeros(3, np.int32))
case("cast-ufunc-casting-equiv", lambda xp, a: xp.add(a, a, casting="equiv",
                                                       dtype=xp.float32), I(3))
case("cast-ufunc-casting-bad", lambda xp, a: xp.add(a, a, casting="bogus"), F(3))
case("cast-ufunc-unary-out", lambda xp, a, o: xp.sqrt(a, out=o), F(3), I(3))
case("cast-ufunc-dtype-int-of-float", lambda xp, a: xp.sqrt(a, dtype=xp.int64), F(3))
case("cast-ufunc-signature-bad", lambda xp, a: xp.add(a, a, signature=("x", "x", "x")), F(3))
case("cast-ufunc-cmp-out-int8-ok", lambda xp, a, o: xp.less(a, a, out=o), F(3),
     np.zeros(3, np.int8))
case("cast-ufunc-out-bool", lambda xp, a, o: xp.add(a, a, out=o), I(3), np.zeros(3, bool))
case("cast-ufunc-reduce-out", lambda xp, a, o: xp.add.reduce(a, out=o), F(3), np.zeros((), int))
case("cast-ufunc-accumulate-out", lambda xp, a, o: xp.add.accumulate(a, out=o), F(3), I(3))
case("cast-ufunc-iadd-float", lambda xp, a: _iop(_op.iadd)(a, 1.5), I(3))
case("cast-ufunc-imul-complex", lambda xp, a: _iop(_op.imul)(a, 1j), F(3))
case("cast-ufunc-itruediv-int", lambda xp, a: _iop(_op.itruediv)(a, 2), I(3))
case("cast-astype-safe", lambda xp, a: a.astype(xp.int64, casting="safe"), F(3))
case("cast-astype-same_kind", lambda xp, a: a.astype(xp.int8, casting="same_kind"), F(3))
case("cast-astype-no", lambda xp, a: a.astype(xp.float32, casting="no"), F(3))
case("cast-astype-equiv", lambda xp, a: a.astype(xp.int32, casting="equiv"), I(3))
case("cast-astype-bad-casting", lambda xp, a: a.astype(xp.int64, casting="bogus"), F(3))
case("cast-astype-complex-to-int-ok", lambda xp: xp.ones(2, complex).astype(int))
case("cast-astype-order-bad", lambda xp, a: a.astype(int, order="Z"), F(3))
case("cast-copyto-same_kind", lambda xp, a, b: xp.copyto(a, b), I(3), F(3))
case("cast-copyto-no", lambda xp, a, b: xp.copyto(a, b, casting="no"), F(3),
     np.zeros(3, np.float32))
case("cast-copyto-safe", lambda xp, a, b: xp.copyto(a, b, casting="safe"),
     np.zeros(3, np.int32), I(3))
case("cast-copyto-bad-casting", lambda xp, a, b: xp.copyto(a, b, casting="bogus"), F(3), F(3))
case("cast-copyto-complex", lambda xp, a: xp.copyto(a, 1j), F(3))
case("cast-copyto-where-nonbool", lambda xp, a: xp.copyto(a, 1.0, where=xp.ones(3)), F(3))
case("cast-concatenate-safe", lambda xp, a: xp.concatenate([a, a], dtype=int,
                                                            casting="safe"), F(3))
case("cast-concatenate-out-and-dtype", lambda xp, a, o: xp.concatenate([a, a], out=o,
                                                                        dtype=float), F(3), F(6))
case("cast-concatenate-out-shape", lambda xp, a, o: xp.concatenate([a, a], out=o), F(3), F(5))
case("cast-concatenate-out-same_kind", lambda xp, a, o: xp.concatenate([a, a], out=o),
     F(3), I(6))
case("cast-stack-casting-bad", lambda xp, a: xp.stack([a, a], casting="bogus"), F(3))
case("cast-sum-out-shape", lambda xp, a, o: xp.sum(a, axis=0, out=o), F(2, 3), F(2))
case("cast-sum-out-type", lambda xp, a: xp.sum(a, out=[0.0]), F(3))
case("cast-cumsum-out-shape", lambda xp, a, o: xp.cumsum(a, out=o), F(3), F(4))
case("cast-max-out-shape", lambda xp, a, o: xp.max(a, axis=1, out=o), F(2, 3), F(3))
case("cast-argmax-out-dtype", lambda xp, a, o: xp.argmax(a, out=o), F(3), np.zeros((), float))
case("cast-clip-out-dtype", lambda xp, a, o: xp.clip(a, 0, 1, out=o), F(3), I(3))
case("cast-around-out-shape", lambda xp, a, o: xp.around(a, out=o), F(3), F(4))
case("cast-dot-out-dtype", lambda xp, a, o: xp.dot(a, a, out=o), F(2, 2), I(2, 2))
case("cast-matmul-out-shape", lambda xp, a, o: xp.matmul(a, a, out=o), F(2, 2), F(3, 3))
case("cast-can_cast-scalar-types", lambda xp: xp.can_cast(xp.float64, xp.int8))
case("cast-can_cast-scalar-types-ok", lambda xp: xp.can_cast(xp.int8, xp.float64))
case("cast-can_cast-same_kind", lambda xp: xp.can_cast(xp.float64, xp.float16, "same_kind"))
case("cast-can_cast-str-int", lambda xp: xp.can_cast("f8", xp.int32, casting="unsafe"))
case("cast-can_cast-bad-casting", lambda xp: xp.can_cast(xp.float64, xp.int8, "bogus"))
case("cast-can_cast-python-float", lambda xp: xp.can_cast(1.0, xp.int8))
case("cast-can_cast-python-type", lambda xp: xp.can_cast(float, xp.int8))
case("cast-can_cast-array", lambda xp, a: xp.can_cast(a, xp.int8), F(3))
case("cast-result_type-none", lambda xp: xp.result_type())
case("cast-promote_types-bad", lambda xp: xp.promote_types("f8", "bogus"))

# ------------------------------------------------------------------------------------------
# Axes: out of range, repeated, non-int
# ------------------------------------------------------------------------------------------
REDUCTIONS = ["sum", "prod", "mean", "std", "var", "max", "min", "any", "all", "ptp",
              "nansum", "nanmax", "count_nonzero", "median", "cumsum", "cumprod", "argmax",
              "argmin", "average", "nanmean"]
for name in REDUCTIONS:
    case(f"axis-oob-{name}", lambda xp, a, n=name: getattr(xp, n)(a, axis=2), F(2, 3))
    case(f"axis-neg-oob-{name}", lambda xp, a, n=name: getattr(xp, n)(a, axis=-3), F(2, 3))
for name in ["sum", "prod", "mean", "max", "any", "std", "count_nonzero", "median", "nansum"]:
    case(f"axis-repeated-{name}", lambda xp, a, n=name: getattr(xp, n)(a, axis=(0, 0)), F(2, 3))
    case(f"axis-repeated-neg-{name}", lambda xp, a, n=name: getattr(xp, n)(a, axis=(1, -1)),
         F(2, 3))
for name in ["sum", "max", "cumsum", "argmax", "sort", "argsort", "flip", "mean"]:
    case(f"axis-float-{name}", lambda xp, a, n=name: getattr(xp, n)(a, axis=1.0), F(2, 3))
    case(f"axis-str-{name}", lambda xp, a, n=name: getattr(xp, n)(a, axis="0"), F(2, 3))
case("axis-tuple-cumsum", lambda xp, a: xp.cumsum(a, axis=(0, 1)), F(2, 3))
case("axis-tuple-argmax", lambda xp, a: xp.argmax(a, axis=(0, 1)), F(2, 3))
case("axis-method-sum-oob", lambda xp, a: a.sum(axis=5), F(2, 3))
case("axis-method-max-repeated", lambda xp, a: a.max(axis=(0, 0)), F(2, 3))
case("axis-ufunc-reduce-oob", lambda xp, a: xp.add.reduce(a, axis=3), F(2, 3))
case("axis-ufunc-reduce-repeated", lambda xp, a: xp.add.reduce(a, axis=(1, 1)), F(2, 3))
case("axis-ufunc-reduce-multi-nonreorderable",
     lambda xp, a: xp.subtract.reduce(a, axis=(0, 1)), F(2, 3))
case("axis-ufunc-accumulate-oob", lambda xp, a: xp.add.accumulate(a, axis=3), F(2, 3))
case("axis-ufunc-reduce-empty-identityless", lambda xp: xp.maximum.reduce(xp.zeros(0)))
case("axis-max-empty", lambda xp: xp.max(xp.zeros((0, 3)), axis=0))
case("axis-argmin-empty", lambda xp: xp.argmin(xp.zeros(0)))
case("axis-sort-oob", lambda xp, a: xp.sort(a, axis=2), F(2, 3))
case("axis-sort-method-oob", lambda xp, a: a.sort(axis=-3), F(2, 3))
case("axis-sort-method-none-issue21", lambda xp, a: a.sort(axis=None), F(2, 2))
case("axis-sort-kind-bad", lambda xp, a: xp.sort(a, kind="bogus"), F(3))
case("axis-argsort-oob", lambda xp, a: xp.argsort(a, axis=2), F(2, 3))
case("axis-lexsort-oob", lambda xp, a: xp.lexsort(a, axis=3), F(2, 3))
case("axis-partition-oob", lambda xp, a: xp.partition(a, 0, axis=2), F(2, 3))
case("axis-partition-kth-oob", lambda xp, a: xp.partition(a, 5), F(3))
case("axis-argpartition-kth-oob", lambda xp, a: xp.argpartition(a, -4), F(3))
case("axis-partition-kth-float", lambda xp, a: xp.partition(a, 1.0), F(3))
case("axis-flip-oob", lambda xp, a: xp.flip(a, axis=2), F(2, 3))
case("axis-flip-repeated", lambda xp, a: xp.flip(a, axis=(0, 0)), F(2, 3))
case("axis-roll-oob", lambda xp, a: xp.roll(a, 1, axis=2), F(2, 3))
case("axis-roll-shift-len", lambda xp, a: xp.roll(a, (1, 2, 3), axis=(0, 1)), F(2, 3))
case("axis-rot90-same", lambda xp, a: xp.rot90(a, axes=(0, 0)), F(2, 3))
case("axis-rot90-oob", lambda xp, a: xp.rot90(a, axes=(0, 2)), F(2, 3))
case("axis-rot90-1d", lambda xp, a: xp.rot90(a), F(3))
case("axis-diff-oob", lambda xp, a: xp.diff(a, axis=2), F(2, 3))
case("axis-diff-negative-n", lambda xp, a: xp.diff(a, n=-1), F(3))
case("axis-diff-0d", lambda xp: xp.diff(xp.array(1.0)))
case("axis-gradient-oob", lambda xp, a: xp.gradient(a, axis=2), F(2, 3))
case("axis-gradient-too-small", lambda xp: xp.gradient(xp.ones(1)))
case("axis-unique-oob", lambda xp, a: xp.unique(a, axis=2), F(2, 3))
case("axis-expand_dims-oob", lambda xp, a: xp.expand_dims(a, 3), F(2))
case("axis-expand_dims-repeated", lambda xp, a: xp.expand_dims(a, (0, 0)), F(2))
case("axis-expand_dims-float", lambda xp, a: xp.expand_dims(a, 0.0), F(2))
case("axis-squeeze-not-one", lambda xp, a: xp.squeeze(a, axis=1), F(1, 3))
case("axis-squeeze-oob", lambda xp, a: xp.squeeze(a, axis=2), F(1, 3))
case("axis-squeeze-method-not-one", lambda xp, a: a.squeeze(1), F(1, 3))
case("axis-moveaxis-oob", lambda xp, a: xp.moveaxis(a, 0, 5), F(2, 3))
case("axis-moveaxis-repeated", lambda xp, a: xp.moveaxis(a, (0, 0), (1, 0)), F(2, 3))
case("axis-moveaxis-len", lambda xp, a: xp.moveaxis(a, (0, 1), (1,)), F(2, 3))
case("axis-swapaxes-oob", lambda xp, a: xp.swapaxes(a, 0, 3), F(2, 3))
case("axis-method-swapaxes-oob", lambda xp, a: a.swapaxes(-3, 0), F(2, 3))
case("axis-rollaxis-oob", lambda xp, a: xp.rollaxis(a, 3), F(2, 3))
case("axis-rollaxis-start-oob", lambda xp, a: xp.rollaxis(a, 0, 4), F(2, 3))
case("axis-transpose-repeated", lambda xp, a: xp.transpose(a, (0, 0)), F(2, 3))
case("axis-transpose-len", lambda xp, a: xp.transpose(a, (0,)), F(2, 3))
case("axis-transpose-oob", lambda xp, a: a.transpose(0, 2), F(2, 3))
case("axis-permute_dims-oob", lambda xp, a: xp.permute_dims(a, (1, 5)), F(2, 3))
case("axis-concatenate-oob", lambda xp, a: xp.concatenate([a, a], axis=2), F(2, 3))
case("axis-concatenate-float", lambda xp, a: xp.concatenate([a, a], axis=1.0), F(2, 3))
case("axis-stack-oob", lambda xp, a: xp.stack([a, a], axis=3), F(2, 3))
case("axis-stack-neg-oob", lambda xp, a: xp.stack([a, a], axis=-4), F(2, 3))
case("axis-split-oob", lambda xp, a: xp.split(a, 2, axis=2), F(2, 4))
case("axis-take-oob", lambda xp, a: xp.take(a, 0, axis=-3), F(2, 3))
case("axis-repeat-oob", lambda xp, a: xp.repeat(a, 2, axis=2), F(2, 3))
case("axis-trapezoid-oob", lambda xp, a: xp.trapezoid(a, axis=2), F(2, 3))
case("axis-apply_along_axis-oob", lambda xp, a: xp.apply_along_axis(xp.sum, 2, a), F(2, 3))
case("axis-cross-axis-oob", lambda xp, a: xp.cross(a, a, axis=2), F(2, 3))
case("axis-cross-bad-dim", lambda xp, a: xp.cross(a, a), F(2, 4))
case("axis-tensordot-mismatch", lambda xp, a: xp.tensordot(a, a, axes=([0], [0, 1])), F(2, 3))
case("axis-tensordot-shape", lambda xp, a: xp.tensordot(a, a, axes=1), F(2, 3))
case("axis-trace-same", lambda xp, a: xp.trace(a, axis1=1, axis2=1), F(2, 3))
case("axis-linalg-norm-oob", lambda xp, a: xp.linalg.norm(a, axis=2), F(2, 3))
case("axis-norm-repeated", lambda xp, a: xp.linalg.norm(a, axis=(0, 0)), F(2, 3))
case("axis-keepdims-cumsum", lambda xp, a: xp.sum(a, axis=0, keepdims="x"), F(2, 3))

# ------------------------------------------------------------------------------------------
# reshape / resize / order / shapes
# ------------------------------------------------------------------------------------------
case("reshape-size", lambda xp, a: a.reshape(4), I(6))
case("reshape-size-2d", lambda xp, a: xp.reshape(a, (4, 5)), I(6))
case("reshape-two-minus1", lambda xp, a: a.reshape(-1, -1), I(6))
case("reshape-minus1-indivisible", lambda xp, a: a.reshape(-1, 4), I(6))
case("reshape-minus2", lambda xp, a: a.reshape(-2, 3), I(6))
case("reshape-zero-minus1", lambda xp, a: a.reshape(0, -1), I(6))
case("reshape-float", lambda xp, a: a.reshape(2.0, 3), I(6))
case("reshape-str", lambda xp, a: a.reshape((2, "a")), I(6))
case("reshape-none-dim", lambda xp, a: a.reshape((2, None)), I(6))
case("reshape-order-Z-issue21", lambda xp, a: a.reshape(2, 3, order="Z"), I(6))
case("reshape-func-order-Z", lambda xp, a: xp.reshape(a, (2, 3), order="Z"), I(6))
case("reshape-no-shape", lambda xp, a: xp.reshape(a), I(6))
case("reshape-method-no-shape", lambda xp, a: a.reshape(), I(6))
case("reshape-shape-and-newshape", lambda xp, a: xp.reshape(a, (2, 3), newshape=(3, 2)), I(6))
case("reshape-unknown-kw", lambda xp, a: a.reshape(2, 3, bogus=1), I(6))
case("reshape-set-shape", lambda xp, a: setattr(a, "shape", (4,)), I(6))
case("reshape-bool-dim", lambda xp, a: xp.reshape(a, (True, -1)), I(6))
case("reshape-numpy-bool-dim", lambda xp, a: a.reshape((np.True_, -1)), I(6))
case("reshape-bool-shape", lambda xp, a: xp.reshape(a, True), I(1))
case("take-bool-axis", lambda xp, a: xp.take(a, [0], False), I(1, 1, 1))
case("ravel-order-Z", lambda xp, a: a.ravel(order="Z"), I(6))
case("flatten-order-Z", lambda xp, a: a.flatten(order="Z"), I(6))
case("copy-order-Z-issue21", lambda xp: xp.ones(3).copy(order="Z"))
case("array-order-Z", lambda xp: xp.array([1, 2], order="Z"))
case("zeros-order-Z", lambda xp: xp.zeros(2, order="Z"))
case("resize-negative", lambda xp, a: xp.resize(a, (-1, 2)), I(6))
case("method-resize-refcheck", lambda xp, a: a.resize((2, -3)), I(6))
case("zeros-negative", lambda xp: xp.zeros(-1))
case("ones-negative-2d", lambda xp: xp.ones((2, -3)))
case("empty-float-shape", lambda xp: xp.empty(2.5))
case("full-str-shape", lambda xp: xp.full("a", 1.0))
case("zeros-none-in-shape", lambda xp: xp.zeros((2, None)))
case("eye-negative", lambda xp: xp.eye(-1))
case("identity-float", lambda xp: xp.identity(2.5))
case("tri-negative", lambda xp: xp.tri(-2))
case("ones-like-shape-negative", lambda xp, a: xp.ones_like(a, shape=(-1,)), F(3))
case("too-big-issue21", lambda xp: xp.ones(2**40))
case("tile-too-big-issue21", lambda xp: xp.tile(xp.ones(2), 2**62))
case("tile-negative", lambda xp: xp.tile(xp.ones(2), -1))
case("repeat-negative", lambda xp, a: xp.repeat(a, -1), F(3))
case("repeat-len", lambda xp, a: xp.repeat(a, [1, 2]), F(3))
case("repeat-float", lambda xp, a: xp.repeat(a, 1.5), F(3))
case("arange-step0", lambda xp: xp.arange(0, 10, 0))
case("arange-nan", lambda xp: xp.arange(float("nan")))
case("arange-inf", lambda xp: xp.arange(0, float("inf")))
case("arange-no-args", lambda xp: xp.arange())
case("arange-complex", lambda xp: xp.arange(1j))
case("linspace-negative-num", lambda xp: xp.linspace(0, 1, -1))
case("linspace-float-num", lambda xp: xp.linspace(0, 1, 2.5))
case("logspace-negative-num", lambda xp: xp.logspace(0, 1, -2))
case("geomspace-zero", lambda xp: xp.geomspace(0, 1, 3))
case("indices-negative", lambda xp: xp.indices((-1, 2)))
case("meshgrid-indexing-bad", lambda xp, a: xp.meshgrid(a, a, indexing="z"), F(2))
case("histogram-bins-negative", lambda xp, a: xp.histogram(a, bins=-1), F(3))
case("histogram-range-bad", lambda xp, a: xp.histogram(a, range=(2, 1)), F(3))
case("histogram-bins-decreasing", lambda xp, a: xp.histogram(a, bins=[2, 1, 3]), F(3))
case("histogram-weights-shape", lambda xp, a: xp.histogram(a, weights=xp.ones(4)), F(3))
case("bincount-negative", lambda xp: xp.bincount(xp.array([1, -1])))
case("bincount-float", lambda xp, a: xp.bincount(a), F(3))
case("bincount-2d", lambda xp, a: xp.bincount(a), I(2, 2))
case("bincount-weights-len", lambda xp: xp.bincount(xp.array([0, 1]), weights=xp.ones(3)))
case("digitize-bins-2d", lambda xp, a: xp.digitize(a, xp.ones((2, 2))), F(3))
case("digitize-nonmonotonic", lambda xp, a: xp.digitize(a, xp.array([1.0, 3.0, 2.0])), F(3))
case("polyfit-deg-negative", lambda xp, a: xp.polyfit(a, a, -1), F(3))
case("polyval-2d-ok", lambda xp, a: xp.polyval(a, 2.0), F(3))
case("poly1d-2d", lambda xp, a: xp.poly1d(a), F(2, 2))
case("polyder-negative", lambda xp, a: xp.polyder(a, -1), F(3))
case("convolve-empty", lambda xp, a: xp.convolve(a, xp.zeros(0)), F(3))
case("convolve-mode-bad", lambda xp, a: xp.convolve(a, a, mode="x"), F(3))
case("convolve-2d", lambda xp, a: xp.convolve(a, a), F(2, 2))
case("interp-len", lambda xp, a: xp.interp(1.0, a, xp.ones(4)), F(3))
case("interp-complex-xp", lambda xp, a: xp.interp(1.0, a + 1j, a), F(3))
case("hanning-negative-ok", lambda xp: xp.hanning(-1))
case("window-float", lambda xp: xp.hamming(2.5))
case("pad-mode-bad", lambda xp, a: xp.pad(a, 1, mode="bogus"), F(3))
case("pad-negative", lambda xp, a: xp.pad(a, -1), F(3))
case("pad-width-shape", lambda xp, a: xp.pad(a, ((1, 1), (1, 1), (1, 1))), F(2, 2))
case("pad-unknown-kw", lambda xp, a: xp.pad(a, 1, mode="constant", bogus=1), F(3))
case("vander-2d", lambda xp, a: xp.vander(a), F(2, 2))
case("vander-negative", lambda xp, a: xp.vander(a, -1), F(3))
case("diag-3d", lambda xp: xp.diag(xp.ones((2, 2, 2))))
case("diagflat-k-float", lambda xp, a: xp.diagflat(a, k=1.5), F(2))
case("tril-1d-ok", lambda xp, a: xp.tril(a), F(3))
case("triu_indices-float", lambda xp: xp.triu_indices(2.5))
case("kron-ok", lambda xp, a: xp.kron(a, a), F(2))
case("outer-out-shape", lambda xp, a, o: xp.outer(a, a, out=o), F(2), F(3))
case("dot-shape", lambda xp, a, b: xp.dot(a, b), F(2, 3), F(2, 3))
case("inner-shape", lambda xp, a, b: xp.inner(a, b), F(3), F(4))
case("vdot-shape", lambda xp, a, b: xp.vdot(a, b), F(3), F(4))
case("einsum-bad-subscripts", lambda xp, a: xp.einsum("ij,jk", a, a), F(2, 3))
case("einsum-bad-char", lambda xp, a: xp.einsum("i1", a), F(2))
case("einsum-out-not-array", lambda xp, a: xp.einsum("i", a, out="test"), F(2))
case("einsum-out-list", lambda xp, a: xp.einsum("i", a, out=[0.0, 0.0]), F(2))
case("einsum-bad-order", lambda xp, a: xp.einsum("i", a, order="W"), F(2))
case("einsum-bad-order-first", lambda xp, a: xp.einsum("i->i", a, order="d"), F(2, 1))
case("select-len", lambda xp, a: xp.select([a > 1], [a, a]), F(3))
case("select-empty", lambda xp: xp.select([], []))
case("piecewise-len", lambda xp, a: xp.piecewise(a, [a > 1], [1, 2, 3]), F(3))
case("extract-shape-ok", lambda xp, a: xp.extract(B(True, False), a), F(3))
case("nonzero-0d", lambda xp: xp.nonzero(xp.array(1.0)))
case("argwhere-ok-0d", lambda xp: xp.argwhere(xp.array(1.0)))
case("percentile-out-of-range", lambda xp, a: xp.percentile(a, 150), F(3))
case("quantile-negative", lambda xp, a: xp.quantile(a, -0.5), F(3))
case("quantile-method-bad", lambda xp, a: xp.quantile(a, 0.5, method="x"), F(3))
case("cov-ddof-float-ok", lambda xp, a: xp.cov(a, ddof=1.5), F(2, 3))
case("corrcoef-shape", lambda xp, a, b: xp.corrcoef(a, b), F(3), F(4))
case("average-weights-shape", lambda xp, a: xp.average(a, weights=xp.ones(4)), F(3))
case("average-weights-zero", lambda xp, a: xp.average(a, weights=xp.zeros(3)), F(3))
case("isin-kind-bad", lambda xp, a: xp.isin(a, a, kind="x"), F(3))
case("in1d-kind-table-float", lambda xp, a: xp.isin(a, a, kind="table"), F(3))
case("setdiff1d-ok", lambda xp, a: xp.setdiff1d(a, xp.ones(2)), F(3))
case("unpackbits-float", lambda xp, a: xp.unpackbits(a), F(3))
case("packbits-float", lambda xp, a: xp.packbits(a), F(3))
case("packbits-bitorder-bad", lambda xp: xp.packbits(xp.ones(3, bool), bitorder="x"))
case("binary_repr-float", lambda xp: xp.binary_repr(1.5))
case("base_repr-base", lambda xp: xp.base_repr(5, 40))
case("frompyfunc-ok", lambda xp: xp.vectorize(lambda x: x)([1, 2]).shape)

# ------------------------------------------------------------------------------------------
# Joins
# ------------------------------------------------------------------------------------------
case("concatenate-ndim", lambda xp, a, b: xp.concatenate([a, b]), F(2), F(2, 2))
case("concatenate-shape", lambda xp, a, b: xp.concatenate([a, b], axis=0), F(2, 2), F(2, 3))
case("concatenate-shape-axis1", lambda xp, a, b: xp.concatenate([a, b], axis=1), F(2, 2),
     F(3, 2))
case("concatenate-empty", lambda xp: xp.concatenate([]))
case("concatenate-0d", lambda xp: xp.concatenate([xp.array(1.0), xp.array(2.0)]))
case("concatenate-not-seq", lambda xp: xp.concatenate(3))
case("concatenate-generator", lambda xp, a: xp.concatenate(x for x in [a, a]), F(2))
case("concatenate-dict", lambda xp, a: xp.concatenate({0: a, 1: a}), F(2))
case("concatenate-none-ok", lambda xp, a, b: xp.concatenate([a, b], axis=None), F(2), F(2, 2))
case("concatenate-str", lambda xp, a: xp.concatenate([a, "ab"]), F(2))
case("stack-shape", lambda xp, a, b: xp.stack([a, b]), F(2), F(3))
case("stack-empty", lambda xp: xp.stack([]))
case("stack-generator", lambda xp, a: xp.stack(x for x in [a, a]), F(2))
case("stack-ndim", lambda xp, a, b: xp.stack([a, b]), F(2), F(1, 2))
case("hstack-shape", lambda xp, a, b: xp.hstack([a, b]), F(2, 2), F(3, 2))
case("hstack-empty", lambda xp: xp.hstack([]))
case("vstack-shape", lambda xp, a, b: xp.vstack([a, b]), F(2), F(3))
case("vstack-empty", lambda xp: xp.vstack([]))
case("dstack-shape", lambda xp, a, b: xp.dstack([a, b]), F(2), F(3))
case("column_stack-shape", lambda xp, a, b: xp.column_stack([a, b]), F(2), F(3))
case("row_stack-ok-or-gone", lambda xp, a, b: xp.vstack((a, b)).shape, F(2), F(2))
case("block-shape", lambda xp, a, b: xp.block([a, b]), F(2, 2), F(3, 3))
case("block-depth", lambda xp, a: xp.block([[a], a]), F(2))
case("block-empty", lambda xp: xp.block([]))
case("append-shape", lambda xp, a, b: xp.append(a, b, axis=0), F(2, 2), F(3))
case("append-axis-oob", lambda xp, a: xp.append(a, a, axis=2), F(2, 2))
case("split-unequal", lambda xp, a: xp.split(a, 2), I(5))
case("split-zero", lambda xp, a: xp.split(a, 0), I(4))
case("array_split-zero", lambda xp, a: xp.array_split(a, 0), I(5))
case("array_split-negative", lambda xp, a: xp.array_split(a, -1), I(5))
case("hsplit-0d", lambda xp: xp.hsplit(xp.array(1.0), 1))
case("vsplit-1d", lambda xp, a: xp.vsplit(a, 2), I(4))
case("dsplit-2d", lambda xp, a: xp.dsplit(a, 2), I(2, 2))
case("unstack-0d", lambda xp: xp.unstack(xp.array(1.0)))
case("atleast-ok", lambda xp: xp.atleast_2d(1.0))
case("array-ragged", lambda xp: xp.array([[1, 2], [3]]))
case("array-ragged-deep", lambda xp: xp.array([[1, [2]], [3, 4]]))
case("asarray-ragged", lambda xp: xp.asarray([1, [2, 3]]))
case("array-ndmin-big", lambda xp: xp.array(1, ndmin=65))
case("array-copy-false", lambda xp: xp.array([1, 2], copy=False))
case("asarray-copy-false-list", lambda xp: xp.asarray([1, 2], copy=False))
case("array-bad-kw", lambda xp: xp.array([1, 2], bogus=1))

# ------------------------------------------------------------------------------------------
# Python ints out of range on every write form (issue 18: OverflowError, nothing written)
# ------------------------------------------------------------------------------------------
I8 = np.zeros(3, np.int8)
U8 = np.zeros(3, np.uint8)
for dt_id, arr, big in [("int8", I8, 1000), ("int8-neg", I8, -129), ("uint8", U8, 256),
                        ("uint8-neg", U8, -1),
                        ("int64", np.zeros(3, np.int64), 2**63),
                        ("uint64", np.zeros(3, np.uint64), 2**64),
                        ("int32", np.zeros(3, np.int32), 2**40)]:
    case(f"overflow-{dt_id}-setitem-int", lambda xp, a, v=big: _setitem(a, 0, v), arr)
    case(f"overflow-{dt_id}-setitem-slice-list",  # (NumPy writes the items before a bad one)
         lambda xp, a, v=big: _setitem(a, slice(None), [v, 1, 2]), arr)
    case(f"overflow-{dt_id}-setitem-fancy",
         lambda xp, a, v=big: _setitem(a, [0, 1], [1, v]), arr)
    case(f"overflow-{dt_id}-setitem-mask",
         lambda xp, a, v=big: _setitem(a, xp.array([True, False, True]), v), arr)
    case(f"overflow-{dt_id}-setitem-ellipsis",
         lambda xp, a, v=big: _setitem(a, Ellipsis, v), arr)
    case(f"overflow-{dt_id}-setitem-fancy-out-of-bounds",  # (the value is converted first)
         lambda xp, a, v=big: _setitem(a[::-1], [5], v), arr)
    case(f"overflow-{dt_id}-setitem-int-out-of-bounds",  # (the index is checked first)
         lambda xp, a, v=big: _setitem(a, 5, v), arr)
    case(f"overflow-{dt_id}-put", lambda xp, a, v=big: xp.put(a, [0], v), arr)
    case(f"overflow-{dt_id}-fill", lambda xp, a, v=big: a.fill(v), arr)
    case(f"overflow-{dt_id}-full", lambda xp, a, v=big: xp.full(3, v, a.dtype), arr)
    case(f"overflow-{dt_id}-array", lambda xp, a, v=big: xp.array([v], a.dtype), arr)
    case(f"overflow-{dt_id}-iadd", lambda xp, a, v=big: _iop(_op.iadd)(a, v), arr)
    case(f"overflow-{dt_id}-add", lambda xp, a, v=big: a + v, arr)
    case(f"overflow-{dt_id}-copyto", lambda xp, a, v=big: xp.copyto(a, v), arr)
for dt_id, arr, big in [("int8", I8, 1000), ("uint8-neg", U8, -1)]:
    case(f"overflow-{dt_id}-setitem-2d-row",
         lambda xp, a, v=big: _setitem(a.reshape(1, 3), 0, [v, 0, 0]), arr)
    case(f"overflow-{dt_id}-setitem-view",
         lambda xp, a, v=big: _setitem(a[1:], 0, v), arr)
    case(f"overflow-{dt_id}-setitem-nested-list",
         lambda xp, a, v=big: _setitem(a, slice(None), [[1, 2, v]]), arr)
    case(f"overflow-{dt_id}-setitem-mask-list",
         lambda xp, a, v=big: _setitem(a, xp.array([True, False, True]), [1, v]), arr)
    case(f"overflow-{dt_id}-setitem-tuple-value",
         lambda xp, a, v=big: _setitem(a, slice(None), (1, 2, v)), arr)
    case(f"overflow-{dt_id}-method-put", lambda xp, a, v=big: a.put([0, 1], [1, v]), arr)
    case(f"overflow-{dt_id}-putmask", lambda xp, a, v=big: xp.putmask(a, a == 0, v), arr)
    case(f"overflow-{dt_id}-place", lambda xp, a, v=big: xp.place(a, a == 0, [v]), arr)
    case(f"overflow-{dt_id}-fill_diagonal",
         lambda xp, a, v=big: xp.fill_diagonal(a.reshape(1, 3), v), arr)
    case(f"overflow-{dt_id}-put_along_axis",
         lambda xp, a, v=big: xp.put_along_axis(a, xp.array([0]), v, axis=0), arr)
    case(f"overflow-{dt_id}-asarray", lambda xp, a, v=big: xp.asarray([1, v], dtype=a.dtype), arr)
    case(f"overflow-{dt_id}-full_like", lambda xp, a, v=big: xp.full_like(a, v), arr)
    case(f"overflow-{dt_id}-ufunc-out", lambda xp, a, v=big: xp.add(a, v, out=a), arr)
    case(f"overflow-{dt_id}-imul", lambda xp, a, v=big: _iop(_op.imul)(a, v), arr)
    case(f"overflow-{dt_id}-maximum", lambda xp, a, v=big: xp.maximum(a, v), arr)
    case(f"overflow-{dt_id}-where", lambda xp, a, v=big: xp.where(a == 0, a, v), arr)
    case(f"overflow-{dt_id}-clip", lambda xp, a, v=big: xp.clip(a, 0, v), arr)
    case(f"overflow-{dt_id}-eq-ok", lambda xp, a, v=big: a == v, arr)
    case(f"overflow-{dt_id}-lt-ok", lambda xp, a, v=big: a < v, arr)
    case(f"overflow-{dt_id}-astype-ok", lambda xp, a, v=big: (a + 100).astype(xp.int8), arr)
    case(f"overflow-{dt_id}-arange", lambda xp, a, v=big: xp.arange(v, v + 2, dtype=a.dtype),
         arr)
    case(f"overflow-{dt_id}-scalar-type", lambda xp, a, v=big: xp.dtype(a.dtype).type(v), arr)
    case(f"overflow-{dt_id}-isin-ok", lambda xp, a, v=big: xp.isin(a, [v]), arr)
case("overflow-issue18-slice-list", lambda xp, a: _setitem(a, slice(None), [1, 2, 1000]), I8)
case("overflow-python-int-too-big", lambda xp: xp.array([2**64], dtype=xp.int64))
case("overflow-python-int-too-big-neg", lambda xp: xp.asarray(-2**63 - 1, dtype=xp.int64))
case("overflow-int8-setitem-float-big", lambda xp, a: _setitem(a, 0, 1e20), I8)
case("overflow-int8-setitem-str", lambda xp, a: _setitem(a, 0, "x"), I8)
case("overflow-int8-setitem-str-number", lambda xp, a: _setitem(a, 0, "12"), I8)
case("overflow-bool-setitem-ok", lambda xp: _setitem(xp.zeros(2, bool), 0, 1000))

# searchsorted with Python ints out of range (issue 18) and other bad input
for v_id, v in [("1000", 1000), ("-1000", -1000), ("list1000", [1000]), ("2**70", 2**70),
                ("list-mixed", [-1000, 1, 1000])]:
    case(f"searchsorted-int8-{v_id}", lambda xp, a, v=v: xp.searchsorted(a, v),
         np.arange(3, dtype=np.int8))
    case(f"searchsorted-int8-right-{v_id}",
         lambda xp, a, v=v: xp.searchsorted(a, v, side="right"), np.arange(3, dtype=np.int8))
case("searchsorted-uint8-neg", lambda xp, a: xp.searchsorted(a, -1), np.arange(3, dtype=np.uint8))
case("searchsorted-method-1000", lambda xp, a: a.searchsorted(1000), np.arange(3, dtype=np.int8))
case("searchsorted-side-bad", lambda xp, a: xp.searchsorted(a, 1, side="middle"), F(3))
case("searchsorted-2d", lambda xp, a: xp.searchsorted(a, 1), F(2, 2))
case("searchsorted-sorter-shape", lambda xp, a: xp.searchsorted(a, 1, sorter=[0, 1]), F(3))
case("searchsorted-sorter-float", lambda xp, a: xp.searchsorted(a, 1, sorter=[0.0, 1.0, 2.0]),
     F(3))

# ------------------------------------------------------------------------------------------
# where= and out= types; argument counts; unknown keywords
# ------------------------------------------------------------------------------------------
case("where-ufunc-shape", lambda xp, a: xp.add(a, 1, where=B(True, False)), F(3))
case("where-ufunc-shape-out", lambda xp, a, o: xp.add(a, 1, out=o, where=B(1, 0, 1, 0)),
     F(3), F(3))
case("where-ufunc-float", lambda xp, a, o: xp.add(a, 1, out=o, where=xp.ones(3)), F(3), F(3))
case("where-sum-shape", lambda xp, a: xp.sum(a, where=B(True, False)), F(3))
case("where-max-no-initial", lambda xp, a: xp.max(a, where=B(True, False, True)), F(3))
case("where-mean-shape", lambda xp, a: xp.mean(a, where=B(True, False)), F(2, 3))
case("where-reduce-shape", lambda xp, a: xp.add.reduce(a, where=B(True, False)), F(3))
case("where-copyto-float-ok", lambda xp, a: xp.copyto(a, 2.0, where=B(True, False, True)), F(3))
case("where-three-arg-len", lambda xp, a: xp.where(a > 1, a), F(3))
case("out-ufunc-list", lambda xp, a: xp.add(a, a, out=[0.0, 0.0, 0.0]), F(3))
case("out-ufunc-int", lambda xp, a: xp.negative(a, out=1), F(3))
case("out-ufunc-tuple-len", lambda xp, a, o: xp.add(a, a, out=(o, o)), F(3), F(3))
case("out-ufunc-positional-and-kw", lambda xp, a, o: xp.add(a, a, o, out=o), F(3), F(3))
case("out-divmod-one", lambda xp, a, o: xp.divmod(a, a, out=o), F(3), F(3))
case("out-sum-int", lambda xp, a: xp.sum(a, out=3), F(3))
case("out-cumsum-list", lambda xp, a: xp.cumsum(a, out=[0.0] * 3), F(3))
case("out-mean-tuple", lambda xp, a: xp.mean(a, out=(1,)), F(3))
case("out-around-list", lambda xp, a: xp.round(a, out=[0.0] * 3), F(3))
case("out-clip-list", lambda xp, a: xp.clip(a, 0, 1, out=[0.0] * 3), F(3))
case("out-concatenate-list", lambda xp, a: xp.concatenate([a], out=[0.0] * 3), F(3))
case("out-take-shape", lambda xp, a, o: xp.take(a, [0, 1], out=o), F(3), F(3))
case("out-readonly", lambda xp, a: xp.add(a, a, out=xp.broadcast_to(xp.zeros(()), (3,))), F(3))
case("args-ufunc-too-few", lambda xp, a: xp.add(a), F(3))
case("args-ufunc-too-many", lambda xp, a: xp.add(a, a, a, a), F(3))
case("args-ufunc-none", lambda xp: xp.sin())
case("args-ufunc-unary-too-many", lambda xp, a: xp.sin(a, a, a), F(3))
case("args-ufunc-unknown-kw", lambda xp, a: xp.add(a, a, bogus=1), F(3))
case("args-ufunc-reduce-unary", lambda xp, a: xp.sin.reduce(a), F(3))
case("args-ufunc-outer-unary", lambda xp, a: xp.negative.outer(a, a), F(3))
case("args-ufunc-at-no-index", lambda xp, a: xp.add.at(a), F(3))
case("args-zeros-none", lambda xp: xp.zeros())
case("args-sum-none", lambda xp: xp.sum())
case("args-sum-unknown-kw", lambda xp, a: xp.sum(a, bogus=1), F(3))
case("args-sum-too-many", lambda xp, a: xp.sum(a, 0, None, None, False, 0, True, 1), F(3))
case("args-concatenate-none", lambda xp: xp.concatenate())
case("args-where-none", lambda xp: xp.where())
case("args-clip-none", lambda xp, a: xp.clip(a), F(3))
case("args-method-sum-unknown-kw", lambda xp, a: a.sum(bogus=1), F(3))
case("args-method-astype-none", lambda xp, a: a.astype(), F(3))
case("args-method-transpose-mixed", lambda xp, a: a.transpose((0, 1), 0), F(2, 3))
case("args-sort-unknown-kw", lambda xp, a: xp.sort(a, bogus=1), F(3))
case("args-linspace-none", lambda xp: xp.linspace())
case("args-full-no-value", lambda xp: xp.full(3))
case("args-len-0d", lambda xp: len(xp.array(1.0)))
case("args-iter-0d", lambda xp: iter(xp.array(1.0)))
case("args-int-of-array", lambda xp, a: int(a), F(3))
case("args-float-of-array", lambda xp, a: float(a), F(3))
case("args-bool-of-array", lambda xp, a: bool(a), F(3))
case("args-index-of-float", lambda xp: _op.index(xp.array(1.0)))
case("args-index-of-1d", lambda xp, a: _op.index(a), I(3))
case("args-range-float-array", lambda xp: range(xp.array(2.0)))
case("args-hex-float", lambda xp: hex(xp.array(2.0)))


@pytest.mark.parametrize("body,inputs", CASES)
def test_bad_input(body, inputs):
    check_bad(body, *inputs)


def test_table_size():
    assert len(CASES) >= 300
