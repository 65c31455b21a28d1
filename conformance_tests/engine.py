"""The conformance engine: run one test body with ``xp=numpy`` and ``xp=tnp`` and compare.

``check(body, *inputs)`` calls ``body(xp, *args)`` twice, once with NumPy and fresh NumPy copies
of ``inputs``, once with tnp and fresh tnp arrays made from them, then asserts that
- both raised, tnp's exception is an instance of NumPy's exception class and its message is
  NumPy's (whitespace normalised; the differences known today are listed, with the reason, in
  ``KNOWN_MESSAGES``; ``message=False`` skips the comparison), or
- both returned: the same structure and types (a tuple for a tuple, a list for a list, a named
  tuple of the same name and fields, exactly NumPy's Python scalar type: ``True`` is not ``1``),
  a ``tnp.ndarray`` wherever NumPy returns an ``ndarray`` (a host ``numpy.ndarray`` fails, save
  for the dtypes XLA cannot hold, which are NumPy's host arrays by design, and ``host_ok``),
  every array with exactly NumPy's dtype and shape and values equal within a per-dtype
  tolerance (NaN where NumPy has NaN, the sign of zeros and infinities) or, with ``exact=True``,
  equal (for functions exact by definition: nextafter, spacing, copysign, floor, integer ops),
- and every input array afterwards equals NumPy's, however nested in lists, tuples and dicts
  (the writes a call did are the same).
Where NumPy returns a NumPy scalar (``np.float64``), tnp returns a 0-d ``tnp.ndarray`` by design
(or a NumPy scalar: np.int64 for np.longlong): accepted, with NumPy's dtype. A Python float
is not.
"""
import contextlib
import math
import os
import warnings

import hypothesis
import jax
import numpy as np
import pytest

import tnp
import tnp_ext
from tnp._core import settings as tnp_settings
from tnp._core.array import roots
from tnp._core.engine import fpcheck

# Relative tolerance by dtype: XLA's transcendental functions are not bit-identical to NumPy's.
RTOL = {"e": 2e-3, "f": 2e-6, "d": 1e-12, "F": 2e-6, "D": 1e-12}


def platform_xfail(reason):
    """Expected to fail off the CPU only: the value is a platform library's (CUDA's libm,
    cuSOLVER) where NumPy's is the CPU's (glibc's libm, LAPACK), and ``reason`` says which."""
    return pytest.mark.xfail(jax.default_backend() != "cpu", reason=reason, strict=False)


# ``TNP_COLD=force``: the NumPy tier computes every graph and kernel it has rules for, so
# where XLA's value differs from NumPy's the test may pass (NumPy's own value)
_NUMPY_TIER_FORCED = tnp_settings.get("cold") == "force"


def xla_xfail(reason):
    """Expected to fail because the compiled device implementation's value differs from NumPy's
    (``reason`` says how): strict, save under ``TNP_COLD=force``, where the NumPy tier may
    compute NumPy's."""
    return pytest.mark.xfail(reason=reason, strict=not _NUMPY_TIER_FORCED)


def ftz_xfail(reason):
    """Expected to fail because XLA on CPU flushes subnormals to zero (FTZ/DAZ): strict on the
    CPU, where the flush is certain (an XPASS there fails), non-strict elsewhere (a GPU's
    flush-to-zero setting is XLA's choice per backend) and under ``TNP_COLD=force`` (NumPy's
    values)."""
    return pytest.mark.xfail(reason=reason,
                             strict=jax.default_backend() == "cpu" and not _NUMPY_TIER_FORCED)


@contextlib.contextmanager
def recorded_errcall(mode):
    """NumPy's error callback for an ``errstate`` block of ``mode``: for 'log' an object whose
    ``write`` NumPy calls, else a function NumPy calls; each records into the list yielded
    (``("log", text)``, ``("call", what, bits)``). The previous callback is put back."""
    seen = []

    class Log:
        def write(self, s):
            seen.append(("log", s))
    old = np.seterrcall(Log() if mode == "log" else
                        (lambda what, bits: seen.append(("call", what, bits))))
    try:
        yield seen
    finally:
        np.seterrcall(old)


def numpy_from_dlpack(a):
    """``np.from_dlpack(a)``; NumPy imports host memory only, so an array on an accelerator is
    asked for a host copy (``device="cpu"``), as NumPy needs of any GPU producer. (A host-tier
    array's device is NumPy's, the string "cpu".)"""
    if a.device == "cpu" or a.device.platform == "cpu":
        return np.from_dlpack(a)
    return np.from_dlpack(a, device="cpu")


class Placed:
    """A test input that tnp makes in one placement mode whatever the test's (``on_host``,
    ``on_device``): a host-tier and a device-tier operand in one call. NumPy gets a copy."""
    __slots__ = ("value", "mode")

    def __init__(self, value, mode):
        self.value, self.mode = np.asarray(value), mode


def on_host(x):
    """``x`` as a host-tier tnp array (it must be under the host threshold)."""
    return Placed(x, "auto")


def on_device(x):
    """``x`` as a device-tier tnp array."""
    return Placed(x, "device")


def to_xp(xp, x):
    """A fresh copy of a test input for ``xp`` (arrays copied; other values as they are)."""
    if isinstance(x, Placed):
        if xp is np:
            return x.value.copy()
        with tnp_ext.placement(x.mode):
            a = tnp.asarray(x.value.copy())
        assert a._on_host == (x.mode == "auto"), f"not placed as {x.mode!r}"
        return a
    if isinstance(x, np.ndarray):
        return x.copy() if xp is np else tnp.asarray(x.copy())
    if isinstance(x, list):
        return [to_xp(xp, v) for v in x]
    if isinstance(x, tuple):
        return tuple(to_xp(xp, v) for v in x)
    if isinstance(x, dict):
        return {k: to_xp(xp, v) for k, v in x.items()}
    return x


def _is_array_like(x):
    return isinstance(x, (np.ndarray, np.generic, tnp.ndarray))


_PY_SCALARS = (bool, int, float, complex, str, bytes, type(None))


def _host_only(dtype):
    """dtypes XLA cannot hold (README, "Differences"): object, str, bytes, void/structured,
    datetime64, timedelta64, longdouble; tnp's functions on them go through the fallback and
    return NumPy's host arrays by design."""
    return dtype.kind in "OSUVMm" or dtype.char in "gG"


def assert_same(actual, expected, rtol=None, atol=0.0, path="result", host_ok=False):
    """Assert tnp's ``actual`` matches NumPy's ``expected``: the same types and structure, every
    array with exactly NumPy's dtype and shape, values equal within ``rtol``/``atol``.

    Types: where NumPy returns an ``ndarray`` tnp must return a ``tnp.ndarray`` (a host NumPy
    array is a failure, unless ``host_ok``: the caller compares two host arrays, e.g. a file
    tnp wrote read back by NumPy); an ndarray subclass (``np.matrix``) needs the same class
    (tnp's ``matrix`` is NumPy's); where NumPy returns a NumPy scalar (``np.float64``) tnp
    returns a 0-d ``tnp.ndarray`` by design, or a NumPy scalar (the dtype is compared: np.int64
    and np.longlong are distinct types of one dtype on Linux); an array of a dtype
    XLA cannot hold (object, str, structured, datetime, longdouble) is NumPy's host array by
    design (README's "Differences"), so a ``numpy.ndarray`` is accepted; a tuple must be a
    tuple, a list a list, a named tuple one of the same name and fields; a Python scalar must be
    of exactly NumPy's type (``True`` is not ``1``)."""
    if isinstance(expected, np.ndarray) and type(expected) is not np.ndarray:
        assert type(actual).__name__ == type(expected).__name__, (
            f"{path}: NumPy gave a {type(expected).__name__}, tnp gave {type(actual).__name__}")
        assert_values_same(np.asarray(actual), np.asarray(expected), rtol, atol, path)
    elif isinstance(expected, np.ndarray):
        ok = (tnp.ndarray, np.ndarray) if host_ok or _host_only(expected.dtype) else tnp.ndarray
        assert isinstance(actual, ok), (
            f"{path}: NumPy gave an ndarray, tnp gave {type(actual).__module__}."
            f"{type(actual).__name__}")
        assert_values_same(np.asarray(actual), expected, rtol, atol, path)
    elif isinstance(expected, np.generic):
        assert (isinstance(actual, tnp.ndarray) and actual.ndim == 0) or (
            isinstance(actual, np.generic)) or (
            host_ok and isinstance(actual, np.ndarray) and actual.ndim == 0), (
            f"{path}: NumPy gave a {type(expected).__name__} scalar, tnp gave "
            f"{type(actual).__name__} (a 0-d tnp array or a NumPy scalar of its dtype expected)")
        assert_values_same(np.asarray(actual), np.asarray(expected), rtol, atol, path)
    elif isinstance(expected, (tuple, list)):
        assert type(actual).__name__ == type(expected).__name__ and (
            isinstance(actual, tuple) == isinstance(expected, tuple)), (
            f"{path}: NumPy gave a {type(expected).__name__}, tnp gave {type(actual).__name__}")
        if hasattr(type(expected), "_fields"):
            assert getattr(type(actual), "_fields", None) == type(expected)._fields, (
                f"{path}: fields {getattr(type(actual), '_fields', None)} != NumPy's "
                f"{type(expected)._fields}")
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_same(a, e, rtol, atol, f"{path}[{i}]", host_ok)
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: NumPy gave a dict, tnp gave {actual!r}"
        assert set(actual) == set(expected), f"{path}: keys differ"
        for k in expected:
            assert_same(actual[k], expected[k], rtol, atol, f"{path}[{k!r}]", host_ok)
    elif isinstance(expected, float) and math.isnan(expected):
        assert type(actual) is float and math.isnan(actual), f"{path}: {actual!r} != nan"
    elif type(expected) in _PY_SCALARS:
        assert type(actual) is type(expected), (
            f"{path}: type {type(actual).__name__} != NumPy's {type(expected).__name__}")
        assert actual == expected, f"{path}: {actual!r} != NumPy's {expected!r}"
        if type(expected) is float and expected == 0:
            assert math.copysign(1, actual) == math.copysign(1, expected), (
                f"{path}: {actual!r} != NumPy's {expected!r}")
    else:
        assert type(actual) is type(expected) or isinstance(actual, type(expected)), (
            f"{path}: type {type(actual).__name__} != NumPy's {type(expected).__name__}")
        assert actual == expected, f"{path}: {actual!r} != NumPy's {expected!r}"


def assert_values_same(act, exp, rtol=None, atol=0.0, path="result"):
    assert act.dtype == exp.dtype, f"{path}: dtype {act.dtype} != NumPy's {exp.dtype}"
    assert act.shape == exp.shape, f"{path}: shape {act.shape} != NumPy's {exp.shape}"
    assert_values(act, exp, rtol, atol, path)


def assert_values(act, exp, rtol=None, atol=0.0, path="result"):
    if exp.dtype.kind in "fc":
        tol = RTOL.get(exp.dtype.char, 0.0) if rtol is None else rtol  # longdouble: NumPy's
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
            result = body(xp, *args)
            if xp is tnp:
                _computed(result)
            return args, result, None
        except Exception as e:  # noqa: BLE001 - the exception itself is what is compared
            return args, None, e


def _computed(result):
    """tnp's results computed, their floating-point warnings given here (ignored, as NumPy's
    are: ``test_fp_warnings`` compares them), not at the comparison's read."""
    for x in result if isinstance(result, (tuple, list)) else (result,):
        if isinstance(x, tnp.ndarray):
            roots.buffer(x._root)
    fpcheck.deliver()


def _has_subnormal(x):
    if isinstance(x, (tuple, list)):
        return any(_has_subnormal(v) for v in x)
    if not isinstance(x, (np.ndarray, np.generic)) or x.dtype.kind not in "fc":
        return False
    parts = (x.real, x.imag) if x.dtype.kind == "c" else (x,)
    tiny = np.finfo(x.dtype).tiny
    return any(bool(np.any((p != 0) & (np.abs(p) < tiny))) for p in parts)


def _written(tnp_args, np_args, path):
    """Pairs (tnp input, NumPy input, path) of every array among the inputs, however nested in
    lists, tuples and dicts: a call's writes are compared wherever the array was passed."""
    if isinstance(np_args, np.ndarray):
        yield tnp_args, np_args, path
    elif isinstance(np_args, (list, tuple)):
        for i, (a, e) in enumerate(zip(tnp_args, np_args)):
            yield from _written(a, e, f"{path}[{i}]")
    elif isinstance(np_args, dict):
        for k in np_args:
            yield from _written(tnp_args[k], np_args[k], f"{path}[{k!r}]")


def _message(e):
    return " ".join(str(e).split())


# Exception messages where tnp does not yet replay NumPy's text (the class matches):
# (NumPy's message, tnp's message), regular expressions matched in full -> where and why. Each
# is a tnp bug to fix in tnp/ (remove the entry with the fix); check() fails on any other
# difference. Found when message comparison was added (issue 23).
_SHAPE = r"\(.*\)"
_BCAST_JAX = r"shape mismatch: objects cannot be broadcast to a single shape\..*"
KNOWN_MESSAGES = {
    (r"index -?\d+ is out of bounds for axis (\d+) with size (\d+)",
     r"index -?\d+ is out of bounds for axis \d+ with size \d+"):
        "an index array with several out-of-bounds entries: NumPy names the first it meets in "
        "its own iteration order, tnp the first in C order of the index array",
    (r"tuple index out of range", r"axis \d+ is out of bounds for array of dimension \d+"):
        "fft.fftshift/ifftshift(axes=2) of a 2-d array: NumPy fails inside (IndexError 'tuple "
        "index out of range'); tnp raises the IndexError with an AxisError's text",
    (r"index \d+ is out of bounds for axis 0 with size \d+", r"tuple index out of range"):
        "fft functions with an out-of-range axes entry: NumPy's index message, tnp's "
        "'tuple index out of range'",
    (r"index -?\d+ is out of bounds for axis [1-9] with size \d+",
     r"index -?\d+ is out of bounds for axis 0 with size \d+"):
        "delete(arr, obj, axis=1) with an out-of-bounds obj: tnp names axis 0",
    (r"WRITEBACKIFCOPY base is read-only", r"output array is read-only"):
        "take/compress with a read-only out= on the device tier: NumPy's text names the "
        "temporary it writes back from; tnp's out= check (normalize.out_arrays) says what "
        "every other out= function says",
    (rf"shapes {_SHAPE} and {_SHAPE} not aligned: .*",
     rf"shapes {_SHAPE} and {_SHAPE} not aligned: .*"):
        "linalg.multi_dot/dot: tnp writes the shapes as Python tuples ('(3, 4)'), NumPy "
        "without spaces ('(3,4)')",
    (r"operands could not be broadcast together with shapes .*", _BCAST_JAX):
        "ravel_multi_index with unbroadcastable indices: np.broadcast_shapes' text",
    (r"could not broadcast where mask from shape .* into shape .*", _BCAST_JAX):
        "copyto(where=) with an unbroadcastable mask: np.broadcast_shapes' text",
    (r"arange\(\) is only supported for booleans when the result has at most length 2\.",
     r"iota does not accept dtype bool\..*"):
        "fromfunction/indices with dtype=bool: JAX's iota message leaks through",
    (r"output array has wrong shape\.", r"could not broadcast input array from shape .*"):
        "fft functions with a wrong-shape out=: the write path's message",
    (r"'int' object has no attribute 'step'", r"'int' object has no attribute 'start'"):
        "mgrid/ogrid[int]: tnp reads .start first, NumPy .step",
    (r"index \d+ is out of bounds for array with size \d+",
     r"multiple indices are not supported for 0d arrays"):
        "unravel_index of an out-of-bounds index with shape (): JAX's message",
    (r"NumPy boolean array indexing assignment cannot assign \d+ input values to the \d+ "
     r"output values where the mask is true", r"could not broadcast input array from shape .*"):
        "a[mask] = values of the wrong length: the write path's broadcast message",
    (rf"could not broadcast input array from shape {_SHAPE} into shape {_SHAPE}",
     rf"could not broadcast input array from shape {_SHAPE} into shape {_SHAPE}"):
        "writes (copyto, setitem): tnp writes the shapes as Python tuples ('(2, 3, 4)'), "
        "NumPy without spaces ('(2,3,4)')",
    (rf"could not broadcast input array from shape {_SHAPE} into shape {_SHAPE}",
     r"Incompatible types for broadcasting: .*"):
        "insert with values of an unbroadcastable shape: XLA's message leaks through",
    (r"(source|destination): axis -?\d+ is out of bounds for array of dimension \d+",
     r"axis -?\d+ is out of bounds for array of dimension \d+"):
        "unstack, linspace(axis=): NumPy's moveaxis prefixes the argument name ('source: ')",
    (r"Python int too large to convert to C long", r"Python integer \d+ out of bounds for \w+"):
        "a ufunc called with a Python int beyond int64: NumPy 1.x-style conversion text",
    (r"non-broadcastable output operand with shape .* doesn't match the broadcast shape .*",
     r"could not broadcast input array from shape .*"):
        "a ufunc's out= of the wrong shape: the write path's message",
    (r"cannot resize an array that references or is referenced by another object in this "
     r"way\..*", r"cannot resize an array that references or is referenced by another array "
     r"in this way\..*"):
        "ndarray.resize of a viewed array: 'another array' for NumPy's 'another object'",
    (r'Invalid norm value .*; should be "backward", "ortho" or "forward"\.',
     r'Invalid norm value .*; should be "backward","ortho" or "forward"\.'):
        "fft norm=: a missing space after the first comma",
    (r"lam < 0 or lam is NaN", r"lam < 0"):
        "the device Generator's poisson (tnp_ext.random/Threefry): shorter text",
    (r"Probabilities do not sum to 1\..*", r"probabilities do not sum to 1"):
        "the device Generator's choice/multinomial: shorter text",
    (r"alpha < 0", r"alpha <= 0"): "the device Generator's dirichlet: different text",
    (r"duplicate value in 'axis'", r"repeated axis"):
        "all/any (and reductions) with a repeated axis: JAX's text",
    (r"Shape of weights must be consistent with shape of a along specified axis\.",
     r"Incompatible types for broadcasting: .*"):
        "average with weights of the wrong shape: XLA's message leaks through",
    (r"clip\(\) missing 1 required positional argument: 'a_max'",
     r"Passed `min` and `a_min`, use only one"):
        "clip(a, a_min, min=...): tnp checks the keyword conflict before the missing a_max",
    (r"'NoneType' object cannot be interpreted as an integer",
     r"'<=' not supported between instances of 'int' and 'NoneType'"):
        "lexsort(axis=None): tnp's axis normalisation fails on None first",
    (r"unhashable type: 'numpy.ndarray'", r"unhashable type: 'ndarray'"):
        "hash(a): the type's name is tnp.ndarray's (a different class by design)",
    (r"array to be byte-swapped is read-only", r"assignment destination is read-only"):
        "a.byteswap(inplace=True) of a read-only array: the write path's text",
    (r"cannot reshape array of size \d+ into shape .*", r"vectors have different lengths"):
        "vdot of different sizes: JAX's text",
    (r"duplicate axes are not allowed in tensordot", r"shape-mismatch for sum"):
        "tensordot with duplicate axes: JAX's text",
    (r"operands could not be broadcast together with remapped shapes .*", r"Size of label .*"):
        "einsum with mismatched label sizes: JAX's einsum text",
    (r"einstein sum subscripts string included output subscript '\w' which never appeared "
     r"in an input", r"Output character '\w' did not appear in the input"):
        "einsum (optimize=False) with an unknown output label: opt_einsum's text",
    (r"Output character \w did not appear in the input",
     r"Output character '\w' did not appear in the input"):
        "einsum (optimize=...) with an unknown output label: quotes around the label",
    (r"Iterator operand \d+ dtype could not be cast from .*", r"Cannot cast array data .*"):
        "einsum(casting='safe', dtype=) that needs an unsafe cast: the cast's text",
    (r"einsum\(\) got an unexpected keyword argument '\w+'",
     r"'\w+' is an invalid keyword argument for einsum"):
        "einsum with an unknown keyword: a different TypeError text",
    (r"operands could not be broadcast together with shapes .*",
     r"Incompatible shapes for broadcasting: .*"):
        "where(cond, x, y) with unbroadcastable operands: JAX's text",
    (r"to_device\(\) argument 1 must be str, not None",
     r"to_device\(\) argument 1 must be str, not NoneType"):
        "a.to_device(None): the type's name",
    (r"Unsupported device: .*\. Only 'cpu' is accepted\.",
     r'Device not understood\. Only "cpu" is allowed, but received: .*'):
        "a.to_device('gpu'): a different text",
    (r"Cannot cast ufunc 'add' output from .*", r"Cannot cast ufunc 'positive' output from .*"):
        "median/quantile(out=) of an integer dtype: tnp names the ufunc 'positive'",
    (r"operands could not be broadcast together with remapped shapes .*",
     r"operands could not be broadcast together with remapped shapes .*"):
        "median/quantile(out=) of the wrong shape: tnp reports the shapes differently",
    (r"operands could not be broadcast together with shapes .*",
     r"could not broadcast input array from shape .*"):
        "median/quantile(out=) of the wrong shape: the write path's message",
}


def _known_message(np_exc, tnp_exc):
    import re
    a, b = _message(np_exc), _message(tnp_exc)
    return any(re.fullmatch(n, a) and re.fullmatch(t, b) for n, t in KNOWN_MESSAGES)


def check(body, *inputs, rtol=None, atol=0.0, exact=False, check_inputs=True, message=True,
          host_ok=False):
    """Compare ``body(tnp, *inputs)`` with ``body(numpy, *inputs)``; return NumPy's result.

    ``exact``: values must be equal (``rtol = atol = 0``), for functions whose result is exact
    by definition (``nextafter``, ``spacing``, ``copysign``, ``ldexp``, ``frexp``, ``floor``,
    integer arithmetic, ...), where a tolerance would let a wrong result through.
    ``message``: where both raise, tnp's exception message must also be NumPy's (whitespace
    normalised): tnp replays NumPy's errors (CONTRIBUTING: "raise NumPy's exception class with
    NumPy's message"). The differences known today are listed in ``KNOWN_MESSAGES`` (NumPy's
    message pattern -> why tnp's differs): a match there passes, any other difference fails.
    ``message=False`` skips the comparison for a test whose messages are not NumPy's to
    replay (say why where you pass it); the class is still compared.
    ``host_ok``: the body returns NumPy arrays on tnp's side by design (``nditer`` walks host
    copies); otherwise a ``numpy.ndarray`` where NumPy returns an array is a failure.
    """
    if exact:
        rtol, atol = 0.0, 0.0
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
        if message and _message(tnp_exc) != _message(np_exc) and not _known_message(
                np_exc, tnp_exc):
            text = (f"{type(np_exc).__name__}: NumPy's message {_message(np_exc)!r}, tnp's "
                    f"{_message(tnp_exc)!r}")
            log = os.environ.get("TNP_CONFORMANCE_MESSAGE_LOG")
            if log:  # survey mode: record every difference, fail on none
                with open(log, "a") as f:
                    f.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}\t{text}\n")
            else:
                raise AssertionError(text)
    else:
        if tnp_exc is not None:
            raise AssertionError(f"NumPy returned, tnp raised {type(tnp_exc).__name__}: "
                                 f"{tnp_exc}") from tnp_exc
        assert_same(actual, expected, rtol, atol, host_ok=host_ok)
    if check_inputs:
        for a, e, path in _written(tnp_args, np_args, "argument"):
            assert_same(a, e, rtol, atol, path=f"{path} after the call")
    return expected
