"""Resident memory stays bounded over a loop making arrays of a new size each time (issue 21):
tnp._core.engine.caches bounds the compiled executables. Runs in a fresh process with a small limit
(``TNP_KERNEL_CACHE_SIZE``), so that a few dozen sizes go through several clearings. A memory
bound, not a timing."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchmarks.cases.memory import run  # noqa: E402


def test_rss_stays_flat_over_new_sizes():
    # 6 executables a size: a limit of 12 clears JAX's executables every 2 sizes. Without the
    # bound each size adds about 9 MB here (CPU), so 16 more sizes would add over 100 MB.
    points = run("tnp", 24, 8, env={"TNP_PLACEMENT": "device", "TNP_KERNEL_CACHE_SIZE": "12",
                                    "TNP_COMPILATION_CACHE": "0"})
    (_, first), _, (_, last) = points
    assert last - first < 40, points
    assert last < 150, points


_LIVE_KERNELS = """
import tnp
from tnp._core.engine import caches
a, b = tnp.arange(1.0, 7.0), tnp.arange(1.0, 7.0).reshape(2, 3)
fns = [getattr(tnp, n) for n in ("sin", "cos", "tan", "exp", "log", "sqrt", "square",
                                 "negative", "absolute", "tanh", "sinh", "cosh", "arctan",
                                 "log1p", "expm1", "floor", "ceil", "rint", "cbrt", "exp2")]
built = []
for _ in range(4):
    before = caches.executables_built()
    for f in fns:
        f(a), f(b), f(a) + 1.0
    built.append(caches.executables_built() - before)
print(built)
"""


def test_many_live_kernels_do_not_recompile():
    # 40+ executables kept busy by a loop, against a limit of 24: each kernel holds 2 shapes,
    # under its share (24 // 8), so nothing is dropped and the loop compiles only on its first
    # pass (a clearing every 24 compiles would recompile all of them on every pass).
    # Eager kernels (TNP_LAZY=0): lazily nothing here would be computed, the results unread;
    # every call compiled (TNP_COLD=off: the NumPy tier would run the first passes).
    import subprocess
    out = subprocess.run([sys.executable, "-c", _LIVE_KERNELS], capture_output=True, text=True,
                         check=True, env=dict(os.environ, TNP_PLACEMENT="device", TNP_LAZY="0",
                                              TNP_COLD="off", TNP_KERNEL_CACHE_SIZE="24",
                                              TNP_COMPILATION_CACHE="0")).stdout
    built = eval(out.strip().splitlines()[-1])  # noqa: S307 (our own list)
    assert built[0] > 24 and built[1:] == [0, 0, 0], built


def test_limit_from_environment():
    code = "from tnp._core.engine import caches; print(caches.LIMIT)"
    import subprocess
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, TNP_KERNEL_CACHE_SIZE="7"), check=True).stdout
    assert out.strip() == "7"
    with pytest.raises(subprocess.CalledProcessError):
        subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                       env=dict(os.environ, TNP_KERNEL_CACHE_SIZE="many"))



_NEW_SHAPES = """
import tnp
from tnp._core.engine import caches
for n in range(1, 61):
    tnp.zeros((n, 3)), tnp.ones(n, tnp.int8), tnp.empty((2, n)), tnp.full(n, 2.5)
print(caches.stats()["all cleared"])
"""


def test_creations_of_new_shapes_never_clear_all_kernels():
    # zeros/ones/empty/full compile one executable per shape in a tracked kernel (per dtype):
    # 240 new shapes prune those kernels, never all of JAX's executables (a program's other
    # kernels would recompile; NumPy's linalg tests build thousands of strided cases so)
    import subprocess
    out = subprocess.run([sys.executable, "-c", _NEW_SHAPES], capture_output=True,
                         text=True, check=True,
                         env=dict(os.environ, TNP_PLACEMENT="device", TNP_KERNEL_CACHE_SIZE="24",
                                  TNP_COMPILATION_CACHE="0")).stdout
    assert int(out.strip().splitlines()[-1]) == 0, out


def test_flushed_graphs_free_their_leaves_without_the_cyclic_collector():
    # A flushed lazy graph was a reference cycle with its nodes' weak references, so its
    # leaves (the loop's previous arrays) lived until Python's cyclic collector ran: a masked
    # Mandelbrot at 1000x1000 on the device peaked at 1.0-1.3 GB, NumPy's at 0.1 GB. With the
    # collector off, a masked update loop keeps only its current arrays alive, as NumPy's
    # does.
    import gc
    import jax
    import numpy
    import tnp
    from tnp._core.dispatch import tiers
    previous = tiers.configure("device")
    gc.collect()
    gc.disable()
    try:
        live = []
        for xp in (numpy, tnp):
            before = len(jax.live_arrays())  # (other tests' arrays)
            c = xp.linspace(-2.0, 0.5, 40_000) + 0.3j
            z, n_ = xp.zeros_like(c), xp.zeros(c.shape, dtype=int)
            for n in range(40):
                m = abs(z) < 2
                n_[m] = n
                z[m] = z[m] ** 2 + c[m]
            if xp is tnp:
                int(n_.sum())
                live.append(len(jax.live_arrays()) - before)
            else:
                want = n_
        numpy.testing.assert_array_equal(numpy.asarray(n_), want)
        del c, z, n_, m
        assert live[0] <= 8, live  # (was 160: 4 arrays an iteration)
    finally:
        gc.enable()
        tiers.configure(*previous)
