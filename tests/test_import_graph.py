"""The import structure of ``tnp`` and ``tnp_ext``: no cycles, and ``tnp._core`` never imports
from ``tnp._routines`` (the array's machinery sits below the NumPy namespace built on it).

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


def test_core_does_not_import_routines():
    graph = import_graph()
    up = sorted((m, t) for m, ts in graph.items() if m.startswith("tnp._core")
                for t in ts if not t.startswith("tnp._core"))
    assert not up, f"tnp._core imports from above it: {up}"
