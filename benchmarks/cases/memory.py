"""Memory: resident memory (RSS) growth over a loop that makes arrays of a new size each time
(issue 21: every new shape compiles new executables; ``tnp._core.engine.caches`` bounds them), and over
300 distinct small sizes (the host tier: in the placement mode "auto" NumPy runs them, and XLA
compiles nothing).

``python -m benchmarks.cases.memory N [EVERY]`` runs the loop in this process over N distinct
sizes and prints one line per EVERY sizes: sizes done, RSS growth in MB since the first size,
executables built. The benchmark case runs it in a fresh process (NumPy and tnp), reports the
time per size, and writes the growth into the case's name (the runner reports times only).
"""
import os
import subprocess
import sys

from benchmarks.runner import Case

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def step(np, n):
    """One iteration of a program whose arrays have a new size ``n`` each time."""
    a = np.arange(float(n))
    b = np.sin(a) * 2.0 + 1.0
    b[0] = 3.0
    return float(b.sum())


def small_step(np, n):
    """One iteration of a program whose arrays are small (under the host threshold), of a new
    size ``n`` each time."""
    a = np.arange(n) * 2.0 + 1
    return a.sum()


def measure(np, sizes, every, step=step):
    """[(sizes done, RSS growth in MB)] every ``every`` sizes, after a warm-up on size 1."""
    step(np, 1)
    r0, out = rss_mb(), []
    for i in range(sizes):
        step(np, i + 2)
        if (i + 1) % every == 0:
            out.append((i + 1, rss_mb() - r0))
    return out


def run(module, sizes, every, env=None, step="step", mode=None):
    """``measure`` of ``step`` (a name in this module) in a fresh process: [(sizes done, MB)];
    ``mode``: tnp's placement mode, set around it with ``tnp_ext.placement``."""
    call = f"print(measure(np, {sizes}, {every}, {step}))"
    code = (f"import {module} as np\nfrom benchmarks.cases.memory import measure, {step}\n"
            + (f"import tnp_ext\nwith tnp_ext.placement({mode!r}):\n    {call}" if mode
               else call))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, cwd=_REPO, env=dict(os.environ, **(env or {}))).stdout
    return eval(out.strip().splitlines()[-1])  # noqa: S307 (our own list of tuples)


def _case(sizes):
    case = Case("memory", f"RSS over {sizes} new sizes (process incl.)", sizes, None, repeats=1)

    def make():
        growth = {m: run(m, sizes, sizes)[-1][1] for m in ("numpy", "tnp")}
        case.name = (f"RSS over {sizes} new sizes: +{growth['tnp']:.0f} MB tnp, "
                     f"+{growth['numpy']:.0f} MB numpy (process incl.)")
        return {m: (lambda m=m: run(m, sizes, sizes)) for m in ("numpy", "tnp")}
    case.make = make
    return case


# the small-sizes case's implementations: name -> (module, placement mode)
_SMALL = {"numpy": ("numpy", None), "tnp auto": ("tnp", "auto"), "tnp device": ("tnp", "device")}


def _small_sizes_case(sizes):
    case = Case("memory", f"RSS over {sizes} distinct small sizes (process incl.)", sizes, None,
                repeats=1)

    def measured(impl):
        module, mode = _SMALL[impl]
        return run(module, sizes, sizes, step="small_step", mode=mode)

    def make():
        growth = {impl: measured(impl)[-1][1] for impl in _SMALL}
        case.name = (f"RSS over {sizes} distinct small sizes: " + ", ".join(
            f"+{mb:.1f} MB {impl}" for impl, mb in growth.items()) + " (process incl.)")
        return {impl: (lambda impl=impl: measured(impl)) for impl in _SMALL}
    case.make = make
    return case


def cases(quick):
    return [_case(30 if quick else 1000), _small_sizes_case(30 if quick else 300)]


if __name__ == "__main__":
    import tnp
    from tnp._core.engine import caches
    n, every = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 10
    step(tnp, 1)
    r0 = rss_mb()
    for i in range(n):
        step(tnp, i + 2)
        if (i + 1) % every == 0:
            print(i + 1, f"+{rss_mb() - r0:.0f} MB", caches.executables_built(), flush=True)
