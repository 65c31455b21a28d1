"""The project's speed targets, read off one run's rows: a table for results.md.

Each target names the rows it reads; a target whose rows the run did not include (``--only``)
is left out.
"""
import statistics

VIEWS = ("slice", "strided", "int index", "row", "reshape", "transpose")


def _ratios(rows, group, ratio, keep=lambda r: True):
    return [r["ratios"][ratio] for r in rows
            if r["group"] == group and ratio in r["ratios"] and keep(r)]


def _is_view(r):
    return r["name"].startswith(VIEWS)


def _measures(rows):
    """(target, limit, measured text, met) for each target the rows can answer; ``met`` is None
    for a reference line that is not a target."""
    out = []
    ops = _ratios(rows, "dispatch", "tnp/numpy", lambda r: "unread" not in r["name"])
    if ops:
        m = statistics.median(ops)
        out.append(("dispatch basket, median tnp/NumPy (default placement)", "<= 1.5",
                    f"{m:.2f}", m <= 1.5))
    floor = _ratios(rows, "dispatch floor", "floor wrapper/numpy")
    if floor:
        out.append(("the same for a bare wrapper class (``dispatch floor``: its median)",
                    "(reference)", f"{statistics.median(floor):.2f}", None))
        above = _ratios(rows, "dispatch floor", "tnp/floor wrapper")
        out.append(("tnp over that floor (``dispatch floor``: median tnp/floor wrapper)",
                    "(reference)", f"{statistics.median(above):.2f}", None))
    basket = _ratios(rows, "dispatch", "tnp/jax", lambda r: "unread" not in r["name"])
    if basket:
        m = statistics.median(basket)
        out.append(("dispatch basket, median tnp/jax.numpy eager", "<= 1.0", f"{m:.2f}", m <= 1.0))
    views = _ratios(rows, "dispatch", "tnp/jax", lambda r: _is_view(r) and "unread" in r["name"])
    if views:
        out.append(("slicing/indexing/reshape (the view made), worst tnp/jax.numpy", "<= 0.3",
                    f"{max(views):.2f}", max(views) <= 0.3))
    read = _ratios(rows, "dispatch", "tnp/jax", lambda r: _is_view(r) and "unread" not in r["name"])
    if read:
        out.append(("the same views also read, worst tnp/jax.numpy", "(reference)",
                    f"{max(read):.2f}", None))
    jit = _ratios(rows, "workloads", "tnp_ext.jit/jax.jit")
    if jit:
        m = statistics.median(jit)
        out.append(("workloads, tnp_ext.jit/hand-written jax.jit", "<= 1.05",
                    f"median {m:.2f} ({min(jit):.2f}-{max(jit):.2f})", m <= 1.05))
    for impl in ("tnp_ext.jit", "jax.jit"):
        vs = _ratios(rows, "workloads", f"{impl}/numpy")
        if vs:
            n = sum(v <= 0.3 for v in vs)
            ref = impl == "jax.jit"
            out.append((f"workloads at <= 0.3 of NumPy's time, {impl}",
                        "(reference)" if ref else ">= 4", f"{n} of {len(vs)}",
                        None if ref else n >= 4))
    for name, what in (("import", "import tnp / import numpy"),
                       ("small host program", "a small host program, tnp / numpy")):
        r = _ratios(rows, "start-up", "tnp/numpy", lambda r: r["name"].startswith(name))
        if r:
            out.append((f"{what} (process incl.)", "<= 2", f"{r[0]:.2f}", r[0] <= 2))
    return out


def markdown(rows):
    """The targets section of results.md (an empty list when no target applies)."""
    measures = _measures(rows)
    if not measures:
        return []
    lines = ["## Targets\n", "| target | limit | this run | met |", "|---|---|---|---|"]
    lines += [f"| {t} | {limit} | {got} | {'—' if ok is None else 'yes' if ok else 'no'} |"
              for t, limit, got, ok in measures]
    return ["\n".join(lines)]
