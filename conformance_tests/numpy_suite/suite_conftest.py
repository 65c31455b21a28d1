"""conftest.py of the temporary directory holding NumPy's rewritten tests (copied there by the
runner; not a conftest of tnp's own suite).

- NumPy's markers and a deterministic hypothesis profile (NumPy's conftest is not copied: it
  checks the FPU mode and sets up doctests, neither of which concerns tnp).
- A per-test timeout (per phase: setup, call, teardown) of ``TNP_SUITE_TIMEOUT`` seconds of
  *process CPU time* (``ITIMER_PROF``/SIGPROF: every thread's CPU, XLA's compile threads
  included), so that a test does not time out because other processes share the machine; a
  wall-clock backstop (SIGALRM after ``TNP_SUITE_WALL_TIMEOUT`` seconds: the runner's
  ``WALL_FACTOR`` times the limit) ends a test that blocks without using CPU. Both raise
  ``PerTestTimeout``, whose message names the limit hit. They interrupt Python code; a hang inside one compiled call is cut by the runner's per-file
  wall-clock limit instead, and the test that was running is recorded as ``crashed``.
- Deselection (``TNP_SUITE_DESELECT``: a file of node ids or node-id prefixes) and selection
  (``TNP_SUITE_SELECT``).
- Every result is appended as one JSON line to ``TNP_SUITE_RECORD`` as it happens, so a crash or
  a kill loses nothing already run.
"""
import json
import os
import random
import signal
import sys

import hypothesis
import jax  # noqa: F401 - (opt_einsum, which JAX imports, does ``from random import choices``)
import numpy.random  # noqa: F401 - before pytest imports NumPy's ``random/`` test directory
import pytest

# pytest's importlib mode imports ``random/test_x.py`` as ``random.test_x`` and puts a package
# ``random`` for that directory in ``sys.modules``: numpy.random imported after that (through
# ``secrets``) failed, every test of the file an import error ("cannot import name
# 'SystemRandom' from 'random'"), and so does any later ``from random import ...``. numpy.random
# and JAX (tnp loads it at first use, often while a test module is imported) are imported
# first, and the standard library's module is put back once the files are collected.
_STDLIB_RANDOM = random

hypothesis.settings.register_profile(
    "tnp-suite", deadline=None, max_examples=int(os.environ.get("TNP_SUITE_HYPOTHESIS", "20")),
    derandomize=True, database=None, suppress_health_check=list(hypothesis.HealthCheck))
hypothesis.settings.load_profile("tnp-suite")

_RECORD = os.environ.get("TNP_SUITE_RECORD")
_TIMEOUT = float(os.environ.get("TNP_SUITE_TIMEOUT", "20"))
_WALL = float(os.environ.get("TNP_SUITE_WALL_TIMEOUT", 5 * _TIMEOUT))


def _write(**rec):
    if _RECORD:
        with open(_RECORD, "a") as f:
            f.write(json.dumps(rec) + "\n")


def _ids(var):
    path = os.environ.get(var)
    if not path:
        return None
    out = []
    with open(path) as f:
        for line in f:
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def _matches(nodeid, entries):
    for e in entries:
        if nodeid == e or nodeid.startswith(e + "[") or nodeid.startswith(e + "::"):
            return True
    return False


def pytest_configure(config):
    for m in ("valgrind_error", "leaks_references", "slow", "slow_pypy", "xslow",
              "thread_unsafe", "iterations", "parallel_threads", "limited_api",
              "flaky", "timeout"):
        config.addinivalue_line("markers", f"{m}: NumPy's marker")


def pytest_collection_modifyitems(session, config, items):
    sys.modules["random"] = _STDLIB_RANDOM
    deselect = _ids("TNP_SUITE_DESELECT") or []
    select = _ids("TNP_SUITE_SELECT")
    select = set(select) if select is not None else None
    keep, drop = [], []
    for item in items:
        if _matches(item.nodeid, deselect) or (select is not None and item.nodeid not in select):
            drop.append(item)
        else:
            keep.append(item)
    # TNP_SUITE_SAMPLE=K: at most K parametrizations of each test function, spread evenly over
    # its parametrization list (first and last for K=2), so that a run on a busy machine covers
    # every function of a file rather than the first few thousand cases.
    k = int(os.environ.get("TNP_SUITE_SAMPLE", "0") or 0)
    unsampled = 0
    if k > 0 and select is None:
        groups = {}
        for item in keep:
            groups.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
        chosen = set()
        for lst in groups.values():
            n = len(lst)
            idx = range(n) if n <= k else sorted({round(i * (n - 1) / (k - 1)) if k > 1 else 0
                                                  for i in range(k)})
            chosen.update(id(lst[i]) for i in idx)
        unsampled = sum(1 for item in keep if id(item) not in chosen)
        drop += [item for item in keep if id(item) not in chosen]
        keep = [item for item in keep if id(item) in chosen]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    _write(event="collected", n=len(keep), deselected=len(drop) - unsampled, unsampled=unsampled)


def pytest_collectreport(report):
    if report.failed:
        _write(event="collect_error", id=report.nodeid, msg=_first_line(report))


class PerTestTimeout(BaseException):
    """BaseException: a test's own ``except Exception`` or ``pytest.raises`` cannot swallow it."""


def _cpu_over(signum, frame):
    raise PerTestTimeout(f"tnp-suite timeout: over {_TIMEOUT:g} s of CPU time")


def _wall_over(signum, frame):
    raise PerTestTimeout(f"tnp-suite timeout: over {_WALL:g} s of wall-clock "
                         f"time (backstop of the {_TIMEOUT:g} s CPU-time limit)")


def _lined(tb):
    """The traceback ``tb`` without its entries that have no line number: a signal's exception
    raised between two lines of a frame leaves one (``tb_lineno`` None), on which pytest's
    failure report fails, an INTERNALERROR that ends the whole file's run."""
    head = last = None
    while tb is not None:
        if tb.tb_lineno is not None:
            if last is None:
                head = tb
            else:
                last.tb_next = tb
            last = tb
        tb = tb.tb_next
    if last is not None:
        last.tb_next = None
    return head


def _timed():
    signal.signal(signal.SIGPROF, _cpu_over)
    signal.signal(signal.SIGALRM, _wall_over)
    signal.setitimer(signal.ITIMER_PROF, _TIMEOUT)
    signal.setitimer(signal.ITIMER_REAL, _WALL)
    try:
        outcome = yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
    exc = outcome.exception
    if isinstance(exc, PerTestTimeout):
        exc.__traceback__ = _lined(exc.__traceback__)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _timed()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _timed()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    yield from _timed()


def pytest_runtest_logstart(nodeid, location):
    _write(event="start", id=nodeid)


def _first_line(report):
    lr = report.longrepr
    if lr is None:
        return ""
    if isinstance(lr, tuple):  # skip: (path, lineno, reason)
        return str(lr[2]).splitlines()[0] if str(lr[2]) else ""
    crash = getattr(lr, "reprcrash", None)
    text = crash.message if crash is not None else str(lr)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return ""
    first = lines[0]
    # NumPy's assert_* helpers: "AssertionError:", then "Items are not equal:" / "Arrays are not
    # equal", then what differs (" ACTUAL: <class ...>", "Mismatched elements: ..."): keep those.
    if first.endswith(":") and len(lines) > 1:
        first = f"{first} {lines[1]}"
        if lines[1].startswith(("Items are not", "Arrays are not")) and len(lines) > 2:
            first = f"{first} {lines[2]}"
    return first[:300]


def pytest_runtest_logreport(report):
    _write(event="report", id=report.nodeid, when=report.when, outcome=report.outcome,
           xfail=hasattr(report, "wasxfail"), dur=round(report.duration, 4),
           msg=_first_line(report) if report.outcome != "passed" else "")
