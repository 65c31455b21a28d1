"""Python ints with tnp arrays in ufunc calls (NEP 50 weak scalars): NumPy's dtype, its
OverflowError, its constant comparisons, the same through the ufunc fast path."""
import numpy as np
import pytest

from engine import check


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "bool"])
@pytest.mark.parametrize("v", [127, 128, 255, 256, -129, 65520, 2**31, 2**53, 2**63,
                               -2**63 - 1], ids=str)
@pytest.mark.parametrize("name", ["add", "less"])
def test_python_int_with_an_array(name, v, dtype):
    """NEP 50: a Python int takes the array's dtype, or NumPy's OverflowError, or a constant
    comparison. Each call runs twice, both orders: the second takes the fast path where the
    first filled it (keyed by the int's sign and bit length), and the value next to ``v`` of
    the same key (``v ^ 1``) goes the same way."""
    a = np.array([0, 1, 3, 100], dtype=dtype)

    def body(xp, x):
        f = getattr(xp, name)
        return [f(x, w) for w in (v, v, v ^ 1)] + [f(w, x) for w in (v, v ^ 1)]
    check(body, a)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32"])
@pytest.mark.parametrize("v", [127, 128, 255, 256, -129, 2**31, 2**63, -2**63 - 1], ids=str)
def test_python_int_inplace(v, dtype):
    def body(xp, x):
        for _ in range(2):  # (the second through the fast path's in-place recording)
            x += v
        return x
    check(body, np.array([0, 1, 3, 100], dtype=dtype))


@pytest.mark.parametrize("code", ["q", "Q"])
def test_overflow_message_after_a_loop_resolved_for_an_equal_type_code(code):
    """NumPy has two codes for each 64-bit integer ('l' and 'q', 'L' and 'Q'): equal dtypes, one
    key to tnp's loop cache, but its OverflowError for a Python int names C long only for 'l'.
    Once the loop was resolved for the other code (as some earlier call in a test run did), a
    tnp int64 array (always 'l', as NumPy's int64) still gets NumPy's message for int64."""
    from tnp import add
    add._resolve((np.dtype(code), int), None, None, None, "same_kind")
    big = 2**63 if code == "q" else 2**64
    check(lambda xp, a: a + big, np.zeros(3, "l" if code == "q" else "L"))
