"""The one cast: ``x.astype(dtype)`` with NumPy's values where XLA's differ.

Used by every conversion tnp makes (creation, ``astype``, the write path, ufunc outputs)."""
import jax
import jax.numpy as jnp
import numpy as np


def numpy_cast(x, dtype):
    """``x.astype(dtype)`` with NumPy's results on x86 where XLA's differ: a float that is NaN or
    out of an integer dtype's range converts as NumPy's C casts do (through int32 or int64,
    wrapping), not to XLA's saturated value; complex to integer takes the real part. Bool
    converts through uint8: XLA rewrites ``convert(bool) * y`` as ``select(bool, y, 0)``, which
    is 0 where NumPy's ``0 * inf`` is NaN; a convert from uint8 is not rewritten, and fuses."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
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
    if dtype == np.int64:
        return via(-2.0**63, 2.0**63, np.int64, -2.0**63)
    u = dtype.type
    if dtype == np.uint32:
        ok = (t >= -2.0**31) & (t < 2.0**32)
        return jnp.where(ok, via(-2.0**31, 2.0**32, np.int64, 0).astype(dtype),
                         jnp.where((t >= 2.0**32) | (x.dtype == np.float16), u(0), u(2**31)))
    big = t >= 2.0**63
    ok = (t >= -2.0**63) & (t < 2.0**64)
    low = jnp.where(ok & ~big, t, 0).astype(np.int64).astype(dtype)
    high = jnp.where(ok & big, t - 2.0**63, 0).astype(np.int64).astype(dtype) + u(2**63)
    return jnp.where(ok, jnp.where(big, high, low), jnp.where(t >= 2.0**64, u(0), u(2**63)))


# Static dtypes are passed as type codes: 'L' and 'Q' (both uint64) are equal as dtypes, and a
# kernel cached for one must not answer for the other.
_cast_kernel = jax.jit(lambda x, code: numpy_cast(x, np.dtype(code)), static_argnums=1)


def cast(x, dtype):
    """``numpy_cast`` as a cached compiled kernel (for eager use on jax arrays)."""
    return x if x.dtype == dtype else _cast_kernel(x, np.dtype(dtype).char)
