"""tnp._core.ufunc: the ufunc object and its methods.

Modules, one kind each:

- ``ufunc_object``: the ``ufunc`` class: its NumPy attributes, ``__call__`` and the methods
  (``reduce``, ``accumulate``, ``reduceat``, ``outer``, ``at``), entered through the one
  host-or-device sequence (``dispatch.frontend``).
- ``fast_path``: the hot path of a call (a loop seen before: one lookup, the compiled kernel)
  and lazy recording of ufunc calls.
- ``loops``: operands and their dtype keys, loop-dtype resolution (NumPy decides), the loop's
  compiled kernel, the value checks NumPy makes.
- ``reductions``: the reduction engine (``reduce``, ``accumulate``, ``reduceat``, ``at`` and
  the routines' fronts that share it), its kernels' bodies and float-error flags in
  ``reduction_bodies``.
- ``overrides``: NEP 13 (``__array_ufunc__`` of other types) and ``__array_wrap__``.
- ``registry``: the tnp ufunc of each NumPy ufunc, registered by each at its construction.

This layer imports from ``rules``, ``engine``, ``numerics``, ``array`` and ``dispatch`` (and
``settings``), never from ``methods`` above it (``tests/test_import_graph.py``). The rest of
tnp imports the names below from here.
"""
from .ufunc_object import ufunc
from .registry import for_numpy
from .overrides import overridden
from .reduction_bodies import reduce_body

__all__ = ["ufunc", "for_numpy", "overridden", "reduce_body"]
