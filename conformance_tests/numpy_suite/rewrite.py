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
    return isolate(b"".join(lines).decode()), sorted(done)



FAILED_MARK = "failed to import under tnp"


def isolate(source):
    """Wrap every top-level test class and test function (decorators included) in
    ``try: ... except Exception:``, so that one whose body or decorators fail under tnp (an
    object-dtype array built at import time) becomes a placeholder that fails, instead of taking
    the whole module down; inside a test class, each decorated test method is wrapped first, so
    that a method whose decorators fail becomes a failing placeholder method and its class's
    other tests still run. Indentation is added around the definition only; the interior lines of
    multi-line strings are left as they are (their content is unchanged); the ``try:`` and
    ``except`` lines take the blank lines around the definition where there are some, so line
    numbers mostly stay NumPy's."""
    return _wrap(_wrap(source, methods=True), methods=False)


def _targets(tree, methods):
    """(first line, last line, name, kind, column) of each definition to wrap."""
    for node in tree.body:
        if methods:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                            m.name.startswith("test") and m.decorator_list:
                        yield (min(d.lineno for d in m.decorator_list), m.end_lineno, m.name,
                               "method", m.col_offset)
            continue
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            kind = "class"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name.startswith("test"):
            kind = "function"
        else:
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        yield start, node.end_lineno, node.name, kind, 0


def _wrap(source, methods):
    import io
    import tokenize
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    interior = set()
    fstart = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING and tok.start[0] != tok.end[0]:
            interior.update(range(tok.start[0] + 1, tok.end[0] + 1))
        elif tok.type == getattr(tokenize, "FSTRING_START", None):
            fstart.append(tok.start[0])
        elif tok.type == getattr(tokenize, "FSTRING_END", None) and fstart:
            s = fstart.pop()
            interior.update(range(s + 1, tok.end[0] + 1))
    for start, end, name, kind, col in sorted(_targets(tree, methods), reverse=True):
        pad = " " * col
        handler = (f"{pad}except Exception as _tnps_e: {name} = __import__({SUPPORT!r})"
                   f".failed_{kind}({name!r}, _tnps_e)\n")
        body = [("    " + ln if (i not in interior and ln.strip()) else ln)
                for i, ln in zip(range(start, end + 1), lines[start - 1:end])]
        if not body[-1].endswith("\n"):
            body[-1] += "\n"
        after = end  # index in `lines` of the line after the definition
        if after < len(lines) and not lines[after].strip():
            tail, drop_after = [handler], 1
        else:
            tail, drop_after = [handler], 0
        if start >= 2 and not lines[start - 2].strip():
            head, first = [f"{pad}try:\n"], start - 2
        else:
            head, first = [f"{pad}try:\n"], start - 1
        lines[first:end + drop_after] = head + body + tail
    return "".join(lines)
