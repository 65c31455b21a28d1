"""The registry of tnp ufuncs by NumPy ufunc.

Each ``tnp.ufunc`` registers itself here at construction (``register``, called by
``ufunc.__init__``): the explicit registration through which the rest of tnp finds the tnp
ufunc implementing a NumPy one (``for_numpy``: the NumPy protocols, ``tnp._ufuncs.table``)
and unpickling finds one by name (``by_name``). Nothing is looked up by scanning modules.
"""
import numpy as np

_BY_NUMPY = {}  # NumPy ufunc -> the tnp ufunc implementing it (each registers itself)


def register(np_ufunc, uf):
    """Record ``uf`` as the tnp ufunc implementing NumPy's ``np_ufunc`` (at its construction)."""
    _BY_NUMPY[np_ufunc] = uf


def for_numpy(np_ufunc):
    """The tnp ufunc for a NumPy ufunc object (None if there is none)."""
    return _BY_NUMPY.get(np_ufunc)


def by_name(name):
    """The tnp ufunc named ``name`` (unpickling): the one implementing NumPy's of that name."""
    return _BY_NUMPY[getattr(np, name)]
