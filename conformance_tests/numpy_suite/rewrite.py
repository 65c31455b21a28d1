"""Rewrites a NumPy test file so that ``numpy`` means ``tnp`` (the rule is in the package docstring).

Only import statements and attribute chains rooted at ``np`` that reach a private name are edited,
through the syntax tree (text in strings — e.g. code run in a subprocess — is left alone). Every
edit keeps the file's line count, so a failure's line number is NumPy's own.
"""
import ast

SUPPORT = "tnp_suite_support"

# NumPy's public modules that tnp mirrors: `numpy.X` means `tnp.X`.
TNP_MODULES = {"numpy": "tnp", "numpy.linalg": "tnp.linalg", "numpy.fft": "tnp.fft",
               "numpy.random": "tnp.random", "numpy.lib": "tnp.lib",
               "numpy.lib.stride_tricks": "tnp.lib.stride_tricks", "numpy.testing": "tnp.testing"}


def _private(modname):
    """A NumPy-internal module path (a component starting with one underscore)."""
    return any(p.startswith("_") and not p.startswith("__") for p in modname.split("."))


def _numpy_own(modname):
    """Modules that stay NumPy's whatever they hold: the testing helpers and the test packages."""
    parts = modname.split(".")
    return parts[:3] == ["numpy", "testing", "_private"] or "tests" in parts


def _import_from(node):
    mod = node.module or ""
    if node.level or not (mod == "numpy" or mod.startswith("numpy.")) or _numpy_own(mod):
        return None
    if any(a.name == "*" for a in node.names):
        return None
    if mod in TNP_MODULES:
        kind = "public"
    elif _private(mod):
        kind = "private"
    else:
        return None  # numpy.exceptions, numpy.dtypes, numpy.ma, numpy.polynomial...: NumPy's
    targets = ", ".join(a.asname or a.name for a in node.names)
    names = ", ".join(repr(a.name) for a in node.names)
    return (f"{targets}, = __import__({SUPPORT!r}).import_{kind}({mod!r}, ({names},))")


def _import(node):
    stmts = []
    changed = False
    for a in node.names:
        if a.name == "numpy" and a.asname:
            stmts.append(f"import tnp as {a.asname}")
            changed = True
        elif a.asname and a.name in TNP_MODULES:
            stmts.append(f"import {TNP_MODULES[a.name]} as {a.asname}")
            changed = True
        elif a.asname and a.name.startswith("numpy.") and _private(a.name) \
                and not _numpy_own(a.name):
            stmts.append(f"{a.asname} = __import__({SUPPORT!r}).private_module({a.name!r})")
            changed = True
        else:  # `import numpy`, `import numpy.x`: binds the name `numpy`, NumPy's own
            stmts.append(f"import {a.name}" + (f" as {a.asname}" if a.asname else ""))
    return "; ".join(stmts) if changed else None


def _np_aliases(tree):
    return {a.asname for n in ast.walk(tree) if isinstance(n, ast.Import)
            for a in n.names if a.name == "numpy" and a.asname}


def rewrite(source):
    """The rewritten source and the list of edits made, as (line, original, replacement)."""
    tree = ast.parse(source)
    lines = source.encode().splitlines(keepends=True)  # ast's columns count UTF-8 bytes
    edits = []  # (lineno, col, end_lineno, end_col, text)
    for node in ast.walk(tree):
        new = None
        if isinstance(node, ast.ImportFrom):
            new = _import_from(node)
        elif isinstance(node, ast.Import):
            new = _import(node)
        if new is not None:
            edits.append((node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, new))
    aliases = _np_aliases(tree)
    bases = {}
    for node in ast.walk(tree):
        # np.a.b._c... (or np.__config__): the chain reaches NumPy's internals, which stay
        # NumPy's (through the support module's view of NumPy: public NumPy objects met on the
        # way are tnp's, so np.add.__doc__ is still tnp's add's).
        if isinstance(node, ast.Attribute):
            chain, base = [], node
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in aliases and \
                    any(p.startswith("_") for p in chain):
                bases[(base.lineno, base.col_offset)] = (
                    base.lineno, base.col_offset, base.end_lineno, base.end_col_offset,
                    f"__import__({SUPPORT!r}).NUMPY")
    edits.extend(bases.values())
    done = []
    for (l0, c0, l1, c1, text) in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        first, last = lines[l0 - 1], lines[l1 - 1]
        old = b"".join(lines[l0 - 1:l1])
        new_line = first[:c0] + text.encode() + last[c1:]
        lines[l0 - 1:l1] = [new_line] + [b"\n"] * (l1 - l0)
        done.append((l0, old.decode().strip(), text))
    return b"".join(lines).decode(), sorted(done)

