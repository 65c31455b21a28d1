"""Creation from data and from shape: array/asarray family, copy, astype, zeros/ones/empty/full
and their _like forms, arange — every argument form against NumPy."""
import itertools
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tnp
from engine import check
from matrix import rotated
from strategies import ALL_DTYPES

A = np.arange(6.0).reshape(2, 3)

OBJECTS = [[[1, 2.5], [3, 4]], [1, 2j, True], [True, False], 3, 2.5, 1j, [], [[], []],
           [[1], [1, 2]], 2**63, [2**63, 1], [np.int8(1), 2], (1, (2, 3)), [[1, 2], (3, 4)],
           np.float32(1.5), [np.float16(1), 2.0]]


@pytest.mark.parametrize("obj", OBJECTS, ids=repr)
@pytest.mark.parametrize("dtype", [None, np.int8, np.float32, np.complex128, bool], ids=str)
def test_array_from_python(obj, dtype):
    check(lambda xp: xp.array(obj, dtype=dtype))
    check(lambda xp: xp.asarray(obj, dtype=dtype))


@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_array_ndmin(ndmin):
    check(lambda xp: xp.array(5, ndmin=ndmin))
    check(lambda xp, a: xp.array(a, ndmin=ndmin + 2), A)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_array_from_array_dtypes(dt):
    src = np.array([0, 1, 3]).astype(dt)
    for target in (None, np.float64, np.int16, np.complex64, np.uint8, np.bool_):
        check(lambda xp, a: xp.array(a, dtype=target), src)
        check(lambda xp, a: xp.asarray(a, dtype=target), src)


@pytest.mark.parametrize("copy", [True, False, None])
def test_array_copy_semantics(copy):
    check(lambda xp, a: xp.array(a, copy=copy) is a, A)
    check(lambda xp, a: xp.asarray(a, copy=copy) is a, A)
    check(lambda xp, a: xp.array(a, dtype=np.float32, copy=copy), A)
    check(lambda xp: xp.array([1, 2], copy=copy))


def test_array_copy_is_independent():
    def body(xp, a):
        b = xp.array(a)
        b[0, 0] = 100
        return a, b
    check(body, A)


def test_array_ndmin_without_copy_is_a_view():
    def body(xp, a):
        v = xp.array(a, ndmin=4, copy=None)
        v[0, 0, 1, 1] = -1
        return v, v.base is a
    check(body, A)


def test_array_from_jax_zero_copy():
    x = jnp.arange(3.0)
    assert tnp.asarray(x).data is x
    assert tnp.array(x, copy=False).data is x


@pytest.mark.parametrize("obj", [["a", "b"], [np.datetime64("2020-01-01")], [None, 1],
                                 np.array(["x"]), 2**64, 2**70])
def test_numpy_only_data_lives_on_the_host(obj):
    """Data NumPy holds in a dtype XLA cannot: a host-tier array, NumPy's own."""
    check(lambda xp: xp.array(obj))
    check(lambda xp: xp.full(2, obj))
    assert tnp.array(obj)._on_host


@pytest.mark.parametrize("dtype", [str, object, "datetime64[s]", "U3", np.longdouble])
def test_numpy_only_dtype_argument(dtype):
    check(lambda xp: xp.zeros(3, dtype))
    assert tnp.zeros(3, dtype)._on_host


@pytest.mark.parametrize("fn", ["asanyarray", "ascontiguousarray", "asfortranarray", "copy"])
@pytest.mark.parametrize("obj", [5, [1, 2.5], A], ids=["scalar", "list", "array"])
def test_as_family(fn, obj):
    check(lambda xp, a: getattr(xp, fn)(a), obj)
    if fn != "copy":
        check(lambda xp, a: getattr(xp, fn)(a, dtype=np.int32), obj)


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asanyarray"])
def test_as_family_no_copy(fn):
    check(lambda xp, a: getattr(xp, fn)(a) is a, A)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("casting", ["unsafe", "same_kind", "safe"])
def test_astype(dt, casting):
    check(lambda xp, a: xp.astype(a, dt), A)
    check(lambda xp, a: xp.astype(a, a.dtype, copy=False) is a, A)
    check(lambda xp, a: a.astype(dt, casting=casting), A)


def test_astype_non_array():
    check(lambda xp: xp.astype([1, 2], np.float32))


SHAPES = [3, (2, 3), [2, np.int64(2)], (), (0, 4), -1, (2, -1), 2.0, (2.0,)]


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_zeros_ones_empty_shapes(fn, shape):
    body = (lambda xp: xp.empty(shape).shape) if fn == "empty" else (
        lambda xp: getattr(xp, fn)(shape))
    check(body)


@pytest.mark.parametrize("shape", [np.array([2, 3]), np.array(4), np.arange(0), np.array([2.0]),
                                   np.array(2.0)], ids=repr)
@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_shape_given_as_an_array(fn, shape):
    check(lambda xp, s: getattr(xp, fn)(s).shape, shape)


@pytest.mark.parametrize("dt", ALL_DTYPES + [None, int, float, complex, bool, "f4", "i2"],
                         ids=str)
@pytest.mark.parametrize("fn", ["zeros", "ones"])
def test_zeros_ones_dtypes(fn, dt):
    check(lambda xp: getattr(xp, fn)((2, 2), dt))
    check(lambda xp: xp.empty((2, 2), dt).dtype.str)


FILLS = [7, 1.5, True, 1j, -1, 300, np.nan, np.inf, [1, 2, 3], np.float32(2.5),
         np.array([[1], [2]])]


@pytest.mark.parametrize("fill", FILLS, ids=repr)
@pytest.mark.parametrize("dt", [None, np.int8, np.uint8, np.float32, np.complex64, bool],
                         ids=str)
def test_full(fill, dt):
    check(lambda xp: xp.full((2, 3), fill, dtype=dt))


@pytest.mark.parametrize("dt", [np.int8, np.uint64, np.float32], ids=str)
def test_full_huge_python_int(dt):
    check(lambda xp: xp.full(3, 2**70, dtype=dt))


def test_full_tnp_fill_value():
    check(lambda xp, v: xp.full((2, 3), v), np.array([1, 2, 3], np.int16))
    check(lambda xp, v: xp.full(2, v, dtype=np.float32), np.array(2.5))


def _layout(r):
    return r.flags.c_contiguous, r.flags.f_contiguous, r.strides, r.dtype, r.shape


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dt", [np.float64, np.int8, "U2", object, np.dtypes.StrDType],
                         ids=str)
def test_creation_order_layout(order, dt):
    # order='F' lays the array out in Fortran order, on the device or (str, object) the host
    for fn in ("zeros", "ones", "empty"):
        check(lambda xp: _layout(getattr(xp, fn)((2, 3, 2), order=order, dtype=dt)))
    check(lambda xp: _layout(xp.full((3, 2), 1, order=order, dtype=dt)))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("src", [A, np.asfortranarray(A), np.arange(24.0).reshape(2, 3, 4)[:, ::2],
                                 np.asfortranarray(np.ones((2, 3, 2)))[:, 1:]],
                         ids=["C", "F", "C-strided", "F-strided"])
@pytest.mark.parametrize("shape", [None, (3, 4), (2, 3, 4)], ids=str)
def test_like_order_layout(order, src, shape):
    # NumPy's layout of *_like results: 'A' follows a Fortran-ordered prototype, 'K' its
    # layout (with its number of dimensions)
    for fn in ("zeros_like", "ones_like", "empty_like"):
        check(lambda xp, a: _layout(getattr(xp, fn)(a, shape=shape, order=order)), src)
    check(lambda xp, a: _layout(xp.full_like(a, 2, shape=shape, order=order)), src)


@pytest.mark.parametrize("src", [A, np.arange(4, dtype=np.uint8), np.array(True),
                                 [1, 2.5], 3], ids=["f64", "u8", "bool0d", "list", "int"])
@pytest.mark.parametrize("dt", [None, np.int32, np.complex128], ids=str)
@pytest.mark.parametrize("shape", [None, (4,), (2, 0)], ids=str)
def test_like(src, dt, shape):
    check(lambda xp, a: xp.zeros_like(a, dtype=dt, shape=shape), src)
    check(lambda xp, a: xp.ones_like(a, dtype=dt, shape=shape), src)
    check(lambda xp, a: xp.empty_like(a, dtype=dt, shape=shape).shape, src)
    check(lambda xp, a: xp.empty_like(a, dtype=dt, shape=shape).dtype, src)
    for fill in (2.7, 3, -1, np.nan):
        check(lambda xp, a: xp.full_like(a, fill, dtype=dt, shape=shape), src)


def test_like_negative_shape():
    check(lambda xp, a: xp.zeros_like(a, shape=(-1,)), A)


ARANGES = [(5,), (1, 10, 3), (0, 1, 0.1), (10, 0, -3), (5, 1), (0.5, 3), (0, 5, 0),
           (0.5, 3.7, 0.9), (-2.5, 2.5, 0.5), (0, 2 + 1j, 0.5), (0, 2 + 0j, 0.5), (np.nan,),
           (np.inf,), (0, 5, np.inf), (np.float32(0), np.float32(1), np.float32(0.25)),
           (np.int8(1), np.int8(100), np.int8(7)), (np.float32(0.1), 1, 0.1), (2,), (3,),
           (2**63 - 5, 2**63 - 1), (-1, 3), (5, 0, -1), (True, 3)]


@pytest.mark.parametrize("args", ARANGES, ids=repr)
@pytest.mark.parametrize("dt", [None, np.int64, np.uint8, np.float16, np.float32,
                                np.complex64, bool], ids=str)
def test_arange(args, dt):
    check(lambda xp: xp.arange(*args, dtype=dt))


def test_arange_keywords_and_arrays():
    check(lambda xp: xp.arange(2, step=0.5, stop=4))
    check(lambda xp: xp.arange(1, None, None))
    check(lambda xp, a: xp.arange(a), np.array(4))
    check(lambda xp, a: xp.arange(a), np.array([4]))


@pytest.mark.parametrize("args, kwargs", [
    ((), {"stop": 3}), ((), {"start": 3, "stop": 9}), ((0,), {"stop": 3}),
    ((), {"start": 4}), ((), {"step": 3}), ((), {"dtype": "int64"}), ((), {}),
    ((0,), {"start": 3}), ((0, 5, 2, float), {}), ((1, 2, 3, 4, 5), {}), ((2,), {"foo": 1}),
    ((None, 5), {}), ((2, None), {}), ((), {"start": 2.5, "stop": 7, "step": 2, "dtype": "f4"})],
    ids=repr)
def test_arange_arguments_as_numpy_parses_them(args, kwargs):
    """NumPy's C code takes ``start=`` and ``stop=`` by keyword and ``dtype`` positionally,
    though its published signature shows ``start`` positional-only."""
    check(lambda xp: xp.arange(*args, **kwargs))


LAYOUTS = {
    "C": lambda xp: xp.arange(24).reshape(2, 3, 4),
    "F": lambda xp: xp.asfortranarray(xp.arange(24).reshape(2, 3, 4)),
    "swapaxes": lambda xp: xp.arange(24).reshape(2, 3, 4).swapaxes(0, 1),
    "transpose": lambda xp: xp.arange(24).reshape(2, 3, 4).transpose(2, 0, 1),
    "sliced": lambda xp: xp.arange(48).reshape(4, 3, 4)[::2].transpose(1, 0, 2),
}
LIKES = {
    "zeros_like": lambda xp, a, **kw: xp.zeros_like(a, **kw),
    "empty_like": lambda xp, a, **kw: xp.empty_like(a, **kw),
    "full_like": lambda xp, a, **kw: xp.full_like(a, 7, **kw),
    "copy": lambda xp, a, **kw: xp.array(a, copy=True, dtype=kw.get("dtype")),
    "astype": lambda xp, a, **kw: a.astype(kw.get("dtype") or a.dtype),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("like", LIKES)
@pytest.mark.parametrize("dtype", [None, "i1", "c16"])
def test_like_and_copy_keep_the_axis_order(layout, like, dtype):
    """NumPy's 'K' results follow the order of their input's axes in memory, a permuted one
    too: the same strides, flags, and the layout of their own views and copies."""
    def body(xp):
        r = LIKES[like](xp, LAYOUTS[layout](xp), dtype=dtype)
        v = r[:, 1:]
        return (r.strides, r.flags.c_contiguous, r.flags.f_contiguous, r.flags.owndata,
                v.strides, r.copy("K").strides, r.ravel("K").flags.owndata,
                xp.ravel(r, "K").base is r)
    check(body)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
def test_astype_order(layout, order):
    def body(xp):
        r = LAYOUTS[layout](xp).astype("f4", order=order)
        return r.strides, r.flags.c_contiguous, r.flags.f_contiguous, r.copy("K").strides
    check(body)


@pytest.mark.parametrize("make", [lambda a: a.copy(), lambda a: a.copy("F"),
                                  lambda a: a[:, ::2].ravel(), lambda a: a.T.ravel(),
                                  lambda a: a.ravel()], ids=["copy", "copy F", "ravel strided",
                                                             "ravel T", "ravel"])
def test_copies_keep_a_subclass(make):
    """NumPy's ``ndarray.copy`` (and a ravel that copies) keep a subclass."""
    def body(xp):
        class Sub(xp.ndarray):
            pass
        a = xp.arange(6).reshape(2, 3).view(Sub)
        r = make(a)
        return type(r) is Sub, r.flags.owndata, r
    check(body)


@pytest.mark.parametrize("like", ["zeros_like", "empty_like", "full_like"])
@pytest.mark.parametrize("subok", [True, False])
def test_like_keeps_a_subclass(like, subok):
    def body(xp):
        class Sub(xp.ndarray):
            def __array_finalize__(self, obj):
                self.seen = type(obj).__name__

        a = xp.arange(4).reshape(2, 2).view(Sub)
        r = LIKES[like](xp, a, subok=subok)
        # (empty_like's values are whatever its memory held: NumPy's on the host tier)
        return type(r) is Sub, getattr(r, "seen", None), r.flags.owndata, (
            r.shape if like == "empty_like" else r)
    check(body)


class _RaiseOnBool:
    def __bool__(self):
        raise ValueError("no truth value")

    def __repr__(self):
        return "RaiseOnBool()"


COPY_VALUES = [True, np._CopyMode.ALWAYS, np.True_, None, np._CopyMode.IF_NEEDED, False,
               np._CopyMode.NEVER, np.False_, _RaiseOnBool(), "always"]


@pytest.mark.parametrize("copy", COPY_VALUES, ids=repr)
def test_array_copy_argument_forms(copy):
    """``copy=`` as NumPy reads it: its ``_CopyMode`` members, NumPy bools, any object's truth
    value; a scalar (a NumPy scalar, an element) cannot be made an array without a copy."""
    def same(xp, a):
        r = xp.array(a, copy=copy)
        return r is a, r.flags.owndata, r
    check(same, np.arange(4))
    check(lambda xp, a: xp.array(a, copy=copy, dtype=np.int64) is a, np.arange(4))
    check(lambda xp, a: xp.array(a, copy=copy, order="C"), np.arange(6).reshape(2, 3).T)
    check(lambda xp, a: xp.array(a[()], copy=copy), np.array(2.5))
    check(lambda xp, a: xp.array(a[1], copy=copy), np.arange(3))
    check(lambda xp: xp.array(np.datetime64(0, "s"), copy=copy))
    check(lambda xp: xp.array(1.5, copy=copy))


@pytest.mark.parametrize("dt", ["<u2", "=i8"])
def test_native_byte_order_spelled_out(dt):
    check(lambda xp, a: xp.asarray(a), np.arange(4).astype(dt))


@pytest.mark.parametrize("dt", [">f8", ">i4", ">c16"])
def test_non_native_byte_order(dt):
    """XLA holds native byte order only: such arrays are NumPy's own, on the host tier."""
    check(lambda xp, a: xp.asarray(a), np.arange(4).astype(dt))


@pytest.mark.parametrize("dt", [">f8", ">i4", ">c16"])
def test_non_native_byte_order_values(dt):
    check(lambda xp, a: xp.asarray(a).astype(np.dtype(dt).newbyteorder("=")),
          np.arange(4).astype(dt), check_inputs=False)  # the input is tnp's native copy


SPECIAL_FLOATS = np.array([-1.5, 300.7, -300.2, 3e9, -3e9, 1e19, 2e19, -1e19, np.nan, np.inf,
                           -np.inf, 70000.5, -0.0, 0.99])


@pytest.mark.parametrize("src,dt", rotated(itertools.product(
    [np.float64, np.float32, np.float16, np.complex128], ALL_DTYPES), 2), ids=str)
def test_cast_out_of_range_like_numpy(src, dt):
    # Each value on its own: NumPy's auto-vectorised float-to-uint32 loop gives another value
    # than its per-element loop for out-of-range floats, by the element's position in the array
    # (platform-defined); tnp gives the per-element one (tnp._core.numerics.casting.numpy_cast).
    vals = SPECIAL_FLOATS.astype(src)
    check(lambda xp, a: [a[i:i + 1].astype(dt) for i in range(len(a))], vals)
    check(lambda xp, a: [xp.array(a[i:i + 1], dtype=dt) for i in range(len(a))], vals)


@given(start=st.integers(-50, 50), stop=st.integers(-50, 50), step=st.integers(-7, 7),
       dt=st.sampled_from([None, np.int8, np.uint16, np.float32, np.float64]))
def test_arange_int_hypothesis(start, stop, step, dt):
    check(lambda xp: xp.arange(start, stop, step, dtype=dt))


@given(start=st.floats(-100, 100), stop=st.floats(-100, 100), step=st.floats(0.05, 10),
       dt=st.sampled_from([None, np.float32, np.float16, np.int64]))
def test_arange_float_hypothesis(start, stop, step, dt):
    # XLA fuses a[0] + i*delta into an FMA (NumPy rounds i*delta first): allow half an ulp of the
    # largest magnitude, which matters only where the sum cancels to near zero.
    big = max(abs(start), abs(stop)) + step
    atol = float(np.spacing(np.dtype(dt or float).type(big))) if dt != np.int64 else 0.0
    check(lambda xp: xp.arange(start, stop, step, dtype=dt), atol=atol)


def test_array_of_tnp_and_jax_arrays():
    check(lambda xp: xp.array([xp.asarray([1, 2]), xp.asarray([3, 4])]))
    check(lambda xp: xp.array([xp.asarray(1.5), 2]))
    check(lambda xp: xp.asarray([[xp.asarray(1, dtype=np.int8)], [2]]))
    assert tnp.array([jnp.arange(2), jnp.arange(2)]).shape == (2, 2)


@pytest.mark.parametrize("make", [
    lambda xp: xp.zeros(2**62), lambda xp: xp.full((2**31, 2**31), 1.0),
    lambda xp: xp.ones((2**40, 2**30), xp.int8), lambda xp: xp.empty_like(xp.zeros(3), shape=2**62),
    lambda xp: xp.arange(2**62 - 1), lambda xp: xp.arange(0.0, 2.0**62),
    lambda xp: xp.eye(2**32), lambda xp: xp.identity(2**32), lambda xp: xp.linspace(0, 1, 2**62),
    lambda xp: xp.logspace(0, 1, 2**62), lambda xp: xp.geomspace(1, 2, 2**62)])
def test_array_too_big(make):
    # NumPy's ValueError before any allocation (XLA would abort the process on such a shape)
    check(make)


_DEVICE_CALLS = {
    "asarray": lambda xp, d: xp.asarray([1, 2], device=d),
    "zeros": lambda xp, d: xp.zeros(2, device=d),
    "ones": lambda xp, d: xp.ones((2, 1), np.int8, device=d),
    "empty": lambda xp, d: xp.empty(0, device=d),  # (empty_like: contents undefined)
    "full": lambda xp, d: xp.full(2, 7, device=d),
    "zeros_like": lambda xp, d: xp.zeros_like(xp.ones(2), device=d),
    "ones_like": lambda xp, d: xp.ones_like(xp.ones(2), device=d),
    "empty_like": lambda xp, d: xp.empty_like(xp.ones(2), device=d).shape,
    "full_like": lambda xp, d: xp.full_like(xp.ones(2), 3, device=d),
    "arange": lambda xp, d: xp.arange(3, device=d),
    "arange float": lambda xp, d: xp.arange(0.5, 3, 0.5, device=d),
    "eye": lambda xp, d: xp.eye(2, device=d),
    "linspace": lambda xp, d: xp.linspace(0, 1, 3, retstep=True, device=d),
    "astype": lambda xp, d: xp.astype(xp.ones(2), np.int32, device=d),
    "astype no copy": lambda xp, d: xp.astype(xp.ones(2), np.float64, copy=False, device=d),
    "fftfreq": lambda xp, d: xp.fft.fftfreq(4, 0.5, d),
    "rfftfreq": lambda xp, d: xp.fft.rfftfreq(4, device=d),
    "from_dlpack": lambda xp, d: xp.from_dlpack(np.arange(3), device=d),
    "to_device": lambda xp, d: xp.ones(2).to_device(d),
    "to_device is itself": lambda xp, d: (lambda a: (a.to_device(d).__setitem__(0, 5), a)[1])(
        xp.ones(2)),
}


@pytest.mark.parametrize("device", [None, "cpu", "gpu", 0], ids=str)
@pytest.mark.parametrize("name", _DEVICE_CALLS)
def test_device_argument(name, device):
    """NumPy's one device, "cpu", is tnp's default device; anything else is NumPy's error."""
    check(lambda xp: _DEVICE_CALLS[name](xp, device))


def _returns_own_array(xp, dtype=None, copy=None):
    """An object whose ``__array__`` returns the calling library's own array (a class written
    for ``import tnp as np`` returns a tnp array, as one for NumPy returns NumPy's)."""
    class ArrayLike:
        def __array__(self, dtype=None, copy=None):
            return xp.arange(4)

    class OldArrayLike:  # no copy= keyword: NumPy's asarray does not pass one (no warning)
        def __array__(self):
            return xp.arange(4)
    return ArrayLike(), OldArrayLike()


@pytest.mark.filterwarnings("error::DeprecationWarning")
@pytest.mark.parametrize("use", [
    lambda xp, o, old: xp.asarray(o),
    lambda xp, o, old: xp.asarray(old),
    lambda xp, o, old: xp.array(o, copy=False),
    lambda xp, o, old: xp.array(o, dtype=xp.float32),
    lambda xp, o, old: xp.array([o, o]),
    lambda xp, o, old: xp.bincount(old),
    lambda xp, o, old: xp.intersect1d(o, [1, 2, 7]),
    lambda xp, o, old: xp.add(o, 1),
    lambda xp, o, old: xp.sort(old),
])
def test_array_method_returning_own_array(use):
    check(lambda xp: use(xp, *_returns_own_array(xp)))


def test_array_method_returning_own_array_written():
    def body(xp):
        o, old = _returns_own_array(xp)
        a = xp.zeros(4)
        a[...] = o
        a[:2] = xp.asarray(old)[2:]
        return a
    check(body)


@pytest.mark.skipif("ndmax" not in __import__("inspect").signature(np.array).parameters,
                    reason="a NumPy without ndmax")
@pytest.mark.parametrize("data", [[[[1], [2]], [[3], [4]]], [1, 2, 3], np.ones((2, 3))],
                         ids=["nested3", "flat", "array2d"])
@pytest.mark.parametrize("ndmax, ndmin, dtype", [(2, 0, None), (1, 2, None), (-1, 0, None),
                                                 (65, 0, None), (3, 0, None), (1, 0, object),
                                                 (2, 0, np.float32)])
def test_array_ndmax(data, ndmax, ndmin, dtype):
    check(lambda xp: xp.array(data, ndmax=ndmax, ndmin=ndmin, dtype=dtype), message=True)
    check(lambda xp, a: xp.array(a, ndmax=ndmax, ndmin=ndmin, dtype=dtype), np.asarray(data))


def test_deepcopy_of_an_object_array_copies_its_elements():
    """``copy.deepcopy`` of an object array deep-copies the elements (NumPy's), and an
    element's ``__deepcopy__`` error propagates."""
    import copy

    class Fails:
        def __deepcopy__(self, memo):
            raise RuntimeError("no copy")

    def body(xp):
        inner = [1, 2]
        a = xp.array([inner, 3, None], dtype=object)
        b = copy.deepcopy(a)
        b[0].append(9)
        return a[0], b[0], copy.deepcopy(xp.array([1, Fails()], dtype=object))
    check(body, message=True)
