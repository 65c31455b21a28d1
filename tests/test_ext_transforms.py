"""tnp_ext transforms on tnp functions equal the same function written in jax.numpy."""
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy
import pytest

import tnp
import tnp_ext
from engine import assert_same


def _loss(xp, w, x):
    return xp.tanh(xp.matmul(x, w)).sum() if xp is jnp else xp.tanh(x @ w).sum()


def _np(x):
    return numpy.asarray(x)


W = numpy.linspace(-1, 1, 6).reshape(3, 2)
X = numpy.linspace(0, 2, 12).reshape(4, 3)


def _same(tnp_out, jax_out, rtol=1e-12):
    tnp_leaves = jax.tree_util.tree_leaves(tnp_out, is_leaf=lambda v: isinstance(v, tnp.ndarray))
    jax_leaves = jax.tree_util.tree_leaves(jax_out)
    assert len(tnp_leaves) == len(jax_leaves)
    for t, j in zip(tnp_leaves, jax_leaves):
        assert isinstance(t, tnp.ndarray), type(t)
        assert_same(t, numpy.asarray(j), rtol=rtol)


@pytest.mark.parametrize("transform", ["grad", "value_and_grad", "jacfwd", "jacrev", "hessian"])
def test_derivatives(transform):
    t = getattr(tnp_ext, transform)(lambda w: _loss(tnp, w, tnp.asarray(X)))
    j = getattr(jax, transform)(lambda w: _loss(jnp, w, jnp.asarray(X)))
    _same(t(tnp.asarray(W)), j(jnp.asarray(W)))


def test_grad_argnums_has_aux():
    t = tnp_ext.grad(lambda w, x: (_loss(tnp, w, x), x.sum()), argnums=(0, 1), has_aux=True)
    j = jax.grad(lambda w, x: (_loss(jnp, w, x), x.sum()), argnums=(0, 1), has_aux=True)
    _same(t(tnp.asarray(W), tnp.asarray(X)), j(jnp.asarray(W), jnp.asarray(X)))


def test_grad_through_in_place_writes():
    def f_tnp(w):
        y = w * 1.0
        y[0] *= 3.0
        y += w
        return (y * y).sum()

    def f_jax(w):
        y = w.at[0].multiply(3.0)
        y = y + w
        return (y * y).sum()
    _same(tnp_ext.grad(f_tnp)(tnp.asarray(W)), jax.grad(f_jax)(jnp.asarray(W)))


def test_jvp_vjp_linearize():
    f_t = lambda w: tnp.sin(w) * w  # noqa: E731
    f_j = lambda w: jnp.sin(w) * w  # noqa: E731
    w, v = W, numpy.ones_like(W)
    _same(tnp_ext.jvp(f_t, (tnp.asarray(w),), (tnp.asarray(v),)),
          jax.jvp(f_j, (jnp.asarray(w),), (jnp.asarray(v),)))
    out_t, back_t = tnp_ext.vjp(f_t, tnp.asarray(w))
    out_j, back_j = jax.vjp(f_j, jnp.asarray(w))
    _same(out_t, out_j)
    _same(back_t(tnp.asarray(v)), back_j(jnp.asarray(v)))
    out_t, lin_t = tnp_ext.linearize(f_t, tnp.asarray(w))
    out_j, lin_j = jax.linearize(f_j, jnp.asarray(w))
    _same(lin_t(tnp.asarray(v)), lin_j(jnp.asarray(v)))


def test_stop_gradient_and_checkpoint():
    t = tnp_ext.grad(lambda w: (tnp_ext.stop_gradient(w) * w).sum())(tnp.asarray(W))
    j = jax.grad(lambda w: (jax.lax.stop_gradient(w) * w).sum())(jnp.asarray(W))
    _same(t, j)
    t = tnp_ext.grad(tnp_ext.checkpoint(lambda w: tnp.sin(w).sum()))(tnp.asarray(W))
    _same(t, jax.grad(lambda w: jnp.sin(w).sum())(jnp.asarray(W)))


def test_custom_jvp_and_vjp():
    @tnp_ext.custom_jvp
    def f(x):
        return tnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return tnp.sin(x), 2.0 * t

    _same(tnp_ext.grad(lambda x: f(x).sum())(tnp.asarray(W)), 2.0 * jnp.ones_like(W))

    @tnp_ext.custom_vjp
    def g(x):
        return x * 1.0

    g.defvjp(lambda x: (x * 1.0, None), lambda res, ct: (ct * 5.0,))
    _same(tnp_ext.grad(lambda x: g(x).sum())(tnp.asarray(W)), 5.0 * jnp.ones_like(W))


def test_vmap_axes_and_nesting():
    t = tnp_ext.vmap(lambda a, b: a @ b, in_axes=(0, None))(tnp.asarray(X), tnp.asarray(W))
    j = jax.vmap(lambda a, b: a @ b, in_axes=(0, None))(jnp.asarray(X), jnp.asarray(W))
    _same(t, j)
    t = tnp_ext.vmap(tnp_ext.vmap(lambda s: s * 2.0))(tnp.asarray(X))
    _same(t, jnp.asarray(X) * 2.0)
    t = tnp_ext.vmap(lambda a: a.sum(), out_axes=0)(tnp.asarray(X).T)
    _same(t, jnp.asarray(X).T.sum(axis=1))


def _mlp_params():
    rng = numpy.random.default_rng(0)
    return (rng.normal(size=(3, 8)), rng.normal(size=8), rng.normal(size=(8, 1)))


def _mlp_loss(params, x, y):
    w1, b1, w2 = params
    h = tnp.tanh(x @ w1 + b1)
    return ((h @ w2)[0] - y) ** 2


def test_per_example_gradients_loop_map_vmap_jit():
    """The talk's example: per-example gradients by a loop, map, vmap and jit(vmap(grad))."""
    params = tuple(tnp.asarray(p) for p in _mlp_params())
    xs, ys = tnp.asarray(X), tnp.asarray(numpy.arange(4.0))
    g = tnp_ext.grad(_mlp_loss)
    loop = [g(params, xs[i], ys[i]) for i in range(4)]
    stacked = tuple(tnp.stack([gi[k] for gi in loop]) if hasattr(tnp, "stack") else None
                    for k in range(3))
    mapped = tnp_ext.map(lambda xy: g(params, xy[0], xy[1]), (xs, ys))
    vmapped = tnp_ext.vmap(g, in_axes=(None, 0, 0))(params, xs, ys)
    compiled = tnp_ext.jit(tnp_ext.vmap(g, in_axes=(None, 0, 0)))(params, xs, ys)
    w1, b1, w2 = (jnp.asarray(p) for p in _mlp_params())

    def jloss(p, x, y):
        h = jnp.tanh(x @ p[0] + p[1])
        return ((h @ p[2])[0] - y) ** 2
    ref = jax.vmap(jax.grad(jloss), in_axes=(None, 0, 0))((w1, b1, w2), jnp.asarray(X),
                                                           jnp.arange(4.0))
    for got in (stacked, mapped, vmapped, compiled):
        _same(got, ref, rtol=1e-10)


def test_control_flow():
    x = tnp.asarray(numpy.arange(5.0))
    _same(tnp_ext.cond(x.sum() > 3, lambda a: a * 2, lambda a: a - 1, x),
          jnp.arange(5.0) * 2)
    _same(tnp_ext.switch(1, [lambda a: a, lambda a: a + 10], x), jnp.arange(5.0) + 10)
    _same(tnp_ext.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2),
                             (0, x))[1], jnp.arange(5.0) * 32)
    _same(tnp_ext.fori_loop(0, 3, lambda i, a: a + i, x), jnp.arange(5.0) + 3)
    carry, ys = tnp_ext.scan(lambda c, v: (c + v, c * v), tnp.asarray(0.0), x)
    jc, jys = jax.lax.scan(lambda c, v: (c + v, c * v), 0.0, jnp.arange(5.0))
    _same((carry, ys), (jc, jys))


def test_nn_extensions_against_jax():
    x = numpy.linspace(-2, 2, 2 * 4 * 4 * 3).reshape(2, 4, 4, 3)
    k = numpy.linspace(-1, 1, 2 * 2 * 3 * 5).reshape(2, 2, 3, 5)
    _same(tnp_ext.conv(x, k), jax.lax.conv_general_dilated(
        jnp.asarray(x), jnp.asarray(k), (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"),
        precision=jax.lax.Precision.HIGHEST))
    _same(tnp_ext.max_pool(x, 2), jax.lax.reduce_window(
        jnp.asarray(x), -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"))
    _same(tnp_ext.avg_pool(x, 2), jax.lax.reduce_window(
        jnp.asarray(x), 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4)
    _same(tnp_ext.logsumexp(x, axis=1), jax.scipy.special.logsumexp(jnp.asarray(x), axis=1))
    _same(tnp_ext.softmax(x), jax.nn.softmax(jnp.asarray(x)))
    _same(tnp_ext.log_softmax(x), jax.nn.log_softmax(jnp.asarray(x)))
    _same(tnp_ext.sigmoid(x), jax.nn.sigmoid(jnp.asarray(x)))
    _same(tnp_ext.erf(x), jax.scipy.special.erf(jnp.asarray(x)))
    _same(tnp_ext.dynamic_slice(x, (0, 1, 1, 0), (1, 2, 2, 3)),
          jax.lax.dynamic_slice(jnp.asarray(x), (0, 1, 1, 0), (1, 2, 2, 3)))
    _same(tnp_ext.dynamic_update_slice(x, numpy.zeros((1, 1, 1, 3)), (1, 1, 1, 0)),
          jax.lax.dynamic_update_slice(jnp.asarray(x), jnp.zeros((1, 1, 1, 3)), (1, 1, 1, 0)))
    keys, vals = numpy.array([3.0, 1.0, 2.0]), numpy.array([10, 20, 30])
    _same(tnp_ext.sort_key_val(keys, vals), jax.lax.sort_key_val(jnp.asarray(keys),
                                                                  jnp.asarray(vals)))
    shapes = tnp_ext.eval_on_shapes(lambda a: a @ a.T)(tnp.asarray(X))
    assert shapes.shape == (4, 4) and shapes.dtype == numpy.float64


def test_export_and_deserialize_in_fresh_process(tmp_path):
    blob = tnp_ext.export(lambda a, b: tnp.sin(a) @ b, tnp.asarray(X), tnp.asarray(W))
    path = tmp_path / "fn.bin"
    path.write_bytes(blob)
    code = (
        "import numpy, tnp, tnp_ext, sys\n"
        f"f = tnp_ext.deserialize(open({str(path)!r}, 'rb').read())\n"
        "X = numpy.linspace(0, 2, 12).reshape(4, 3); W = numpy.linspace(-1, 1, 6).reshape(3, 2)\n"
        "r = f(tnp.asarray(X), tnp.asarray(W))\n"
        "assert isinstance(r, tnp.ndarray)\n"
        "numpy.save(sys.argv[1], numpy.asarray(r))\n")
    out = tmp_path / "r.npy"
    subprocess.run([sys.executable, "-c", code, str(out)], check=True, timeout=120)
    assert_same(numpy.load(out), numpy.sin(X) @ W, host_ok=True)  # read back by NumPy
