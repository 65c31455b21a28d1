"""The floating-point check of a ufunc call lazy fusion does not record (``out=``, ``where=``,
two results) compiles nothing per shape on the program's path: its flags come from the call's
own kernel (``loops.kernel``, ``fperr.call_flags``; the ``where=`` mask an operand of it), which
goes through the one tiering mechanism (``jaxload.jit``), so on the CPU a shape never seen runs
on the NumPy tier. Before, a ``where=`` call ran three eager ``jnp.where`` per call (JAX
compiled each new shape outside the tiers) and every such call launched a second kernel for its
flags. NumPy is the oracle of the values and the warnings (``conformance_tests/
test_fp_warnings.py`` covers the categories and modes); these count compiles."""
import warnings

import numpy
import pytest

import tnp
from tnp._core import settings
from tnp._core.engine import caches, tiering


def _calls(xp, n):
    """An ``out=``, a ``where=`` and a two-result call on ``n`` elements, some dividing by zero
    (every category NumPy reports here is reported)."""
    a = xp.asarray(numpy.linspace(-2.0, 2.0, n))
    z = xp.asarray((numpy.arange(n) % 3 == 0) * 1.0)  # (zeros among the divisors)
    o, w = xp.zeros(n), xp.full(n, 7.0)
    xp.divide(a, z, out=o)
    xp.floor_divide(a, z, out=w, where=a > 0.5)
    q, r = xp.divmod(a, z)
    return o, w, q, r


def _run(xp, n):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [numpy.asarray(v) for v in _calls(xp, n)]
    return got, sorted(str(c.message) for c in caught if issubclass(c.category, RuntimeWarning))


@pytest.mark.parametrize("fp_warnings", [True, False])
def test_unrecorded_calls_over_changing_shapes_compile_nothing_on_the_path(cold_tier, fp_warnings):
    previous = settings.update(fp_warnings=fp_warnings)
    try:
        _run(tnp, 11)  # the families' first sightings
        tiering.wait()
        before, stats = caches.executables_built(), tiering.stats()
        first = 300 if fp_warnings else 500  # 200 shapes, each new (in this test too)
        for n in range(first, first + 200):
            want, want_warned = _run(numpy, n)
            got, warned = _run(tnp, n)
            for g, e in zip(got, want):
                assert g.dtype == e.dtype and g.shape == e.shape
                numpy.testing.assert_array_equal(g, e)
            assert warned == (want_warned if fp_warnings else [])
        tiering.wait()
        now = tiering.stats()
    finally:
        settings.restore(previous)
    assert now["critical"] == stats["critical"]  # no compile on the program's path
    assert now["fallbacks"] == stats["fallbacks"]
    assert now["eager"] == stats["eager"]
    # not one executable per shape (before: 3 per where= call); a shape seen twice in an
    # iteration (the same kernel family twice) may compile in the background
    assert caches.executables_built() - before <= 8
