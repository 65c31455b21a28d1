"""The one front end (``tnp._core.dispatch.frontend``): every public function is an entry, and an error
raised inside JAX becomes the one NumPy raises for the same call."""
import types

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tnp
import tnp.fft
import tnp.lib.stride_tricks
import tnp.linalg
import tnp.random
from tnp._core.dispatch import frontend
from tnp._core.dispatch.np_doc import REGISTRY

ENTRY_CODE = frontend.entry(lambda: None, np.add).__code__


def _public_functions():
    for mod in (tnp, tnp.linalg, tnp.fft, tnp.random, tnp.lib.stride_tricks):
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for n in names:
            f = getattr(mod, n)
            if isinstance(f, types.FunctionType):
                yield f"{mod.__name__}.{n}", f


def test_every_public_function_is_an_entry():
    functions = dict(_public_functions())
    assert len(functions) > 300
    not_entries = sorted(n for n, f in functions.items() if f.__code__ is not ENTRY_CODE)
    assert not_entries == []


def test_every_registered_function_is_an_entry():
    functions = [f for f in REGISTRY.values() if isinstance(f, types.FunctionType)]
    assert functions and all(f.__code__ is ENTRY_CODE for f in functions)


def _numpy_concat(a, b):
    return np.concatenate([a, b])


def _jax_concat(a, b):  # an implementation that lets JAX's own error escape
    return tnp.asarray(jnp.concatenate([jnp.asarray(a), jnp.asarray(b)]))


@pytest.mark.usefixtures("device_placement")  # errors raised inside JAX
@pytest.mark.parametrize("shapes", [((2, 3), (3, 2)), ((2,), (2, 2)), ((2, 3), (2,))])
def test_jax_error_becomes_numpys(shapes):
    a, b = (np.ones(s) for s in shapes)
    with pytest.raises(Exception) as expected:
        _numpy_concat(a, b)
    with pytest.raises(Exception) as jax_raised:
        _jax_concat(tnp.asarray(a), tnp.asarray(b))
    assert frontend.from_jax(jax_raised.value)
    fn = frontend.entry(_jax_concat, _numpy_concat)
    with pytest.raises(Exception) as actual:
        fn(tnp.asarray(a), tnp.asarray(b))
    assert type(actual.value) is type(expected.value)
    assert str(actual.value) == str(expected.value)
    assert actual.value.__suppress_context__  # JAX's text is not shown as its context


@pytest.mark.usefixtures("device_placement")  # errors raised inside JAX
def test_data_dependent_error_asked_on_host_copies():
    """NumPy's error depends on the values: asked on host copies; ``out`` is not written."""
    def numpy_take(a, idx, out=None):
        return np.take(a, idx, out=out)

    def jax_failing(a, idx, out=None):
        jnp.zeros(2) + jnp.zeros(3)  # some error inside JAX

    a, idx, out = np.arange(5.), np.array([1, 9]), np.full(2, -1.)
    with pytest.raises(Exception) as expected:
        numpy_take(a, idx, out=out.copy())
    t_out = tnp.asarray(out)
    with pytest.raises(Exception) as actual:
        frontend.entry(jax_failing, numpy_take)(tnp.asarray(a), tnp.asarray(idx), out=t_out)
    assert type(actual.value) is type(expected.value)
    assert str(actual.value) == str(expected.value)
    np.testing.assert_array_equal(np.asarray(t_out), out)


@pytest.mark.usefixtures("device_placement")  # errors raised inside JAX
def test_error_numpy_does_not_raise_is_kept():
    """NumPy accepts the call: the implementation's error is a tnp bug and propagates."""
    def jax_failing(a):
        return jnp.zeros(2) + jnp.zeros(3)

    np.negative(np.ones(3))  # NumPy accepts it
    with pytest.raises(TypeError, match="incompatible shapes"):
        frontend.entry(jax_failing, np.negative)(tnp.ones(3))


@pytest.mark.usefixtures("device_placement")  # errors raised inside JAX
def test_errors_not_from_jax_pass_unchanged():
    def own_error(a):
        raise ValueError("tnp's own message")

    with pytest.raises(ValueError, match="tnp's own message"):
        frontend.entry(own_error, np.negative)(tnp.ones(3))


@pytest.mark.usefixtures("device_placement")  # errors raised inside JAX
def test_device_out_of_memory_is_memory_error():
    def exhausted(a):
        raise jax.errors.JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating bytes")

    with pytest.raises(MemoryError):
        frontend.entry(exhausted, np.negative)(tnp.ones(3))
