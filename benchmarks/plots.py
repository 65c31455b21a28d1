"""PNG plots of time against size for groups with several sizes (matplotlib, the bench extra)."""
import os


def make_plots(rows, out_dir):
    """Write one log-log plot per group whose cases share a name over several sizes; return
    notes (crossover sizes) for the report."""
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
        fig, ax = plt.subplots(figsize=(6, 4))
        for impl in rs[0]["median_s"]:
            ax.loglog([r["size"] for r in rs], [r["median_s"][impl] for r in rs], "o-",
                      label=impl)
        ax.set_xlabel("size")
        ax.set_ylabel("median time per call (s)")
        ax.set_title(f"{group}: {name}")
        ax.legend()
        fname = f"{group}_{name}".replace("/", "_").replace(" ", "_") + ".png"
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, fname), dpi=100)
        plt.close(fig)
        cross = [r["size"] for r in rs if r["median_s"].get("tnp", 1) < r["median_s"].get(
            "numpy", 0)]
        notes.append(f"{group}/{name}: plot {fname}; tnp faster than NumPy from size "
                     f"{cross[0] if cross else 'never (in this range)'}")
    return notes
