"""The import structure of ``tnp`` and ``tnp_ext``: no cycles; ``tnp._core``'s layers and tnp's
packages import downward only (``tnp/_core/__init__.py``); no tnp module found by name at run
time in ``tnp._core``; ``tnp_ext`` through ``tnp._core.api`` alone; an array's storage assigned
only through the door (``tnp/_core/array/__init__.py``).

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``, at
module level or inside a function, is an edge (an import inside a function is a cycle deferred,
not removed). ``from pkg import name`` is an edge to ``pkg.name`` when that is a module.
"""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("tnp", "tnp_ext")


def _modules():
    mods = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = path
    return mods


def _resolve(module, path, node):
    """The absolute module a ``from`` import names (relative imports resolved)."""
    if node.level == 0:
        return node.module
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph():
    mods = _modules()
    graph = {m: set() for m in mods}
    for mod, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(mod, path, node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            for t in targets:
                while t and t not in mods:  # `import tnp.linalg._x` names its package chain
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    graph[mod].add(t)
    return graph


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _is_package_init(graph, mod):
    return (ROOT / mod.replace(".", "/") / "__init__.py").exists()


def test_no_import_cycles():
    graph = import_graph()
    # A package's __init__ importing its own submodules is how a package is assembled; a
    # submodule importing its package's __init__ back is what makes a cycle of it.
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


# tnp's packages above ``tnp._core``, bottom to top: the ufunc table fills in the ufunc machinery,
# the routines call the ufuncs, the submodules call the routines; ``tnp/__init__`` and the
# command-line tools (``_porting``, ``_inventory``, ``__main__``) sit above them all.
PACKAGE_ORDER = ("tnp._core", "tnp._ufuncs", "tnp._routines",
                 ("tnp.linalg", "tnp.fft", "tnp.random", "tnp.lib", "tnp.testing"))


def _package_level(mod):
    for level, pkgs in enumerate(PACKAGE_ORDER):
        for pkg in (pkgs,) if isinstance(pkgs, str) else pkgs:
            if mod == pkg or mod.startswith(pkg + "."):
                return level
    return None


def test_packages_import_downward_only():
    graph = import_graph()
    up = sorted((m, t) for m, ts in graph.items() if _package_level(m) is not None
                for t in ts if _package_level(t) is not None
                and _package_level(t) > _package_level(m))
    assert not up, "imports from a higher package:\n" + "\n".join(f"{m} -> {t}" for m, t in up)


# tnp._core's layers, bottom to top (``tnp/_core/__init__.py`` says what each owns). A module
# imports only from its own layer or those below it; ``tnp._core.settings`` is below them all,
# ``tnp._core.api`` (the interface tnp_ext uses) above them all.
LAYERS = ("settings", "rules", "engine", "numerics", "array", "dispatch", "ufunc", "methods",
          "api")


def _layer(mod):
    parts = mod.split(".")
    if parts[:2] != ["tnp", "_core"] or len(parts) < 3:
        return None
    return LAYERS.index(parts[2])


def test_core_layers_import_downward_only():
    graph = import_graph()
    core = [m for m in graph if m.startswith("tnp._core.")]
    unplaced = [m for m in core if m.split(".")[2] not in LAYERS]
    assert not unplaced, f"tnp._core modules outside the layers: {unplaced}"
    up = sorted((m, t) for m in core for t in graph[m]
                if t.startswith("tnp._core.") and _layer(t) > _layer(m))
    assert not up, "imports from a higher layer:\n" + "\n".join(f"{m} -> {t}" for m, t in up)


def _names_tnp(node):
    """Whether an argument may name a tnp module (anything but a constant naming another)."""
    return not (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value.split(".")[0] != "tnp")


def _run_time_bindings(tree):
    """Lines that find a tnp module by name at run time (``importlib``, ``__import__``,
    ``sys.modules``) or read or rewrite a module's globals (``globals()``, ``vars(module)``)."""
    ok = set()  # `"jax" in sys.modules`: asks about another package
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and not _names_tnp(node.left):
            ok.update(id(c) for c in node.comparators)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in ("import_module", "__import__") and (
                    not node.args or _names_tnp(node.args[0])):
                yield node.lineno, name
            elif name in ("globals", "vars"):
                yield node.lineno, name
        elif (isinstance(node, ast.Attribute) and node.attr == "modules"
              and isinstance(node.value, ast.Name) and node.value.id == "sys"
              and id(node) not in ok):
            yield node.lineno, "sys.modules"


def test_core_binds_nothing_at_run_time():
    """An upward dependency the graph above cannot see: a tnp module found by name at run time
    or another module's globals rewritten. What a higher layer gives a lower one it gives by an
    explicit registration at import time (an edge from the registering module down to the
    registry, which the graph sees)."""
    found = [f"{mod}:{line} {name}" for mod, path in _modules().items()
             if mod.startswith("tnp._core")
             for line, name in _run_time_bindings(ast.parse(path.read_text(), str(path)))]
    assert not found, "run-time bindings in tnp._core:\n" + "\n".join(found)


def test_run_time_bindings_are_found():
    """What the test above finds (and what it lets pass: JAX imported by a constant name)."""
    found = lambda src: [n for _, n in _run_time_bindings(ast.parse(src))]  # noqa: E731
    assert found("importlib.import_module('tnp.' + ns)") == ["import_module"]
    assert found("importlib.import_module(name)") == ["import_module"]
    assert found("m = __import__(__name__)") == ["__import__"]
    assert sorted(found("for n, m in sys.modules.items(): vars(m)[n] = 0")) == [
        "sys.modules", "vars"]
    assert found("globals()['x'] = 1") == ["globals"]
    assert found("importlib.import_module('jax'); 'jax' in sys.modules") == []


# tnp_ext reaches tnp's machinery through one interface (``tnp._core.api``); ``tnp_ext.placement``
# also sets ``tnp._core.settings``.
EXT_MAY_IMPORT = {"tnp._core.api", "tnp._core.settings"}


def test_tnp_ext_imports_only_the_api():
    graph = import_graph()
    found = sorted((m, t) for m, ts in graph.items() if m.startswith("tnp_ext")
                   for t in ts if t.startswith("tnp._core") and t not in EXT_MAY_IMPORT)
    assert not found, "tnp_ext imports tnp._core modules other than the api:\n" + "\n".join(
        f"{m} -> {t}" for m, t in found)
    users = sorted(m for m, ts in graph.items() if "tnp._core.api" in ts
                   and not m.startswith("tnp_ext"))
    assert not users, f"tnp._core.api is tnp_ext's interface; also imported by {users}"


def _slots(cls_name, path):
    """The names in ``__slots__`` of the class ``cls_name`` defined in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ClassDef) and node.name == cls_name:
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and any(
                        getattr(t, "id", None) == "__slots__" for t in stmt.targets):
                    return set(ast.literal_eval(stmt.value))
    raise AssertionError(f"no __slots__ of {cls_name} in {path}")


def _assigned_attributes(tree):
    """``(line, attribute)`` of every attribute assigned or deleted (``x.a = ``, ``x.a += ``,
    ``a, x.a = ``, ``del x.a``, ``setattr(x, "a", ...)``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.lineno, node.attr
        elif isinstance(node, ast.Call) and (
                getattr(node.func, "id", None) == "setattr"
                or getattr(node.func, "attr", None) == "__setattr__") and len(node.args) >= 2:
            name = node.args[-2]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                yield node.lineno, name.value


def _storage_assignments(names):
    """``(file, line, attribute)`` of every assignment of an attribute among ``names``."""
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, attr in _assigned_attributes(ast.parse(path.read_text(), str(path))):
                if attr in names:
                    yield rel, line, attr


def test_buffer_assigned_only_by_the_array_layer_and_the_flush():
    """One door to storage (``tnp/_core/array/__init__.py``): an array's buffer is assigned by
    the array layer's ``ndarray`` and ``write`` and by the engine's flush
    (``tnp._core.engine.lazygraph.store``), in no other module."""
    modules = {rel for rel, _, _ in _storage_assignments({"_buf"})}
    assert modules <= {"tnp/_core/array/ndarray.py", "tnp/_core/array/write.py",
                       "tnp/_core/engine/lazygraph.py"}, sorted(modules)


# Slot names other classes use for their own state too (``numerics.fperr``'s error-state cache,
# ``tnp_ext.export``'s exported function): not told apart by name, so not checked.
_SHARED_NAMES = {"_cache", "_exported", "__weakref__"}



def test_storage_assigned_only_below_dispatch():
    """No module outside the array layer and the engine assigns an ndarray's storage
    attributes (its ``__slots__``); they go through the door (``tnp._core.array.storage``,
    ``write``, ``ndarray``'s constructors)."""
    names = _slots("ndarray", ROOT / "tnp/_core/array/ndarray.py") - _SHARED_NAMES
    assert "_buf" in names and "_scalar" in names
    found = [f"{rel}:{line} {attr}" for rel, line, attr in _storage_assignments(names)
             if not rel.startswith(("tnp/_core/array/", "tnp/_core/engine/"))]
    assert not found, "ndarray storage assigned outside the array layer:\n" + "\n".join(found)
