"""tnp arrays in JAX's own ecosystem: jax.numpy, jax.nn, jax.scipy, jax.lax and optax, eagerly,
under jax.jit and under tnp_ext.jit. Each call is compared with the same JAX call on
``jnp.asarray(numpy_array)`` (plain JAX on the same data is the oracle).

The rule these tests pin down (docs/interop.md):
- a JAX *function* returns what it always returns, a ``jax.Array``, whether given tnp arrays or
  not; JAX's *transformations* and tree utilities (``jax.jit``, ``vmap``, ``grad``,
  ``lax.fori_loop``/``scan`` carries, optax's ``update``/``apply_updates``) keep the pytree: a tnp
  array the function returns stays a tnp array. ``tnp_ext.jit`` always returns tnp arrays.
- mixed operators: the left operand decides. ``tnp_array + jax_array`` is a tnp array,
  ``jax_array + tnp_array`` a ``jax.Array`` (both types have ``__array_priority__`` 100).
- jax.numpy and jax.scipy functions take tnp arrays directly, on every supported JAX (0.6.1 and
  later; before it, jax.numpy's own jitted functions such as ``jnp.sum`` refused them). jax.lax,
  jax.nn and optax's losses take ``x.data``, the tnp array's ``jax.Array`` (zero copy): some of
  them go straight to a lax primitive, which refuses objects with ``__jax_array__``, some call
  methods of their argument with JAX's meanings (a tnp array's are NumPy's), and which ones
  refuse differs between JAX versions. ``x.data`` works everywhere and in every version.
"""
import jax
import jax.numpy as jnp
import numpy
import optax
import pytest

import tnp
import tnp_ext

RNG = numpy.random.default_rng(7)
X = RNG.standard_normal((4, 5))
Y = RNG.standard_normal((4, 5))
SQ = RNG.standard_normal((4, 4)) + 4 * numpy.eye(4)


def _same(actual, expected, rtol=1e-13, atol=1e-15):
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    numpy.testing.assert_allclose(numpy.asarray(actual), numpy.asarray(expected), rtol=rtol,
                                  atol=atol)


def _is_jax(a):
    return isinstance(a, jax.Array) and not isinstance(a, tnp.ndarray)


# ---- JAX functions on tnp arrays: a jax.Array comes back --------------------------------------
DIRECT = {
    "jnp.sin": lambda a, b: jnp.sin(a),
    "jnp.sum(axis=1)": lambda a, b: jnp.sum(a, axis=1),
    "jnp.dot": lambda a, b: jnp.dot(a, b.T),
    "jnp.where": lambda a, b: jnp.where(a > 0, a, b),
    "jnp.cumsum": lambda a, b: jnp.cumsum(a, axis=0),
    "jnp.linalg.norm": lambda a, b: jnp.linalg.norm(a, axis=0),
    "jax.scipy.special.erf": lambda a, b: jax.scipy.special.erf(a),
    "jax.scipy.special.logsumexp": lambda a, b: jax.scipy.special.logsumexp(a, axis=1),
    "jax.scipy.stats.norm.pdf": lambda a, b: jax.scipy.stats.norm.pdf(a),
}
# jax.lax, jax.nn and optax's losses: the tnp array's jax.Array, x.data (some of them take tnp
# arrays directly on some JAX versions, e.g. jax.nn.softmax from JAX 0.6.1 but not before)
VIA_DATA = {
    "jax.nn.relu": lambda a, b: jax.nn.relu(a),
    "jax.nn.softmax": lambda a, b: jax.nn.softmax(a, axis=-1),
    "optax.l2_loss": lambda a, b: optax.l2_loss(a, b),
    "jax.nn.sigmoid": lambda a, b: jax.nn.sigmoid(a),
    "jax.nn.gelu": lambda a, b: jax.nn.gelu(a),
    "jax.nn.log_softmax": lambda a, b: jax.nn.log_softmax(a),
    "jax.lax.sin": lambda a, b: jax.lax.sin(a),
    "jax.lax.add": lambda a, b: jax.lax.add(a, b),
    "jax.lax.dot_general": lambda a, b: jax.lax.dot_general(a, b, (((1,), (1,)), ((), ()))),
    "optax.softmax_cross_entropy": lambda a, b: optax.softmax_cross_entropy(
        a, jax.nn.softmax(b)),
    "optax.sigmoid_binary_cross_entropy": lambda a, b: optax.sigmoid_binary_cross_entropy(
        a, jax.nn.sigmoid(b)),
}


@pytest.mark.parametrize("name", sorted(DIRECT))
def test_jax_functions_take_tnp_arrays(name):
    fn = DIRECT[name]
    want = fn(jnp.asarray(X), jnp.asarray(Y))
    got = fn(tnp.asarray(X), tnp.asarray(Y))
    assert _is_jax(got)
    _same(got, want)
    jitted = jax.jit(fn)(tnp.asarray(X), tnp.asarray(Y))
    assert _is_jax(jitted)
    _same(jitted, want)


@pytest.mark.parametrize("name", sorted(VIA_DATA))
def test_jax_functions_through_data(name):
    fn = VIA_DATA[name]
    want = fn(jnp.asarray(X), jnp.asarray(Y))
    a, b = tnp.asarray(X), tnp.asarray(Y)
    got = fn(a.data, b.data)
    assert _is_jax(got)
    _same(got, want)
    # under jax.jit, the tnp arrays pass as pytrees and .data is the traced jax.Array
    _same(jax.jit(lambda a, b: fn(a.data, b.data))(a, b), want)
    # under tnp_ext.jit, the result comes back as a tnp array
    got = tnp_ext.jit(lambda a, b: fn(a.data, b.data))(a, b)
    assert isinstance(got, tnp.ndarray)
    _same(got, want)


def test_jax_scipy_linalg_and_jnp_linalg():
    a = tnp.asarray(SQ)
    _same(jax.scipy.linalg.expm(a * 0.1), jax.scipy.linalg.expm(jnp.asarray(SQ) * 0.1),
          rtol=1e-12)
    _same(jnp.linalg.solve(a, tnp.ones(4)), jnp.linalg.solve(jnp.asarray(SQ), jnp.ones(4)))
    _same(jax.scipy.linalg.cho_factor(a @ a.T)[0],
          jax.scipy.linalg.cho_factor(jnp.asarray(SQ) @ jnp.asarray(SQ).T)[0], rtol=1e-12)


def test_views_go_in_as_their_values():
    a = tnp.asarray(X)
    view = a[1:3, ::2]
    got = jnp.exp(view)
    _same(got, jnp.exp(jnp.asarray(X)[1:3, ::2]))
    _same(jax.nn.sigmoid(view.data), jax.nn.sigmoid(jnp.asarray(X)[1:3, ::2]))


# ---- transformations keep the pytree -----------------------------------------------------------
def test_jax_jit_keeps_tnp_results():
    def f(a):
        return tnp.tanh(a) * 2, jnp.tanh(a) * 2
    got_tnp, got_jax = jax.jit(f)(tnp.asarray(X))
    want = jnp.tanh(jnp.asarray(X)) * 2
    assert isinstance(got_tnp, tnp.ndarray) and _is_jax(got_jax)
    _same(got_tnp, want)
    _same(got_jax, want)


def test_tnp_ext_jit_returns_tnp_arrays():
    def f(a, b):
        return jnp.sin(a) + jax.nn.sigmoid(b.data)
    got = tnp_ext.jit(f)(tnp.asarray(X), tnp.asarray(Y))
    assert isinstance(got, tnp.ndarray)
    _same(got, jnp.sin(jnp.asarray(X)) + jax.nn.sigmoid(jnp.asarray(Y)))


def test_grad_and_vmap_over_jax_calls():
    def loss(w):
        return jnp.sum(jax.nn.softplus(w) ** 2)
    want = jax.grad(loss)(jnp.asarray(X))
    got = jax.grad(loss)(tnp.asarray(X))
    assert isinstance(got, tnp.ndarray)
    _same(got, want)
    got = tnp_ext.grad(lambda w: loss(w))(tnp.asarray(X))
    assert isinstance(got, tnp.ndarray)
    _same(got, want)
    got = jax.vmap(lambda r: jnp.dot(r, r))(tnp.asarray(X))
    _same(got, jax.vmap(lambda r: jnp.dot(r, r))(jnp.asarray(X)))


def test_lax_control_flow_with_tnp_carries():
    def body(i, c):
        return c * 0.5 + i
    got = jax.lax.fori_loop(0, 4, body, tnp.asarray(X))
    assert isinstance(got, tnp.ndarray)
    _same(got, jax.lax.fori_loop(0, 4, body, jnp.asarray(X)))

    def step(c, row):
        return c + row, c * row
    got_c, got_ys = jax.lax.scan(step, tnp.zeros(5), tnp.asarray(X))
    want_c, want_ys = jax.lax.scan(step, jnp.zeros(5), jnp.asarray(X))
    assert isinstance(got_c, tnp.ndarray)
    _same(got_c, want_c)
    _same(got_ys, want_ys)


def test_optax_training_step_on_tnp_params():
    tx = optax.adam(0.05)

    def loss(p):
        return jnp.mean((jnp.asarray(SQ) @ p["w"] - 1.0) ** 2)

    def train(params, steps=3):
        state = tx.init(params)
        for _ in range(steps):
            updates, state = tx.update(jax.grad(loss)(params), state, params)
            params = optax.apply_updates(params, updates)
        return params
    want = train({"w": jnp.asarray(X[:, 0])})
    got = train({"w": tnp.asarray(X[:, 0])})
    assert isinstance(got["w"], tnp.ndarray)
    _same(got["w"], want["w"], rtol=1e-12)
    got = tnp_ext.jit(train)({"w": tnp.asarray(X[:, 0])})
    assert isinstance(got["w"], tnp.ndarray)
    _same(got["w"], want["w"], rtol=1e-12)


# ---- mixed operators: the left operand decides -------------------------------------------------
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "<", "@", "**"])
def test_mixed_operators_left_operand_decides(op):
    f = eval(f"lambda a, b: a {op} b")
    b_np = Y.T if op == "@" else Y
    want = f(jnp.asarray(X), jnp.asarray(b_np))
    if op == "**":
        want = f(jnp.asarray(numpy.abs(X)), jnp.asarray(b_np))
    a_np = numpy.abs(X) if op == "**" else X
    left_tnp = f(tnp.asarray(a_np), jnp.asarray(b_np))
    left_jax = f(jnp.asarray(a_np), tnp.asarray(b_np))
    assert isinstance(left_tnp, tnp.ndarray)
    assert _is_jax(left_jax)
    _same(left_tnp, want, rtol=1e-12)
    _same(left_jax, want, rtol=1e-12)
    # and tnp against NumPy's answer for the same operator (dtype and values)
    numpy_want = f(a_np, b_np)
    _same(left_tnp, numpy_want, rtol=1e-12)


# ---- zero copy both ways -----------------------------------------------------------------------
def test_conversions_are_zero_copy():
    a = tnp.asarray(X)
    assert jnp.asarray(a).unsafe_buffer_pointer() == a.data.unsafe_buffer_pointer()
    j = jnp.asarray(Y)
    t = tnp.asarray(j)
    assert isinstance(t, tnp.ndarray) and t.data is j
    _same(t, jnp.asarray(Y))
