"""tnp_ext.jit's cached call paths: every layout (views, aliasing, captured and state arrays,
read-only flags, shape-dependent writes, nesting) still has NumPy's semantics, read-only calls
leave the caller's buffers alone, and written buffers are donated from the first call."""
import jax
import jax.numpy as jnp
import numpy
import pytest

import tnp
import tnp_ext
from tnp._core.engine import caches
from engine import assert_same


def _pair(values):
    return tnp.asarray(numpy.array(values)), numpy.array(values)


def test_views_with_other_offsets_are_not_served_a_stale_trace():
    bt, bn = tnp.arange(12.0).reshape(3, 4), numpy.arange(12.0).reshape(3, 4)

    def f(v):
        v += 1
        return v * 2

    j = tnp_ext.jit(f)
    for view in (lambda b: b[:, 1:3], lambda b: b[:, 0:2], lambda b: b.T[1:3, :].T, lambda b: b):
        assert_same(j(view(bt)), f(view(bn)))
        assert_same(bt, bn)


def test_aliased_arguments_then_distinct_ones():
    at, an = _pair([1.0, 2.0, 3.0])
    ct, cn = _pair([5.0, 6.0, 7.0])

    def f(x, y):
        x += 1
        y *= 2
        return x + y

    j = tnp_ext.jit(f)
    for args_t, args_n in (((at, ct), (an, cn)), ((at, at), (an, an)), ((ct, at), (cn, an))):
        assert_same(j(*args_t), f(*args_n))
        assert_same(at, an, path="a")
        assert_same(ct, cn, path="c")


_state_t, _state_n = tnp.zeros(3), numpy.zeros(3)


def test_captured_global_rebound_between_calls():
    global _state_t, _state_n

    def step_t(x):
        _state_t[...] += x
        return _state_t * 1

    def step_n(x):
        _state_n[...] += x
        return _state_n * 1

    j = tnp_ext.jit(step_t)
    for i in range(2):
        assert_same(j(tnp.full(3, float(i))), step_n(numpy.full(3, float(i))))
    old_t = _state_t
    _state_t, _state_n = tnp.ones(3), numpy.ones(3)
    assert_same(j(tnp.full(3, 2.0)), step_n(numpy.full(3, 2.0)))
    assert_same(_state_t, _state_n)
    assert_same(old_t, numpy.zeros(3) + 1.0, path="the array the global held before")


def test_shape_dependent_writes():
    def f(x):
        if x.shape[0] > 2:
            x += 1
        return x.sum()

    j = tnp_ext.jit(f)
    arrays_t = {2: tnp.ones(2), 4: tnp.ones(4)}
    arrays_n = {2: numpy.ones(2), 4: numpy.ones(4)}
    for n in (2, 4, 4, 2, 4):
        assert_same(j(arrays_t[n]), f(arrays_n[n]))
        for k in arrays_t:
            assert_same(arrays_t[k], arrays_n[k], path=f"array of size {k}")


def test_read_only_argument_after_a_writeable_one():
    def f(x):
        x[0] = 7.0
        return x * 1

    j = tnp_ext.jit(f)
    at, an = _pair([1.0, 2.0])
    assert_same(j(at), f(an))
    rt, rn = _pair([1.0, 2.0])
    rt.flags.writeable = False
    rn.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f(rn)
    with pytest.raises(ValueError, match="read-only"):
        j(rt)
    assert_same(rt, rn)


def test_scalar_results_as_arguments_and_python_scalars():
    def f(x, s, c):
        return x * s + c

    j = tnp_ext.jit(f)
    xt, xn = _pair([1.0, 2.0, 3.0])
    for c in (2.0, 3.0):
        assert_same(j(xt, xt.sum(), c), f(xn, xn.sum(), c))
        assert_same(j(xt, xt, c), f(xn, xn, c))


@pytest.mark.usefixtures("device_placement")  # device buffers
def test_read_only_call_keeps_the_callers_buffer():
    a = tnp.arange(4.0)
    view = a[1:]
    j = tnp_ext.jit(lambda x: x * 2)
    for _ in range(2):
        buf = a._root._buf
        assert_same(j(a), numpy.arange(4.0) * 2)
        assert a._root._buf is buf  # not donated, not written back
        assert not buf.is_deleted()
    assert_same(view, numpy.arange(4.0)[1:])


@pytest.mark.usefixtures("device_placement")  # device buffers
def test_writer_is_traced_once_and_in_place_from_the_first_call():
    traces = []

    def f(x):
        traces.append(1)
        x += 1

    a = tnp.zeros(1000)
    pointer = a._root._buf.unsafe_buffer_pointer()
    j = tnp_ext.jit(f)
    for _ in range(3):
        j(a)
        assert a._root._buf.unsafe_buffer_pointer() == pointer
    assert len(traces) == 1
    assert_same(a, numpy.zeros(1000) + 3)


@pytest.mark.parametrize("n", [8, 1000])
def test_uploaded_array_is_written_in_place(device_placement, n):
    # NumPy's data 64-byte aligned: JAX on a CPU may alias it rather than copy; the root's
    # buffer must still be JAX's own, or the first in-place write is a copy (donation declined)
    from tnp._core.dispatch import tiers
    raw = numpy.zeros(n * 8 + 64, numpy.uint8)
    off = -raw.ctypes.data % 64
    host = raw[off:off + n * 8].view(numpy.float64)
    a = tiers.new_root(host)
    pointer = a._root._buf.unsafe_buffer_pointer()
    assert pointer != host.ctypes.data

    def f(x):
        x += 1

    j = tnp_ext.jit(f)
    for _ in range(2):
        j(a)
        assert a._root._buf.unsafe_buffer_pointer() == pointer
    assert_same(a, numpy.zeros(n) + 2)


def test_shared_buffer_is_copied_not_donated_after_donating_calls():
    a = tnp.zeros(5)
    j = tnp_ext.jit(lambda x: x.__iadd__(1))
    j(a)
    j(a)
    held = a.data
    j(a)
    assert not held.is_deleted()
    assert_same(tnp.asarray(held), numpy.zeros(5) + 2)
    assert_same(a, numpy.zeros(5) + 3)


_inner_state = tnp.zeros(2)


def _bump(x):
    _inner_state[...] += x
    return x * 1


def test_nested_jit_writing_a_global_the_outer_function_does_not_name():
    inner = tnp_ext.jit(_bump)
    outer = tnp_ext.jit(lambda x: inner(x) + inner(x))
    expected = numpy.zeros(2)
    for _ in range(2):
        assert_same(outer(tnp.ones(2)), numpy.ones(2) * 2)
        expected += 2
        assert_same(_inner_state, expected)


def test_nested_jit_write_under_plain_jax_jit_raises():
    inner = tnp_ext.jit(_bump)
    before = numpy.asarray(_inner_state)
    with pytest.raises(tnp.TnpTracingError):
        jax.jit(lambda x: inner(tnp.asarray(x)).data)(jnp.ones(2))
    assert_same(_inner_state, before)


def test_keyword_and_static_calls_share_semantics_with_positional_ones():
    def f(x, n=2, *, scale=1.0):
        x *= scale
        return x ** n

    j = tnp_ext.jit(f, static_argnames="n")
    at, an = _pair([1.0, 2.0])
    assert_same(j(at), f(an))
    assert_same(j(at, n=3, scale=2.0), f(an, n=3, scale=2.0))
    assert_same(j(x=at, scale=0.5), f(x=an, scale=0.5))
    assert_same(at, an)


def test_python_scalar_arguments_write_without_retracing():
    # The memory bound drops all of JAX's executables after OTHERS compiles outside tnp's
    # kernels (``caches``): start its count afresh, so that the count left by earlier tests in
    # this process cannot fall due between these calls and retrace them.
    caches.clear()
    traces = []
    traces_info = lambda: repr(traces)

    def f(x, s):
        if isinstance(x, tnp.ndarray):
            traces.append((type(s), repr(s), type(x._buf).__name__))
        x += s
        return x * s

    j = tnp_ext.jit(f)
    at, an = _pair([1.0, 2.0])
    for s in (1.5, 2.5, 3, 4):
        assert_same(j(at, s), f(an, s))
        assert_same(at, an)
    assert len(traces) == 2, traces_info()  # one per scalar type, whatever the values


def test_static_positional_argument_and_unhashable_static():
    def f(x, n):
        return x ** n

    j = tnp_ext.jit(f, static_argnums=1)
    at, an = _pair([1.0, 2.0])
    for n in (2, 3, 2):
        assert_same(j(at, n), f(an, n))
    with pytest.raises(ValueError, match="hash"):
        j(at, [2])


def test_array_bound_by_partial_is_written_back():
    import functools

    def bump(state, x):
        state[...] += x
        return state.sum()

    st, sn = _pair([0.0, 0.0])
    j = tnp_ext.jit(functools.partial(bump, st))
    for i in range(3):
        assert_same(j(tnp.asarray(float(i))), bump(sn, float(i)))
        assert_same(st, sn)


def test_tuple_and_list_arguments_write_through_and_alias():
    def f(params, x):
        params[0][...] += x
        return params[1] * x

    j = tnp_ext.jit(f)
    at, an = _pair([1.0, 2.0])
    bt, bn = _pair([3.0, 4.0])
    cases = [(lambda a, b: (a, b), 2.0), (lambda a, b: [b, a], 3.0), (lambda a, b: (a, a), 0.5),
             (lambda a, b: (a, b), 1.0)]
    for make, x in cases:
        assert_same(j(make(at, bt), x), f(make(an, bn), x))
        assert_same(at, an, path="a")
        assert_same(bt, bn, path="b")
