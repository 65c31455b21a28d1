"""tnp.testing: NumPy's testing helpers, taking tnp arrays.

NumPy's assert functions test ``isinstance(x, numpy.ndarray)`` to choose between comparing
arrays and comparing scalars, so a tnp array would take the scalar path. Here each comparing
function reads its tnp arguments (also inside lists, tuples and dicts) as the NumPy objects they
stand for — an ndarray, or the NumPy scalar a 0-d scalar stand-in prints as (a sync) — and runs
NumPy's own function on them: the same checks, tolerances and messages. The other names are
NumPy's own.
"""
import functools

import numpy.testing as _nt

from ._core.dispatch.fallback import to_numpy_tree

__all__ = list(_nt.__all__)

_COMPARING = ("assert_equal", "assert_almost_equal", "assert_approx_equal",
              "assert_array_equal", "assert_array_less", "assert_array_almost_equal",
              "assert_array_almost_equal_nulp", "assert_array_max_ulp", "assert_allclose",
              "assert_array_compare", "print_assert_equal")


def _on_host(numpy_fn):
    @functools.wraps(numpy_fn)
    def compare(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows NumPy's frames, as for NumPy's arrays
        return numpy_fn(*to_numpy_tree(args, scalars=True),
                        **to_numpy_tree(kwargs, scalars=True))
    return compare


globals().update({name: getattr(_nt, name) for name in __all__})
globals().update({name: _on_host(getattr(_nt, name)) for name in _COMPARING})
