"""The ndarray's Python and NumPy protocols, compared with numpy.ndarray on the same data."""
import copy
import operator
import pickle

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tnp
from engine import assert_same, check, numpy_from_dlpack
from strategies import ALL_DTYPES


def _data(dt):
    return np.arange(6).reshape(2, 3).astype(dt)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_attributes(dt):
    check(lambda xp, a: (a.shape, a.ndim, a.size, a.itemsize, a.nbytes, a.dtype, a.strides),
          _data(dt))
    check(lambda xp, a: (a.T, a.mT, a.real, a.imag), _data(dt))
    check(lambda xp, a: a.mT, np.arange(3.0))


@pytest.mark.parametrize("shape", [(), (1,), (3,), (0,), (2, 2), (1, 1)])
@pytest.mark.parametrize("fn", [bool, int, float, complex, len, operator.index, list],
                         ids=lambda f: f.__name__)
def test_python_conversions(shape, fn):
    check(lambda xp, a: fn(a), np.ones(shape, np.int64))
    check(lambda xp, a: fn(a), np.full(shape, 2.5))


@pytest.mark.parametrize("spec", ["", ".3f", "8.2e", ">10"])
def test_format(spec):
    check(lambda xp, a: format(a, spec), np.array(3.14159))
    if spec == "":
        check(lambda xp, a: format(a, spec), np.arange(3.0))


def test_iteration_and_unhashable():
    check(lambda xp, a: [r for r in a], np.arange(6.0).reshape(3, 2))
    check(lambda xp, a: hash(a), np.arange(3))


def test_array_protocol_to_numpy():
    t = tnp.arange(4.0)
    for kwargs in ({}, {"dtype": np.float32}, {"copy": True}):
        assert_same(np.asarray(t, **kwargs), np.asarray(np.arange(4.0), **kwargs),
                    host_ok=True)  # NumPy's conversion of a tnp array: a host array
    h = np.asarray(t)
    h[0] = 99.0  # a host copy: writing it does not touch the device array
    assert_same(t, np.arange(4.0))
    with pytest.raises(ValueError):
        np.array(t, copy=False)


@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.sub, operator.lt,
                                operator.truediv, operator.eq])
def test_mixed_with_numpy_arrays_both_orders(op):
    n = np.arange(1.0, 4.0)
    t = tnp.asarray(n)
    for res, exp in ((op(t, n), op(n, n)), (op(n, t), op(n, n))):
        assert isinstance(res, tnp.ndarray)
        assert_same(res, exp)


def test_numpy_ufuncs_and_functions_stay_on_device(placement):
    # NumPy's functions on a tnp array give tnp arrays; a reduction of a host-tier array gives
    # NumPy's scalar, as NumPy does (a device array's: a 0-d tnp array, README's scalars)
    t = tnp.arange(6.0).reshape(2, 3)
    n = np.arange(6.0).reshape(2, 3)
    for res, exp in ((np.sin(t), np.sin(n)), (np.add(t, 1), np.add(n, 1)),
                     (np.sum(t), np.sum(n)), (np.transpose(t), np.transpose(n)),
                     (np.reshape(t, (3, 2)), np.reshape(n, (3, 2)))):
        if placement == "auto" and not isinstance(exp, np.ndarray):
            assert type(res) is type(exp) and res == exp
            continue
        assert isinstance(res, tnp.ndarray)
        assert_same(res, exp)
    out = tnp.zeros((2, 3))
    assert np.multiply(t, 2, out=out) is out
    assert_same(out, n * 2)


def test_numpy_ufunc_without_a_tnp_one_writes_tnp_arrays():
    # a ufunc tnp does not implement runs in NumPy: its out= and .at write the tnp arrays
    from numpy._core import _umath_tests as umt
    t, n = tnp.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)
    out = tnp.empty((2, 3))
    assert umt.cumsum(t, out=out, axis=0) is out
    assert_same(out, np.cumsum(n, axis=0))
    i = tnp.ones(5, dtype=np.int32)
    j = np.ones(5, dtype=np.int32)
    umt.indexed_negative.at(i, tnp.arange(5))
    umt.indexed_negative.at(j, np.arange(5))
    assert_same(i, j)


def test_jax_interop_zero_copy():
    j = jnp.arange(4.0)
    t = tnp.asarray(j)
    assert t.data is j
    assert jnp.asarray(t.data) is j
    assert_same(tnp.asarray(jnp.asarray(t)), np.arange(4.0))
    assert t.__jax_array__() is j


def test_pytree_transforms():
    t = tnp.arange(3.0)
    out = jax.jit(lambda x: x * 2)(t)
    assert isinstance(out, tnp.ndarray)
    assert_same(out, np.arange(3.0) * 2)
    g = jax.grad(lambda x: (x * x).sum().data)(t)
    assert isinstance(g, tnp.ndarray)
    assert_same(g, 2 * np.arange(3.0))
    v = jax.vmap(lambda r: r + 1)(tnp.ones((2, 3)))
    assert_same(v, np.ones((2, 3)) + 1)
    leaves = jax.tree_util.tree_leaves({"w": t})
    assert len(leaves) == 1 and isinstance(leaves[0], jax.Array)


def test_pickle_copy_dlpack(placement):
    t = tnp.arange(5, dtype=np.int16)
    for c in (pickle.loads(pickle.dumps(t)), copy.copy(t), copy.deepcopy(t), t.copy()):
        assert isinstance(c, tnp.ndarray)
        assert_same(c, np.arange(5, dtype=np.int16))
    c = t.copy()
    c[0] = 7
    assert_same(t, np.arange(5, dtype=np.int16))
    assert_same(numpy_from_dlpack(t), np.arange(5, dtype=np.int16), host_ok=True)
    if placement == "auto" or t.device.platform == "cpu":  # (a host-tier array's is "cpu")
        assert t.__dlpack_device__() == np.arange(1).__dlpack_device__()
    else:  # the buffer's own device, so GPU consumers (torch, cupy) import it without a copy
        assert t.__dlpack_device__()[0] != np.arange(1).__dlpack_device__()[0]


def test_device_and_array_namespace(placement):
    t = tnp.zeros(2)
    # a device array's device is JAX's; a host-tier array's NumPy's ("cpu")
    assert t.device == (np.zeros(2).device if placement == "auto" else jax.devices()[0])
    assert t.__array_namespace__() is tnp


def test_methods_match_free_functions():
    check(lambda xp, a: (a.reshape(3, 2), a.reshape((6,)), a.transpose(), a.transpose(1, 0),
                         a.swapaxes(0, 1), a.ravel(), a.flatten(), a.squeeze(),
                         a.astype(np.float32), a.copy(), a.tolist(), a.item(3),
                         a.conj()), np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_byteswap(dt):
    base = (np.arange(12) * 37 - 50).reshape(3, 4).astype(dt)
    if np.dtype(dt).kind == "c":
        base = base + 1j * base[::-1]

    def inplace_view(xp, a):
        v = a[1:, ::2]
        return v.byteswap(inplace=True), v.byteswap()

    check(lambda xp, a: a.byteswap(), base)
    check(lambda xp, a: (a.byteswap(True), a[0, 1].byteswap()), base)
    check(inplace_view, base)


def test_byteswap_read_only():
    def body(xp, a):
        a.setflags(write=False)
        return a.byteswap(inplace=True)
    check(body, np.arange(4, dtype=np.int32))


@pytest.mark.parametrize("ndigits", [None, 0, 2])
def test_round_of_a_scalar_result(ndigits):
    """``round()`` takes what NumPy returns as a scalar, and refuses an array as NumPy does."""
    a = np.array([1.2345, 2.5, 7.125])
    assert repr(round(tnp.asarray(a).mean(), ndigits)) == repr(round(a.mean(), ndigits))
    check(lambda xp, x: round(x, ndigits), a[:1].reshape(()))


@pytest.mark.parametrize("use", [
    lambda xp, a: a.clip(3),
    lambda xp, a: a.clip(min=3),
    lambda xp, a: a.clip(max=4.5),
    lambda xp, a: a.clip(2, 5),
    lambda xp, a: a.clip(),
    lambda xp, a: (a % 3).choose(a, a * 2, -a),
    lambda xp, a: (a % 2).choose([a, -a]),
    lambda xp, a: (a % 2).choose([a, -a], mode="wrap"),
], ids=["min", "min_kw", "max_kw", "both", "none", "choose_args", "choose_seq", "choose_mode"])
def test_clip_choose_methods(use):
    # the methods' own signatures: a.clip(3) (the function needs both), a.choose(*choices)
    check(use, np.arange(8))


def test_sizeof():
    # NumPy's __sizeof__: object + 16 per dimension + the bytes an owner holds
    import sys

    def body(xp):
        d = xp.ones(100)
        sizes = (sys.getsizeof(d[...]) < sys.getsizeof(d),
                 sys.getsizeof(d) < sys.getsizeof(d.reshape(100, 1, 1).copy()),
                 sys.getsizeof(d) > 800, sys.getsizeof(xp.arange(10)) > 80)
        return sizes
    check(body)


def test_choose_boolean_index():
    check(lambda xp, c: xp.choose(c, (xp.array([True, True]), 1)), np.array([True, False]))
    check(lambda xp, c: c.choose([7, 8], mode="wrap"), np.array([True, False]))


@pytest.mark.parametrize("args, kw", [(("hi",), {}), ((-1,), {}), ((4,), {"refcheck": "hi"}),
                                      ((4,), {"refcheck": 0}), ((2, 2), {"refcheck": False})],
                         ids=str)
def test_resize_argument_errors(args, kw):
    def body(xp):
        a = xp.eye(3)
        a.resize(*args, **kw)
        return a
    check(body)


@pytest.mark.parametrize("shape, args", [((1,), ((),)), ((1,), ([],)), ((), ((1,),)),
                                         ((2,), ()), ((2,), (None,)), ((3,), ((),))], ids=str)
def test_resize_to_and_from_0d(shape, args):
    """``resize(())`` makes a 0-d array; ``resize()`` and ``resize(None)`` change nothing."""
    def body(xp):
        a = xp.ones(shape)
        a.resize(*args, refcheck=False)
        return a, a.shape, a.size
    check(body)


@pytest.mark.parametrize("dt", ["?", "b", "h", "I", "f4", "d", "F", "D"])
def test_conj_of_a_real_array_is_itself(dt):
    """NumPy's ``conj``/``conjugate`` methods return a real array itself, copy it into an
    ``out`` given, and take the ufunc for complex arrays."""
    def body(xp, a):
        o = xp.zeros(3, dt)
        return a.conj() is a, a.conjugate() is a, a.conj(o) is o, o, a.conjugate()
    check(body, np.array([1, 0, 2], dt))
    check(lambda xp, a: a.conj(), np.array(["a"]))
    check(lambda xp, a: (a.conj(), a.conjugate()), np.array([1 - 1j, 1, 2.0], object))


@pytest.mark.parametrize("v", [4.0, 20.0, 4, np.float32(4.5), [0, 1, 2, 3], [4, 5], "x"],
                         ids=repr)
def test_contains(v):
    check(lambda xp, a: v in a, np.arange(16.0).reshape(4, 4))


@pytest.mark.parametrize("name", ["ndim", "size", "itemsize", "nbytes", "base", "flags", "T",
                                  "mT", "device"])
def test_read_only_attributes_refuse_assignment(name):
    # NumPy's AttributeError and message (its class's name aside)
    def refused(xp):
        a = xp.arange(6.0).reshape(2, 3)
        with pytest.raises(AttributeError) as e:
            setattr(a, name, getattr(a, name))
        return str(e.value).replace("numpy.ndarray", "ndarray")
    assert refused(tnp) == refused(np)


def test_to_device_stream_and_array_signature():
    import inspect
    for xp in (np, tnp):
        a = xp.arange(5)
        assert a.to_device("cpu").shape == (5,)
        with pytest.raises(ValueError, match=r"stream argument in to_device\(\) is not"):
            a.to_device("cpu", stream=1)
    kinds = [[p.kind for p in inspect.signature(xp.ndarray.__array__).parameters.values()]
             for xp in (np, tnp)]
    assert kinds[0] == kinds[1]


@pytest.mark.parametrize("make, shape", [
    (lambda xp: xp.zeros((10, 0), int)[...], (0, 10)),  # a view, same size: in place
    (lambda xp: xp.arange(12).reshape(3, 4)[:, ::2], (2, 3)),  # not one segment: refused
    (lambda xp: xp.arange(12).reshape(3, 4).T, (4, 3)),
    (lambda xp: xp.arange(6)[1:4], (3, 1)),
    (lambda xp: xp.arange(6)[1:4], (4,)),  # another size: a view does not own its data
], ids=["empty-view", "strided", "transposed", "slice", "slice-grows"])
def test_resize_of_views(make, shape):
    def body(xp):
        v = make(xp)
        v.resize(shape, refcheck=False)
        return v
    check(body)


@pytest.mark.parametrize("name", ["__array__", "__array_function__", "__array_ufunc__",
                                  "__array_wrap__", "__array_finalize__", "__complex__",
                                  "__copy__", "__deepcopy__", "__reduce__"])
def test_protocol_method_signatures(name):
    # NumPy's parameter kinds (self positional-only, as NumPy's own test_array_method_signatures)
    import inspect

    def kinds(xp):
        return [(p.name if i else "self", p.kind) for i, p in enumerate(
            inspect.signature(getattr(xp.ndarray, name)).parameters.values())]
    assert [k for _, k in kinds(tnp)] == [k for _, k in kinds(np)]


@pytest.mark.parametrize("dt", ["O", "u4,O", "u4,f4", "U3"])
@pytest.mark.parametrize("shape", [(5,), (2, 4), (1,)])
def test_resize_of_host_only_dtypes(dt, shape):
    # NumPy's resize of object, structured and string arrays (the host tier's: zeros, None in
    # objects, in the new elements)
    def body(xp):
        a = xp.zeros(3, dt)
        a.resize(shape, refcheck=False)
        return a
    check(body)
