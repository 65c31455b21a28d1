"""Buffer donation in the write path: a write donates the root's buffer only when nothing else
holds it, so views, their cached values, user-held ``jax.Array``s (``arr.data``, pytree leaves,
the input of ``tnp.asarray``) and DLPack exports stay valid and keep their values."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tnp
from tnp._core.engine import lazy
from tnp._core.array import roots
from engine import assert_same, numpy_from_dlpack

# device buffers' donation
pytestmark = pytest.mark.usefixtures("compiled_tier", "device_placement")


def _ptr(a):
    return roots.buffer(a._root).unsafe_buffer_pointer()  # a pending value computed first


@pytest.fixture(params=[True, False], ids=["lazy", "eager"])
def lazy_mode(request):
    old = lazy.enable(request.param)
    yield request.param
    lazy.enable(old)


@pytest.mark.parametrize("n", [10**3, 10**6])
def test_sole_owner_write_is_in_place(n, lazy_mode):
    """Eagerly each write donates; lazily ``a[i:i + 3] += 1.0`` is pending until the next
    write, whose flush donates the buffer only the pending node holds."""
    a = tnp.zeros(n)
    a[1] = 1.0  # compile
    before = _ptr(a)
    for i in range(5):
        a[i] = float(i)
        a[i:i + 3] += 1.0
    assert _ptr(a) == before  # donated: the device buffer was updated in place


def test_whole_array_inplace_operators_donate(watch_donations, lazy_mode):
    """``a *= s``: the ufunc's operands no longer hold ``a``'s buffer when its result is
    written, so the write may donate it (the result buffer then becomes ``a``'s). Lazily,
    ``a *= 0.5; a += 1.0`` are pending and the ``out=`` write's flush donates the buffer."""
    a, ref = tnp.linspace(0.0, 1.0, 1000), np.linspace(0.0, 1.0, 1000)
    a *= 2.0  # compile
    ref *= 2.0
    donated = watch_donations()
    a *= 0.5
    a += 1.0
    tnp.multiply(a, 3.0, out=a)
    ref *= 0.5
    ref += 1.0
    np.multiply(ref, 3.0, out=ref)
    if lazy_mode:  # writes that force a pending value donate, and so do the flushes
        assert donated and all(donated)
    else:
        assert donated == [True] * 3
    assert_same(a, ref)


def test_user_held_data_survives_writes():
    a = tnp.arange(6.0)
    held = a.data
    a[0] = 100.0
    a += 1
    assert not held.is_deleted()
    assert_same(tnp.asarray(held), np.arange(6.0))
    n = np.arange(6.0)
    n[0] = 100.0
    n += 1
    assert_same(a, n)


def test_pytree_leaf_survives_writes():
    a = tnp.arange(4.0)
    (leaf,) = jax.tree_util.tree_leaves(a)
    a[...] = -1.0
    assert not leaf.is_deleted()
    assert_same(tnp.asarray(leaf), np.arange(4.0))


def test_wrapped_jax_array_survives_writes():
    j = jnp.arange(5.0)
    t = tnp.asarray(j)
    t[0] = 9.0
    assert not j.is_deleted()
    assert_same(tnp.asarray(j), np.arange(5.0))
    n = np.arange(5.0)
    n[0] = 9.0
    assert_same(t, n)


def test_views_and_their_caches_stay_valid():
    a = tnp.arange(12.0).reshape(3, 4)
    n = np.arange(12.0).reshape(3, 4)
    views = [lambda x: x[1:], lambda x: x.T, lambda x: x.view(), lambda x: x.reshape(3, 4),
             lambda x: x[1:][:, ::-1].T, lambda x: x.real]
    tv, nv = [f(a) for f in views], [f(n) for f in views]
    cached = [v.data for v in tv]  # each view's value is read and held by the user
    for k in range(3):
        a[k, k] = -k - 1.0
        n[k, k] = -k - 1.0
        tv[k][0] = 50.0 + k
        nv[k][0] = 50.0 + k
        for t, m in zip(tv, nv):
            assert_same(t, m)
    for c in cached:
        assert not c.is_deleted()
        c.block_until_ready()
    assert_same(a, n)


def test_dlpack_export_is_never_donated(lazy_mode):
    a = tnp.arange(5.0)
    exported = numpy_from_dlpack(a)
    before = exported.copy()
    a[0] = 42.0
    a *= 2
    np.testing.assert_array_equal(exported, before)
    n = np.arange(5.0)
    n[0] = 42.0
    n *= 2
    assert_same(a, n)


def test_dlpack_export_survives_a_pending_write(lazy_mode):
    """``a *= 2`` right after the export: lazily, the exported buffer is then held by the
    pending node alone, and its flush must not donate it."""
    a = tnp.arange(5.0)
    exported = numpy_from_dlpack(a)
    before = exported.copy()
    a *= 2
    b = a + 1
    np.testing.assert_array_equal(exported, before)
    n = np.arange(5.0)
    n *= 2
    assert_same(b, n + 1)
    assert_same(a, n)
    np.testing.assert_array_equal(exported, before)


def test_pending_reads_keep_the_old_buffer(lazy_mode):
    """``b = a * 2`` pending, then ``a += 1``: the flush may donate ``a``'s old buffer only
    when nothing but its nodes holds it; ``b`` keeps reading the old value."""
    a, n = tnp.arange(1000.0), np.arange(1000.0)
    b, nb = a * 2, n * 2
    a += 1
    n += 1
    c, nc = a - b, n - nb
    assert_same(c, nc)
    assert_same(b, nb)
    assert_same(a, n)


def test_scalar_reads_stay_valid():
    a = tnp.arange(5.0)
    n = np.arange(5.0)
    s, ns = a[3], n[3]
    a[3] = n[3] = -1.0
    assert_same(s, ns)
    assert_same(a[3], n[3])
