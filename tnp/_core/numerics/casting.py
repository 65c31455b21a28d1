"""The one cast: ``x.astype(dtype)`` with NumPy's values where XLA's differ.

Used by every conversion tnp makes (creation, ``astype``, the write path, ufunc outputs)."""
import functools
import warnings

from ..rules import dtypes
from ..engine.jaxload import jit, jnp
import numpy as np


def warn_complex_to_real(src, dst, stacklevel=3):
    """NumPy's ComplexWarning for a cast of complex data (dtype ``src``) to a real number dtype
    ``dst`` (not bool): the imaginary part is dropped."""
    if np.dtype(src).kind == "c" and np.dtype(dst).kind in "iuf":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=stacklevel + 1)


def numpy_cast(x, dtype):
    """``x.astype(dtype)`` with NumPy's results on x86 where XLA's differ: a float that is NaN or
    out of an integer dtype's range converts as NumPy's C casts do (through int32 or int64,
    wrapping), not to XLA's saturated value; complex to integer takes the real part. Bool
    converts through uint8: XLA rewrites ``convert(bool) * y`` as ``select(bool, y, 0)``, which
    is 0 where NumPy's ``0 * inf`` is NaN; a convert from uint8 is not rewritten, and fuses.
    A dtype XLA cannot hold (``dtype=np.longdouble`` asked of a routine) raises
    ``dtypes.UnsupportedDtype``, so the call is NumPy's, on the host."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
    dtypes.check_supported(dtype)
    if x.dtype == np.bool_ and dtype != np.uint8:
        x = x.astype(np.uint8)
    if x.dtype.kind == "c" and dtype.kind in "iuf":
        x = jnp.real(x)  # NumPy drops the imaginary part (with a ComplexWarning)
    if dtype.kind not in "iu" or x.dtype.kind not in "fc":
        return x.astype(dtype)
    t = jnp.trunc(jnp.real(x).astype(np.float64))

    def via(lo, hi, int_type, invalid):
        ok = (t >= lo) & (t < hi)
        return jnp.where(ok, t, invalid).astype(int_type)
    if dtype.itemsize <= 2 or dtype == np.int32:
        return via(-2.0**31, 2.0**31, np.int32, -2.0**31).astype(dtype)
    if dtype == np.int64 or dtype == np.uint32:
        # uint32 wraps through int64 as NumPy's scalar loop does (cvttsd2si: NaN and values
        # outside int64 give INT64_MIN, whose low 32 bits are 0). NumPy's auto-vectorised loop
        # gives 0 or 2**31 instead for out-of-range values, depending on the SIMD width its
        # build uses on the CPU and on the element's position in the array (platform-defined:
        # with AVX2, elements in whole blocks of 4): tnp gives the deterministic per-element
        # answer, which NumPy's scalars, arrays shorter than a vector and tails share.
        return via(-2.0**63, 2.0**63, np.int64, -2.0**63).astype(dtype)
    u = dtype.type
    big = t >= 2.0**63
    ok = (t >= -2.0**63) & (t < 2.0**64)
    low = jnp.where(ok & ~big, t, 0).astype(np.int64).astype(dtype)
    high = jnp.where(ok & big, t - 2.0**63, 0).astype(np.int64).astype(dtype) + u(2**63)
    return jnp.where(ok, jnp.where(big, high, low), jnp.where(t >= 2.0**64, u(0), u(2**63)))


@functools.cache
def cast_kernel(code):
    """``numpy_cast`` to the dtype of type code ``code`` as a compiled kernel of one operand
    (keyed by the code: 'L' and 'Q', both uint64, are equal as dtypes, and a kernel made for
    one must not answer for the other)."""
    return jit(lambda x: numpy_cast(x, np.dtype(code)))


def cast(x, dtype):
    """``numpy_cast`` as a cached compiled kernel (for eager use on jax arrays)."""
    return x if x.dtype == dtype else cast_kernel(np.dtype(dtype).char)(x)
