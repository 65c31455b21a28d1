"""The registry of tnp ufuncs by NumPy ufunc.

Each ``tnp.ufunc`` registers itself here at construction (``register``, called by
``ufunc.__init__``): the explicit registration through which the rest of tnp finds the tnp
ufunc implementing a NumPy one (``for_numpy``: the NumPy protocols, ``tnp._ufuncs.table``)
and unpickling finds one by name (``by_name``). Nothing is looked up by scanning modules.
"""
import numpy as np

_BY_NUMPY = {}  # NumPy ufunc -> the tnp ufunc implementing it (each registers itself)
_TABLE = []  # the loader of the ufunc table (``defer``), until it has run


def register(np_ufunc, uf):
    """Record ``uf`` as the tnp ufunc implementing NumPy's ``np_ufunc`` (at its construction)."""
    _BY_NUMPY[np_ufunc] = uf


def defer(load):
    """``load()`` makes the ufunc table (``tnp`` imports it at first use of a name): run at
    the first lookup that finds no tnp ufunc (``numpy.add(tnp_array, 1)`` before any use of
    ``tnp.add``)."""
    _TABLE[:] = [load]


def _loaded():
    if _TABLE:
        _TABLE.pop()()


def for_numpy(np_ufunc):
    """The tnp ufunc for a NumPy ufunc object (None if there is none)."""
    uf = _BY_NUMPY.get(np_ufunc)
    if uf is None and _TABLE:
        _loaded()
        uf = _BY_NUMPY.get(np_ufunc)
    return uf


def by_name(name):
    """The tnp ufunc named ``name`` (unpickling): the one implementing NumPy's of that name."""
    _loaded()
    return _BY_NUMPY[getattr(np, name)]
