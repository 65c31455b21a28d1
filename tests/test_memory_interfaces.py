"""The memory interfaces (README's diff-memory): ``__array_interface__``, ``ctypes`` and the buffer
protocol of a host-tier array are NumPy's for the memory tnp holds; a device-tier array has none
(an AttributeError, so NumPy converts it through ``__array__``). NumPy is the oracle: every
address is compared as an offset, computed by NumPy on the same program."""
import ctypes
import sys

import jax
import numpy as np
import pytest

import tnp
import tnp_ext

NEEDS_PEP688 = pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="a Python class exports a buffer only from Python 3.12 (PEP 688's __buffer__)")


def views(xp):
    """The view-offset exercise's arrays, and more views of the same root."""
    Z = xp.arange(9).reshape(3, 3)
    return Z, [Z, Z[::2, ::2], Z[1:, 1:], Z.T, Z[::-1], Z[2], Z.reshape(9)[3:7:2]]


def address(a):
    return a.__array_interface__["data"][0]


def root_of(a):
    """The array owning ``a``'s memory: tnp's ``a.base`` is the root; NumPy's chain of bases
    ends at it."""
    while a.base is not None:
        a = a.base
    return a


@pytest.mark.parametrize("i", range(7))
def test_array_interface_is_numpys(i):
    """Offset in the root's memory, shape, strides, typestr, descr: as NumPy says."""
    (_, ours), (_, theirs) = views(tnp), views(np)
    a, e = ours[i], theirs[i]
    assert a._on_host
    got, want = dict(a.__array_interface__), dict(e.__array_interface__)
    assert address(a) - address(root_of(a)) == address(e) - address(root_of(e))
    assert got.pop("data")[1] is True  # read-only: only tnp's write path writes (diff-memory)
    want.pop("data")
    assert got == want


def test_view_offset_exercise():
    """``Z = np.arange(9).reshape(3,3); V = Z[::2, ::2]``: NumPy's offset of V in Z."""
    Z = tnp.arange(9).reshape(3, 3)
    V = Z[::2, ::2]
    z = np.arange(9).reshape(3, 3)
    v = z[::2, ::2]
    assert address(V) - address(V.base) == address(v) - address(v.base)
    assert address(Z[1:, 1:]) - address(Z) == address(z[1:, 1:]) - address(z)


@pytest.mark.parametrize("i", range(7))
def test_ctypes_is_numpys(i):
    (_, ours), (_, theirs) = views(tnp), views(np)
    a, e = ours[i], theirs[i]
    c, d = a.ctypes, e.ctypes
    assert c.data - root_of(a).ctypes.data == d.data - root_of(e).ctypes.data
    assert list(c.shape) == list(d.shape) and list(c.strides) == list(d.strides)
    assert c.data == address(a)


def test_data_as_reads_the_memory():
    a, e = tnp.arange(6.0).reshape(2, 3)[:, 1], np.arange(6.0).reshape(2, 3)[:, 1]
    p, q = a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), e.ctypes.data_as(
        ctypes.POINTER(ctypes.c_double))
    step = a.strides[0] // a.itemsize
    assert [p[k * step] for k in range(a.size)] == [q[k * step] for k in range(e.size)]


@pytest.mark.parametrize("make", [lambda xp: xp.arange(6.0).reshape(2, 3),
                                  lambda xp: xp.zeros((0, 0)), lambda xp: xp.array(3)])
def test_data_as_pointer_holds_the_array(make):
    # NumPy's gh-9647: a pointer from ctypes.data_as keeps its array alive, and only it
    import gc
    import weakref

    def lives(xp):
        a = make(xp).copy()
        ref = weakref.ref(a)
        c = a.ctypes
        ptr = c.data_as(ctypes.c_void_p)
        shapes = (list(c.shape_as(ctypes.c_long) or []), list(c.strides_as(ctypes.c_long) or []))
        del a, c
        gc.collect()
        held = ref() is not None
        del ptr
        return held, ref() is None, shapes
    assert lives(tnp) == lives(np)


def test_numpy_converts_through_the_interface():
    """``numpy.asarray`` of a host array is NumPy's array of the same memory, as NumPy's asarray
    of a NumPy array: it sees tnp's later writes; it is read-only (only tnp's write path writes
    a host array: README's diff-memory)."""
    a, e = tnp.arange(6.0), np.arange(6.0)
    x, y = np.asarray(a[1:4]), np.asarray(e[1:4])
    assert address(x) == address(a[1:4])
    a[2] = e[2] = -1.0
    np.testing.assert_array_equal(x, y)
    assert not x.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 5.0


def test_interface_is_read_only():
    """The memory is exported read-only, whatever the array's flag: only tnp's write path
    writes it (README's diff-memory)."""
    a = tnp.arange(4.0)
    assert a.flags.writeable and a.__array_interface__["data"][1] is True
    assert a[1:].__array_interface__["data"][1] is True
    b = tnp.broadcast_to(tnp.arange(3), (2, 3))
    assert b.__array_interface__["data"][1] is True


def test_address_outlives_a_move_to_the_device():
    """Memory whose address was handed out lives as long as the array, even after the root's
    buffer is replaced (a traced write moves a host root to the device)."""
    a = tnp.arange(4.0)
    x = np.asarray(a)

    @tnp_ext.jit
    def bump(a):
        a += 1

    bump(a)
    assert not a._on_host
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]  # the old memory, not freed
    with pytest.raises(AttributeError, match="device-tier"):
        a.__array_interface__


def test_device_tier_has_no_memory(device_placement):
    """A device array's buffer is XLA's: no address (so nothing can write it behind tnp's back),
    the same for a view and its base; NumPy's conversion is ``__array__``'s copy."""
    Z = tnp.arange(9.0).reshape(3, 3)
    assert not Z._on_host
    for a in (Z.base, Z, Z[::2, ::2]):
        for name in ("__array_interface__", "ctypes"):
            with pytest.raises(AttributeError, match="device-tier tnp array has no NumPy memory"):
                getattr(a, name)
            assert not hasattr(a, name)
    x = np.asarray(Z[::2, ::2])
    np.testing.assert_array_equal(x, np.arange(9.0).reshape(3, 3)[::2, ::2])
    x[0, 0] = 5.0
    assert float(Z[0, 0]) == 0.0  # a copy
    assert hasattr(tnp.ndarray, "ctypes") and hasattr(tnp.ndarray, "__array_interface__")


def test_traced_array_has_no_address(device_placement):
    @jax.jit
    def f(x):
        with pytest.raises(tnp.TnpTracingError, match="traced"):
            (x * 2).__array_interface__
        with pytest.raises(tnp.TnpTracingError, match="traced"):
            x.ctypes
        return x

    f(tnp.arange(3.0))


@NEEDS_PEP688
def test_buffer_protocol_is_numpys():
    (_, ours), (_, theirs) = views(tnp), views(np)
    for a, e in zip(ours, theirs):
        m, n = memoryview(a), memoryview(e)
        assert (m.format, m.shape, m.strides) == (n.format, n.shape, n.strides)
        assert m.readonly  # only tnp's write path writes a host array
        assert bytes(m) == bytes(n)
    np.testing.assert_array_equal(np.frombuffer(tnp.arange(4.0), np.float64),
                                  np.frombuffer(np.arange(4.0), np.float64))


@NEEDS_PEP688
def test_buffer_protocol_read_only_and_device(device_placement):
    r = tnp.array([1.0, 2.0])
    with pytest.raises(BufferError, match="device-tier"):
        memoryview(r)
    with tnp_ext.placement("auto"):
        h = tnp.array([1.0, 2.0])
    h.flags.writeable = False
    assert memoryview(h).readonly


@NEEDS_PEP688
@pytest.mark.parametrize("request_", ["SIMPLE", "STRIDES", "C_CONTIGUOUS", "F_CONTIGUOUS",
                                      "ANY_CONTIGUOUS", "FULL_RO", "FULL"])
@pytest.mark.parametrize("index", [(), (slice(None), slice(None, None, 2)), (Ellipsis,)],
                         ids=["c", "strided", "t"])
def test_buffer_request_errors_are_numpys(request_, index):
    """A request the memory cannot meet: NumPy's ValueError and message (a writable request
    included: tnp exports read-only, as NumPy does a read-only array)."""
    import inspect
    flags = inspect.BufferFlags[request_]
    e = np.arange(12.0).reshape(3, 4)
    e.flags.writeable = False
    e = e[index] if index != (Ellipsis,) else e.T
    a = tnp.arange(12.0).reshape(3, 4)
    a = a[index] if index != (Ellipsis,) else a.T
    outcomes = []
    for x in (a, e):
        try:
            m = x.__buffer__(flags)  # (the C-level request then narrows the view: SIMPLE's
            outcomes.append((m.readonly, bytes(m)))  # shape is its consumer's to drop)
        except ValueError as err:
            outcomes.append(str(err))
    assert outcomes[0] == outcomes[1]


@NEEDS_PEP688
def test_numpy_conversion_of_structured_keeps_dtype():
    """NumPy converts through the buffer first: a structured dtype whose buffer format it cannot
    read back (an object field after padding, fields with gaps) is converted with its dtype."""
    for dt in [np.dtype([("num", "i4"), ("obj", "O")], align=True),
               np.dtype({"names": ["A", "B"], "formats": ["<f4", "<f4"], "offsets": [0, 8],
                         "itemsize": 16}),
               np.dtype([("a", "i1"), ("b", "<i4")], align=True), np.dtype("V4")]:
        e = np.zeros(3, dt)
        a = tnp.zeros(3, dt)
        assert np.asarray(a).dtype == e.dtype
        np.testing.assert_array_equal(np.asarray(a), e)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12+ has PEP 688's __buffer__")
def test_no_buffer_protocol_before_python_312():
    """Python 3.11 gives a Python class no way to export a buffer: NumPy's TypeError."""
    with pytest.raises(TypeError, match="bytes-like object is required"):
        memoryview(tnp.arange(3.0))


@pytest.mark.parametrize("dt", [np.dtype({"names": [""], "formats": ["V4"]}),
                                np.dtype([("x", "i4"), ("y", "f8")]), np.dtype(">f4")],
                         ids=str)
def test_numpy_conversion_keeps_the_dtype(dt):
    """``numpy.asarray`` keeps a dtype the interface cannot spell (an unnamed field reads back
    as plain void): such an array offers no interface, and NumPy converts through
    ``__array__``."""
    a, e = tnp.zeros(3, dtype=dt), np.zeros(3, dtype=dt)
    assert np.asarray(a).dtype == np.asarray(e).dtype
