"""JAX, imported when it is first needed.

Importing JAX takes about a second; a program whose arrays all stay on the host tier never
needs it. So tnp's modules take JAX from here (``from .jaxload import jax, jnp, lax``) and get
stand-ins: a module stand-in imports JAX at its first attribute access (the first device
operation, the first ``jax.jit`` call), ``jit(f, ...)`` is a jitted function made at its first
call, a class stand-in (``ArrayImpl``) has no instances, as no JAX array can exist before JAX
is imported, and ``until_loaded(before, after)`` is a JAX-free function until then.

JAX arrives either through a stand-in or because the program imports it (before tnp or after:
a finder on ``sys.meta_path`` sees the import). Either way, right after JAX's own ``__init__``
the functions registered with ``on_load`` run once, in order (64-bit mode, the compilation
cache, the pytree registration, ...). The last of them, registered by ``tnp/__init__``
(``tnp._standins``), replaces every stand-in held as a global of a ``tnp`` module by the object
it stands for (``replacements``), so the device path never pays for the indirection.
``loaded()`` says whether that has happened: host code asks it before any JAX check (no trace
can be active, and no value can be a JAX array, before it).
"""
import importlib
import sys
import threading

_LOADED = False
_SETTING_UP = None  # the thread running the on_load functions (they may use the stand-ins)
_HOOKS = []  # functions run once JAX is imported, in registration order
_STANDINS = {}  # id(stand-in) -> (stand-in, function giving the real object)
_REAL = None  # id(stand-in) -> (stand-in, the real object), once JAX is imported
_lock = threading.RLock()


def loaded():
    """Whether JAX is imported and set up for tnp."""
    return _LOADED


def on_load(fn):
    """Run ``fn()`` once JAX is imported (now, if it is already)."""
    with _lock:
        if _LOADED:
            fn()
        else:
            _HOOKS.append(fn)
    return fn


def load():
    """Import JAX (a no-op once it is); the ``on_load`` functions have run when this returns."""
    if not _LOADED and _SETTING_UP != threading.get_ident():
        importlib.import_module("jax")  # the finder below runs _set_up right after its __init__
        _set_up()


def _set_up():
    global _LOADED, _SETTING_UP
    with _lock:
        if _LOADED:
            return
        _SETTING_UP = threading.get_ident()
        try:
            for fn in _HOOKS:
                fn()
        finally:
            _SETTING_UP = None
        _HOOKS.clear()
        replacements()
        _STANDINS.clear()
        _LOADED = True


def replacements():
    """Each stand-in made before JAX was imported and the real object it stands for, by the
    stand-in's id: ``{id(standin): (standin, obj)}``. Called while JAX is set up (an ``on_load``
    function), after the ones before it; the objects are made at the first call."""
    global _REAL
    if _REAL is None:
        _REAL = {key: (standin, make()) for key, (standin, make) in _STANDINS.items()}
        for standin, obj in _REAL.values():
            if isinstance(standin, _Jit):
                standin.real = obj
    return _REAL


def _register(standin, make):
    _STANDINS[id(standin)] = (standin, make)
    return standin


class _Module:
    """Stands for the JAX module ``name`` until JAX is imported."""
    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        load()
        return getattr(_jax_module(self._name), attr)

    def __repr__(self):
        return f"<{self._name}, imported on first use>"


def _jax_module(name):
    """The JAX module ``name`` (``jax`` or a module JAX's ``__init__`` imports: ``jax.numpy``,
    ``jax._src.core``), found from the ``jax`` package, imported here."""
    obj = importlib.import_module("jax")
    for attr in name.split(".")[1:]:
        obj = getattr(obj, attr)
    return obj


def module(name):
    """The JAX module ``name`` (see ``_jax_module``), imported on first use."""
    if _LOADED:
        return _jax_module(name)
    return _register(_Module(name), lambda: _jax_module(name))


class _PendingClass(type):
    """The type of a class stand-in: until JAX is imported nothing is an instance or a
    subclass of it; after, ``isinstance``/``issubclass`` answer for the real class (a stand-in
    that a module bound while JAX was being set up, in another thread, and so kept)."""

    def __instancecheck__(cls, x):
        return _LOADED and isinstance(x, cls._real())

    def __subclasscheck__(cls, c):
        return _LOADED and issubclass(c, cls._real())


def cls(module_name, name):
    """The class ``name`` of JAX module ``module_name``; until JAX is imported, a class with no
    instances (``type(x) is ArrayImpl`` is then rightly false; see ``_PendingClass``)."""
    def real():
        return getattr(_jax_module(module_name), name)
    if _LOADED:
        return real()
    return _register(_PendingClass(name, (), {"__doc__": f"{module_name}.{name}, not imported yet",
                                              "_real": staticmethod(real)}), real)


def until_loaded(before, after):
    """``before`` (a function that needs no JAX) until JAX is imported, then ``after`` in its
    place: the one that tnp modules hold is swapped, so neither pays a check. (A module that
    bound the stand-in while JAX was being set up, in another thread, keeps one that asks.)"""
    if _LOADED:
        return after

    def standin(*args):
        return (after if _LOADED else before)(*args)
    return _register(standin, lambda: after)


_WRAP = [None]  # the tiering wrapper of jitted kernels (``wrap_jit``), once registered


def wrap_jit(wrapper):
    """Register ``wrapper(real_jit, fun, options)``: every kernel ``jit`` makes from now on is
    the wrapper's (``tiering.Kernel``: the NumPy tier for cold calls)."""
    _WRAP[0] = wrapper


def _jax_jit(fun, options):
    """``jax.jit(fun, **options)``, wrapped by the registered wrapper."""
    real = importlib.import_module("jax").jit(fun, **options)
    wrap = _WRAP[0]
    return real if wrap is None else wrap(real, fun, options)


class _Jit:
    """``jax.jit(fun, **options)``, made at the first call."""
    __slots__ = ("fun", "options", "real", "__weakref__")

    def __init__(self, fun, options):
        self.fun, self.options, self.real = fun, options, None

    def __call__(self, *args, **kwargs):
        real = self.real
        return (real if real is not None else self._make())(*args, **kwargs)

    def __getattr__(self, attr):  # lower, clear_cache, ... of the jitted function
        real = self.real
        return getattr(real if real is not None else self._make(), attr)

    def _make(self):
        load()
        if self.real is None:  # made while _set_up ran (another thread): not in its list
            self.real = _jax_jit(self.fun, self.options)
        return self.real


def jit(fun=None, **options):
    """``jax.jit`` that imports JAX at the first call; usable as ``@jit`` or
    ``functools.partial(jit, static_argnums=...)``. The kernel is the registered wrapper's
    (``wrap_jit``) around it."""
    if fun is None:
        return lambda f: jit(f, **options)
    if _LOADED:
        return _jax_jit(fun, options)
    standin = _Jit(fun, options)
    return _register(standin, lambda: _jax_jit(fun, options))


class _Finder:
    """A ``sys.meta_path`` finder: sees the program (or a stand-in) import ``jax``, and sets tnp
    up right after it."""

    def find_spec(self, name, path, target=None):
        if name != "jax":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _SetUpAfter(spec.loader)
                return spec
        return None


class _SetUpAfter:
    """JAX's own loader, then ``_set_up``."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__spec__.loader = module.__loader__ = self.loader
        self.loader.exec_module(module)
        if _FINDER in sys.meta_path:
            sys.meta_path.remove(_FINDER)
        _set_up()


_FINDER = _Finder()
if "jax" in sys.modules:  # the program imported JAX before tnp
    _LOADED = True
else:
    sys.meta_path.insert(0, _FINDER)


jax = module("jax")
jnp = module("jax.numpy")
lax = module("jax.lax")
jcore = module("jax._src.core")  # the active trace (no public API for it)
ArrayImpl = cls("jax._src.array", "ArrayImpl")  # the concrete jax.Array type (fast checks)
JaxArray = cls("jax", "Array")
Tracer = cls("jax.core", "Tracer")
