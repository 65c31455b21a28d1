"""Writes and indexing under JAX transforms (jit, vmap, grad): arrays created inside the trace
are written functionally; writes to arrays from outside raise TnpTracingError (unless a capture
context such as tnp_ext.jit's takes them); boolean-mask reads raise TnpTracingError. Out-of-bounds
checks need concrete indices and are skipped under tracing (JAX clamps reads, drops writes)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tnp
from tnp._core.engine import tracing
from engine import assert_same


def traced_body(x):
    a = tnp.zeros(5)
    a[1:3] = x[:2]
    a[[0, 4]] = x[2:4]
    v = a[::-1]
    v[0] += 10.0
    return a


def expected(x):
    a = np.zeros(5)
    a[1:3] = x[:2]
    a[[0, 4]] = x[2:4]
    a[::-1][0] += 10.0
    return a


def test_jit_writes_to_arrays_created_inside():
    x = np.arange(5.0)
    assert_same(jax.jit(traced_body)(tnp.asarray(x)), expected(x))


def test_vmap_writes_to_arrays_created_inside():
    xs = np.arange(10.0).reshape(2, 5)
    out = jax.vmap(traced_body)(tnp.asarray(xs))
    assert_same(out, np.stack([expected(x) for x in xs]))


def test_grad_through_writes():
    def reference(x):  # the same program as functional jax.numpy updates
        a = jnp.zeros(5).at[1:3].set(x[:2]).at[jnp.array([0, 4])].set(x[2:4])
        return (a.at[4].add(10.0) * jnp.arange(5.0)).sum()
    g = jax.grad(lambda x: (traced_body(x) * tnp.arange(5.0)).sum().data)(tnp.arange(5.0))
    assert_same(tnp.asarray(g), np.asarray(jax.grad(reference)(jnp.arange(5.0))))


def test_writes_to_traced_arguments_and_their_views():
    def f(x):
        v = x[1:]
        v[0] = 100.0
        x += 1
        return x, v
    x, v = jax.jit(f)(tnp.arange(3.0))
    assert_same(x, np.array([1.0, 101.0, 3.0]))
    assert_same(v, np.array([101.0, 3.0]))


@pytest.mark.parametrize("transform", [jax.jit, jax.vmap])
def test_write_to_outside_array_raises(transform):
    outside = tnp.zeros(3)

    def f(x):
        outside[0] = x.sum()
        return x
    with pytest.raises(tnp.TnpTracingError):
        transform(f)(tnp.ones((3, 3)))
    assert_same(outside, np.zeros(3))


def test_inplace_operator_on_outside_array_raises():
    outside = tnp.zeros(3)

    def f(x):
        outside[...] += x
        return x
    with pytest.raises(tnp.TnpTracingError):
        jax.jit(f)(tnp.ones(3))


def test_capture_context_takes_outside_writes():
    outside = tnp.zeros(3)
    taken = []

    class Capture:
        def capture(self, root):
            taken.append(root)
            return True
    ctx = Capture()

    def f(x):
        tracing.push(ctx)
        try:
            outside[0] = 1.0
        finally:
            tracing.pop(ctx)
        return x
    jax.jit(f)(tnp.ones(3))
    assert taken and taken[0] is outside


@pytest.mark.parametrize("transform", [jax.jit, jax.vmap])
def test_boolean_mask_read_raises_naming_alternative(transform):
    with pytest.raises(tnp.TnpTracingError, match="tnp.where"):
        transform(lambda x: x[x > 1])(tnp.arange(6.0).reshape(2, 3))


def test_host_mask_and_static_indices_work_under_jit():
    mask = np.array([True, False, True])
    out = jax.jit(lambda x: x[mask] + x[1:, None][0])(tnp.arange(3.0))
    n = np.arange(3.0)
    assert_same(out, n[mask] + n[1:, None][0])


def test_out_of_bounds_not_checked_under_jit():
    """Documented: under tracing an index array's values are unknown; JAX clamps the read."""
    out = jax.jit(lambda x, i: x[i])(tnp.arange(3.0), jnp.array([5]))
    assert out.shape == (1,)
    with pytest.raises(IndexError):
        tnp.arange(3.0)[jnp.array([5])]  # eagerly: NumPy's IndexError


def test_traced_index_into_eager_array_created_inside():
    def f(i):
        a = tnp.arange(4.0)
        a[i] = -1.0
        return a[i]
    assert_same(jax.jit(f)(2), np.float64(-1.0))


def _count_primitive(jaxpr, name):
    n = 0
    for eqn in jaxpr.eqns:
        n += eqn.primitive.name == name
        for p in eqn.params.values():
            inner = getattr(p, "jaxpr", None)
            if inner is not None:
                n += _count_primitive(getattr(inner, "jaxpr", inner), name)
    return n


def test_augmented_slice_assignment_writes_once():
    """``u[s] += x`` is ``t = u[s]; t += x; u[s] = t``: the last step writes a view into its own
    place and is skipped, so a compiled stencil step has one update, not two."""
    def step(x):
        u = tnp.asarray(x).copy()
        u[1:-1] += 0.5 * u[:-2]
        return u

    x = np.arange(6.0)
    jaxpr = jax.make_jaxpr(lambda v: step(v)._value)(x)
    assert _count_primitive(jaxpr.jaxpr, "dynamic_update_slice") == 1
    expected_u = x.copy()
    expected_u[1:-1] += 0.5 * expected_u[:-2]
    assert_same(step(x), expected_u)
