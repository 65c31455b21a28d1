"""The array's NumPy face, attached to ``tnp.ndarray`` (``tnp._core.array``: its storage) at
import, as jax.numpy attaches its array methods: its properties (``properties``), Python's and
NumPy's protocols (``protocols``; ``__array_ufunc__`` and ``__array_function__`` run through
``interop``), its methods (``methods``, on the host tier NumPy's own: ``host_tier``) and its
operators (``operators``); what subclasses get is made below (``array.subclasses``).

This layer imports from everything below it in ``tnp._core``, never from ``tnp._routines``:
the tnp routines its methods and operators call (``a.sum()`` is ``tnp.sum(a)``) are given by
``tnp/__init__`` at import (``routines.register``). Importing the package attaches them all.
"""
from . import properties, protocols, methods, operators  # noqa: F401  (attach to ndarray)

properties.refuse_assignment()  # NumPy's error for its read-only attributes, all attached
