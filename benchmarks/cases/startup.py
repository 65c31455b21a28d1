"""Start-up: ``import tnp`` vs ``import numpy`` / ``import jax.numpy``, and a small program that
stays on the host tier (tnp imports JAX only at the first device operation); first-call
(compile) latency of a workload in a fresh process, with and without the persistent compilation
cache, vs a later call of it."""
import functools
import os
import subprocess
import sys
import tempfile

from benchmarks.runner import Case

# A workload whose compile (about 0.3 s here) dominates its first call (the cache keeps every
# executable, however fast it compiled).
_FIRST_CALL = (
    "import functools, numpy as np, tnp, tnp_ext\n"
    "from benchmarks.cases.workloads import mandelbrot\n"
    "c = tnp.asarray(np.add.outer(np.linspace(-1.5, 1.5, 128) * 1j, np.linspace(-2, 1, 128)))\n"
    "f = tnp_ext.jit(functools.partial(mandelbrot, tnp), static_argnums=1)\n"
    "f(c, 50).data.block_until_ready()\n")


# A program whose arrays are all small: NumPy's own work under tnp's host tier.
_SMALL_PROGRAM = ("import {mod} as np\n"
                  "a = np.arange(1000.0).reshape(10, 100)\n"
                  "print(float((np.sqrt(a) * 2 + 1).sum(axis=1).max()))\n")

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _subprocess_seconds(code, env=None):
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, cwd=_REPO, env=dict(os.environ, **(env or {}))).stdout


def _compile_sources():
    """Byte-compile tnp and tnp_ext as an installed package is (numpy and jax were byte-compiled
    when pip installed them; an editable install with PYTHONDONTWRITEBYTECODE would otherwise
    compile tnp's sources on every start)."""
    import compileall

    import tnp
    import tnp_ext
    for pkg in (tnp, tnp_ext):
        compileall.compile_dir(os.path.dirname(pkg.__file__), quiet=1)


def _import_case():
    def make():
        _compile_sources()

        def timed(mod):
            return lambda: _subprocess_seconds(f"import {mod}")
        return {"numpy": timed("numpy"), "jax": timed("jax.numpy"), "tnp": timed("tnp")}
    return Case("start-up", "import (process incl.)", "-", make, repeats=3)


def _small_program_case():
    def make():
        _compile_sources()
        return {name: functools.partial(_subprocess_seconds, _SMALL_PROGRAM.format(mod=mod))
                for name, mod in (("numpy", "numpy"), ("jax", "jax.numpy"), ("tnp", "tnp"))}
    return Case("start-up", "small host program (process incl.)", "-", make, repeats=3)


def _first_call_case(cached):
    def make():
        cache_dir = tempfile.mkdtemp()
        env = {"TNP_COMPILATION_CACHE": "1" if cached else "0",
               "TNP_COMPILATION_CACHE_DIR": cache_dir}
        if cached:
            _subprocess_seconds(_FIRST_CALL, env)  # fill the cache once
        return {"tnp_ext.jit first call": lambda: _subprocess_seconds(_FIRST_CALL, env)}
    return Case("start-up", f"Mandelbrot first call, cache {'on' if cached else 'off'} "
                "(process incl.)",
                "-", make, repeats=2)


def _later_call_case():
    def make():
        import functools

        import numpy as np

        import tnp
        import tnp_ext
        from benchmarks.cases.workloads import mandelbrot
        c = tnp.asarray(np.add.outer(np.linspace(-1.5, 1.5, 128) * 1j, np.linspace(-2, 1, 128)))
        f = tnp_ext.jit(functools.partial(mandelbrot, tnp), static_argnums=1)
        return {"tnp_ext.jit later call": lambda: f(c, 50)}
    return Case("start-up", "Mandelbrot later call (in process)", "-", make)


def cases(quick):
    return [_import_case(), _small_program_case(), _first_call_case(False), _first_call_case(True),
            _later_call_case()]
