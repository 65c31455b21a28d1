"""Start-up: ``import tnp`` vs ``import numpy`` / ``import jax.numpy``; first-call (compile)
latency vs later calls, with and without JAX's persistent compilation cache."""
import subprocess
import sys
import tempfile

from benchmarks.runner import Case

_FIRST_CALL = (
    "import time, tnp, tnp_ext\n"
    "x = tnp.linspace(0, 1, 1000)\n"
    "f = tnp_ext.jit(lambda a: (tnp.tanh(a @ a.reshape(1000, 1)) * 2).sum())\n"
    "t0 = time.perf_counter(); f(x).data.block_until_ready(); t1 = time.perf_counter()\n"
    "f(x).data.block_until_ready(); t2 = time.perf_counter()\n"
    "print(t1 - t0, t2 - t1)\n")


def _subprocess_seconds(code, env=None):
    import os
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, env=dict(os.environ, **(env or {}))).stdout


def _compile_sources():
    """Byte-compile tnp and tnp_ext as an installed package is (numpy and jax were byte-compiled
    when pip installed them; an editable install with PYTHONDONTWRITEBYTECODE would otherwise
    compile tnp's sources on every start)."""
    import compileall
    import os

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


def _first_call_case(cached):
    def make():
        cache_dir = tempfile.mkdtemp()
        env = {"TNP_COMPILATION_CACHE": "1" if cached else "0",
               "TNP_COMPILATION_CACHE_DIR": cache_dir}
        if cached:
            _subprocess_seconds(_FIRST_CALL, env)  # fill the cache once
        return {"tnp_ext.jit first call": lambda: _subprocess_seconds(_FIRST_CALL, env)}
    return Case("start-up", f"first call, cache {'on' if cached else 'off'} (process incl.)",
                "-", make, repeats=2)


def cases(quick):
    return [_import_case(), _first_call_case(False), _first_call_case(True)]
