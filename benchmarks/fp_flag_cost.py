"""What the device tier's floating-point flag costs on the lazy group's cases, and what the
ways of computing it that XLA's CPU compiler offers cost: ``python -m benchmarks.fp_flag_cost
[--n N] [--repeat R] [--out DIR]``.

The lazy flag (``fperr.Check.flag``) of a graph is a reduction of each output, read from the
stored output: XLA's CPU compiler in this JAX has no multi-output fusion (no such
``DebugOptions`` field or compile option), so the reduction is a second kernel (a YNNPACK
reduce), one more pass over the output, whichever reduction it is. A flush that proves its
checks cannot fire leaves the flag out (``tnp._core.engine.valueranges``). Measured, in turns
in one process (each round's order reversed every other round), with the minimum and the
median of ``--repeat`` calls of each:

- ``jax.jit``: the case alone, and the case returning its result and each flag formulation
  (``sum``: ``~isfinite(sum(r))``, tnp's; ``rows8``: per-row sums of 8 rows, then their
  finiteness; ``all``: ``~all(isfinite(r))``; ``maxabs``: ``max(abs(r)) <= finfo.max``);
- ``tnp lazy``: the case with ``TNP_FP_WARNINGS`` on, proofs off (each formulation put in
  place of tnp's), on with proofs (``proved``: tnp's default) and off, its result read
  (``numpy.asarray``), the ratio to off; the lazy group's chain in ``errstate`` and
  ``catch_warnings`` blocks too (tnp only); then tnp's default and off alone, in turns.
"""
import argparse
import os
import time

import jax
import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.cases.lazy import chain, chain_in_catch_warnings, chain_in_errstate, sigmoid
from tnp._core import settings
from tnp._core.dispatch import tiers
from tnp._core.engine import tiering, valueranges
from tnp._core.numerics import fperr

_SUM = fperr._any_finite_sum
_MIN_BYTES = valueranges.MIN_BYTES


def _rows8(r):
    if r.ndim == 0 or r.size % 8:
        return _SUM(r)
    return ~jnp.all(jnp.isfinite(jnp.sum(r.reshape(8, -1), axis=1)))


FLAGS = {"sum": _SUM, "rows8": _rows8, "all": lambda r: ~jnp.all(jnp.isfinite(r)),
         "maxabs": lambda r: ~(jnp.max(jnp.abs(r)) <= jnp.finfo(r.dtype).max)}


def _turns(fns, repeat):
    """``{name: times}`` of the calls of ``fns`` (each blocks on its result), in turns."""
    for f in fns.values():
        for _ in range(10):
            f()
    tiering.wait()
    times = {k: [] for k in fns}
    order = list(fns)
    for i in range(repeat):
        for k in order if i % 2 else order[::-1]:
            t = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t)
    return times


def _xla(program, x):
    fns = {"alone": jax.jit(lambda a: program(jnp, a))}
    for name, flag in FLAGS.items():
        fns[name] = jax.jit(lambda a, flag=flag: (lambda r: (r, flag(r)))(program(jnp, a)))
    return {k: (lambda f=f: jax.block_until_ready(f(x))) for k, f in fns.items()}


def _tnp(program, t):
    def run(flag, prove=False):
        settings.set("fp_warnings", flag is not None)
        valueranges.MIN_BYTES = _MIN_BYTES if prove else 1 << 62
        if flag is not None:
            fperr._any_finite_sum = flag
        np.asarray(program(tnp, t))
    fns = {"off": lambda: run(None)}
    for name, flag in FLAGS.items():
        fns[name] = lambda flag=flag: run(flag)
    fns["proved"] = lambda: run(_SUM, True)
    return fns


def main():
    p = argparse.ArgumentParser(prog="python -m benchmarks.fp_flag_cost", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=100)
    p.add_argument("--out", default=None, help="write results.md there")
    args = p.parse_args()
    tiers.configure("device")
    settings.update(cold="off")
    x = np.linspace(-5, 5, args.n)
    j = jnp.asarray(x)
    t = tnp.asarray(j)
    lines = [f"# The floating-point flag's cost ({args.n:,} float64 elements, {args.repeat} calls "
             f"each in turns; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
             "", f"XLA_FLAGS: `{os.environ.get('XLA_FLAGS', '')}`", "",
             "Ratios to the case without the flag: minimum / median.", "",
             "| case | run | " + " | ".join(FLAGS) + " | proved | without (min / median) |",
             "|---|---|" + "---|" * (len(FLAGS) + 2)]
    try:
        for program in (chain, sigmoid, chain_in_errstate, chain_in_catch_warnings):
            runs = [("tnp lazy", _tnp(program, t), "off")]
            if program in (chain, sigmoid):
                runs.insert(0, ("jax.jit", _xla(program, j), "alone"))
            for run, fns, base in runs:
                times = {k: np.asarray(v) for k, v in _turns(fns, args.repeat).items()}
                b = times[base]
                cells = [f"{v.min() / b.min():.2f} / {np.median(v) / np.median(b):.2f}"
                         for k, v in times.items() if k != base] + ["—"] * (run == "jax.jit")
                lines.append(f"| {program.__name__} | {run} | " + " | ".join(cells) +
                             f" | {b.min() * 1e3:.2f} / {np.median(b) * 1e3:.2f} ms |")
        lines += ["", "tnp's default alone against the check off, in turns (no other variant "
                  "between them): on / off, minimum / median.", "",
                  "| case | on / off | off (min / median) |", "|---|---|---|"]
        for program in (chain, sigmoid, chain_in_errstate, chain_in_catch_warnings):
            fns = _tnp(program, t)
            times = {k: np.asarray(v) for k, v in _turns(
                {"proved": fns["proved"], "off": fns["off"]}, args.repeat).items()}
            on, off = times["proved"], times["off"]
            lines.append(f"| {program.__name__} | {on.min() / off.min():.2f} / "
                         f"{np.median(on) / np.median(off):.2f} | {off.min() * 1e3:.2f} / "
                         f"{np.median(off) * 1e3:.2f} ms |")
    finally:
        fperr._any_finite_sum = _SUM
        valueranges.MIN_BYTES = _MIN_BYTES
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "results.md"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
