"""``python -m benchmarks [--quick] [--only PATTERN] [--device cpu|gpu] [--out DIR]``

Runs every case in ``benchmarks/cases/`` side by side (NumPy, jax.numpy eager and jitted, tnp
eager and tnp_ext.jit where a case has them) and writes DIR/results.md, DIR/results.json and
PNG plots (matplotlib, the ``bench`` extra) for cases that ask for one.
"""
import argparse
import datetime
import fnmatch
import importlib
import json
import os
import pkgutil
import platform
import sys

import tnp  # noqa: F401  (first, as programs do: its malloc settings precede JAX)
from benchmarks import fresh, plots, targets
from benchmarks.runner import RATIOS


def _cases(quick, only):
    from benchmarks import cases as pkg
    found = []
    for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"benchmarks.cases.{m.name}")
        for case in mod.cases(quick):
            if only is None or any(fnmatch.fnmatch(f"{case.group}/{case.name}", f"*{o}*")
                                   for o in only.split(",")):
                found.append(case)
    return found


def _fmt_t(s):
    return "—" if s is None else f"{s * 1e6:,.1f} µs" if s < 1e-3 else f"{s * 1e3:,.2f} ms"


def _median(vals):
    n = len(vals)
    return vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2


def _fmt_r(r):
    return "—" if r is None else f"{r:.2f}"


def write_markdown(rows, path, meta):
    lines = [f"# tnp benchmarks\n", f"{meta['date']} · {meta['machine']} · Python {meta['python']}"
             f" · numpy {meta['numpy']} · jax {meta['jax']} ({meta['device']})\n",
             "Medians of repeated calls, results blocked on; a ratio a/b < 1 means a is faster.\n"]
    groups = []
    for r in rows:
        if r["group"] not in groups:
            groups.append(r["group"])
    for g in groups:
        lines.append(f"\n## {g}\n")
        if all("fresh" in r for r in rows if r["group"] == g):
            lines += fresh.markdown([r for r in rows if r["group"] == g])
            continue
        impls = []
        for r in rows:
            if r["group"] == g:
                impls += [i for i in r["median_s"] if i not in impls]
        group_rows = [r for r in rows if r["group"] == g]
        ratio_names = [n for n in (f"{a}/{b}" for a, b in RATIOS)
                       if any(n in r["ratios"] for r in group_rows)]
        head = ["case", "size"] + impls + ratio_names
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for r in group_rows:
            cells = [r["name"], str(r["size"])] + [_fmt_t(r["median_s"].get(i)) for i in impls]
            cells += [_fmt_r(r["ratios"].get(n)) for n in ratio_names]
            lines.append("| " + " | ".join(cells) + " |")
        for n in ratio_names:
            vals = sorted(r["ratios"][n] for r in group_rows if n in r["ratios"])
            lines.append(f"\nMedian {n} over this group: {_median(vals):.2f}")
        lines += _count_lines(group_rows)
    for extra in meta.get("notes", []):
        lines.append("\n" + extra)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def _count_lines(rows):
    """A case's counters per call (``Case.counts``), implementations with nonzero counts."""
    out = []
    for r in rows:
        per = [f"{impl}: " + ", ".join(f"{v} {k}" for k, v in c.items())
               for impl, c in r.get("counts", {}).items() if any(c.values())]
        if per:
            out.append(f"\nPer call, {r['name']} ({r['size']}): " + "; ".join(per))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small sizes, few repeats (< 2 min)")
    p.add_argument("--only", help="run cases whose group/name contains one of these "
                                  "comma-separated patterns")
    p.add_argument("--device", choices=("cpu", "gpu"), default=None)
    p.add_argument("--out", default="bench_out")
    args = p.parse_args(argv)
    if args.device:
        os.environ["JAX_PLATFORMS"] = "cuda" if args.device == "gpu" else "cpu"
    import jax
    import numpy

    from benchmarks.runner import run_case
    os.makedirs(args.out, exist_ok=True)
    cases = _cases(args.quick, args.only)
    repeats = 7 if args.quick else 30
    rows = []
    for i, case in enumerate(cases, 1):
        print(f"[{i}/{len(cases)}] {case.group}/{case.name} {case.size}", file=sys.stderr,
              flush=True)
        rows.append(run_case(case, repeats))
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.machine()} {os.cpu_count()} cores", "python":
            platform.python_version(), "numpy": numpy.__version__, "jax": jax.__version__,
            "device": str(jax.devices()[0].platform)}
    meta["notes"] = targets.markdown(rows) + plots.make_plots(rows, args.out)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1, default=str)
    write_markdown(rows, os.path.join(args.out, "results.md"), meta)
    print(open(os.path.join(args.out, "results.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
