"""The conformance engine: run one test body with ``xp=numpy`` and ``xp=tnp`` and compare.

``check(body, *inputs)`` calls ``body(xp, *args)`` twice, once with NumPy and fresh NumPy copies
of ``inputs``, once with tnp and fresh tnp arrays made from them, then asserts that
- both raised, and tnp's exception is an instance of NumPy's exception class, or
- both returned: the same structure, every array with exactly NumPy's dtype and shape and values
  equal within a per-dtype tolerance (NaN where NumPy has NaN, the sign of zeros and infinities),
- and every input array afterwards equals NumPy's (the writes a call did are the same).
NumPy scalars returned by NumPy compare with tnp 0-d arrays (tnp returns those instead).
"""
import math
import warnings

import hypothesis
import jax
import numpy as np
import pytest

import tnp

# Relative tolerance by dtype: XLA's transcendental functions are not bit-identical to NumPy's.
RTOL = {"e": 2e-3, "f": 2e-6, "d": 1e-12, "F": 2e-6, "D": 1e-12}


def platform_xfail(reason):
    """Expected to fail off the CPU only: the value is a platform library's (CUDA's libm,
    cuSOLVER) where NumPy's is the CPU's (glibc's libm, LAPACK), and ``reason`` says which."""
    return pytest.mark.xfail(jax.default_backend() != "cpu", reason=reason, strict=False)


def numpy_from_dlpack(a):
    """``np.from_dlpack(a)``; NumPy imports host memory only, so an array on an accelerator is
    asked for a host copy (``device="cpu"``), as NumPy needs of any GPU producer."""
    if a.device.platform == "cpu":
        return np.from_dlpack(a)
    return np.from_dlpack(a, device="cpu")


def to_xp(xp, x):
    """A fresh copy of a test input for ``xp`` (arrays copied; other values as they are)."""
    if isinstance(x, np.ndarray):
        return x.copy() if xp is np else tnp.asarray(x.copy())
    if isinstance(x, list):
        return [to_xp(xp, v) for v in x]
    if isinstance(x, tuple):
        return tuple(to_xp(xp, v) for v in x)
    return x


def _is_array_like(x):
    return isinstance(x, (np.ndarray, np.generic, tnp.ndarray))


def assert_same(actual, expected, rtol=None, atol=0.0, path="result"):
    """Assert tnp's ``actual`` matches NumPy's ``expected`` (dtype, shape, values)."""
    if _is_array_like(expected):
        assert isinstance(actual, tnp.ndarray) or _is_array_like(actual), (
            f"{path}: NumPy gave an array/scalar of {type(expected).__name__}, tnp gave "
            f"{type(actual).__name__}")
        exp = np.asarray(expected)
        act = np.asarray(actual)
        assert act.dtype == exp.dtype, f"{path}: dtype {act.dtype} != NumPy's {exp.dtype}"
        assert act.shape == exp.shape, f"{path}: shape {act.shape} != NumPy's {exp.shape}"
        assert_values(act, exp, rtol, atol, path)
    elif isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), f"{path}: expected a sequence, got {actual!r}"
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, rtol, atol, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert set(actual) == set(expected), f"{path}: keys differ"
        for k in expected:
            assert_same(actual[k], expected[k], rtol, atol, f"{path}[{k!r}]")
    elif isinstance(expected, float) and math.isnan(expected):
        assert isinstance(actual, float) and math.isnan(actual), f"{path}: {actual} != nan"
    else:
        assert type(actual) is type(expected) or isinstance(actual, type(expected)), (
            f"{path}: type {type(actual).__name__} != NumPy's {type(expected).__name__}")
        assert actual == expected, f"{path}: {actual!r} != NumPy's {expected!r}"


def assert_values(act, exp, rtol=None, atol=0.0, path="result"):
    if exp.dtype.kind in "fc":
        tol = RTOL[exp.dtype.char] if rtol is None else rtol
        for part in ((lambda z: z.real, lambda z: z.imag) if exp.dtype.kind == "c" else
                     (lambda z: z,)):
            a, e = part(act), part(exp)
            nan_e, nan_a = np.isnan(e), np.isnan(a)
            assert np.array_equal(nan_a, nan_e), f"{path}: NaN positions differ\n{a}\n{e}"
            inf_e = np.isinf(e)
            assert np.array_equal(a[inf_e], e[inf_e]), f"{path}: infinities differ\n{a}\n{e}"
            zero = (e == 0) & (a == 0)
            assert np.array_equal(np.signbit(a[zero]), np.signbit(e[zero])), (
                f"{path}: signed zeros differ\n{a}\n{e}")
            fin = ~nan_e & ~inf_e
            with np.errstate(all="ignore"):
                np.testing.assert_allclose(
                    a[fin].astype(np.float64), e[fin].astype(np.float64), rtol=tol,
                    atol=atol, err_msg=path)
    else:
        assert np.array_equal(act, exp), f"{path}: values differ\n{act}\nNumPy:\n{exp}"


def run(xp, body, inputs):
    args = to_xp(xp, inputs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return args, body(xp, *args), None
        except Exception as e:  # noqa: BLE001 - the exception itself is what is compared
            return args, None, e


def _has_subnormal(x):
    if isinstance(x, (tuple, list)):
        return any(_has_subnormal(v) for v in x)
    if not isinstance(x, (np.ndarray, np.generic)) or x.dtype.kind not in "fc":
        return False
    parts = (x.real, x.imag) if x.dtype.kind == "c" else (x,)
    tiny = np.finfo(x.dtype).tiny
    return any(bool(np.any((p != 0) & (np.abs(p) < tiny))) for p in parts)


def check(body, *inputs, rtol=None, atol=0.0, check_inputs=True):
    """Compare ``body(tnp, *inputs)`` with ``body(numpy, *inputs)``; return NumPy's result."""
    np_args, expected, np_exc = run(np, body, inputs)
    if np_exc is None and hypothesis.currently_in_test_context() and _has_subnormal(expected):
        # XLA on CPU flushes subnormals to zero (FTZ/DAZ; the xfails test_subnormals and
        # test_linspace_subnormal record it). The strategies draw no subnormal inputs; a draw
        # whose NumPy result underflows into one is rejected here, for every hypothesis test.
        hypothesis.reject()
    tnp_args, actual, tnp_exc = run(tnp, body, inputs)
    if np_exc is not None:
        assert tnp_exc is not None, (
            f"NumPy raised {type(np_exc).__name__}: {np_exc}; tnp returned {actual!r}")
        assert isinstance(tnp_exc, type(np_exc)), (
            f"NumPy raised {type(np_exc).__name__}: {np_exc}; tnp raised "
            f"{type(tnp_exc).__name__}: {tnp_exc}")
    else:
        if tnp_exc is not None:
            raise AssertionError(f"NumPy returned, tnp raised {type(tnp_exc).__name__}: "
                                 f"{tnp_exc}") from tnp_exc
        assert_same(actual, expected, rtol, atol)
    if check_inputs:
        for i, (a, e) in enumerate(zip(tnp_args, np_args)):
            if isinstance(e, np.ndarray):
                assert_same(a, e, rtol, atol, path=f"argument {i} after the call")
    return expected
