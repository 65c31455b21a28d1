"""Kernels shared where a call differs only in spelling: one compiled kernel per contraction and
shape, however the call names it (a device-tier cost: every new kernel is an XLA compile, tens of
milliseconds on a CPU). NumPy is the oracle of the values (``conformance_tests``); these count
compiles."""
import numpy as np
import pytest

import tnp
from tnp._core.engine import caches

pytestmark = pytest.mark.usefixtures("compiled_tier")


def test_einsum_spellings_share_one_kernel(device_placement):
    a = tnp.asarray(np.arange(6.0).reshape(2, 3))
    b = tnp.asarray(np.arange(12.0).reshape(3, 4))
    want = np.einsum("ij,jk", np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(np.asarray(tnp.einsum("ij,jk", a, b)), want)
    before = caches.executables_built()
    for r in (tnp.einsum("ab,bc", a, b), tnp.einsum("ij,jk->ik", a, b),
              tnp.einsum(a, [0, 1], b, [1, 2]), tnp.einsum(a, [3, 1], b, [1, 0], [3, 0]),
              tnp.einsum("Ij , jK", a, b)):
        np.testing.assert_array_equal(np.asarray(r), want)
    assert caches.executables_built() == before


def test_view_read_to_host_compiles_nothing(device_placement):
    # NumPy's test_log_strides reads x[::k] of ~800 sizes and strides: each read a kernel of its
    # own before (~0.15 s of compile each); a view read to the host is NumPy's view of the root
    x = tnp.asarray(np.arange(40.0))
    np.asarray(x + 1)  # the root's value exists
    src = np.arange(40.0)
    before = caches.executables_built()
    for n in range(3, 40, 5):
        for k in (-3, -1, 2, 4):
            v = x[:n][::k]
            h = np.asarray(v)
            np.testing.assert_array_equal(h, src[:n][::k])
            assert h.flags.writeable and h.flags.c_contiguous
    assert caches.executables_built() == before


def test_small_filled_arrays_compile_nothing(device_placement):
    # NumPy's TestCreationFuncs makes zeros/ones/empty/full of ~400 small shapes and dtypes:
    # each was a fill kernel of its own (~60 ms of compile); a small one is NumPy's, uploaded
    before = caches.executables_built()
    for n in range(6):
        for dt in (np.float64, np.int8, np.bool_, np.complex64):
            shape = (2,) * n
            for fn, want in ((tnp.zeros, np.zeros(shape, dt)), (tnp.ones, np.ones(shape, dt)),
                             (lambda s, dtype: tnp.full(s, 3, dtype), np.full(shape, 3, dt))):
                r = fn(shape, dtype=dt)
                assert type(r) is tnp.ndarray and not r._on_host and r.dtype == want.dtype
                np.testing.assert_array_equal(np.asarray(r), want)
    assert caches.executables_built() == before


@pytest.mark.parametrize("dt", [np.float64, np.int32])
def test_first_scalar_call_records_the_later_calls_graph(device_placement, dt):
    # The first ``x * 2`` goes through the ufunc's slow path, which fills the fast table; it
    # recorded the scalar converted to the loop's dtype (2.0, a 0-d int32) where the fast path
    # records the Python int, so the first graph was a family of its own (one more compile)
    src = np.arange(1000, dtype=dt)
    x = tnp.asarray(src)
    want = (src * 2).sum()
    first = (x * 2).sum()
    assert first.dtype == want.dtype and first == want
    before = caches.executables_built()
    for _ in range(3):
        r = (x * 2).sum()
        assert r.dtype == want.dtype and r == want
    assert caches.executables_built() == before
