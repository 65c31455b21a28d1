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
    return out + _cold(rows)


# ``cold and dynamic`` (issue 36): (case name, size or None for any, implementation, limit on
# implementation/numpy); a row at another size is reported as a reference.
_COLD = (("masked Mandelbrot", "300x250 x200", "tnp", 1.5),
         ("masked Mandelbrot", "300x250 x200", "tnp device", 3.0),
         ("masked Mandelbrot", "300x250 x200", "numpy after JAX's start", None),
         ("masked Mandelbrot", "1000x1000 x100", "tnp", 1.0),
         ("masked Mandelbrot", "300x250 x20", "tnp", None),
         ("masked Mandelbrot", "300x250 x20", "tnp device", None),
         ("one-shot script", None, "tnp", 1.5),
         ("growing array", None, "tnp", 2.0),
         ("import", None, "tnp", 1.2))
_FULL_SIZES = {"one-shot script": "4e+06", "growing array": "1000 sizes"}
MEMORY_FLAT_MB = 50


def _cold_ratio(row, impl):
    """(text, ratio or None) of ``impl``/numpy in a fresh-process row; a time-out is
    ``>limit/numpy's time``."""
    f = row["fresh"].get(impl)
    if f is None:
        return None, None
    if f["runs"] == 0:
        base = row["fresh"]["numpy"]["wall_s"]
        return (f">{row['limit_s'] / base:.0f} (timed out)" if base else "timed out"), None
    r = row["ratios"][f"{impl}/numpy"]
    return f"{r:.2f}", r


def _cold(rows):
    out = []
    cold = [r for r in rows if r["group"] == "cold and dynamic"]
    for name, size, impl, limit in _COLD:
        for r in cold:
            if r["name"] != name or (size is not None and r["size"] != size):
                continue
            text, ratio = _cold_ratio(r, impl)
            if text is None:
                continue
            full = size is not None or _FULL_SIZES.get(name, r["size"]) == r["size"]
            what = f"{name} ({r['size']}), {impl}/NumPy (process incl.)"
            if limit is None or not full:
                out.append((what, "(reference)", text, None))
            else:
                out.append((what, f"<= {limit}", text, ratio is not None and ratio <= limit))
            if name == "one-shot script" and r["fresh"][impl]["runs"]:
                n = r["fresh"][impl]["compiles"]
                out.append((f"{name} ({r['size']}): XLA compiles in the run (every thread: an "
                            "upper bound on those on the critical path)", "0", f"{n:g}",
                            n == 0 if full else None))
            if name == "growing array" and all(r["fresh"][i]["runs"] for i in ("numpy", impl)):
                grown = {i: r["fresh"][i]["peak_rss_mb"] - r["fresh"][i]["peak_rss_mb@quarter"]
                         for i in ("numpy", impl)}
                extra = grown[impl] - grown["numpy"]
                out.append((f"{name} ({r['size']}): peak-RSS growth from a quarter of the sizes "
                            "to the end, tnp's less NumPy's", f"<= {MEMORY_FLAT_MB} MB",
                            f"{extra:+.0f} MB ({grown[impl]:+.0f} tnp, {grown['numpy']:+.0f} "
                            "numpy)", extra <= MEMORY_FLAT_MB if full else None))
    for r in cold:
        second = r["fresh"].get("tnp second run")
        if second is not None:
            n = second["compiles"]
            out.append((f"{r['name']} ({r['size']}): XLA compiles of the second run", "0",
                        "timed out" if n is None else f"{n:g}", n == 0))
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
