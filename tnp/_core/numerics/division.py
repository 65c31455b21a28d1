"""The one division: ``x / y`` inside a kernel with NumPy's rounding.

XLA's algebraic simplifier rewrites a division by a broadcast divisor (a scalar, a row, a
column: ``x / 3.0``, ``s / n`` in ``mean``, ``x / x.sum(axis=1, keepdims=True)``) or by a
constant of the kernel (``linspace``'s ``delta / (num - 1)``) as a multiplication by the
divisor's reciprocal, which is 1 ulp from the correctly rounded quotient NumPy computes in
about a third of the elements. Here a broadcast divisor reaches the division through an
``optimization_barrier`` placed after its broadcast, which the simplifier cannot see through,
so the division stays a division. (A ``select`` between the broadcast divisor and the dividend
on a hidden predicate, the earlier form, kept the rounding too but let XLA fuse an expensive
divisor, such as N-body's ``r2 ** 1.5``, into the broadcast: 3.6x slower there.)
``conformance_tests/test_division.py`` holds this against NumPy bit for bit."""
from ..engine.jaxload import jnp, lax


def true_divide(x, y):
    """``jnp.true_divide(x, y)``, rounded as NumPy rounds (not through ``1 / y``)."""
    dt = jnp.result_type(x, y)
    y = jnp.asarray(y, dt)
    shape = jnp.broadcast_shapes(jnp.shape(x), y.shape)
    if y.shape != shape or y.ndim == 0:  # broadcast, or perhaps a constant of the kernel
        y = lax.optimization_barrier(jnp.broadcast_to(y, shape))
    return jnp.true_divide(x, y)
