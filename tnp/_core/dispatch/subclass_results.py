"""The class of a function's result for a subclass of ``tnp.ndarray`` among its arguments.

NumPy's functions that take their array through ``asanyarray`` and compute with its methods and
ufuncs (``sum``, ``median``, ``nanmean``, ``diff``, ``kron``, ``unique``...) return an array of the
argument's class; those that take it through ``asarray`` return a plain array. tnp's
implementations compute on buffers, so the entry (``frontend.entry``) gives the result its class
afterwards, for the NumPy functions listed in ``KEEPS`` (found by calling each on a subclass of
``numpy.ndarray``), as NumPy would: a new array of the subclass (``as_type_of``: its
``__array_finalize__`` called with the argument) or, for a view, a view of that class.
"""
import numpy as np

from ..array.ndarray import ndarray
from ..array.subclasses import as_type_of, view_of_class

# What NumPy returns of the argument's class: a ufunc method's result, which NumPy passes
# through the argument's ``__array_wrap__`` ("wrap": a class's own is called, once, with NumPy's
# ``return_scalar`` for a 0-d result); every array result, 0-d ones included ("all");
# only results of one or more dimensions, a full reduction giving NumPy's scalar ("nd"); the
# first result of a tuple ("first": ``unique``'s values, not its counts).
_WRAP = ("sum", "prod", "min", "max", "amin", "amax", "any", "all", "cumsum", "cumprod")
_ALL = ("mean", "std", "var", "ptp", "cumulative_sum", "cumulative_prod", "median", "average",
        "nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmin", "nanmax", "nancumsum",
        "nancumprod", "nanmedian", "sort", "argsort", "partition", "argpartition", "round",
        "around", "clip", "take", "diagonal", "repeat", "roll", "flip", "fliplr", "flipud",
        "rot90", "tile", "real", "imag", "ediff1d", "diff", "insert", "delete", "extract",
        "compress", "trim_zeros", "take_along_axis", "nan_to_num", "fix", "angle", "i0",
        "kron", "linspace", "logspace", "geomspace", "isclose", "squeeze", "ravel",
        "transpose", "swapaxes", "moveaxis", "atleast_1d", "atleast_2d", "atleast_3d")
_ND = ("argmax", "argmin", "nanargmax", "nanargmin", "percentile", "quantile", "trace",
       "nanpercentile", "nanquantile", "count_nonzero")
_FIRST = ("unique",)
# ``numpy.linalg``'s functions that return their argument's class (its ``__array_wrap__``; for
# ``solve``, the right-hand side's)
_LINALG = ("inv", "solve", "pinv", "cholesky", "matrix_power", "tensorinv", "tensorsolve")
KEEPS = {getattr(module, n): policy
         for module, names, policy in ((np, _ALL, "all"), (np, _ND, "nd"),
                                       (np, _FIRST, "first"), (np.linalg, _LINALG, "all"),
                                       (np, _WRAP, "wrap"))
         for n in names if hasattr(module, n)}


def subclass_argument(args, kwargs):
    """The first argument that is an array of a subclass of tnp.ndarray (not tnp's own
    masked value or value in pieces, whose ``__class__`` says ndarray), or None."""
    for a in (*args, *kwargs.values()):
        if type(a) is not ndarray and isinstance(a, ndarray) and a.__class__ is not ndarray:
            return a
    return None


def keep(result, policy, args, kwargs):
    """``result`` of a call whose NumPy function keeps its argument's class (``policy``, as in
    ``KEEPS``): its plain tnp arrays made arrays of the first subclass argument's class."""
    a = subclass_argument(args, kwargs)
    if a is None:
        return result
    if type(result) is tuple:
        if policy == "first":
            return (_as_class(result[0], a, "all"), *result[1:])
        return tuple(_as_class(r, a, policy) for r in result)
    return _as_class(result, a, policy)


def _as_class(r, a, policy):
    if type(r) is not ndarray or (policy == "nd" and r.ndim == 0):
        return r
    if policy == "wrap" and type(a).__array_wrap__ is not ndarray.__array_wrap__:
        return a.__array_wrap__(r, None, r.ndim == 0)
    if r._base is None:
        return as_type_of(r, a)
    return view_of_class(r, type(a), a)
