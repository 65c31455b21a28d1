"""The Array API surface NumPy 2 has and the public array-api-tests suite exercises:
``__array_namespace_info__``, ``result_type``/``can_cast`` with NumPy scalar types, DLPack
export (``__dlpack__``'s ``stream``/``max_version``/``dl_device``/``copy``), ``vecdot``'s (and
the other gufuncs') ``axis``/``axes``/``keepdims``, ``repeat`` with an array of repeats and
0-d integer arrays as slice bounds. Every value is compared with NumPy's on the same inputs.
"""
import inspect

import jax
import numpy as np
import pytest

import tnp
from engine import assert_same, check

INFO_METHODS = ["capabilities", "default_device", "default_dtypes", "devices", "dtypes"]
KINDS = [None, "bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric", ("integral", "real floating"), "foo"]


# ---- __array_namespace_info__ ------------------------------------------------------------------

def test_info_structure():
    info, ninfo = tnp.__array_namespace_info__(), np.__array_namespace_info__()
    assert tnp.__array_api_version__ == np.__array_api_version__
    for m in INFO_METHODS:
        assert inspect.signature(getattr(info, m)) == inspect.signature(getattr(ninfo, m)), m
    assert info.capabilities() == ninfo.capabilities()
    assert_same(info.default_dtypes(), ninfo.default_dtypes())
    assert_same(info.dtypes(), ninfo.dtypes())


def test_info_devices_are_jax_devices(placement):
    """NumPy's one device is "cpu"; tnp's are JAX's (``default_device`` is where device arrays
    go; a host-tier array's device is NumPy's)."""
    info = tnp.__array_namespace_info__()
    assert info.devices() == jax.devices()
    assert info.default_device() in info.devices()
    assert tnp.zeros(2, device=info.devices()[-1]).device == info.devices()[-1]
    if placement == "auto":  # a small array is NumPy's own, on the host
        assert tnp.arange(3).device == np.arange(3).device
    else:
        assert tnp.arange(3).device == info.default_device()


@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_info_dtypes_kinds(kind):
    check(lambda xp: xp.__array_namespace_info__().dtypes(kind=kind))


@pytest.mark.parametrize("device", [None, "cpu", "gpu", 0])
def test_info_device_argument(device):
    check(lambda xp: xp.__array_namespace_info__().dtypes(device=device))
    check(lambda xp: xp.__array_namespace_info__().default_dtypes(device=device))


def test_info_default_device_argument():
    info = tnp.__array_namespace_info__()
    d = info.default_device()
    assert_same(info.dtypes(device=d), np.__array_namespace_info__().dtypes())
    assert_same(info.default_dtypes(device=d), np.__array_namespace_info__().default_dtypes())


def test_namespace_of_an_array():
    info = tnp.arange(3).__array_namespace__().__array_namespace_info__()
    assert info.capabilities() == np.__array_namespace_info__().capabilities()


# ---- result_type / can_cast with NumPy scalar types ------------------------------------------

SCALAR_TYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int64, np.uint64, np.float16,
                np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("to", SCALAR_TYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize("frm", SCALAR_TYPES, ids=lambda t: t.__name__)
def test_can_cast_scalar_types(frm, to):
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        check(lambda xp: xp.can_cast(frm, to, casting))
    check(lambda xp: xp.can_cast(frm, np.dtype(to)))
    check(lambda xp, a: xp.can_cast(a, to), np.zeros(2, frm))


@pytest.mark.parametrize("b", SCALAR_TYPES, ids=lambda t: t.__name__)
@pytest.mark.parametrize("a", SCALAR_TYPES, ids=lambda t: t.__name__)
def test_result_type_scalar_types(a, b):
    check(lambda xp: xp.result_type(a, b))
    check(lambda xp, x: xp.result_type(x, b), np.zeros(2, a))
    check(lambda xp: xp.result_type(a, np.dtype(b), 1.5))


def test_dtype_routines_bad_input():
    check(lambda xp: xp.can_cast(np.float64, "not a dtype"))
    check(lambda xp: xp.result_type(np.float64, "not a dtype"))
    check(lambda xp: xp.can_cast(np.float64, np.int8, "sometimes"))


# ---- DLPack ------------------------------------------------------------------------------------

DLPACK_DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64"]


def test_dlpack_signature():
    assert inspect.signature(tnp.ndarray.__dlpack__).parameters.keys() == \
        inspect.signature(np.ndarray.__dlpack__).parameters.keys()
    for p in ("stream", "max_version", "dl_device", "copy"):
        assert inspect.signature(tnp.ndarray.__dlpack__).parameters[p].kind == \
            inspect.Parameter.KEYWORD_ONLY


def _capsule_name(c):
    return repr(c).split('"')[1]


@pytest.mark.parametrize("max_version", [None, (0, 0), (0, 8), (1, 0), (1, 1), (2, 0)])
@pytest.mark.parametrize("dt", DLPACK_DTYPES)
def test_dlpack_max_version(dt, max_version):
    """The capsule a consumer asking for ``max_version`` gets is NumPy's kind (unversioned
    below 1.0, versioned from 1.0 on, on the CPU), and ``np.from_dlpack`` reads NumPy's values."""
    n = np.arange(6).astype(dt).reshape(2, 3)
    t = tnp.asarray(n)
    if jax.default_backend() == "cpu":
        assert _capsule_name(t.__dlpack__(max_version=max_version)) == \
            _capsule_name(n.__dlpack__(max_version=max_version))
    else:
        t.__dlpack__(max_version=max_version)  # the accelerator's capsule: it must be made
    if jax.default_backend() == "cpu":
        assert_same(tnp.asarray(np.from_dlpack(t)), np.from_dlpack(n))
        assert_same(tnp.asarray(np.from_dlpack(t[:, ::2])), np.from_dlpack(n[:, ::2]))
        assert_same(tnp.asarray(np.from_dlpack(t, copy=True)), np.from_dlpack(n, copy=True))


@pytest.mark.parametrize("dt", DLPACK_DTYPES)
def test_dlpack_round_trip(dt):
    n = np.arange(6).astype(dt)
    t = tnp.asarray(n)
    assert_same(tnp.from_dlpack(t), n)
    assert_same(tnp.from_dlpack(t, copy=True), n)
    assert_same(tnp.asarray(jax.dlpack.from_dlpack(t)), n)
    assert t.__dlpack_device__() == tuple(t.data.__dlpack_device__())


def test_dlpack_keywords():
    """``stream=None``, ``dl_device`` of the array's own device and ``copy`` are accepted, as
    NumPy's ``__dlpack__`` accepts them; on the CPU another stream is NumPy's RuntimeError and
    an unknown device NumPy's BufferError."""
    n, t = np.arange(4.0), tnp.arange(4.0)
    own = t.__dlpack_device__()
    for kw in (dict(stream=None), dict(dl_device=own), dict(copy=True), dict(copy=False),
               dict(max_version=(1, 0), dl_device=own, copy=True)):
        t.__dlpack__(**kw)
        if jax.default_backend() == "cpu":
            assert _capsule_name(t.__dlpack__(**kw)) == _capsule_name(n.__dlpack__(**kw))
    if jax.default_backend() == "cpu":
        # tnp's message names tnp (NumPy's says "NumPy only supports stream=None.")
        check(lambda xp, a: a.__dlpack__(stream=1), n, message=False)
        check(lambda xp, a: a.__dlpack__(dl_device=(2, 0)), n, message=False)
        check(lambda xp, a: a.__dlpack__(max_version=(1, 0), dl_device=(2, 0)), n,
              message=False)


def test_dlpack_export_reads_the_value_at_export(placement):
    """On the device a later tnp write replaces the buffer: the consumer keeps the exported
    value. A host-tier array exports its NumPy memory, as NumPy does: later writes show."""
    def program(xp):
        t = xp.arange(4.0)
        v = np.from_dlpack(t)
        t[0] = 100.0
        t *= 2
        return v.copy()
    if placement == "auto":
        np.testing.assert_array_equal(program(tnp), program(np))
    else:
        assert_same(tnp.asarray(program(tnp)), np.arange(4.0))


# ---- vecdot(axis=), gufunc axes ----------------------------------------------------------------

A23 = np.arange(6.0).reshape(2, 3) - 2.5
B23 = np.arange(6.0).reshape(2, 3)[::-1] + 0.5
A234 = np.arange(24.0).reshape(2, 3, 4) / 7
B432 = np.arange(24.0).reshape(4, 3, 2) - 11

VECDOT_KW = [dict(axis=0), dict(axis=1), dict(axis=-1), dict(axis=-2), dict(axis=0, keepdims=True),
             dict(axis=-1, keepdims=True), dict(keepdims=True), dict(axes=[0, 0, ()]),
             dict(axes=[(1,), (1,)]), dict(axes=[0, 1]), dict(axis=2), dict(axis=-3),
             dict(axes=[(0, 1), 0]), dict(axis=0, axes=[0, 0]), dict(axes=[0]),
             dict(axis=1.5)]


@pytest.mark.parametrize("kw", VECDOT_KW, ids=repr)
@pytest.mark.parametrize("dt", ["float64", "float32", "int32", "complex128", "bool"])
def test_vecdot_axis(dt, kw):
    a, b = A23.astype(dt), B23.astype(dt)
    if dt.startswith("complex"):
        a = a + 1j * b
    check(lambda xp, x, y: xp.vecdot(x, y, **kw), a, b)


def test_vecdot_axis_broadcasting():
    a, b = A234, np.arange(3.0)
    check(lambda xp, x, y: xp.vecdot(x, y, axis=1), a, b[:, None])
    check(lambda xp, x, y: xp.vecdot(x, y, axes=[1, 0]), a, b)
    check(lambda xp, x, y: xp.vecdot(x, y, axis=0), A23, np.arange(2.0)[:, None])


def test_vecdot_axis_out():
    out = np.zeros(3)
    check(lambda xp, x, y, o: xp.vecdot(x, y, axis=0, out=o), A23, B23, out)
    check(lambda xp, x, y, o: xp.vecdot(x, y, axis=0, keepdims=True, out=o), A23, B23,
          np.zeros((1, 3)))
    check(lambda xp, x, y, o: xp.vecdot(x, y, axis=0, out=o), A23, B23, np.zeros(2))


GUFUNC_CASES = [
    ("matmul", A234, B432, dict(axes=[(0, 1), (1, 2), (0, 2)])),
    ("matmul", A234, B432, dict(axes=[(1, 2), (0, 1), (2, 0)])),
    ("matmul", A234, np.ones(3), dict(axes=[(2, 1), 0, 0])),
    ("matmul", A23, B23, dict(axis=0)),
    ("matmul", A23, B23, dict(keepdims=True)),
    ("matmul", A234, B432, dict(axes=[(0, 1), (1, 2)])),
    ("matvec", A234, np.ones(3), dict(axes=[(2, 1), 0, 0])),
    ("vecmat", np.ones(3), A234, dict(axes=[0, (1, 2), 1])),
]


@pytest.mark.parametrize("name,a,b,kw", GUFUNC_CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in GUFUNC_CASES])
def test_gufunc_axes(name, a, b, kw):
    check(lambda xp, x, y: getattr(xp, name)(x, y, **kw), a, b)


A333 = np.arange(27.0).reshape(3, 3, 3)


@pytest.mark.parametrize("axes", [[0, 2], [0, 2, 2], [0, 0, 0], [0, 0], [1, 1], [0, 2, 0],
                                  [(-1,), (-1,), (-1,)]], ids=str)
def test_vecdot_axes_keepdims(axes):
    # with keepdims and no output entry in axes, the kept axis is the output's last
    check(lambda xp, x, y: xp.vecdot(x, y, axes=axes, keepdims=True), A333, A333 + 1)
    check(lambda xp, x, y, o: (xp.vecdot(x, y, axes=axes, keepdims=True, out=o), o),
          A333, A333 + 1, np.zeros((3, 3, 1)))


def test_linalg_vecdot_axis():
    check(lambda xp, x, y: xp.linalg.vecdot(x, y, axis=0), A23, B23)


# ---- repeat with an array of repeats, 0-d arrays as slice bounds -------------------------------

REPEAT_CASES = [
    (np.arange(6).reshape(2, 3), np.array([1, 2]), 0),
    (np.arange(6).reshape(2, 3), np.array([1, 0, 2], np.uint8), 1),
    (np.arange(6).reshape(2, 3), np.array([3]), None),
    (np.arange(6).reshape(2, 3), np.array([3]), 1),
    (np.arange(6.0).reshape(2, 3), np.array(2), 1),
    (np.array(5.0), np.array([2]), None),
    (np.arange(3, dtype=np.int8), np.array([1, 2, 3], np.int16), 0),
    (np.zeros((0, 2)), np.array([], np.int64), 0),
    (np.arange(4), np.array([1, 2, 0, 4]), None),
    (np.arange(4), np.array([1, 2]), None),
    (np.arange(4), np.array([1, -2, 0, 1]), None),
    (np.arange(4), np.array([1, 2, 0, 4], np.uint64), None),
    (np.arange(4), np.array([1.0, 2.0, 0.0, 4.0]), None),
]


@pytest.mark.parametrize("x,r,axis", REPEAT_CASES, ids=[str(i) for i in range(len(REPEAT_CASES))])
def test_repeat_array_of_repeats(x, r, axis):
    check(lambda xp, a, reps: xp.repeat(a, reps, axis=axis), x, r)
    check(lambda xp, a, reps: a.repeat(reps, axis=axis), x, r)


def test_repeat_jax_array_of_repeats():
    x, r = np.arange(6).reshape(2, 3), np.array([2, 0, 1])
    assert_same(tnp.repeat(tnp.asarray(x), jax.numpy.asarray(r), axis=1), np.repeat(x, r, 1))


BOUNDS = [np.array(1), np.array(3), np.int8(2), np.array(-2, np.int16), np.array(7, np.uint8),
          np.array(1.0),
          np.array([1]), True, np.True_]


@pytest.mark.parametrize("bound", BOUNDS, ids=repr)
def test_zero_d_array_slice_bounds(bound):
    """NumPy takes any object with ``__index__`` (a 0-d integer array) as a slice bound."""
    x = np.arange(10)

    def body(xp, a, b):
        return a[b:], a[:b], a[::b] if not isinstance(b, (bool, np.bool_)) else a[b:b],\
            a[1:8][b:]
    check(body, x, bound)
    check(lambda xp, a, b: a.reshape(2, 5)[[1, 0], b:], x, bound)


def test_repeat_array_api_style():
    """array-api-tests' test_repeat: repeats drawn as an integer array of shape (1,) or (n,),
    then slices of the result taken with the repeats' 0-d elements as bounds."""
    n = np.arange(5.0)
    reps = np.array([2, 1, 3, 1, 2])

    def body(xp, x, r):
        out = xp.repeat(x, r)
        start, pieces = 0, []
        for i in range(x.shape[0]):
            pieces.append(out[start:start + r[i]])
            start += int(r[i])
        return out, pieces
    check(body, n, reps)
