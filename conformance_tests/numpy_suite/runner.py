"""The runner of ``python -m conformance_tests.numpy_suite`` (see the package docstring)."""
import argparse
import collections
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy

from . import rewrite as _rewrite

HERE = os.path.dirname(os.path.abspath(__file__))
NUMPY_DIR = os.path.dirname(numpy.__file__)
# the per-test wall-clock backstop, in multiples of the CPU-time limit: a test on a machine
# shared by several (load 3-4 per CPU) still gets its CPU time
WALL_FACTOR = 5

# (key in the temporary directory, path inside the installed NumPy), most valuable first: the
# order in which a run with a time budget takes them.
FILES = [
    ("core/test_umath.py", "_core/tests/test_umath.py"),
    ("core/test_ufunc.py", "_core/tests/test_ufunc.py"),
    ("core/test_numeric.py", "_core/tests/test_numeric.py"),
    ("lib/test_function_base.py", "lib/tests/test_function_base.py"),
    ("core/test_shape_base.py", "_core/tests/test_shape_base.py"),
    ("lib/test_shape_base.py", "lib/tests/test_shape_base.py"),
    ("core/test_indexing.py", "_core/tests/test_indexing.py"),
    ("linalg/test_linalg.py", "linalg/tests/test_linalg.py"),
    ("linalg/test_regression.py", "linalg/tests/test_regression.py"),
    ("linalg/test_deprecations.py", "linalg/tests/test_deprecations.py"),
    ("fft/test_pocketfft.py", "fft/tests/test_pocketfft.py"),
    ("fft/test_helper.py", "fft/tests/test_helper.py"),
    ("core/test_nep50_promotions.py", "_core/tests/test_nep50_promotions.py"),
    ("core/test_einsum.py", "_core/tests/test_einsum.py"),
    ("core/test_item_selection.py", "_core/tests/test_item_selection.py"),
    ("core/test_function_base.py", "_core/tests/test_function_base.py"),
    ("lib/test_twodim_base.py", "lib/tests/test_twodim_base.py"),
    ("lib/test_index_tricks.py", "lib/tests/test_index_tricks.py"),
    ("lib/test_arraysetops.py", "lib/tests/test_arraysetops.py"),
    ("lib/test_nanfunctions.py", "lib/tests/test_nanfunctions.py"),
    ("lib/test_stride_tricks.py", "lib/tests/test_stride_tricks.py"),
    ("lib/test_type_check.py", "lib/tests/test_type_check.py"),
    ("lib/test_ufunclike.py", "lib/tests/test_ufunclike.py"),
    ("lib/test_polynomial.py", "lib/tests/test_polynomial.py"),
    ("core/test_getlimits.py", "_core/tests/test_getlimits.py"),
    ("core/test_dtype.py", "_core/tests/test_dtype.py"),
    ("random/test_generator_mt19937.py", "random/tests/test_generator_mt19937.py"),
    ("random/test_generator_mt19937_regressions.py",
     "random/tests/test_generator_mt19937_regressions.py"),
    ("core/test_multiarray.py", "_core/tests/test_multiarray.py"),
]
SOURCES = dict(FILES)

PYTEST_INI = """[pytest]
addopts = -p no:cacheprovider --import-mode=importlib -m "not slow and not xslow"
  -o console_output_style=classic --continue-on-collection-errors --tb=short
filterwarnings =
    error
    ignore::tnp.TnpFallbackWarning
    ignore::pytest.PytestDeprecationWarning
    ignore::DeprecationWarning:jax.*
    ignore::DeprecationWarning:jaxlib.*
    ignore:.*jax.*:DeprecationWarning
    ignore:the matrix subclass is not:PendingDeprecationWarning
    ignore:Importing from numpy.matlib
    ignore:Due to '_pack_', the
"""

OUTCOMES = ("passed", "failed", "error", "crashed", "skipped", "xfailed")

# The report's two columns: a run's ``--placement`` picks its column and its records directory
# (``records_dir``) inside the work directory; the report is built from both directories.
COLUMNS = (("device", "forced device"), ("auto", "default placement"))


def _ids_file(name):
    return os.path.join(HERE, name)


README = os.path.join(os.path.dirname(os.path.dirname(HERE)), "README.md")
README_LINK = "../../README.md"  # from results.md


def read_differences(path=None):
    """``differences.txt``: [(test id or prefix, README entry id, compiled regex, reason)]."""
    out = []
    with open(path or _ids_file("differences.txt"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            body, _, reason = line.partition(" # ")
            if not body.strip() or body.lstrip().startswith("#"):
                continue
            parts = [x.strip() for x in body.split(" | ")]
            if len(parts) != 3 or not all(parts):
                raise ValueError(f"differences.txt:{n}: expected 'test id | entry | regex': "
                                 f"{line.strip()!r}")
            out.append((parts[0], parts[1], re.compile(parts[2]), reason.strip()))
    return out


def readme_entries(path=None):
    """The README's documented differences: {entry id: its first words} (``<a id="..."></a>``
    anchors at the start of the entries of "Known differences from NumPy")."""
    with open(path or README, encoding="utf-8") as f:
        text = f.read()
    return {m.group(1): _title(m.group(2))
            for m in re.finditer(r'<a id="(diff-[\w-]+)"></a>([^\n]*(?:\n  [^\n]*)?)', text)}


def _title(text, width=60):
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " …"


def documented(test_id, msg, differences):
    """The README entry id a failure is a documented difference of, or None."""
    for prefix, entry, rx, _ in differences:
        if (test_id == prefix or test_id.startswith(prefix + "[")
                or test_id.startswith(prefix + "::")) and rx.search(msg or ""):
            return entry
    return None


def prepare(workdir, keys):
    """Copy and rewrite the files ``keys`` of the installed NumPy into ``workdir``."""
    log = []
    for key in keys:
        src = os.path.join(NUMPY_DIR, SOURCES[key])
        dst = os.path.join(workdir, key)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, encoding="utf-8") as f:
            text, edits = _rewrite.rewrite(f.read())
        with open(dst, "w", encoding="utf-8") as f:
            f.write(text)
        data = os.path.join(os.path.dirname(src), "data")
        link = os.path.join(os.path.dirname(dst), "data")
        if os.path.isdir(data) and not os.path.exists(link):
            os.symlink(data, link)
        log.append(f"## {key} (from numpy/{SOURCES[key]})")
        log.extend(f"{ln}: {old}  ->  {new}" for ln, old, new in edits)
    shutil.copy(os.path.join(HERE, "suite_conftest.py"), os.path.join(workdir, "conftest.py"))
    shutil.copy(os.path.join(HERE, "support.py"), os.path.join(workdir, "tnp_suite_support.py"))
    with open(os.path.join(workdir, "pytest.ini"), "w") as f:
        f.write(PYTEST_INI)
    with open(os.path.join(workdir, "rewrites.txt"), "w") as f:
        f.write("\n".join(log) + "\n")


def run_pytest(workdir, keys, record, *, timeout, test_timeout, placement, xdist, select=None,
               log, sample=0):
    """One pytest process over ``keys``; True when it finished before ``timeout``."""
    env = dict(os.environ)
    repo = os.path.dirname(os.path.dirname(HERE))
    env["PYTHONPATH"] = os.pathsep.join([workdir, repo] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.update(TNP_SUITE_RECORD=record, TNP_SUITE_TIMEOUT=str(test_timeout),
               TNP_SUITE_WALL_TIMEOUT=str(WALL_FACTOR * test_timeout),
               TNP_SUITE_DESELECT=_ids_file("deselected.txt"), TNP_PLACEMENT=placement,
               TNP_SUITE_SAMPLE=str(sample))
    if select:
        env["TNP_SUITE_SELECT"] = select
    else:
        env.pop("TNP_SUITE_SELECT", None)
    cmd = [sys.executable, "-m", "pytest", "-c", os.path.join(workdir, "pytest.ini"),
           "--rootdir", workdir, "-q", *keys]
    cmd += ["-n", str(xdist)] if xdist else ["-p", "no:xdist"]
    with open(log, "a") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            out.write(f"\n[runner] killed after {timeout:.0f} s\n")
            return False


def collect_numpy(workdir, key):
    """The test ids NumPy's unmodified file ``key`` holds (deselections and `slow` applied)."""
    orig = os.path.join(workdir, "_numpy_orig")
    dst = os.path.join(orig, key)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy(os.path.join(NUMPY_DIR, SOURCES[key]), dst)
    for name in ("conftest.py", "pytest.ini"):
        shutil.copy(os.path.join(workdir, name), os.path.join(orig, name))
    env = dict(os.environ, TNP_SUITE_DESELECT=_ids_file("deselected.txt"))
    env.pop("TNP_SUITE_RECORD", None)
    env.pop("TNP_SUITE_SELECT", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-c", os.path.join(orig, "pytest.ini"),
                           "--rootdir", orig, "-q", "--collect-only", "-p", "no:xdist", key],
                          cwd=orig, env=env, capture_output=True, text=True, timeout=600)
    return [ln.strip() for ln in proc.stdout.splitlines() if ln.startswith(key + "::")]


def sample_ids(ids, k):
    """At most k ids per test function, spread over its parametrizations (as the conftest's
    TNP_SUITE_SAMPLE does)."""
    if not k:
        return list(ids)
    groups = collections.OrderedDict()
    for i in ids:
        groups.setdefault(function_of(i), []).append(i)
    out = []
    for lst in groups.values():
        n = len(lst)
        idx = range(n) if n <= k else sorted({round(i * (n - 1) / (k - 1)) if k > 1 else 0
                                              for i in range(k)})
        out.extend(lst[i] for i in idx)
    return out


def records_dir(workdir, placement):
    """Where a run with ``--placement placement`` keeps its records (one directory per column)."""
    return os.path.join(workdir, f"placement-{placement}")


def record_path(records, key):
    return os.path.join(records, key.replace("/", "__") + ".jsonl")


def file_tests(workdir, records, key, sample):
    """The tests of one file's run, from its record in ``records``: placeholders and a module
    that failed to import expanded into NumPy's own test ids (sampled as the run was)."""
    tests, cerr, collected = read_record(record_path(records, key))
    collected -= len(tests)  # selected tests that never started: the not-reached count
    tests = expand_placeholders(workdir, key, tests, sample)
    if cerr and not tests:
        # The rewritten module did not import: its tests count as errors, as many as NumPy
        # collects from the unmodified file (so a file that fails to import weighs what it
        # holds, not zero).
        msg = "module failed to import under tnp: " + cerr[0][1]
        tests = {t: ("error", msg, 0.0) for t in sample_ids(collect_numpy(workdir, key), sample)}
    return tests, cerr, collected  # collected: the selected tests not reached


def expand_placeholders(workdir, key, tests, sample=0):
    """A test class or function that failed to import under tnp ran as one placeholder test:
    count each test NumPy collects from it as an error with the placeholder's message."""
    marks = {tid: msg for tid, (o, msg, _) in tests.items() if _rewrite.FAILED_MARK in msg}
    if not marks:
        return tests
    numpy_ids = sample_ids(collect_numpy(workdir, key), sample)
    out = {t: v for t, v in tests.items() if t not in marks}
    for tid, msg in marks.items():
        prefix = tid[:-len("::test_class_failed_to_import")] if tid.endswith(
            "::test_class_failed_to_import") else tid
        hits = [n for n in numpy_ids if n == prefix or n.startswith(prefix + "[")
                or n.startswith(prefix + "::")]
        for n in hits or [tid]:
            out[n] = ("error", msg, 0.0)
    return out


def read_record(path):
    """{test id: (outcome, first line of the failure, seconds)}, collection errors, collected."""
    tests, collect_errors, collected = {}, [], 0
    started = []
    if not os.path.exists(path):
        return tests, collect_errors, collected
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            ev = r.get("event")
            if ev == "collected":
                collected += r["n"]
            elif ev == "collect_error":
                collect_errors.append((r["id"], r["msg"]))
            elif ev == "start":
                started.append(r["id"])
                tests.setdefault(r["id"], ["crashed", "did not finish (crash or the file's time "
                                           "limit)", 0.0])
            elif ev == "report":
                t = tests.setdefault(r["id"], ["crashed", "", 0.0])
                t[2] += r.get("dur", 0.0)
                if t[0] == "crashed" and r["when"] == "setup" and r["outcome"] == "passed":
                    t[0], t[1] = "passed", ""
                if r["outcome"] == "failed":
                    if r["xfail"]:  # strict xfail that passed
                        kind = "failed"
                    else:
                        kind = "failed" if r["when"] == "call" else "error"
                    if t[0] not in ("failed", "error"):
                        t[0], t[1] = kind, r["msg"]
                elif r["outcome"] == "skipped" and t[0] not in ("failed", "error"):
                    t[0], t[1] = ("xfailed" if r["xfail"] else "skipped"), r["msg"]
                elif r["when"] == "call" and r["outcome"] == "passed" and t[0] == "crashed":
                    t[0] = "passed"
    return {k: tuple(v) for k, v in tests.items()}, collect_errors, collected


def function_of(test_id):
    return test_id.split("[", 1)[0]


def rates(tests):
    """(raw rate, per-function rate, counts) over tests that ran (skips and xfails excluded)."""
    counts = collections.Counter(o for o, _, _ in tests.values())
    ran = counts["passed"] + counts["failed"] + counts["error"] + counts["crashed"]
    raw = counts["passed"] / ran if ran else None
    per = collections.defaultdict(list)
    for tid, (o, _, _) in tests.items():
        if o in ("passed", "failed", "error", "crashed"):
            per[function_of(tid)].append(o == "passed")
    fn = (sum(sum(v) / len(v) for v in per.values()) / len(per)) if per else None
    return raw, fn, counts, len(per)


def family(msg):
    """A failure's first line with numbers, arrays and quoted names blurred, to group families."""
    m = re.sub(r"0x[0-9a-f]+", "0x…", msg)
    m = re.sub(r"\d+(\.\d+)?(e[+-]?\d+)?", "N", m)
    m = re.sub(r"\[[^\]]*\]", "[…]", m)
    return m[:160]


def _pct(x):
    return "—" if x is None else f"{100 * x:.1f}%"


def _all_tests(results):
    out = {}
    for key, r in results.items():
        out.update({f"{key}::{t}" if not t.startswith(key) else t: v
                    for t, v in r["tests"].items()})
    return out


def write_report(path, columns, meta, differences=(), entries=None):
    """columns: {placement: results or None}, results: {key: dict(tests=..., collect_errors=...,
    finished=..., seconds=...)}. The forced-device column is the gate: the failure families and
    the per-function lists are its; the default-placement column adds rates and counts.
    ``differences`` (``read_differences()``) marks the failures that are documented differences,
    each linked to its README entry (``entries``: ``readme_entries()``)."""
    results = columns.get("device") or {}
    default = columns.get("auto")
    alltests = _all_tests(results)
    entries = entries or {}

    def doc_of(tests):
        """{test id: README entry id} of the failures that are documented differences."""
        return {t: e for t, (o, msg, _) in tests.items() if o in ("failed", "error", "crashed")
                for e in [documented(t, msg, differences)] if e}

    def link(entry):
        title = entries.get(entry)
        return f"[{entry}]({README_LINK}#{entry})" + (f": {_md(title)}" if title else "")
    docs = doc_of(alltests)
    ddocs = doc_of(_all_tests(default)) if default else {}
    raw, fn, counts, nfn = rates(alltests)
    if default:
        draw, dfn, dcounts, dnfn = rates(_all_tests(default))
        dcol = [_pct(draw), _pct(dfn), ", ".join(f"{o} {dcounts[o]}" for o in OUTCOMES),
                str(dnfn), str(len(default))]
    else:
        dcol = ["not run (no default-placement records)"] + ["—"] * 4
    L = []
    L.append("# NumPy's own test suite, run against tnp")
    L.append("")
    L.append("Generated by `python -m conformance_tests.numpy_suite` "
             "(see `conformance_tests/numpy_suite/__init__.py` for the import-rewriting rule). "
             "Do not edit by hand.")
    L.append("")
    for k, v in meta.items():
        L.append(f"- {k}: {v}")
    L.append("")
    L.append("Rates count the tests that ran: passed / (passed + failed + error + crashed); "
             "skips (NumPy's own platform skips) and NumPy's own xfails are left out. "
             "*Per-function*: every test function weighs one, its parametrizations averaged. "
             "*crashed*: a test that was running when its file hit its wall-clock limit or the "
             "process died. "
             "*forced device* is a run with `--placement device` (`TNP_PLACEMENT=device`: every "
             "numeric array on the JAX device tier, the implementations this gate tests); "
             "*default placement* is a run with `--placement auto`, tnp's default (numeric "
             "arrays under the host threshold live on the host tier, which runs NumPy itself, "
             "so most of that column is NumPy's own code behind tnp's dispatch). Each column is "
             "built from its own run's records (`placement-device/`, `placement-auto/` in the "
             "work directory). The failure families and the per-function lists below are the "
             "forced-device run's.")
    L.append("")
    L.append("## Totals")
    L.append("")
    L.append("| | forced device | default placement |")
    L.append("|---|---|---|")
    L.append(f"| raw rate (tests) | {_pct(raw)} | {dcol[0]} |")
    L.append(f"| per-function rate | {_pct(fn)} | {dcol[1]} |")
    L.append("| tests | " + ", ".join(f"{o} {counts[o]}" for o in OUTCOMES)
             + f" | {dcol[2]} |")
    L.append(f"| test functions that ran | {nfn} | {dcol[3]} |")
    L.append(f"| files | {len(results)} | {dcol[4]} |")
    L.append(f"| failures that are documented differences ([below](#documented-differences)) "
             f"| {len(docs)} | {len(ddocs) if default else '—'} |")
    L.append("")
    L.append("## Per file")
    L.append("")
    L.append("Forced device, then the default placement's rates and counts "
             "(*not run*: no default-placement record of the file).")
    L.append("")
    L.append("| file | raw rate | per-function rate | passed | failed | error | crashed | "
             "skipped | xfailed | deselected | not sampled | not reached | seconds | "
             "default placement: raw rate | per-function rate | passed / failed / error / "
             "crashed |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key in [k for k, _ in FILES if k in results or (default and k in default)]:
        if key in results:
            r = results[key]
            fr, ff, c, _ = rates(r["tests"])
            row = (f"| {key} | {_pct(fr)} | {_pct(ff)} | " + " | ".join(
                str(c[o]) for o in OUTCOMES) + f" | {r.get('deselected', 0)} | "
                f"{r.get('unsampled', 0)} | {_not_reached(r)} | {r['seconds']:.0f} |")
        else:
            row = f"| {key} | not run |" + " — |" * 11
        if default and key in default:
            dr, df, dc, _ = rates(default[key]["tests"])
            row += (f" {_pct(dr)} | {_pct(df)} | "
                    + " / ".join(str(dc[o]) for o in OUTCOMES[:4])
                    + ("" if default[key]["finished"] else " (time limit)") + " |")
        else:
            row += " not run | — | — |"
        L.append(row)
    not_run = [k for k, _ in FILES if k not in results]
    L.append("")
    L.append("Files not run: " + (", ".join(not_run) if not_run else "none") + ".")
    L.append("")
    # families
    fam = collections.Counter()
    example = {}
    for tid, (o, msg, _) in alltests.items():
        if o in ("failed", "error", "crashed"):
            f = family(msg)
            fam[f] += 1
            example.setdefault(f, (tid, msg))
    L.append("## Most frequent failures (first line of the failure, numbers blurred)")
    L.append("")
    famdoc = collections.Counter(family(alltests[t][1]) for t in docs)
    L.append("| count | documented differences | first line | example |")
    L.append("|---|---|---|---|")
    for f, n in fam.most_common(25):
        L.append(f"| {n} | {famdoc[f] or ''} | `{_md(f)}` | `{_md(example[f][0])}` |")
    L.append("")
    L.append("## Documented differences")
    L.append("")
    L.append("Failures that are documented differences of tnp from NumPy (README.md, \"Known "
             "differences from NumPy\"), as `differences.txt` lists them (each test with the "
             "failure line it must show; reviewed). They count as failures in every rate above; "
             "the per-function lists below mark them.")
    L.append("")
    if docs or ddocs:
        L.append("| README entry | forced device | default placement | tests (forced device; "
                 "*default placement only* in italics) |")
        L.append("|---|---|---|---|")
        for entry in sorted(set(docs.values()) | set(ddocs.values())):
            dev = sorted(t for t, e in docs.items() if e == entry)
            auto = sorted(t for t, e in ddocs.items() if e == entry)
            names = [f"`{_md(t)}`" for t in dev] + [f"*`{_md(t)}`*" for t in auto
                                                    if t not in docs]
            L.append(f"| {link(entry)} | {len(dev)} | {len(auto) if default else '—'} | "
                     + ", ".join(names) + " |")
    else:
        L.append("None among these records.")
    L.append("")
    cerr = [(k, e) for k, r in results.items() for e in r["collect_errors"]]
    if cerr:
        L.append("## Collection errors")
        L.append("")
        for k, (nid, msg) in cerr:
            L.append(f"- {k}: `{_md(nid)}`: {_md(msg)}")
        L.append("")
    L.append("## Per test function")
    L.append("")
    L.append("Functions with any failure first; fully passing ones are listed compactly.")
    for key, r in results.items():
        per = collections.OrderedDict()
        for tid, (o, msg, _) in r["tests"].items():
            per.setdefault(function_of(tid), []).append((tid, o, msg))
        L.append("")
        L.append(f"### {key}")
        L.append("")
        bad, good, skipped = [], [], []
        for f, lst in per.items():
            c = collections.Counter(o for _, o, _ in lst)
            ran = c["passed"] + c["failed"] + c["error"] + c["crashed"]
            name = f.split("::", 1)[1] if "::" in f else f
            if ran == 0:
                skipped.append(name)
            elif c["passed"] == ran:
                good.append(name + (f" ({ran})" if ran > 1 else ""))
            else:
                tid, first = next((t, m) for t, o, m in lst if o in ("failed", "error", "crashed"))
                entry = docs.get(tid if tid.startswith(key) else f"{key}::{tid}")
                mark = f"documented difference ({link(entry)}): " if entry else ""
                bad.append(f"| `{_md(name)}` | {c['passed']} | {c['failed']} | {c['error']} | "
                           f"{c['crashed']} | {c['skipped'] + c['xfailed']} | "
                           f"{mark}`{_md(first)}` |")
        if bad:
            L.append("| function | passed | failed | error | crashed | skipped | first failure |")
            L.append("|---|---|---|---|---|---|---|")
            L.extend(bad)
            L.append("")
        if good:
            L.append(f"Passing ({len(good)}): " + ", ".join(f"`{_md(g)}`" for g in good))
            L.append("")
        if skipped:
            L.append(f"Only skipped ({len(skipped)}): " + ", ".join(f"`{_md(s)}`" for s in skipped))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    return raw, fn, counts, fam


def _not_reached(r):
    """Selected tests the file's time limit left unrun (0 when the file ran to its end)."""
    if r["finished"]:
        return "0"
    return f"**{max(0, r.get('collected', 0))}** (time limit)"


def _md(s):
    return str(s).replace("|", "\\|").replace("`", "'").replace("\n", " ")


def _key_of(test_id):
    return test_id.split("::", 1)[0]


def cmd_full(args):
    keys = args.files or [k for k, _ in FILES]
    unknown = [k for k in keys if k not in SOURCES]
    if unknown:
        sys.exit(f"unknown files: {unknown}; known: {[k for k, _ in FILES]}")
    workdir = args.workdir or tempfile.mkdtemp(prefix="tnp-numpy-suite-")
    records = records_dir(workdir, args.placement)
    os.makedirs(records, exist_ok=True)
    prepare(workdir, keys)
    print(f"[numpy_suite] NumPy {numpy.__version__} tests from {NUMPY_DIR}; work dir {workdir}; "
          f"placement {args.placement}", flush=True)
    t_start = time.time()
    meta = make_meta(args)
    ran = []
    deadline = t_start + 60 * args.budget_min
    # A records directory accumulates: a file run again replaces its earlier records, the
    # other files keep theirs (each file's row says which run it comes from).
    results = load_results(records)
    for key in keys:
        left = deadline - time.time()
        if left < 30:
            print(f"[numpy_suite] budget spent: {key} and later files not run", flush=True)
            break
        record = record_path(records, key)
        if os.path.exists(record):
            os.remove(record)
        t0 = time.time()
        finished = run_pytest(workdir, [key], record, timeout=min(left, 60 * args.file_min),
                              test_timeout=args.timeout, placement=args.placement,
                              xdist=args.n, log=record[:-len(".jsonl")] + ".log",
                              sample=args.sample)
        tests, cerr, collected = file_tests(workdir, records, key, args.sample)
        desel = unsampled = 0
        with open(record) if os.path.exists(record) else open(os.devnull) as f:
            for line in f:
                r = json.loads(line)
                if r.get("event") == "collected":
                    desel += r["deselected"]
                    unsampled += r.get("unsampled", 0)
        results[key] = dict(tests=tests, collect_errors=cerr, finished=finished,
                            seconds=time.time() - t0, deselected=desel, unsampled=unsampled,
                            collected=collected, sample=args.sample)
        ran.append(key)
        raw, fn, c, _ = rates(tests)
        print(f"[numpy_suite] {key}: {len(tests)} tests in {time.time() - t0:.0f} s, raw "
              f"{_pct(raw)}, per-function {_pct(fn)}, "
              + ", ".join(f"{o} {c[o]}" for o in OUTCOMES)
              + ("" if finished else " (time limit)"), flush=True)
    # the work directory and report path as placeholders (machine-local paths stay out of it)
    argv = [{"--workdir": "WORKDIR", "--out": "OUT"}.get(prev, a)
            for prev, a in zip([None, *args.argv], args.argv)]
    command = " ".join(["python -m conformance_tests.numpy_suite", *argv])
    # the Python a row was run on goes with it: a column may merge runs of several Pythons
    run = (f"{meta['date']}, Python {meta['Python']}, {(time.time() - t_start) / 60:.1f} min: "
           f"`{command}`")
    for key in ran:
        results[key]["run"] = run
    save_results(records, results)
    with open(os.path.join(records, "meta.json"), "w") as f:
        json.dump(meta, f)
    out = args.out or os.path.join(HERE, "results.md")
    raw, fn, counts, fam = build_report(workdir, out, args.note)
    print(f"[numpy_suite] report {out}: forced device raw {_pct(raw)}, per-function {_pct(fn)}; "
          f"{(time.time() - t_start) / 60:.1f} min; records in {records}", flush=True)
    return 0


def load_results(records):
    """A records directory's ``results.json``: {key: the file's run}, {} when there is none."""
    path = os.path.join(records, "results.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        results = json.load(f)
    for v in results.values():
        v["tests"] = {t: tuple(x) for t, x in v["tests"].items()}
        v["collect_errors"] = [tuple(e) for e in v["collect_errors"]]
    return results


def save_results(records, results):
    with open(os.path.join(records, "results.json"), "w") as f:
        json.dump({k: dict(v, tests={t: list(x) for t, x in v["tests"].items()})
                   for k, v in results.items()}, f)


def build_report(workdir, out, note=None):
    """Write the report from the records of both columns in ``workdir`` (either may be absent);
    the header is the forced-device run's (else the default-placement run's), and lists, per
    column, the runs its rows come from."""
    columns, meta = {}, None
    for placement, label in COLUMNS:
        records = records_dir(workdir, placement)
        columns[placement] = load_results(records) or None
        meta_path = os.path.join(records, "meta.json")
        if columns[placement] and meta is None and os.path.exists(meta_path):
            with open(meta_path) as f:
                meta = collections.OrderedDict(json.load(f))
    if not any(columns.values()):
        sys.exit(f"no records in {workdir} (expected {records_dir(workdir, 'device')})")
    meta = meta or collections.OrderedDict()
    for placement, label in COLUMNS:
        runs = collections.OrderedDict()
        for key, r in (columns[placement] or {}).items():
            runs.setdefault(r.get("run", "?"), []).append(key)
        if runs:
            meta[f"{label} records"] = "; ".join(
                f"{run} ({len(keys)} files{': ' + ', '.join(keys) if len(keys) < 8 else ''})"
                for run, keys in runs.items())
    if note:
        meta["note"] = note
    return write_report(out, columns, meta, read_differences(), readme_entries())


def make_meta(args):
    """The header's facts of a run (its command and wall clock go with its files' rows)."""
    return collections.OrderedDict([
        ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("NumPy", f"{numpy.__version__} (its installed tests)"),
        ("Python", platform.python_version()),
        ("machine", f"{platform.machine()}, {os.cpu_count()} CPUs; JAX backend "
                    f"{_backend()}"),
        ("per-test timeout", f"{args.timeout:g} s of CPU time (wall-clock backstop "
                             f"{WALL_FACTOR * args.timeout:g} s); per-file limit "
                             f"{args.file_min} min; "
                             f"budget {args.budget_min} min"),
        ("NumPy's `slow` tests", "not run (`-m 'not slow'`, as NumPy's default `spin test`)"),
        ("deselected", "see `deselected.txt` (each with its reason)"),
        ("sampling", (f"at most {args.sample} parametrizations per test function, spread "
                      f"over its list (first and last for 2); the rest are counted as *not "
                      f"sampled*, not as run" if args.sample else "none: every test")),
    ])


def cmd_report_from(args):
    """Rewrite the report from the records in WORKDIR, each file's tests read again from its
    record (so a change in how records are read reaches the report without a rerun)."""
    for placement, _ in COLUMNS:
        records = records_dir(args.report_from, placement)
        results = load_results(records)
        for k, v in results.items():
            v["tests"], _, v["collected"] = file_tests(args.report_from, records, k,
                                                       v.get("sample", args.sample))
        if results:
            save_results(records, results)
    out = args.out or os.path.join(HERE, "results.md")
    raw, fn, counts, fam = build_report(args.report_from, out, args.note)
    print(f"[numpy_suite] report {out}: forced device raw {_pct(raw)}, per-function {_pct(fn)}")
    return 0


def _backend():
    try:
        import jax
        return jax.default_backend()
    except Exception:  # pragma: no cover
        return "?"


def read_quick():
    ids, version = [], None
    with open(_ids_file("quick.txt")) as f:
        for line in f:
            if line.startswith("# numpy "):
                version = line.split()[2]
            line = line.strip()
            if line and not line.startswith("#"):
                ids.append(line)
    return ids, version


def cmd_quick(args):
    """Run the quick subset; exit 1 if a test recorded as passing in the baseline fails."""
    ids, version = read_quick()
    keys = [k for k, _ in FILES if any(_key_of(i) == k for i in ids)]
    workdir = args.workdir or tempfile.mkdtemp(prefix="tnp-numpy-suite-quick-")
    os.makedirs(workdir, exist_ok=True)
    prepare(workdir, keys)
    select = os.path.join(workdir, "select.txt")
    with open(select, "w") as f:
        f.write("\n".join(ids) + "\n")
    record = os.path.join(workdir, "quick.jsonl")
    if os.path.exists(record):
        os.remove(record)
    t0 = time.time()
    finished = run_pytest(workdir, keys, record, timeout=60 * args.file_min,
                          test_timeout=args.timeout, placement=args.placement, xdist=args.n,
                          select=select, log=os.path.join(workdir, "quick.log"))
    tests, cerr, _ = read_record(record)
    bad = {t: v for t, v in tests.items() if v[0] in ("failed", "error", "crashed")}
    missing = [i for i in ids if i not in tests]
    same_numpy = version == numpy.__version__
    print(f"[numpy_suite --quick] {len(ids)} baseline-passing tests, {len(tests)} ran in "
          f"{time.time() - t0:.0f} s; {len(bad)} regressions, {len(missing)} missing "
          f"(NumPy {numpy.__version__}, baseline {version}); log {workdir}/quick.log")
    for t, (o, msg, _) in sorted(bad.items()):
        print(f"REGRESSION {o}: {t}: {msg}")
    for m in missing[:50]:
        print(f"MISSING: {m}")
    for nid, msg in cerr:
        print(f"COLLECTION ERROR: {nid}: {msg}")
    fail = bool(bad) or not finished or (bool(missing) and same_numpy)
    return 1 if fail else 0


def cmd_make_quick(args):
    """Write quick.txt from a full run's records: fast tests that passed, spread over the test
    functions of the files that are quickest to start (import and collection), so that the
    gate stays short."""
    results = load_results(records_dir(args.make_quick, "device"))
    overhead = {}
    per_file = {}
    for key, r in results.items():
        durs = [v[2] for v in r["tests"].values()]
        overhead[key] = r["seconds"] - sum(durs)
        per_fn = collections.OrderedDict()
        for tid, (o, msg, dur) in r["tests"].items():
            if o == "passed" and dur < args.quick_max_s and " " not in tid:
                per_fn.setdefault(function_of(tid), []).append(tid)
        if per_fn:
            per_file[key] = per_fn
    chosen = []
    for key in sorted(per_file, key=lambda k: overhead[k]):
        if len(chosen) >= args.quick_size:
            break
        per_fn = per_file[key]
        depth = 0
        while len(chosen) < args.quick_size and depth < 3:
            for fn, lst in per_fn.items():
                if depth < len(lst) and len(chosen) < args.quick_size:
                    chosen.append(lst[depth])
            depth += 1
    order = [k for k, _ in FILES]
    with open(_ids_file("quick.txt"), "w") as f:
        f.write("# The quick subset of NumPy's tests that CI runs as a regression gate\n"
                "# (tests/test_numpy_suite_gate.py): each passed in the baseline run of results.md.\n"
                "# Written by `python -m conformance_tests.numpy_suite --make-quick WORKDIR`;\n"
                "# a test here that fails now is a regression. Add tests as families get fixed.\n")
        f.write(f"# numpy {numpy.__version__}\n")
        f.write("\n".join(sorted(chosen, key=lambda t: (order.index(_key_of(t)), t))) + "\n")
    print(f"wrote {len(chosen)} ids from {len({_key_of(t) for t in chosen})} files to "
          f"{_ids_file('quick.txt')}")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="python -m conformance_tests.numpy_suite",
                                description=__doc__)
    p.add_argument("files", nargs="*", help="keys of FILES (default: all, in priority order)")
    p.add_argument("--quick", action="store_true", help="run the CI quick subset (quick.txt)")
    p.add_argument("--make-quick", metavar="WORKDIR",
                   help="write quick.txt from a full run's forced-device records")
    p.add_argument("--report-from", metavar="WORKDIR",
                   help="rewrite the report from the records in WORKDIR (both columns)")
    p.add_argument("--note", help="a line added to the report's header")
    p.add_argument("--quick-size", type=int, default=300)
    p.add_argument("--quick-max-s", type=float, default=0.05)
    p.add_argument("--placement", default=os.environ.get("TNP_PLACEMENT", "device"),
                   choices=[p for p, _ in COLUMNS],
                   help="passed to the tests as TNP_PLACEMENT (default: device); picks the "
                        "report's column and the records directory (WORKDIR/placement-P)")
    p.add_argument("-n", type=int, default=0, help="pytest-xdist workers (0: no xdist)")
    p.add_argument("--timeout", type=float, default=20,
                   help="per-test timeout, seconds of process CPU time (all threads); a "
                        f"wall-clock backstop ends a test at {WALL_FACTOR} times that")
    p.add_argument("--sample", type=int, default=0,
                   help="run at most K parametrizations per test function (0: all)")
    p.add_argument("--file-min", type=float, default=10, help="wall-clock limit per file, min")
    p.add_argument("--budget-min", type=float, default=45, help="wall-clock budget, minutes")
    p.add_argument("--workdir", help="keep the rewritten files and records here; a run into a "
                                     "work directory that holds records merges with them "
                                     "(the files it runs replace theirs)")
    p.add_argument("--out", help="report path (default: results.md next to this module)")
    args = p.parse_args(argv)
    args.argv = argv
    if args.report_from:
        return cmd_report_from(args)
    if args.make_quick:
        return cmd_make_quick(args)
    if args.quick:
        return cmd_quick(args)
    return cmd_full(args)
