"""Imported by the rewritten NumPy test files (copied next to them as ``tnp_suite_support.py``).

``import_public``: ``from numpy[.linalg|.fft|.random|.lib] import x`` gives tnp's ``x`` (tnp's
fallback path included, as ``tnp.x`` would), NumPy's where the tnp module has no such name.
``private_module`` / ``import_private`` / ``NUMPY``: NumPy's internals stay NumPy's, seen
through a view in which a *public* NumPy object met on the way (``numpy._core.umath.sqrt`` is
``numpy.sqrt``) is tnp's: a test that reaches ``sqrt`` through a private path means ``sqrt``.
"""
import importlib
import types

import numpy

import tnp

_PUBLIC = {"numpy": "tnp", "numpy.linalg": "tnp.linalg", "numpy.fft": "tnp.fft",
           "numpy.random": "tnp.random", "numpy.lib": "tnp.lib",
           "numpy.lib.stride_tricks": "tnp.lib.stride_tricks", "numpy.testing": "tnp.testing"}


def _tnp_for(obj, name):
    """tnp's object for a public NumPy object, else None."""
    for npmod, tmod in (("numpy", "tnp"), ("numpy.linalg", "tnp.linalg"),
                        ("numpy.fft", "tnp.fft"), ("numpy.random", "tnp.random"),
                        ("numpy.lib.stride_tricks", "tnp.lib.stride_tricks")):
        m = importlib.import_module(npmod)
        if vars(m).get(name) is obj and name in getattr(m, "__all__", vars(m)):
            return getattr(importlib.import_module(tmod), name, None)
    return None


def _resolve(obj, name):
    if isinstance(obj, types.ModuleType):
        if obj.__name__ in _PUBLIC:
            return importlib.import_module(_PUBLIC[obj.__name__])
        if obj.__name__.startswith("numpy.") and "tests" not in obj.__name__.split(".") \
                and not obj.__name__.startswith("numpy.testing"):
            return _View(obj)
        return obj
    if name.startswith("_"):
        return obj
    t = _tnp_for(obj, name)
    return obj if t is None else t


class _View:
    """A NumPy module whose public NumPy objects are tnp's."""

    __slots__ = ("_module",)

    @property
    def __dict__(self):  # `vars(numpy._core.umath)`: its ufuncs, tnp's where public
        mod = object.__getattribute__(self, "_module")
        return {k: _resolve(v, k) for k, v in vars(mod).items()}

    def __init__(self, module):
        object.__setattr__(self, "_module", module)

    def __getattr__(self, name):
        mod = object.__getattribute__(self, "_module")
        try:
            obj = getattr(mod, name)
        except AttributeError:
            if name.startswith("__"):
                raise
            try:
                obj = importlib.import_module(f"{mod.__name__}.{name}")
            except ImportError:
                raise AttributeError(f"module {mod.__name__!r} has no attribute {name!r}") \
                    from None
        return _resolve(obj, name)

    def __setattr__(self, name, value):  # monkeypatching a NumPy internal patches NumPy's
        setattr(object.__getattribute__(self, "_module"), name, value)

    def __repr__(self):
        return f"<tnp-suite view of {object.__getattribute__(self, '_module')!r}>"


NUMPY = _View(numpy)


def private_module(modname):
    return _resolve(importlib.import_module(modname), modname.rpartition(".")[2])


def import_private(modname, names):
    return tuple(getattr(private_module(modname), n) for n in names)


def import_public(modname, names):
    tmod = importlib.import_module(_PUBLIC[modname])
    nmod = importlib.import_module(modname)
    out = []
    for n in names:
        try:
            out.append(getattr(tmod, n))
        except AttributeError:
            try:
                out.append(getattr(nmod, n))
            except AttributeError:
                raise ImportError(f"cannot import name {n!r} from {modname!r}") from None
    return tuple(out)


FAILED_MARK = "failed to import under tnp"


def failed_class(name, exc):
    """Placeholder for a test class whose body or decorators raised under tnp."""
    msg = f"tnp-suite: class {name} {FAILED_MARK}: {type(exc).__name__}: {exc}"

    def test_class_failed_to_import(self):
        raise RuntimeError(msg)
    return type(name, (), {"test_class_failed_to_import": test_class_failed_to_import})


def failed_function(name, exc):
    """Placeholder for a test function whose decorators raised under tnp."""
    msg = f"tnp-suite: function {name} {FAILED_MARK}: {type(exc).__name__}: {exc}"

    def placeholder():
        raise RuntimeError(msg)
    placeholder.__name__ = placeholder.__qualname__ = name
    return placeholder


def failed_method(name, exc):
    """Placeholder for a test method whose decorators raised under tnp (its class runs)."""
    msg = f"tnp-suite: method {name} {FAILED_MARK}: {type(exc).__name__}: {exc}"

    def placeholder(self):
        raise RuntimeError(msg)
    placeholder.__name__ = placeholder.__qualname__ = name
    return placeholder
