"""Issue 21's table of errors and layouts, each row against NumPy; and issue 18's write-path
rows: every Python value written into an array goes through one conversion (NumPy's
OverflowError/TypeError/ValueError) and a failed write leaves the array unchanged."""
import itertools

import numpy as np
import pytest

from engine import check
from matrix import rotated


# ---- issue 21: errors ------------------------------------------------------------------------
def test_huge_allocation_is_memory_error():
    check(lambda xp: xp.ones(2**40), message=False)  # NumPy's byte count text: TiB vs bytes


def test_tile_too_big_is_value_error():
    check(lambda xp: xp.tile(xp.ones(2), 2**62))


def test_reshape_bad_order():
    check(lambda xp, a: a.reshape(2, 3, order="Z"), np.arange(6))


def test_copy_bad_order():
    check(lambda xp, a: a.copy(order="Z"), np.ones(3))
    check(lambda xp, a: xp.copy(a, order="Z"), np.ones(3))


def test_sort_method_axis_none_is_type_error():
    check(lambda xp, a: a.sort(axis=None), np.arange(4.0).reshape(2, 2))
    check(lambda xp, a: a.partition(1, axis=None), np.arange(4.0).reshape(2, 2))


def test_sequence_into_one_element_is_type_error():
    def body(xp, a):
        a[0] = [1, 2]
    check(body, np.arange(5))


def test_array_into_one_element_is_value_error():
    def body(xp, a):
        a[0] = xp.array([1, 2])
    check(body, np.arange(5))


def test_index_too_large_is_overflow_error():
    check(lambda xp, a: a[2**63], np.arange(5))


def _raising(body):
    def run(xp, *args):
        with xp.errstate(all="raise"):
            return body(xp, *args)
    return run


def _in_state(body, **state):
    def run(xp, *args):
        with xp.errstate(**state):
            return body(xp, *args)
    return run


@pytest.mark.parametrize("dt", [np.int8, np.int64, np.uint8, np.uint64, np.bool_])
@pytest.mark.parametrize("op", ["floor_divide", "remainder", "divmod", "fmod"])
def test_errstate_integer_division_by_zero(op, dt):
    a, b = np.array([1, 0, 1]).astype(dt), np.array([1, 1, 0]).astype(dt)
    check(_raising(lambda xp, a, b: getattr(xp, op)(a, b)), a, b)
    check(_in_state(lambda xp, a, b: getattr(xp, op)(a, b), divide="raise"), a, b)
    check(_in_state(lambda xp, a, b: getattr(xp, op)(a, b), over="raise"), a, b, exact=True)
    check(_raising(lambda xp, a, b: getattr(xp, op)(a, b)), a, b[[0, 0, 0]], exact=True)
    check(_raising(lambda xp, a, b: getattr(xp, op)(a, b, where=b != 0, out=xp.zeros_like(a))),
          a, b, exact=True)  # the masked-out division by zero does not count


@pytest.mark.parametrize("op", ["floor_divide", "remainder", "divmod", "fmod", "reciprocal"])
def test_errstate_integer_division_of_nothing(op):
    # an empty result divides nothing: no error, whatever the divisor
    nin = getattr(np, op).nin
    for shapes in [((0,), ()), ((0, 3), (3,)), ((2, 0), (2, 1))]:
        args = [np.zeros(s, np.int16) for s in shapes[:nin]]
        check(_raising(lambda xp, *a: getattr(xp, op)(*a)), *args, exact=True)


def test_errstate_integer_division_operators():
    check(_raising(lambda xp: xp.array([1]) // 0))
    check(_raising(lambda xp: xp.array([1]) % 0))
    check(_raising(lambda xp: divmod(xp.array([7, 1]), xp.array([2, 0]))))
    check(_raising(lambda xp, a: a // a[::-1]), np.arange(4))

    def inplace(xp, a):
        a //= 0
    check(_raising(inplace), np.arange(3))


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.int64])
@pytest.mark.parametrize("op", ["floor_divide", "divmod", "remainder", "fmod"])
def test_errstate_integer_division_overflow(op, dt):
    a, b = np.array([np.iinfo(dt).min, 5], dt), np.array([-1, 2], dt)
    check(_raising(lambda xp, a, b: getattr(xp, op)(a, b)), a, b, exact=True)
    check(_in_state(lambda xp, a, b: getattr(xp, op)(a, b), divide="raise"), a, b, exact=True)


_HIDDEN = [1e308, 1e308, 0.0]  # prod: see test_errstate_hidden_intermediate_overflow


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("name,values", [
    (name, values) for name in ("sum", "prod", "cumsum", "cumprod", "max")
    for values in ([1e308, 1e308], _HIDDEN, [np.inf, -np.inf], [1e-300, 1e-300], [1.0, 2.0],
                   [np.inf, 1.0], [np.nan, 1.0]) if (name, values) != ("prod", _HIDDEN)],
    ids=repr)
def test_errstate_reductions(values, name, dt):
    with np.errstate(all="ignore"):
        a = np.array(values).astype(dt)
    check(_raising(lambda xp, a: getattr(xp, name)(a)), a)
    check(_in_state(lambda xp, a: getattr(xp, name)(a), over="raise"), a)
    check(_in_state(lambda xp, a: getattr(xp, name)(a), under="raise"), a)
    check(_raising(lambda xp, a: getattr(xp, name)(a, out=xp.zeros_like(a[:1] if name[0] == "c"
                                                                        else a[0]))), a)


@pytest.mark.xfail(strict=True, reason="tnp's flags come from the values of the result, not "
                   "from the hardware status register: an overflow that a later element turns "
                   "into NaN (inf * 0) reads as 'invalid', where NumPy reports the overflow "
                   "first (tnp/_core/fperr.py)")
def test_errstate_hidden_intermediate_overflow():
    check(_raising(lambda xp, a: xp.prod(a)), np.array(_HIDDEN))


def test_errstate_reductions_per_axis_and_where():
    a = np.array([[1e308, 1e308], [1.0, np.inf]])
    check(_raising(lambda xp, a: xp.sum(a, axis=0)), a)
    check(_raising(lambda xp, a: xp.sum(a, axis=1)), a)
    check(_raising(lambda xp, a: xp.sum(a, axis=1, keepdims=True, where=a[:1] < 1e300)), a)
    check(_raising(lambda xp, a: xp.add.reduce(a, axis=None)), a[:1])
    check(_raising(lambda xp, a: xp.divide.reduce(a, axis=1)), np.array([[1.0, 0.0]]))
    check(_raising(lambda xp, a: xp.maximum.reduce(a)), np.array([np.nan, 1e308]))
    check(_raising(lambda xp, a: xp.cumsum(a, axis=1)), a)
    check(_raising(lambda xp, a: xp.add.accumulate(a, axis=0)), a)


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                np.uint32, np.uint64])
@pytest.mark.parametrize("v", [np.nan, np.inf, -np.inf, 1000.0, 3e9, 1e10, -1e10, 1e20, -1.0,
                               2.5])
def test_errstate_invalid_cast(dt, v):
    # Arrays shorter than a SIMD vector: NumPy's per-element cast, the one tnp matches (NumPy's
    # vectorised float-to-uint32 loop gives other out-of-range values: tnp._core.numerics.casting).
    check(_raising(lambda xp, a: a.astype(dt)), np.array([0.0, v]))
    check(_raising(lambda xp, a: a.astype(dt)), np.array([v], np.float32))


def test_errstate_underflow():
    check(_raising(lambda xp: 1e-300 * xp.array([1e-300])))
    check(_in_state(lambda xp: 1e-300 * xp.array([1e-300]), under="raise"))
    check(_in_state(lambda xp: 1e-300 * xp.array([1e-300]), over="raise"))  # 'under' ignored
    check(_raising(lambda xp, a: xp.exp(a)), np.array([-1000.0, 0.0]))
    check(_raising(lambda xp, a: a / 1e300), np.array([1e-300, 1.0]))
    check(_raising(lambda xp, a: xp.ldexp(a, -1080)), np.array([1.0]))
    check(_raising(lambda xp, a: a * a), np.array([1e-200], np.float32))


@pytest.mark.parametrize("name,values", [("arctanh", [1.0, 0.5]), ("arctanh", [-1.0]),
                                         ("log1p", [-1.0, 0.0]), ("log", [0.0, 1.0]),
                                         ("reciprocal", [0, 1]), ("reciprocal", [0.0, 1.0])],
                         ids=repr)
def test_errstate_poles_are_divide_by_zero(name, values):
    check(_raising(lambda xp, a: getattr(xp, name)(a)), np.array(values))


@pytest.mark.parametrize("expr", ["a - a", "a + (-a)", "xp.floor(a / 4)", "xp.fmod(a, 0.5)",
                                  "a * 0", "0 * a", "xp.sin(a * 0)", "a * 2"])
def test_errstate_exact_tiny_results_are_not_underflow(expr):
    check(_raising(lambda xp, a: eval(expr)), np.array([1.0, 2.0, 1e-300]))


@pytest.mark.parametrize("values", [[0.0, 1.0], [1.0, 0.0], [1e308, np.inf], [1e-300, np.inf]],
                         ids=repr)
def test_errstate_first_category_is_numpys(values):
    check(_raising(lambda xp, a, b: a * b), np.array(values), np.array([10.0, 0.0])[::-1])
    check(_raising(lambda xp, a, b: a / b), np.array(values), np.zeros(2))


def test_errstate_divide_masked_by_where():
    def body(xp):
        with xp.errstate(divide="raise"):
            return xp.divide(xp.ones(2), xp.array([1.0, 0.0]), where=xp.array([True, False]),
                             out=xp.zeros(2))
    check(body)


def test_errstate_divide_not_masked_raises():
    def body(xp):
        with xp.errstate(divide="raise"):
            return xp.divide(xp.ones(2), xp.array([1.0, 0.0]), where=xp.array([True, True]),
                             out=xp.zeros(2))
    check(body)


def test_scalar_hash():
    check(lambda xp, a: hash(a[1]), np.arange(3.0))
    check(lambda xp, a: {a[0]: 1}[0.0], np.arange(3.0))
    check(lambda xp, a: hash(a), np.arange(3.0), message=False)  # 'numpy.ndarray' in NumPy's


def test_flat_is_an_iterator():
    check(lambda xp, a: next(a.flat), np.arange(3.0))

    def body(xp, a):
        it = a.flat
        first = next(it)
        return first, next(it), it.index, list(it)
    check(body, np.arange(6.0).reshape(2, 3))


def test_nditer_sees_a_write_made_before_it():
    def body(xp, x):
        x[3] = -3
        return [float(v) for v in xp.nditer(x)]
    check(body, np.arange(5.0))


@pytest.mark.xfail(strict=True, reason="tnp's nditer is a sync point: it iterates a host copy "
                   "taken when it is created, so a write made after that is not seen. NumPy's "
                   "nditer walks the array's memory and yields views of it; a tnp array is an "
                   "immutable device buffer that each write replaces, so a live iterator would "
                   "re-copy every operand after each write (or read the device per element), "
                   "and the 0-d views it already yielded still could not follow the writes")
def test_nditer_sees_a_write_made_after_it():
    def body(xp, x):
        it = xp.nditer(x)
        x[3] = -3
        return [float(v) for v in it]
    check(body, np.arange(5.0))


# ---- issue 21: Fortran order -----------------------------------------------------------------
def _layout(a):
    return (a.flags["C_CONTIGUOUS"], a.flags["F_CONTIGUOUS"], a.flags.owndata, a.strides)


@pytest.mark.parametrize("make", ["zeros", "ones", "empty"])
def test_creation_order_f_flags(make):
    check(lambda xp: _layout(getattr(xp, make)((2, 3), order="F")))
    check(lambda xp: _layout(xp.full((2, 3), 7, order="F")))


def test_order_f_views_follow_numpy():
    def body(xp):
        f = xp.ones((2, 3, 4), order="F")
        return [_layout(v) for v in (f, f[:, 1:], f.T, f[0], f[..., 0], f[:, :, ::2])]
    check(body)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_copy_order(order):
    check(lambda xp, a: _layout(a.copy(order=order)), np.arange(6.0).reshape(2, 3))
    check(lambda xp, a: _layout(a.T.copy(order=order)), np.arange(6.0).reshape(2, 3))
    check(lambda xp, a: _layout(xp.copy(a.T, order=order)), np.arange(6.0).reshape(2, 3))


def test_asfortranarray_and_ascontiguousarray():
    a = np.arange(6.0).reshape(2, 3)
    check(lambda xp, a: (xp.asfortranarray(a), _layout(xp.asfortranarray(a))), a)
    check(lambda xp, a: _layout(xp.ascontiguousarray(xp.asfortranarray(a))), a)
    check(lambda xp, a: xp.asfortranarray(a.T) is not None and _layout(xp.asfortranarray(a.T)),
          a)


_CONTIGUOUS = {"ones F": lambda xp: xp.ones((2, 3), order="F"),
               "asfortranarray": lambda xp: xp.asfortranarray(xp.arange(6.0).reshape(2, 3)),
               "transpose": lambda xp: xp.arange(24).reshape(2, 3, 4).T,
               "C": lambda xp: xp.arange(6.0).reshape(2, 3),
               "1-d F": lambda xp: xp.ones(3, order="F"),
               "F reshaped F": lambda xp: xp.zeros((2, 6), order="F").reshape((3, 4), order="F")}
_STRIDED = {"F sliced": lambda xp: xp.ones((2, 3, 4), order="F")[:, 1:],
            "F row": lambda xp: xp.ones((2, 3, 4), order="F")[0],
            "F stepped": lambda xp: xp.ones((2, 3, 4), order="F")[:, :, ::2],
            "C stepped T": lambda xp: xp.ones((2, 3, 4))[:, ::2].T}


def _contiguity(a):
    return a.flags["C_CONTIGUOUS"], a.flags["F_CONTIGUOUS"], a.strides


@pytest.mark.parametrize("make", list(_CONTIGUOUS.values()), ids=list(_CONTIGUOUS))
def test_numpy_asarray_of_order_f(make):
    check(lambda xp: _contiguity(np.asarray(make(xp))))
    check(lambda xp: _contiguity(np.asarray(make(xp), dtype=np.float32)))
    check(lambda xp: _contiguity(np.array(make(xp))))


@pytest.mark.parametrize("make", list(_STRIDED.values()), ids=list(_STRIDED))
def test_numpy_array_copy_of_order_f_views(make):
    # NumPy's own array(x) copies x in the order of its strides ('K'); tnp's host copy is laid
    # out the same (NumPy's asarray of a strided view is the view itself, which a copy is not)
    check(lambda xp: _contiguity(np.array(make(xp))))
    check(lambda xp: _contiguity(make(xp).copy(order="K")))


@pytest.mark.parametrize("shape", [(3, 2), (6,), (1, 6), (3, -1), (2, 1, 3)])
@pytest.mark.parametrize("order", ["F", "A"])
def test_reshape_order_f(shape, order):
    a = np.arange(6).reshape(2, 3)
    check(lambda xp, a: a.reshape(shape, order=order), a)
    check(lambda xp, a: xp.reshape(a.T, shape, order=order), a)
    check(lambda xp, a: _layout(xp.reshape(xp.asfortranarray(a), shape, order=order)), a)


def test_reshape_order_f_no_copy():
    check(lambda xp, a: a.reshape((3, 2), order="F", copy=False), np.arange(6).reshape(2, 3))
    check(lambda xp, a: xp.asfortranarray(a).reshape((3, 2), order="F", copy=False),
          np.arange(6).reshape(2, 3))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_orders(order):
    a = np.arange(24).reshape(2, 3, 4)
    check(lambda xp, a: a.ravel(order=order), a)
    check(lambda xp, a: xp.ravel(a.T, order=order), a)
    check(lambda xp, a: xp.ravel(xp.asfortranarray(a), order=order), a)
    check(lambda xp, a: xp.ravel(a[:, ::2].transpose(1, 0, 2), order=order), a)
    check(lambda xp, a: a.flatten(order=order), a)


def test_write_through_order_f_views():
    def body(xp):
        f = xp.zeros((2, 3), order="F")
        r = f.ravel(order="F")  # a view of F-contiguous data
        r[1] = 5.0
        f.reshape((3, 2), order="F")[0, 1] = 7.0
        return f, _layout(f)
    check(body)


# ---- issue 18, item 4: one conversion of written Python values -------------------------------
def _write_at(index, value):
    def body(xp, a):
        a[index] = value
        return a
    return body


@pytest.mark.parametrize("index", [slice(None), [0, 1, 2], np.array([True, True, True]),
                                   Ellipsis], ids=["slice", "fancy", "mask", "ellipsis"])
@pytest.mark.parametrize("value", [[1, 2, 1000], [1, 2, -129], [1.0, 2.0, 1000.0],
                                   [1, 2, float("nan")], [1, 2, "1000"]], ids=repr)
def test_python_values_out_of_range(index, value):
    # NumPy converts a list into a slice element by element and stops at the bad one, leaving
    # the elements before it written; tnp converts first and leaves the array unchanged (a
    # failed write is never half done), so the argument after the call is not compared.
    check(_write_at(index, value), np.zeros(3, np.int8), check_inputs=False)
    if not isinstance(index, slice) and index is not Ellipsis:  # NumPy converts all first
        check(_write_at(index, value), np.zeros(3, np.int8))


def test_put_out_of_range():
    def body(xp, a):
        xp.put(a, [0, 1], [1, 1000])
        return a
    check(body, np.zeros(3, np.int8))

    def method(xp, a):
        a.put([0, 1], [1, 1000])
        return a
    check(method, np.zeros(3, np.int8))


def test_fill_out_of_range():
    def body(xp, a):
        a.fill(1000)
        return a
    check(body, np.zeros(3, np.int8))


@pytest.mark.parametrize("value", [[[1.0, 2.0]], np.array([[1.0, 2.0]]), [[[1.0]]]], ids=repr)
def test_mask_over_every_axis_takes_1d_values(value):
    def body(xp, a):
        a[a > 2] = xp.asarray(value) if isinstance(value, np.ndarray) else value
        return a
    check(body, np.arange(5.0))


def test_mask_over_leading_axis_takes_2d_values():
    def body(xp, a):
        a[xp.asarray([True, False])] = xp.ones((1, 3))
        return a
    check(body, np.zeros((2, 3)))


@pytest.mark.parametrize("value", [[[1]], [1, [2]], [[1], [2]]], ids=repr)
def test_nested_lists_deeper_than_the_target(value):
    check(_write_at(slice(0, 2), value), np.arange(5))


def test_string_values_convert_as_numpy():
    check(_write_at(slice(0, 2), ["1", "2"]), np.arange(5))
    check(_write_at(slice(0, 2), ["1", "x"]), np.arange(5), check_inputs=False)  # as above


def test_where_mask_shape_error():
    def body(xp, a):
        xp.copyto(a, 1.0, where=xp.ones(2, bool))
    check(body, np.zeros((3, 4)))


@pytest.mark.parametrize("dt,values,call", rotated(itertools.product(
    [np.int8, np.uint8, np.int64],
    [[7, 2, 0, 1], [100, 1, 2, 3], [0, 5], [-128, 1, -1], [-128, -1, 1], [5], []],
    ["floor_divide.reduce", "remainder.reduce", "fmod.reduce", "floor_divide.accumulate",
     "remainder.accumulate"]), 2), ids=lambda v: getattr(v, "__name__", str(v)))
def test_errstate_integer_division_folds(call, values, dt):
    # NumPy's "divide by zero encountered in reduce" (a zero divisor after the first element)
    # and, for floor_divide of the minimum by -1, "overflow encountered in reduce"
    name, method = call.split(".")
    check(_raising(lambda xp, a: getattr(getattr(xp, name), method)(a)),
          np.array(values).astype(dt), exact=True)
    check(_raising(lambda xp, a: getattr(getattr(xp, name), method)(a, axis=1)),
          np.array(values * 2).astype(dt).reshape(2, -1), exact=True)
