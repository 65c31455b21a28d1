"""Indexing against NumPy: hypothesis-generated index expressions mixing every form (ints,
slices with any step, Ellipsis, None, integer lists/arrays (nested too), boolean masks of any
rank, 0-d booleans, floats) read and written, plus the exact error cases."""
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tnp
from engine import assert_same, check
from strategies import arrays

DTYPES = [np.dtype(d) for d in ("float64", "int32", "bool", "complex64", "uint8")]
KINDS = ("numpy", "list", "tnp", "jax")


def _small(n, oob):
    lim = n + 1 if oob else n
    return st.integers(-lim, lim - 1) if lim else st.just(0)


@st.composite
def index_items(draw, shape):
    """One index expression for ``shape``: a tuple of items, or a single item."""
    items, dim = [], 0
    n_items = draw(st.integers(0, len(shape) + 1))
    oob = draw(st.booleans()) and draw(st.booleans())  # out-of-bounds sometimes
    for _ in range(n_items):
        n = shape[dim] if dim < len(shape) else 1
        kind = draw(st.sampled_from(
            ["int", "slice", "slice", "none", "ellipsis", "ints", "ints2d", "mask", "bool0",
             "float"] if dim < len(shape) else ["none", "int", "slice", "ellipsis"]))
        if kind == "int":
            items.append(draw(_small(n, oob)))
        elif kind == "slice":
            bound = st.none() | st.integers(-n - 2, n + 2)
            step = st.none() | st.sampled_from([1, 2, 3, -1, -2, -3])
            items.append(slice(draw(bound), draw(bound), draw(step)))
        elif kind == "none":
            items.append(None)
            continue
        elif kind == "ellipsis":
            items.append(Ellipsis)
            continue
        elif kind == "ints":
            items.append(("ints", draw(st.lists(_small(n, oob), min_size=0, max_size=4))))
        elif kind == "ints2d":
            k = draw(st.integers(1, 3))
            items.append(("ints", draw(st.lists(st.lists(_small(n, oob), min_size=k, max_size=k),
                                                min_size=1, max_size=2))))
        elif kind == "mask":
            rank = draw(st.integers(1, max(1, min(2, len(shape) - dim))))
            mshape = tuple(shape[dim:dim + rank])
            if oob:
                mshape = mshape[:-1] + (mshape[-1] + 1,)
            items.append(("mask", draw(arrays(np.dtype(bool), mshape))))
            dim += rank - 1
        elif kind == "bool0":
            items.append(draw(st.booleans()))
            continue
        else:
            items.append(float(draw(st.integers(0, max(n - 1, 0)))))
        dim += 1
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


def realize(xp, index, kind):
    """The index for ``xp``, with index arrays as lists / NumPy / tnp / JAX arrays."""
    def one(it):
        if type(it) is not tuple:
            return it
        tag, val = it
        arr = np.asarray(val, dtype=bool if tag == "mask" else np.intp)
        if kind == "list":
            return arr.tolist()
        if kind == "numpy" or xp is np:
            return arr
        return tnp.asarray(arr) if kind == "tnp" else jnp.asarray(arr)
    return tuple(one(it) for it in index) if type(index) is tuple else one(index)


@st.composite
def cases(draw):
    shape = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple))
    dt = draw(st.sampled_from(DTYPES))
    a = draw(arrays(dt, shape, allow_special=False))
    return a, draw(index_items(shape)), draw(st.sampled_from(KINDS))


def _value_for(data, a, index, kind):
    """A value to write: a scalar, or an array of the selection's shape (or a suffix of it)."""
    try:
        shape = a[realize(np, index, kind)].shape
    except Exception:  # noqa: BLE001 - NumPy raises: any value, the error is what is compared
        shape = ()
    if data.draw(st.booleans()):
        return data.draw(st.sampled_from([0, 1, -1, True, 2.5]))
    shape = shape[data.draw(st.integers(0, len(shape))):]
    dt = data.draw(st.sampled_from([a.dtype, np.dtype("int64"), np.dtype("float32")]))
    if dt.kind in "iu" and a.dtype.kind in "iu":
        return data.draw(arrays(dt, shape)).astype(a.dtype)  # in range of the target
    return data.draw(arrays(dt, shape, allow_special=False)).clip(-100, 100).astype(dt)


@given(cases())
def test_read(case):
    a, index, kind = case
    check(lambda xp, x: x[realize(xp, index, kind)], a)


@given(cases(), st.data())
def test_write(case, data):
    a, index, kind = case
    value = _value_for(data, a, index, kind)
    views = data.draw(st.sampled_from([(), (slice(None, None, -1),), (Ellipsis, None)]))

    def body(xp, x, v):
        before = x[views]  # a view taken before the write must see it
        x[realize(xp, index, kind)] = v
        return x, before
    check(body, a, value)


@given(cases(), st.data())
def test_write_through_view(case, data):
    a, index, kind = case
    value = _value_for(data, a, index, kind)

    def body(xp, x, v):
        view = x[::-1]
        view[realize(xp, index, kind)] = v
        return x, view
    check(body, a, value)


@given(cases(), st.data())
def test_augmented_write(case, data):
    a, index, kind = case
    if a.dtype == np.bool_:
        a = a.astype(np.int32)
    value = _value_for(data, a, index, kind)
    if np.asarray(value).dtype.kind == "f" and a.dtype.kind in "iu":
        value = np.asarray(value).astype(a.dtype)

    def body(xp, x, v):
        x[realize(xp, index, kind)] += v
        return x
    check(body, a, value)


A = np.arange(24.0).reshape(2, 3, 4)
I10 = np.arange(10)

READS = {
    "int": lambda xp, a: a[1],
    "neg_ints": lambda xp, a: a[-1, -2],
    "steps": lambda xp, a: a[::-2, 1:, ::3],
    "ellipsis_none": lambda xp, a: a[..., None, 1],
    "adv_separated": lambda xp, a: a[[0, 1], :, [1, 2]],
    "adv_adjacent": lambda xp, a: a[:, [0, 1], [1, 2]],
    "adv_with_none": lambda xp, a: a[None, [0, 1], None, 1:3, [2, 3]],
    "nested_broadcast": lambda xp, a: a[[[0], [1]], [[0, 1, 2]]],
    "mask_full": lambda xp, a: a[a > 5],
    "mask_axis1": lambda xp, a: a[:, np.array([True, False, True])],
    "mask_2d_list": lambda xp, a: a[0][[[True, False, True, True]] * 3],
    "bool0_true": lambda xp, a: a[True],
    "bool0_false": lambda xp, a: a[False],
    "bool0_mixed": lambda xp, a: a[0, True, [1]],
    "tnp_index": lambda xp, a: a[xp.asarray([1, 0])],
    "zero_d_index_array": lambda xp, a: a[xp.asarray(1)],
    "uint_index": lambda xp, a: a[np.array([1, 0], np.uint8)],
    "empty_list": lambda xp, a: a[[]],
    "two_ellipses": lambda xp, a: a[..., ...],
    "oob_int": lambda xp, a: a[5],
    "oob_neg": lambda xp, a: a[0, -4],
    "oob_array": lambda xp, a: a[[0, 5]],
    "oob_tnp_array": lambda xp, a: a[xp.asarray([0, -3])],
    "float": lambda xp, a: a[1.0],
    "float_array": lambda xp, a: a[np.array([1.0])],
    "float_slice": lambda xp, a: a[1.0:2],
    "too_many": lambda xp, a: a[0, 0, 0, 0],
    "mask_wrong_shape": lambda xp, a: a[np.array([True, False, True])],
    "broadcast_fail": lambda xp, a: a[[0, 1], [0, 1, 2]],
    "string": lambda xp, a: a["x"],
}


@pytest.mark.parametrize("name", READS)
def test_read_cases(name):
    check(READS[name], A)


class _TupleSubclass(tuple):
    pass


@pytest.mark.parametrize("index", [([1], [1]), (1, 2), (slice(1, None), [0, 2]), ()],
                         ids=str)
def test_tuple_subclass_is_an_nd_index(index):
    """A tuple subclass indexes as a tuple does (NumPy reads it as a multi-dimensional index)."""
    def body(xp, a):
        r = a[_TupleSubclass(index)]
        a[_TupleSubclass(index)] = -1
        return r, a
    check(body, A)


def _set(index, value):
    def body(xp, a):
        a[index] = value
        return a
    return body


WRITES = {
    "int": (_set((1, 2), 7), A),
    "repeated_last_wins": (_set([0, 0, 1, 0], np.array([1, 2, 3, 4])), I10),
    "float_into_int_truncates": (_set(slice(0, 3), np.array([1.7, -2.7, 3.5])), I10),
    "py_float_into_int": (_set(1, 3.99), I10),
    "py_int_overflow": (_set(1, 2**70), I10),
    "py_int_overflow_int8": (_set(1, 300), I10.astype(np.int8)),
    "negative_into_uint": (_set(1, -1), I10.astype(np.uint8)),
    "nan_into_int": (_set(0, float("nan")), I10),
    "complex_into_float": (_set(slice(0, 2), np.array([1 + 2j, 3j])), A),
    "py_complex_into_float": (_set(0, 1 + 2j), A),
    "bad_broadcast": (_set(slice(0, 3), [1, 2]), I10),
    "leading_ones_dropped": (_set(slice(0, 3), np.ones((1, 1, 3))), I10),
    "oob_array_unchanged": (_set([1, 20], 5), I10),
    "mask_scalar": (_set(I10 > 4, 0), I10),
    "mask_values": (_set(I10 > 4, np.arange(5) * 10), I10),
    "mask_bad_count": (_set(I10 > 4, np.arange(3)), I10),
    "empty_list": (_set([], 1), I10),
    "ellipsis": (_set(Ellipsis, 3), A),
    "none": (_set((None, 0), 3), A),
    "bool0": (_set(True, 4), A),
    "bool0_false": (_set(False, 4), A),
    "string_value": (_set(0, "a"), I10),
}


@pytest.mark.parametrize("name", WRITES)
def test_write_cases(name):
    body, a = WRITES[name]
    check(body, a)


def test_repeated_index_augmented_adds_once():
    def body(xp, a):
        a[[0, 0, 1]] += 1
        return a
    check(body, I10)


def test_overlapping_writes_copy_right_side_first():
    def shift(xp, a):
        a[1:] = a[:-1]
        return a

    def reverse(xp, a):
        a[:] = a[::-1]
        return a

    def transpose(xp, a):
        a[...] = a.T
        return a
    check(shift, I10)
    check(reverse, I10)
    check(transpose, np.arange(9).reshape(3, 3))


def test_jax_array_value_and_index():
    a = tnp.arange(10.0)
    a[jnp.asarray([1, 2])] = jnp.asarray([5.0, 6.0])
    n = np.arange(10.0)
    n[[1, 2]] = [5.0, 6.0]
    assert_same(a, n)


@pytest.mark.parametrize("index,shape", [(([0, 0, 1, 0], slice(None), [1, 1, 2, 1]), (4, 3)),
                                         (([[1, 1], [1, 0]],), (2, 2, 3, 4)),
                                         ((slice(None), [2, 2], None), (2, 2, 1, 4))])
def test_last_wins_scatter_used_off_cpu(index, shape):
    """The scatter non-CPU backends use for repeated indices keeps NumPy's last-write-wins."""
    from tnp._core.array.write import scatter_last_wins
    base = np.arange(24.0).reshape(2, 3, 4)
    value = -np.arange(float(np.prod(shape))).reshape(shape)
    expected = base.copy()
    expected[index] = value
    jidx = tuple(jnp.asarray(i) if isinstance(i, list) else i for i in index)
    assert_same(tnp.asarray(scatter_last_wins(jnp.asarray(base), jidx, jnp.asarray(value))),
                expected)


@pytest.mark.parametrize("shape", [(), (2, 3)])
@pytest.mark.parametrize("n_new", [31, 62, 64, 65, 70])
def test_newaxis_past_numpys_dimension_limit(shape, n_new):
    # NumPy's IndexError when the result would have more than NPY_MAXDIMS dimensions
    check(lambda xp, a: a[(None,) * n_new].shape, np.zeros(shape))
    check(lambda xp, a: a[(None,) * n_new + (Ellipsis,)], np.zeros(shape))


@pytest.mark.parametrize("dt", [">i8", ">i2", ">u4"])
def test_byteswapped_index_array(dt):
    # an integer index array in non-native byte order (a host-tier tnp array): read, written
    # with a scalar and with an array (NumPy's TestMultiIndexingAutomated::test_1d)
    def body(xp, a, i):
        i = xp.asarray(i)
        b, c = a.copy(), a.copy()
        b[:, i] = -1
        c[1, i] = xp.arange(i.size).reshape(i.shape)
        return a[:, i], b, c, a[1, i], a.ravel()[i]
    check(body, np.arange(12.0).reshape(2, 6), np.array([[0, 5], [2, 1]], dtype=dt))


@pytest.mark.parametrize("index", [True, False], ids=repr)
@pytest.mark.parametrize("num", [64, 80])
@pytest.mark.parametrize("ndim", [1, 64])
def test_too_many_boolean_scalar_indices(index, num, ndim):
    """Past NumPy's 64 dimensions, 0-d boolean indices give NumPy's IndexError (read and
    write), not the dimension limit's ValueError of the placeholder tnp asks."""
    def body(xp):
        arr = xp.ones((1,) * ndim)
        try:
            arr[(index,) * num] = 1.0
        except IndexError as e:
            written = str(e)
        return arr[(index,) * num], written
    check(body)


def test_several_fields_have_numpys_dtype():
    """``a[['b', 'a']]`` of a structured array: NumPy's dtype (names in the order asked, the
    fields' offsets) and values (README's diff-host-dtypes: a read-only copy, not a view)."""
    def body(xp):
        a = xp.array([(1, 2.5), (3, 4.5)], dtype=[("a", "<i8"), ("b", ">f8")])
        r = a[["b", "a"]]
        return r.dtype, r, xp.promote_types(a.dtype, r[["a", "b"]].dtype)
    check(body)
