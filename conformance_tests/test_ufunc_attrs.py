"""Every NumPy ufunc is a tnp.ufunc with NumPy's attributes; the output-dtype table of every
(ufunc, input dtypes) pair over the 14 dtypes tnp holds equals NumPy's (traced, not compiled)."""
import inspect
import itertools
import pickle
import sys
import warnings

import jax
import numpy as np
import pytest

import tnp
from strategies import ALL_DTYPES

NAMES = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc))
ATTRS = ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature", "__name__")


def test_all_ufuncs_present():
    assert len(NAMES) >= 106
    for n in NAMES:
        assert isinstance(getattr(tnp, n), tnp.ufunc), n
        assert getattr(tnp, n) is getattr(tnp, getattr(np, n).__name__)  # aliases: one object


@pytest.mark.parametrize("name", NAMES)
def test_attributes(name):
    t, n = getattr(tnp, name), getattr(np, name)
    for a in ATTRS:
        assert getattr(t, a) == getattr(n, a), a
    assert repr(t) == repr(n)
    assert inspect.signature(t) == inspect.signature(n)
    assert (pickle.loads(pickle.dumps(t)) is t) == (pickle.loads(pickle.dumps(n)) is n)


@pytest.mark.parametrize("attr", ATTRS[:-1])
def test_class_attributes(attr):
    # the class's data attributes: NumPy's docstrings, read-only on an instance
    assert getattr(tnp.ufunc, attr).__doc__ == getattr(np.ufunc, attr).__doc__
    for xp in (np, tnp):
        with pytest.raises(AttributeError):
            setattr(xp.add, attr, getattr(xp.add, attr))


def _outcome(xp, uf, arrays):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if xp is np:
                with np.errstate(all="ignore"):
                    r = uf(*arrays)
            else:
                r = jax.eval_shape(lambda: uf(*arrays))
    except Exception as e:  # noqa: BLE001 - the exception class is what is compared
        return type(e)
    r = r if isinstance(r, tuple) else (r,)
    return tuple(np.dtype(x.dtype) for x in r)


def _inputs(uf, dts):
    core = [0] * uf.nin
    if uf.signature:
        core = [1] * uf.nin  # (n),(n) / (m,n),(n) ... all satisfied by 2x2 / 2 operands
        shapes = {"matmul": [(2, 2), (2, 2)], "vecdot": [(2,), (2,)],
                  "matvec": [(2, 2), (2,)], "vecmat": [(2,), (2, 2)]}[uf.__name__]
        return [np.ones(s, d) for s, d in zip(shapes, dts)]
    return [np.ones((1,) * c or (2,), d) for c, d in zip(core, dts)]


@pytest.mark.parametrize("name", [n for n in NAMES if getattr(np, n).__name__ == n])
def test_output_dtype_table(name):
    uf = getattr(np, name)
    for dts in itertools.product(ALL_DTYPES, repeat=uf.nin):
        ins = _inputs(uf, dts)
        expected = _outcome(np, uf, ins)
        actual = _outcome(tnp, getattr(tnp, name), [tnp.asarray(x) for x in ins])
        if isinstance(expected, type):
            assert isinstance(actual, type) and issubclass(actual, expected), (dts, actual)
        else:
            assert actual == expected, (dts, actual, expected)


def test_doc_set_and_deleted():
    # a ufunc's __doc__ is NumPy's; one set on it replaces it until deleted
    for name in ("add", "frexp", "vecdot", "matmul"):
        uf, nuf = getattr(tnp, name), getattr(np, name)
        assert uf.__doc__ == nuf.__doc__
        uf.__doc__ = "new docs"
        try:
            assert uf.__doc__ == "new docs"
        finally:
            del uf.__doc__
        assert uf.__doc__ == nuf.__doc__


def test_pickle_numpy_ufunc_outside_numpy_namespace():
    # pickle looks a ufunc without __module__ up in every loaded module: tnp's modules must
    # answer getattr with AttributeError (a module-level ``__getattr__`` of the wrong shape
    # made it a TypeError)
    import numpy._core._rational_tests as rt
    assert pickle.loads(pickle.dumps(rt.test_add)) is rt.test_add
    for name, mod in list(sys.modules.items()):
        if name.startswith("tnp"):
            assert getattr(mod, "no_such_name_here", None) is None, name
