"""The inventory of NumPy names: which tnp has natively, which go through the fallback path,
and which it lacks. Shared by ``python -m tnp coverage`` and ``python -m tnp run --report``."""
import types

import numpy as np

import tnp
from tnp._core.dispatch.fallback import is_fallback

NAMESPACES = {"main": (np, tnp), "linalg": (np.linalg, tnp.linalg), "fft": (np.fft, tnp.fft),
              "random": (np.random, tnp.random)}


def public_names(module):
    names = getattr(module, "__all__", None)
    if names is None or module is np:
        names = [n for n in dir(module) if not n.startswith("_")]
    return sorted(n for n in set(names) if not n.startswith("_") and hasattr(module, n)
                  and not isinstance(getattr(module, n), types.ModuleType) or n in (
                      "linalg", "fft", "random", "testing"))


def classify(np_module, tnp_module, name):
    """'native', 'fallback' or 'missing' for one public NumPy name."""
    if name in vars(tnp_module):
        obj = vars(tnp_module)[name]
        return "fallback" if is_fallback(obj) else "native"
    try:
        obj = getattr(tnp_module, name)
    except AttributeError:
        return "missing"
    return "fallback" if is_fallback(obj) or obj is getattr(np_module, name, None) else "native"


def method_inventory():
    names = [n for n in dir(np.ndarray) if not n.startswith("_")]
    out = {"native": [], "fallback": [], "missing": []}
    for n in names:
        out["native" if hasattr(tnp.ndarray, n) else "missing"].append(n)
    return out


def inventory():
    """{namespace: {"native": [...], "fallback": [...], "missing": [...]}}"""
    result = {}
    for ns, (np_mod, tnp_mod) in NAMESPACES.items():
        groups = {"native": [], "fallback": [], "missing": []}
        for name in public_names(np_mod):
            groups[classify(np_mod, tnp_mod, name)].append(name)
        result[ns] = groups
    result["ndarray methods"] = method_inventory()
    return result


def is_numeric_callable(np_module, name):
    """A NumPy function (not a class, constant or module) — what "native" coverage counts."""
    obj = getattr(np_module, name, None)
    return callable(obj) and not isinstance(obj, type) and not isinstance(obj, types.ModuleType)


_STATUS = {"native": "native in tnp", "fallback": "not native in tnp yet", "missing": "not in tnp"}


def describe(qualname):
    """A fallback-path name (``"unravel_index"``, ``"linalg.cond"``) as the coverage inventory
    sees it: "not native in tnp yet", "native in tnp" or "not in tnp"."""
    ns, _, name = qualname.rpartition(".")
    mods = NAMESPACES.get(ns or "main")
    return _STATUS[classify(*mods, name)] if mods else _STATUS["fallback"]
