"""dtypes and promotion: tnp's dtype names and routines answer as NumPy's (NEP 50)."""
import itertools

import numpy as np
import pytest

import tnp
from engine import check
from strategies import ALL_DTYPES

UNSUPPORTED = ["object", "U3", "S3", "datetime64[s]", "timedelta64[s]", "V8", "longdouble"]


def test_dtype_names_are_numpys():
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128",
                 "number", "floating", "integer", "signedinteger", "unsignedinteger",
                 "inexact", "complexfloating", "generic", "bool_", "intp", "double"):
        assert getattr(tnp, name) is getattr(np, name), name
    assert tnp.dtype is np.dtype and tnp.finfo is np.finfo and tnp.iinfo is np.iinfo
    assert tnp.typecodes == np.typecodes


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_array_dtype_is_a_numpy_dtype(dt):
    a = tnp.zeros(3, dt)
    assert type(a.dtype) is type(np.dtype(dt)) and a.dtype == dt and a.dtype == str(dt)
    assert a.itemsize == dt.itemsize and a.nbytes == 3 * dt.itemsize


@pytest.mark.parametrize("dt1,dt2", list(itertools.product(ALL_DTYPES, ALL_DTYPES)), ids=str)
def test_result_type_arrays(dt1, dt2):
    check(lambda xp, a, b: xp.result_type(a, b), np.zeros(2, dt1), np.zeros(2, dt2))
    check(lambda xp: xp.promote_types(dt1, dt2))
    check(lambda xp: (xp.can_cast(dt1, dt2), xp.can_cast(dt1, dt2, "same_kind")))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("scalar", [True, 1, -1, 300, 2**40, 1.5, 1e300, 1j])
def test_result_type_weak_scalars(dt, scalar):
    check(lambda xp, a: xp.result_type(a, scalar), np.zeros(2, dt))
    check(lambda xp, a: (a + scalar).dtype, np.zeros(2, dt))


@pytest.mark.parametrize("value", [0, 255, 256, -1, 2**40, 1.5, -3.0, 1j])
def test_min_scalar_type(value):
    check(lambda xp: xp.min_scalar_type(value))
    check(lambda xp, a: xp.min_scalar_type(a), np.array(value))


def test_issubdtype_isdtype_common_type():
    for dt in ALL_DTYPES:
        for kind in (np.integer, np.floating, np.complexfloating, np.number, np.bool_):
            check(lambda xp: xp.issubdtype(dt, kind))
        for kind in ("bool", "signed integer", "unsigned integer", "integral",
                     "real floating", "complex floating", "numeric"):
            check(lambda xp: xp.isdtype(dt, kind))
    for dts in [("int8",), ("float32", "int16"), ("float16",), ("complex64", "float64")]:
        check(lambda xp, *arrs: xp.common_type(*arrs), *[np.zeros(1, d) for d in dts])
    check(lambda xp, a: xp.common_type(a), np.zeros(1, "bool"))


@pytest.mark.parametrize("dt", UNSUPPORTED)
def test_numpy_only_dtypes_live_on_the_host(dt):
    """Dtypes XLA cannot hold are the host tier's: NumPy's arrays, NumPy's operations."""
    for make in (lambda xp: xp.zeros(3, dt), lambda xp: xp.asarray(np.zeros(3, dt))):
        t, a = make(tnp), make(np)
        assert t._on_host and t.dtype == a.dtype and t.shape == a.shape
        assert repr(t) == repr(a)
        assert t.tolist() == a.tolist()


def test_device_work_on_a_numpy_only_dtype_names_it():
    with pytest.raises(TypeError, match="cannot be held on JAX"):
        tnp.zeros(3, "U2")._value


def test_overflowing_python_int_raises_like_numpy():
    check(lambda xp, a: a + 300, np.zeros(3, np.uint8))
    check(lambda xp, a: a * -1, np.zeros(3, np.uint16))
    check(lambda xp, a: a + 2**63, np.zeros(3, np.int64))


@pytest.mark.parametrize("dt", ["float64", "int8", "complex64", "bool"])
def test_scalar_astype_object(dt):
    # a scalar result's astype(object) is NumPy's Python object; a 0-d array's stays an array
    def body(xp, a):
        s = a * 3 if a.dtype.kind in "fc" else a.sum()  # (exact: the value is not the point)
        return s.astype(object), a.astype("O"), type(s.astype(object)).__name__
    check(body, np.array(1, dt))
