"""PNG plots of time against size for groups with several sizes (matplotlib, the bench extra)."""
import os

# What a group's size is, where it is not an array size.
_SIZE_LABELS = {"per-example gradients": "batch size"}


def make_plots(rows, out_dir):
    """Write one log-log plot per group whose cases share a name over several sizes (each
    implementation drawn over the sizes it was timed at); return notes for the report."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ["(matplotlib is not installed: no plots; `pip install -e .[bench]`)"]
    notes = []
    series = {}
    for r in rows:
        if isinstance(r["size"], (int, float)):
            series.setdefault((r["group"], r["name"]), []).append(r)
    for (group, name), rs in series.items():
        if len(rs) < 3:
            continue
        rs.sort(key=lambda r: r["size"])
        impls = []
        for r in rs:
            impls += [i for i in r["median_s"] if i not in impls]
        fig, ax = plt.subplots(figsize=(6, 4))
        for impl in impls:
            timed = [r for r in rs if impl in r["median_s"]]
            ax.loglog([r["size"] for r in timed], [r["median_s"][impl] for r in timed], "o-",
                      label=impl)
        ax.set_xlabel(_SIZE_LABELS.get(group, "size"))
        ax.set_ylabel("median time per call (s)")
        ax.set_title(f"{group}: {name}")
        ax.legend()
        fname = f"{group}_{name}".replace("/", "_").replace(" ", "_") + ".png"
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, fname), dpi=100)
        plt.close(fig)
        note = f"{group}/{name}: plot {fname}"
        if all("numpy" in r["median_s"] for r in rs):
            crossings = [f"{impl} {_crossover(rs, impl)}" for impl in impls
                         if impl != "numpy" and all(impl in r["median_s"] for r in rs)]
            if crossings:
                note += "; faster than NumPy: " + ", ".join(crossings)
        notes.append(note)
    return notes


def _crossover(rows, impl):
    """From which size on ``impl`` is faster than NumPy (at that size and every larger one)."""
    size = None
    for r in reversed(rows):
        if r["median_s"][impl] >= r["median_s"]["numpy"]:
            break
        size = r["size"]
    return "never (in this range)" if size is None else f"from size {size:g}"
