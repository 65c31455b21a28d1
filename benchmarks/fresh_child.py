"""``python -m benchmarks.fresh_child MODULE SCRIPT``: run one NumPy program in this (fresh)
process, as ``MODULE`` (``numpy``: the source as written; ``numpy+jax``: the source as
written after JAX's import and one JAX operation, the floor of any run on JAX; ``tnp``: its
``import numpy as np`` read as ``import tnp as np``), and print one JSON line (after the line
``FRESH_RESULT``).

The line holds the CPU time of the process (user + system, all threads, the interpreter's start
and the import included), its peak resident memory (``VmHWM``), the program's output (its
stdout, for the parent to compare the two modules' runs), the marks the program wrote to stderr
(lines ``mark NAME``: the peak resident memory at that point, MB) and, under tnp, the XLA
executables built: ``compiles`` (XLA compiled them) and ``cache loads`` (read from the
persistent compilation cache), counted by a ``jax.monitoring`` listener from JAX's import on.
"""
import contextlib
import io
import json
import resource
import sys


def peak_rss_mb():
    """This process's peak resident memory so far (``VmHWM``), MB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


class _Marks(io.StringIO):
    """The program's stderr: a line ``mark NAME`` records the peak resident memory now."""

    def __init__(self):
        super().__init__()
        self.marks = {}

    def write(self, s):
        for line in s.splitlines():
            if line.startswith("mark "):
                self.marks[line[5:].strip()] = peak_rss_mb()
        return super().write(s)


def _count_compiles(counts):
    """Count XLA executables built from JAX's import on (tnp imports JAX at its first device
    operation): every backend compile event, less those the persistent cache answered. ``tnp``
    is imported first, as the program's ``import tnp`` does (importing a submodule of it first
    measured 13 ms slower in this process, with the same modules loaded)."""
    import tnp  # noqa: F401
    from tnp._core.engine import jaxload

    def listen():
        import jax.monitoring

        def on_duration(event, duration, **kwargs):
            if event == "/jax/core/compile/backend_compile_duration":
                counts["built"] += 1

        def on_event(event, **kwargs):
            if event == "/jax/compilation_cache/cache_hits":
                counts["cache loads"] += 1
        jax.monitoring.register_event_duration_secs_listener(on_duration)
        jax.monitoring.register_event_listener(on_event)
    jaxload.on_load(listen)


def main(module, path):
    source = open(path).read()
    counts = {"built": 0, "cache loads": 0}
    if module == "tnp":
        source = source.replace("import numpy as np", "import tnp as np")
        _count_compiles(counts)  # imports tnp (not JAX): the program's import is then a no-op
    elif module == "numpy+jax":  # JAX started first (its import and one operation): the least
        import jax.numpy as jnp  # a process running the program on JAX pays
        jnp.zeros(1).block_until_ready()
    elif module != "numpy":
        raise SystemExit(f"fresh_child: MODULE is numpy, numpy+jax or tnp, not {module!r}")
    out, err = io.StringIO(), _Marks()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        exec(compile(source, path, "exec"), {"__name__": "__main__", "__file__": path})
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result = {"cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mb": peak_rss_mb(),
              "output": out.getvalue()[-4000:], "marks": err.marks}
    if module == "tnp":
        result["compiles"] = counts["built"] - counts["cache loads"]
        result["cache loads"] = counts["cache loads"]
    print("FRESH_RESULT")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
