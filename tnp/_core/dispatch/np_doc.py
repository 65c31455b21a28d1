"""``np_doc``: tie a tnp function to the NumPy function it implements.

Makes the function's entry (``frontend.entry``: the one front end every public call passes),
copies NumPy's docstring (plus what tnp does differently), records the NumPy original (for the
signature test in ``tests/test_signatures.py``) and registers the entry for the coverage report
(``python -m tnp coverage``) and for ``__array_function__`` (``tnp._core.methods.interop``).
"""
import inspect
import types

from . import frontend


class _Registry(dict):
    """(namespace, name) -> tnp function. ``import tnp`` leaves its routine families and its
    submodules (``tnp.linalg``, ...) to first use; each registers its functions when imported.
    ``tnp/__init__`` says which (``defer``): a lookup imports the module that registers its
    key, a listing imports them all."""

    def __init__(self):
        super().__init__()
        self._pending = set()  # namespaces not imported yet
        self._owners = {}  # name -> the family module registering ("main", name), not imported
        self._import = None  # imports a namespace or a family (given by ``defer``)

    def defer(self, namespaces, owners, load):
        """The ``namespaces`` register their functions when ``load(namespace)`` imports them,
        and the name ``n`` of ``owners`` ("main" namespace) when ``load(owners[n])`` does: at
        the first lookup of one of their names, or the first listing."""
        self._pending.update(namespaces)
        self._owners.update(owners)
        self._import = load

    def _load(self, key=None):
        if key is None:
            for module in sorted(set(self._owners.values())) + sorted(self._pending):
                self._load_module(module)
        elif key[0] == "main":
            if key[1] in self._owners:
                self._load_module(self._owners[key[1]])
        elif key[0] in self._pending:
            self._load_module(key[0])

    def _load_module(self, module):
        self._import(module)
        self._pending.discard(module)
        for name in [n for n, m in self._owners.items() if m == module]:
            del self._owners[name]

    def __getitem__(self, key):
        self._load(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._load(key)
        return super().get(key, default)

    def __contains__(self, key):
        self._load(key)
        return super().__contains__(key)


def _listing(method):
    def listing(self):
        self._load()
        return method(self)
    listing.__name__ = method.__name__
    return listing


for _name in ("__iter__", "__len__", "keys", "values", "items"):  # a listing loads them all
    setattr(_Registry, _name, _listing(getattr(dict, _name)))


REGISTRY = _Registry()


def numpy_signature(fn):
    """Give the ``np_doc`` function ``fn`` its NumPy original's signature, for parameters whose
    Python form cannot say what NumPy's C code does (a keyword only some NumPy versions take,
    a required-looking one NumPy's code accepts missing): ``fn`` takes them with the sentinel
    ``np._NoValue`` and passes them on only when given, so NumPy's own error comes through.
    A C function's text signature is read through ``__wrapped__`` when ``inspect`` asks
    (parsing one the first time costs 1.4 ms: not at import). (NumPy 2.4's ``fromstring``
    publishes no signature: ``fn`` keeps its own.)"""
    numpy_fn = fn.__numpy__
    if getattr(numpy_fn, "__text_signature__", None) and not hasattr(numpy_fn, "__signature__"):
        fn.__wrapped__ = numpy_fn
        if hasattr(fn, "__signature__"):  # (``np_doc``'s: tnp's own parameters)
            del fn.__signature__
        return fn
    try:
        fn.__signature__ = inspect.signature(numpy_fn)
    except ValueError:
        pass
    return fn


def np_doc(numpy_obj, *, namespace="main", name=None, notes=None, host_tier=True,
           result_size=None, host_fn=None):
    """Register ``fn`` as tnp's ``numpy_obj``; ``host_tier``, ``result_size`` and ``host_fn``:
    see ``frontend.entry`` (the ``tnp.random`` namespace never runs on the host tier)."""
    name = name or getattr(numpy_obj, "__name__", None)

    def deco(fn):
        if isinstance(fn, types.FunctionType):  # classes and ufunc objects: see frontend
            fn = frontend.entry(fn, numpy_obj, host_tier and namespace != "random", result_size,
                                host_fn)
        doc = getattr(numpy_obj, "__doc__", None) or ""
        extra = "\n\n    tnp: runs on JAX/XLA; returns tnp arrays (0-d arrays where NumPy returns scalars)."
        if notes:
            extra += "\n    " + notes.strip().replace("\n", "\n    ")
        try:
            fn.__doc__ = doc + extra
            fn.__numpy__ = numpy_obj
        except (AttributeError, TypeError):  # e.g. ufunc instances carry it themselves
            pass
        if isinstance(fn, types.FunctionType) and hasattr(numpy_obj, "__signature__"):
            fn.__signature__ = inspect.signature(fn)  # as NumPy's C dispatchers (tnp's own)
        REGISTRY[(namespace, name)] = fn
        return fn
    return deco
