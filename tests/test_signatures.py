"""Every native tnp function has NumPy's signature (names, kinds, defaults) and NumPy's doc."""
import inspect

import numpy as np
import pytest

import tnp  # noqa: F401  (registers every native function)
from tnp._core.dispatch.np_doc import REGISTRY

# Defaults tnp cannot share by identity but matches by meaning (NumPy's private sentinels).
_SENTINELS = {"<no value>", "_NoValue"}


def _numpy_signature(obj):
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def _norm_default(d):
    if d is inspect.Parameter.empty:
        return d
    r = repr(d)
    return "<sentinel>" if r in _SENTINELS or type(d).__name__ == "_NoValueType" else r


CASES = sorted((ns, name) for (ns, name), fn in REGISTRY.items()
               if _numpy_signature(fn.__numpy__ if hasattr(fn, "__numpy__") else None))


@pytest.mark.parametrize("ns,name", CASES, ids=lambda x: str(x))
def test_signature_matches_numpy(ns, name):
    fn = REGISTRY[(ns, name)]
    theirs = _numpy_signature(fn.__numpy__)
    ours = inspect.signature(fn)
    t = [(p.name, p.kind, _norm_default(p.default)) for p in theirs.parameters.values()]
    o = [(p.name, p.kind, _norm_default(p.default)) for p in ours.parameters.values()]
    assert o == t, f"tnp.{name}{ours} != numpy {theirs}"


def test_docstrings_come_from_numpy():
    # The opening lines, stripped: a library imported later in the same process may rewrite
    # NumPy's docstrings after tnp copied them (SciPy's array-API tooling appends a section).
    for (ns, name), fn in REGISTRY.items():
        numpy_doc = getattr(getattr(fn, "__numpy__", None), "__doc__", None)
        if numpy_doc:
            theirs = [line.strip() for line in numpy_doc.strip().splitlines()][:8]
            ours = [line.strip() for line in fn.__doc__.strip().splitlines()]
            assert ours[:len(theirs)] == theirs, name


def test_registry_is_not_empty():
    assert len(REGISTRY) > 10


def test_namespace_follows_installed_numpy():
    """tnp's public names are the installed NumPy's (NumPy 2.5 dropped ``row_stack``; helpers
    such as ``ndarray.tofile`` are methods, not names), plus tnp's two own warning/error types."""
    own = {"TnpFallbackWarning", "TnpTracingError"}
    assert {n for n in vars(tnp) if not n.startswith("_")} - own <= set(dir(np))
    for name in ("row_stack", "tofile", "dump", "dumps", "byteswap"):
        assert hasattr(tnp, name) == hasattr(np, name), name


def test_ndarray_has_numpys_attributes():
    """Every public attribute of NumPy's ndarray (``ctypes`` included: a host-tier array's
    memory, README's diff-memory)."""
    missing = {n for n in dir(np.ndarray) if not n.startswith("_")} - set(dir(tnp.ndarray))
    assert not missing, missing


METHODS = sorted(n for n, f in vars(tnp.ndarray).items()
                 if inspect.isfunction(f) and callable(getattr(np.ndarray, n, None)))


@pytest.mark.parametrize("name", METHODS)
def test_method_self_is_positional_only(name):
    # NumPy's test_array_method_signatures: every ndarray method's self is positional-only
    assert len(METHODS) > 60
    sig = inspect.signature(getattr(tnp.ndarray, name))
    assert next(iter(sig.parameters.values())).kind is inspect.Parameter.POSITIONAL_ONLY


@pytest.mark.parametrize("name", sorted(
    n for n in dir(np) if not isinstance(getattr(np, n), (type, np.ufunc))
    and callable(getattr(np, n)) and (hasattr(getattr(np, n), "__signature__")
                                      or getattr(getattr(np, n), "__text_signature__", None))
    and n in dir(tnp) and not isinstance(getattr(tnp, n), (type, tnp.ufunc))))
def test_c_function_signature_attributes(name):
    # NumPy's C functions carry __signature__ (dispatchers) or __text_signature__: tnp's too
    n, t = getattr(np, name), getattr(tnp, name)
    if hasattr(n, "__signature__"):
        assert hasattr(t, "__signature__") and t.__signature__ == inspect.signature(t)
    else:
        assert not hasattr(t, "__signature__")
        assert t.__text_signature__ == n.__text_signature__
