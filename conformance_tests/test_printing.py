"""Printing functions against NumPy: array2string, array_repr, array_str, format_float_*,
base_repr, binary_repr, and the print-option functions (one state shared with NumPy)."""
import inspect

import numpy as np
import pytest

import tnp
from engine import check
from strategies import ALL_DTYPES

NAMES = ["set_printoptions", "get_printoptions", "printoptions", "array2string", "array_repr",
         "array_str", "format_float_positional", "format_float_scientific", "base_repr",
         "binary_repr"]


@pytest.mark.parametrize("name", NAMES)
def test_signature_and_native(name):
    assert inspect.signature(getattr(tnp, name)) == inspect.signature(getattr(np, name))
    assert getattr(tnp, name).__module__.startswith("tnp.")


ARRAYS = [np.arange(6.0).reshape(2, 3) / 3, np.array([1e-8, 1.0, np.nan, -np.inf]),
          np.arange(3000), np.array(2.5), np.zeros((0, 2), np.int8),
          np.array([1 + 2j, -0.5j], np.complex64), np.array([True, False])]
KWARGS = [{}, dict(precision=2), dict(max_line_width=10), dict(suppress_small=True),
          dict(separator=", "), dict(prefix="x = ", suffix=";"), dict(threshold=4, edgeitems=1),
          dict(sign="+"), dict(floatmode="maxprec_equal"), dict(legacy="1.13"),
          dict(formatter={"all": lambda v: "*"})]


@pytest.mark.parametrize("arr", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
@pytest.mark.parametrize("kw", KWARGS, ids=lambda k: ",".join(k) or "default")
def test_array2string(arr, kw):
    check(lambda xp, a: xp.array2string(a, **kw), arr)


@pytest.mark.parametrize("arr", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
@pytest.mark.parametrize("kw", [{}, dict(max_line_width=20), dict(precision=1),
                                dict(suppress_small=True)], ids=str)
def test_array_repr_str(arr, kw):
    check(lambda xp, a: (xp.array_repr(a, **kw), xp.array_str(a, **kw)), arr)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_array_repr_all_dtypes(dt):
    check(lambda xp, a: (xp.array_repr(a), xp.array_str(a), xp.array2string(a)),
          np.array([0, 1, 3]).astype(dt))


def test_array2string_of_lists_and_errors():
    check(lambda xp: xp.array2string([1, 2]))
    check(lambda xp, a: xp.array2string(a, style=repr), np.arange(2))
    check(lambda xp, a: xp.array2string(a, sign="x"), np.arange(2.0))


FLOATS = [0.1, 1 / 3, 1e20, -0.0, np.inf, np.nan, 5e-324, np.float32(1 / 3), np.float16(0.1)]
FKW = [{}, dict(precision=3), dict(unique=False, precision=5), dict(trim="-"), dict(sign=True),
       dict(pad_left=5, pad_right=4), dict(min_digits=6)]


@pytest.mark.parametrize("x", FLOATS, ids=repr)
@pytest.mark.parametrize("kw", FKW, ids=lambda k: ",".join(k) or "default")
def test_format_float(x, kw):
    check(lambda xp: xp.format_float_positional(x, **kw))
    check(lambda xp: xp.format_float_scientific(x, exp_digits=3, **kw) if "pad_right" not in kw
          else xp.format_float_scientific(x, **{k: v for k, v in kw.items() if k != "pad_right"}))


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=str)
def test_format_float_of_tnp_scalar_results(dt):
    # NumPy formats the scalar a[1]; tnp's a[1] is a 0-d array and formats the same way.
    check(lambda xp, a: (xp.format_float_positional(a[1]), xp.format_float_scientific(a[2])),
          np.array([0.1, 1 / 3, 2 / 3]).astype(dt))


def test_format_float_errors():
    check(lambda xp: xp.format_float_positional(1))
    check(lambda xp: xp.format_float_positional(0.5, trim="x"))


@pytest.mark.parametrize("n", [0, 5, -5, 255, 2**40, np.int8(-3), np.uint64(2**63)], ids=repr)
@pytest.mark.parametrize("base,pad", [(2, 0), (3, 2), (16, 0), (36, 1)])
def test_base_repr(n, base, pad):
    check(lambda xp: xp.base_repr(n, base, pad))


def test_base_repr_errors_and_tnp_scalars():
    check(lambda xp: xp.base_repr(5, 37))
    check(lambda xp, a: (xp.base_repr(a[2], 3), xp.binary_repr(a[1], 8)), np.array([1, -5, 7]))


@pytest.mark.parametrize("n", [0, 5, -5, 255, -128, 2**40, np.int16(-7)], ids=repr)
@pytest.mark.parametrize("width", [None, 1, 8, 16])
def test_binary_repr(n, width):
    check(lambda xp: xp.binary_repr(n, width))


def test_printoptions_shared_state():
    before = np.get_printoptions()
    try:
        with tnp.printoptions(precision=1, threshold=3):
            assert np.get_printoptions()["precision"] == 1
            check(lambda xp, a: (repr(a), xp.array2string(a)), np.arange(10) / 3)
        assert np.get_printoptions() == before
        tnp.set_printoptions(linewidth=30, sign="+")
        assert tnp.get_printoptions() == np.get_printoptions()
        check(lambda xp, a: xp.array_str(a), np.arange(10) / 3)
        check(lambda xp: xp.set_printoptions(sign="bad"))
        check(lambda xp: xp.set_printoptions(threshold=1.5))
    finally:
        np.set_printoptions(**before)
