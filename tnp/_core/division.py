"""The one division: ``x / y`` inside a kernel with NumPy's rounding.

XLA's algebraic simplifier rewrites a division by a broadcast divisor (a scalar, a row, a
column: ``x / 3.0``, ``s / n`` in ``mean``, ``x / x.sum(axis=1, keepdims=True)``) or by a
constant of the kernel (``linspace``'s ``delta / (num - 1)``) as a multiplication by the
divisor's reciprocal, which is 1 ulp from the correctly rounded quotient NumPy computes in
about a third of the elements. Here a broadcast divisor reaches the division
through a ``select`` on a predicate the simplifier cannot see (an ``optimization_barrier``)
between it and the dividend (with a constant as the other branch, the select of two broadcasts
would itself become a broadcast), so the division stays a division; the select fuses with it
(no buffer is materialised). A 0-d divisor, which may be a constant of the kernel, passes an
``optimization_barrier`` first. ``conformance_tests/test_division.py`` holds this against
NumPy bit for bit."""
from .jaxload import jnp, lax


def true_divide(x, y):
    """``jnp.true_divide(x, y)``, rounded as NumPy rounds (not through ``1 / y``)."""
    dt = jnp.result_type(x, y)
    y = jnp.asarray(y, dt)
    if y.ndim == 0:  # perhaps a constant of the kernel (``mean``'s count): hidden from folding
        y = lax.optimization_barrier(y)
    shape = jnp.broadcast_shapes(jnp.shape(x), y.shape)
    if y.shape == shape:
        return jnp.true_divide(x, y)
    keep = jnp.broadcast_to(lax.optimization_barrier(jnp.bool_(True)), shape)
    y = lax.select(keep, jnp.broadcast_to(y, shape),
                   jnp.broadcast_to(jnp.asarray(x, dt), shape))  # (not a constant: see above)
    return jnp.true_divide(x, y)
