"""tnp's routines, one module per family of NumPy's reference documentation.

Every module here defines ``__all__``; ``tnp/__init__`` exports all of them (modules are found
by listing this package, so a new family is a new file and nothing else).
"""
import importlib
import pkgutil


def modules():
    return [importlib.import_module(f"{__name__}.{m.name}")
            for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
            if not m.name.startswith("_")]
