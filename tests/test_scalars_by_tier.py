"""Scalars by tier (README's diff-scalars): a reduction of a small array returns NumPy's scalar
(the host tier), of a large one a 0-d tnp array standing in for it (the device tier). Each
program runs on NumPy and on tnp at both sizes; what the stand-in cannot match is an
``xfail(strict=True)`` naming NumPy's behaviour and why."""
import copy
import json
import math
import numbers
import operator
import pickle
import re

import numpy as np
import pytest

import tnp
from tnp._core.dispatch import tiers
from tnp._core.engine import syncs

SMALL, LARGE = 10, 100_000
DTYPES = ["float64", "int64", "complex128", "bool"]


@pytest.fixture
def auto():
    previous = tiers.configure("auto")
    yield
    tiers.configure(*previous)


def reduction(xp, n, dtype):
    """``ones(n).sum() - (n - 3)`` (3 of ``dtype``; for bool, ``any``: True)."""
    if dtype == "bool":
        return xp.ones(n, dtype).any()
    return xp.ones(n, dtype).sum() - (n - 3)


def outcome(program, x):
    """What ``program(x)`` gives: its repr, or its exception's type and message, the type it
    names left out (an AttributeError names ``ndarray`` where NumPy's names ``float64``)."""
    try:
        return repr(program(x))
    except Exception as e:  # noqa: BLE001  (the exception is the outcome compared)
        return type(e).__name__ + ": " + re.sub(r"'[\w.]+' object", "'?' object", str(e))


PROGRAMS = {
    "item": lambda x: x.item(),
    "float": lambda x: float(x),
    "int": lambda x: int(x),
    "complex": lambda x: complex(x),
    "bool": lambda x: bool(x),
    "round2": lambda x: round(x, 2),
    "round": lambda x: round(x),
    "format_f": lambda x: f"{x:.3f}",
    "format": lambda x: f"{x}|{x:>12}",
    "str": lambda x: str(x),
    "repr": lambda x: repr(x),
    "eq": lambda x: x == 3,
    "hash": lambda x: hash(x),
    "dict_key": lambda x: {x: 1}.get(3),
    "isclose": lambda x: math.isclose(x, 3),
    "floor": lambda x: math.floor(x),
    "dtype_shape_ndim": lambda x: (x.dtype, x.shape, x.ndim),
    "add": lambda x: x + 1,
    "rmul": lambda x: 1.5 * x,
    "in_list": lambda x: x in [3, 4],
    "divmod": lambda x: divmod(x.real, 2),
    "index": lambda x: operator.index(x),
    "range": lambda x: len(range(x)),
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "copy": lambda x: copy.copy(x),
    "deepcopy": lambda x: copy.deepcopy(x),
    "is_integer": lambda x: x.is_integer(),
    "as_integer_ratio": lambda x: x.as_integer_ratio(),
    "numerator": lambda x: (x.numerator, x.denominator),
    "bit_count": lambda x: x.bit_count(),
    "json_item": lambda x: json.dumps(x.item()),
}


@pytest.mark.parametrize("dtype", DTYPES)
def test_isscalar(auto, dtype):
    """``tnp.isscalar`` of tnp's scalar, at both tiers, is ``numpy.isscalar`` of NumPy's."""
    expected = np.isscalar(reduction(np, LARGE, dtype))
    assert tnp.isscalar(reduction(tnp, SMALL, dtype)) == expected
    assert tnp.isscalar(reduction(tnp, LARGE, dtype)) == expected


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", PROGRAMS)
def test_scalar_program_matches_numpy(auto, name, dtype):
    """The program on tnp's scalar, at both tiers, gives what it gives on NumPy's."""
    program = PROGRAMS[name]
    expected = outcome(program, reduction(np, LARGE, dtype))
    for n in (SMALL, LARGE):
        assert outcome(program, reduction(tnp, n, dtype)) == expected, n


def test_tiers_are_what_this_file_tests(auto):
    """The small reduction is NumPy's scalar, the large one the stand-in (a 0-d tnp array)."""
    assert type(reduction(tnp, SMALL, "float64")) is np.float64
    large = reduction(tnp, LARGE, "float64")
    assert type(large) is tnp.ndarray and large._scalar


def test_copy_keeps_the_stand_in_on_the_device(auto):
    """``copy.copy`` of the stand-in is a stand-in: no sync (NumPy's copy is a scalar)."""
    x = reduction(tnp, LARGE, "float64")
    moves = syncs.COUNTS.total()
    y = copy.copy(x)
    assert type(y) is tnp.ndarray and y._scalar and syncs.COUNTS.total() == moves


def test_arrays_have_no_scalar_methods():
    """A real array (0-d too) lacks the scalar's own methods, as NumPy's arrays do."""
    for a, e in ((tnp.array(1.5), np.array(1.5)), (tnp.ones(LARGE), np.ones(LARGE))):
        assert hasattr(a, "is_integer") == hasattr(e, "is_integer") is False


NOT_MATCHED = {
    "type": (lambda x: type(x).__name__,
             "the stand-in is a tnp.ndarray; its type does not lie"),
    "isinstance_builtin": (lambda x: isinstance(x, (float, complex)),
                           "float64/complex128 subclass Python's float/complex; "
                           "tnp.ndarray cannot"),
    "isinstance_generic": (lambda x: isinstance(x, np.generic),
                           "NumPy's scalar types; tnp.ndarray is no subclass of them"),
    "numbers_abc": (lambda x: isinstance(x, numbers.Number),
                    "ABCMeta.register is per class and caches per class: "
                    "it cannot depend on the _scalar flag or the dtype"),
    "numpy_isscalar": (lambda x: np.isscalar(x),
                       "NumPy's own function checks its own types (tnp.isscalar matches)"),
    "json": (lambda x: json.dumps(x),
             "json's encoder takes exact float/int subclasses only (workaround: x.item())"),
}


@pytest.mark.xfail(strict=True, reason="README's diff-scalars: no stand-in can be this")
@pytest.mark.parametrize("name", NOT_MATCHED)
def test_scalar_not_matched(auto, name):
    """Each NumPy behaviour the device tier's stand-in does not match (the reason beside it)."""
    program = NOT_MATCHED[name][0]
    assert outcome(program, reduction(tnp, LARGE, "float64")) == outcome(
        program, reduction(np, LARGE, "float64"))
