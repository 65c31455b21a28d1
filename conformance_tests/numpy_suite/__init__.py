"""NumPy's own test suite, run against tnp: ``python -m conformance_tests.numpy_suite``.

The runner copies test files of the *installed* NumPy (found through ``numpy.__file__``: the
tests ship in the wheel) into a temporary directory, rewrites their imports so that ``numpy``
means ``tnp``, runs them with pytest (one process per file, a per-test timeout in process CPU time — every
thread's, so a loaded machine does not time a test out — with a wall-clock backstop at five
times it, a wall-clock limit per file and a budget for the whole run) and writes ``results.md``: per file and per test
function, passed / failed / error / crashed / skipped, the first line of each failure, a raw rate
(tests) and a per-function rate (every test function weighs one, its parametrizations
averaged). NumPy's files are never edited by hand; only the runner rewrites them.

The import rule (``rewrite.py``, ``support.py``), applied on the syntax tree, so that code in
strings — run in subprocesses — is left alone, and keeping every line number:

- ``import numpy as np`` -> ``import tnp as np``; ``import numpy.linalg as la`` (and ``fft``,
  ``random``, ``lib``, ``lib.stride_tricks``, ``testing``) -> the tnp module of that name.
- ``from numpy import x`` (and from those modules) -> tnp's ``x``, through tnp's fallback path if
  tnp has no native ``x`` (exactly what ``np.x`` gives in the test); NumPy's ``x`` only where the
  tnp module has no such name at all (e.g. ``numpy.testing._gen_alignment_data``).
- ``numpy.testing`` means ``tnp.testing`` (NumPy's own helpers, re-exported by tnp: what a tnp
  user calls); ``numpy.testing._private`` stays NumPy's.
- NumPy's internals stay NumPy's: ``import numpy._core.umath as ncu``,
  ``from numpy._core.numeric import normalize_axis_tuple``, ``from numpy.lib._x_impl import y``,
  and attribute chains from ``np`` through an underscored name (``np._core.multiarray``,
  ``np.__config__``, ``np._NoValue``) give NumPy's module — seen through a view in which a
  *public* NumPy object met on the way is tnp's (``ncu.sqrt`` is ``numpy.sqrt``, so it is
  ``tnp.sqrt``; ``ncu._arg`` or ``_multiarray_tests.x`` stay NumPy's). A test that reaches
  ``sqrt`` through a private path means ``sqrt``; one that reaches a C-level helper means the
  helper.
- Left as they are: ``import numpy`` / ``import numpy.x`` (they bind the name ``numpy``, NumPy's
  own), ``numpy.exceptions``, ``numpy.dtypes``, ``numpy.ma``, ``numpy.polynomial``,
  ``numpy.lib.recfunctions``, and the ``numpy.*.tests`` helper modules.

A file whose rewritten module fails to import under tnp counts every test NumPy collects from the
unmodified file as an error (the failure's first line says so), so it weighs what it holds. A
test class or function whose definition fails under tnp (an object array built in a decorator)
becomes a failing placeholder, counted as the tests NumPy collects from it; inside a class, each
decorated test method is isolated so, and the class's other tests run (``rewrite.isolate``).

Deselections: ``deselected.txt``, one node id (or prefix) per line with its reason: only tests of
NumPy's C internals that no replacement can have. NumPy's ``slow`` tests are not run (NumPy's
default ``spin test``). Warnings are errors, as in NumPy's own pytest configuration (tnp's
``TnpFallbackWarning`` and JAX's deprecation warnings excepted).

Documented differences: ``differences.txt``, one test (node id or prefix) per line with the
README entry (``<a id="diff-...">`` in README.md's "Known differences from NumPy") it is a case
of, the failure line it must show, and why. The report still counts those tests as failures; it
marks them, links the entry and totals them per entry and column. Reviewed; a test goes there
only when it checks exactly the documented behaviour.

Placement: ``--placement`` (``device`` or ``auto``; default ``$TNP_PLACEMENT`` or ``device``) is
passed to the tests as ``TNP_PLACEMENT`` and picks the report's column: *forced device* (every
numeric array on the JAX device tier: the implementations this gate tests) or *default
placement* (tnp's default, where small numeric arrays live on the host tier, which runs NumPy
itself). Each placement keeps its records in its own directory, ``WORKDIR/placement-device`` and
``WORKDIR/placement-auto``, and the report is built from both (``--report-from WORKDIR``
rebuilds it). A run into a work directory that already holds records merges with them: the files
it runs replace their earlier records, the others keep theirs, and the report's header says which
run each file's row comes from (its date, Python version and command).

Quick mode (CI): ``--quick`` runs the ids in ``quick.txt`` (tests that passed in the committed
baseline run) and exits 1 if any fails, errors or crashes — or is missing, when the installed
NumPy is the baseline's version. ``--make-quick WORKDIR`` writes ``quick.txt`` from a full run's
forced-device records. ``tests/test_numpy_suite_gate.py`` runs the quick mode in a subprocess.

Nothing here is collected by tnp's own test run (no file is named ``test_*``); the pytest
configuration and conftest for NumPy's files (``suite_conftest.py``) live only in the temporary
directory.
"""
