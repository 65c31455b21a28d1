"""Cold and dynamic programs (issue 36): programs that run once, or whose shapes change every
iteration, each run as a fresh process (``benchmarks/fresh.py``: process time included),
NumPy and tnp on the same source.

- masked Mandelbrot, unmodified (``I = abs(Z) < 2; N[I] = n; Z[I] = Z[I]**2 + C[I]``): every
  iteration's mask count is a new shape; default placement and ``TNP_PLACEMENT=device``;
- compacting Mandelbrot (``z, c, idx = z[keep], c[keep], idx[keep]``: compactions that live
  on, a new length every iteration), both placements;
- nonzero-index Mandelbrot (``idx = np.nonzero(active)[0]; z[idx] = z[idx]**2 + c[idx]``: an
  index array of a new length every iteration), both placements;
- a one-shot script: a dozen different operations on 4e6-element arrays, each run once;
- a loop over distinct sizes above the host threshold (an array growing by a row per
  iteration), with the growth of peak resident memory from a quarter of the sizes to the end;
- ``import tnp`` against ``import numpy``;
- the floor of ``TNP_PLACEMENT=device``: NumPy's masked Mandelbrot run after JAX's import and
  one JAX operation (``numpy after JAX's start``), what any run on JAX pays at least;
- a second run with the first run's persistent compilation cache: its compiles counted.
"""
import functools

from benchmarks import fresh
from benchmarks.runner import Case

GROUP = "cold and dynamic"

MANDELBROT = """\
import numpy as np

h, w, iterations = H, W, ITERATIONS
y, x = np.ogrid[-1.4:1.4:h * 1j, -2:0.8:w * 1j]
C = x + 1j * y
Z = np.zeros_like(C)
N = np.zeros(C.shape, dtype=int)
for n in range(iterations):
    I = abs(Z) < 2
    N[I] = n
    Z[I] = Z[I] ** 2 + C[I]
print(N.sum(), (N == iterations - 1).sum())
"""

COMPACTING = """\
import numpy as np

h, w, iterations = H, W, ITERATIONS
y, x = np.ogrid[-1.4:1.4:h * 1j, -2:0.8:w * 1j]
c = (x + 1j * y).ravel()
idx = np.arange(c.size)
z = np.zeros_like(c)
escape = np.full(c.size, iterations, dtype=np.int32)
for n in range(iterations):
    z = z * z + c
    out = np.abs(z) > 2.0
    escape[idx[out]] = n
    keep = ~out
    z, c, idx = z[keep], c[keep], idx[keep]
print(int((escape == iterations).sum()), int(escape.sum()), len(z))
"""

NONZERO = """\
import numpy as np

h, w, iterations = H, W, ITERATIONS
y, x = np.ogrid[-1.4:1.4:h * 1j, -2:0.8:w * 1j]
c = (x + 1j * y).ravel()
z = np.zeros_like(c)
escape = np.zeros(c.size, dtype=np.int32)
active = np.ones(c.size, dtype=bool)
for n in range(iterations):
    idx = np.nonzero(active)[0]
    z[idx] = z[idx] ** 2 + c[idx]
    escape[idx] = n
    active = np.abs(z) < 2
print(int(escape.sum()), int(active.sum()), len(idx))
"""

ONE_SHOT = """\
import numpy as np

n = SIZE
x = np.linspace(-2.0, 3.0, n)
y = np.cos(x * 7.0) * 0.5 + 0.5
z = np.sqrt(np.abs(x)) * np.exp(-y)
pos = np.where(z > 0.5, x, 0.0).sum()
run = np.cumsum(y)[-1]
med = np.sort(z)[n // 2]
counts, _ = np.histogram(x, bins=50)
dot = np.dot(x, y)
clipped = np.clip(x, -1.0, 1.0).mean()
spread = np.log1p(y).std()
top = np.maximum(x, y).max()
at = int(np.argmax(z))
print(f"{pos:.6e} {run:.6e} {med:.6e} {counts.max()} {dot:.6e}")
print(f"{clipped:.6e} {spread:.6e} {top:.6e} {at}")
"""

GROWING = """\
import sys

import numpy as np

cols, sizes = 256, SIZES
a = np.ones((300, cols))  # 76,800 elements: over the host threshold (65,536)
total = 0.0
for i in range(sizes):
    row = np.sin(np.arange(cols) * 0.01 + i)
    a = np.vstack([a, row])
    total += float((a * 0.5 + 1.0).sum(axis=0).max())
    if i + 1 == sizes // 4:
        print("mark quarter", file=sys.stderr)
print(f"{total:.8e}", a.shape)
"""

IMPORT = "import numpy as np\n"

NUMPY = fresh.Impl("numpy")
TNP = fresh.Impl("tnp")
TNP_DEVICE = fresh.Impl("tnp", {"TNP_PLACEMENT": "device"})
JAX_STARTED = fresh.Impl("numpy+jax")  # NumPy's run after JAX's start: the device run's floor


def mandelbrot(h, w, iterations):
    return (MANDELBROT.replace("H, W, ITERATIONS", f"{h}, {w}, {iterations}"),
            f"{h}x{w} x{iterations}")


def compacting(h, w, iterations):
    return (COMPACTING.replace("H, W, ITERATIONS", f"{h}, {w}, {iterations}"),
            f"{h}x{w} x{iterations}")


def nonzero_index(h, w, iterations):
    return (NONZERO.replace("H, W, ITERATIONS", f"{h}, {w}, {iterations}"),
            f"{h}x{w} x{iterations}")


def one_shot(n):
    return ONE_SHOT.replace("SIZE", f"{n:_}"), f"{n:.0e}"


def growing(sizes):
    return GROWING.replace("SIZES", str(sizes)), f"{sizes} sizes"


def _case(name, source_size, impls, repeats):
    source, size = source_size
    case = Case(GROUP, name, size, make=None)

    def measure():
        _byte_compile()
        return fresh.measure(GROUP, name, size, source, impls, repeats)
    case.measure = measure
    return case


def _second_run_case(name, source_size):
    """The program run once with a new persistent compilation cache, then timed in a second
    process with that cache: ``tnp second run``'s compiles are those the cache did not keep."""
    source, size = source_size
    case = Case(GROUP, f"second run, same compile cache: {name}", size, make=None)

    def measure():
        import tempfile
        _byte_compile()
        with tempfile.TemporaryDirectory() as cache:
            return fresh.measure(GROUP, case.name, size, source,
                                 {"tnp first run": fresh.Impl("tnp", cache_dir=cache),
                                  "tnp second run": fresh.Impl("tnp", cache_dir=cache)},
                                 repeats=1)
    case.measure = measure
    return case


@functools.cache
def _byte_compile():
    """tnp's sources byte-compiled once, as an installed package's are (``startup``)."""
    from benchmarks.cases.startup import _compile_sources
    _compile_sources()


def cases(quick):
    both = {"numpy": NUMPY, "tnp": TNP}
    three = dict(both, **{"tnp device": TNP_DEVICE})
    repeats = 1 if quick else 7  # (single runs of these programs spread by +-15%)
    small = mandelbrot(300, 250, 20)
    out = [_case("masked Mandelbrot", small, three, repeats),
           _case("compacting Mandelbrot", compacting(300, 250, 20), three, repeats),
           _case("nonzero-index Mandelbrot", nonzero_index(300, 250, 20), three, repeats)]
    if not quick:
        out += [_case("masked Mandelbrot", mandelbrot(300, 250, 200),
                      dict(three, **{"numpy after JAX's start": JAX_STARTED}), repeats),
                _case("masked Mandelbrot", mandelbrot(1000, 1000, 100), both, repeats),
                _case("compacting Mandelbrot", compacting(300, 250, 200), three, repeats),
                _case("nonzero-index Mandelbrot", nonzero_index(300, 250, 200), three,
                      repeats)]
    shot = one_shot(10 ** 6 if quick else 4 * 10 ** 6)
    grow = growing(200 if quick else 1000)
    out += [_case("one-shot script", shot, both, repeats),
            _case("growing array", grow, both, repeats),
            _case("import", (IMPORT, "-"), both, 3 if quick else 21),
            _second_run_case("one-shot script", shot),
            _second_run_case("masked Mandelbrot", small)]
    if not quick:
        out.append(_second_run_case("growing array", grow))
    return out
