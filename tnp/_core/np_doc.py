"""``np_doc``: tie a tnp function to the NumPy function it implements.

Copies NumPy's docstring (plus what tnp does differently), records the NumPy original (for the
signature test in ``tests/test_signatures.py``) and registers the function for the coverage
report (``python -m tnp coverage``).
"""
REGISTRY = {}  # (namespace, name) -> tnp function


def np_doc(numpy_obj, *, namespace="main", name=None, notes=None):
    name = name or getattr(numpy_obj, "__name__", None)

    def deco(fn):
        doc = getattr(numpy_obj, "__doc__", None) or ""
        extra = "\n\n    tnp: runs on JAX/XLA; returns tnp arrays (0-d arrays where NumPy returns scalars)."
        if notes:
            extra += "\n    " + notes.strip().replace("\n", "\n    ")
        try:
            fn.__doc__ = doc + extra
            fn.__numpy__ = numpy_obj
        except (AttributeError, TypeError):  # e.g. ufunc instances carry it themselves
            pass
        REGISTRY[(namespace, name)] = fn
        return fn
    return deco
