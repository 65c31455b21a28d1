"""The NumPy-suite report (``conformance_tests/numpy_suite/runner.py``) is built from two records
directories, one per placement: the forced-device run's and the default placement's. Small
synthetic records here; no NumPy test runs."""
import json
import os

from conformance_tests.numpy_suite import runner

UMATH, SHAPE = "core/test_umath.py", "lib/test_shape_base.py"


def _write(workdir, placement, results):
    records = runner.records_dir(str(workdir), placement)
    os.makedirs(records)
    runner.save_results(records, {
        key: dict(tests=tests, collect_errors=[], finished=True, seconds=1.0, deselected=0,
                  unsampled=0, collected=0, sample=2, run=f"{placement} run")
        for key, tests in results.items()})
    with open(os.path.join(records, "meta.json"), "w") as f:
        json.dump({"date": f"{placement} date"}, f)


def _row(lines, first):
    return next(ln for ln in lines if ln.startswith(f"| {first} |")).split(" | ")


DEVICE = {
    UMATH: {f"{UMATH}::test_a[0]": ("passed", "", 0.1), f"{UMATH}::test_a[1]": ("failed", "E", 0.1),
            f"{UMATH}::test_b": ("error", "E", 0.1)},
    SHAPE: {f"{SHAPE}::test_c": ("passed", "", 0.1)},
}
DEFAULT = {
    UMATH: {f"{UMATH}::test_a[0]": ("passed", "", 0.1), f"{UMATH}::test_a[1]": ("passed", "", 0.1),
            f"{UMATH}::test_b": ("failed", "E", 0.1)},
}


def test_report_has_both_columns(tmp_path):
    _write(tmp_path, "device", DEVICE)
    _write(tmp_path, "auto", DEFAULT)
    out = tmp_path / "results.md"
    raw, fn, counts, _ = runner.build_report(str(tmp_path), str(out))
    assert (raw, fn) == (0.5, (0.5 + 0 + 1) / 3)
    lines = out.read_text().splitlines()
    assert "(same run)" not in out.read_text()
    # totals: device 2 of 4 passed; default 2 of 3
    assert _row(lines, "raw rate (tests)")[1:] == ["50.0%", "66.7% |"]
    assert _row(lines, "per-function rate")[1:] == ["50.0%", "50.0% |"]
    assert _row(lines, "files")[1:] == ["2", "1 |"]
    # per file: the default placement's rates and counts next to the forced device's
    umath = _row(lines, UMATH)
    assert umath[1:3] == ["33.3%", "25.0%"]
    assert umath[-3:] == ["66.7%", "50.0%", "2 / 1 / 0 / 0 |"]
    assert _row(lines, SHAPE)[-3:] == ["not run", "—", "— |"]
    assert "- forced device records: device run (2 files: core/test_umath.py, " \
           "lib/test_shape_base.py)" in lines
    assert "- default placement records: auto run (1 files: core/test_umath.py)" in lines


def test_report_without_default_placement_records(tmp_path):
    _write(tmp_path, "device", DEVICE)
    out = tmp_path / "results.md"
    runner.build_report(str(tmp_path), str(out))
    lines = out.read_text().splitlines()
    assert _row(lines, "raw rate (tests)")[2] == "not run (no default-placement records) |"
    assert _row(lines, UMATH)[-3:] == ["not run", "—", "— |"]


def test_documented_differences_are_marked_and_linked(tmp_path):
    import re
    device = {UMATH: {f"{UMATH}::test_a[0]": ("passed", "", 0.1),
                      f"{UMATH}::test_a[1]": ("failed", "DID NOT WARN RuntimeWarning", 0.1),
                      f"{UMATH}::test_b": ("failed", "DID NOT WARN RuntimeWarning", 0.1),
                      f"{UMATH}::test_c": ("failed", "AssertionError: other", 0.1)}}
    default = {UMATH: {f"{UMATH}::test_a[0]": ("passed", "", 0.1),
                       f"{UMATH}::test_a[1]": ("passed", "", 0.1),
                       f"{UMATH}::test_b": ("failed", "DID NOT WARN RuntimeWarning", 0.1),
                       f"{UMATH}::test_c": ("passed", "", 0.1)}}
    # test_a: any parametrization; test_c: listed, but it fails with another line
    differences = [(f"{UMATH}::test_a", "diff-fp-warnings", re.compile("DID NOT WARN"), ""),
                   (f"{UMATH}::test_c", "diff-fp-warnings", re.compile("DID NOT WARN"), "")]
    out = tmp_path / "results.md"
    columns = {p: {k: dict(tests=t, collect_errors=[], finished=True, seconds=1.0)
                   for k, t in c.items()} for p, c in (("device", device), ("auto", default))}
    raw, fn, _, _ = runner.write_report(str(out), columns, {}, differences,
                                        {"diff-fp-warnings": "Floating-point"})
    assert raw == 0.25  # still failures in the rates
    text = out.read_text()
    lines = text.splitlines()
    assert _row(lines, "failures that are documented differences ([below]"
                       "(#documented-differences))")[1:] == ["1", "0 |"]
    link = "[diff-fp-warnings](../../README.md#diff-fp-warnings): Floating-point"
    entry = _row(lines, link)
    assert entry[1:3] == ["1", "0"] and entry[3] == f"`{UMATH}::test_a[1]` |"
    assert _row(lines, "`test_a`")[-1] == f"documented difference ({link}): " \
                                         "`DID NOT WARN RuntimeWarning` |"
    assert _row(lines, "`test_b`")[-1] == "`DID NOT WARN RuntimeWarning` |"
    assert _row(lines, "`test_c`")[-1] == "`AssertionError: other` |"


def test_differences_list_names_readme_entries():
    # every line of differences.txt: a test of a file the runner knows, an entry the README's
    # "Known differences from NumPy" has (an anchor there), a reason
    entries = runner.readme_entries()
    with open(runner.README, encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("## Known differences from NumPy", 1)[1].split("\n## ", 1)[0]
    assert entries and all(f'<a id="{e}"></a>' in section for e in entries)
    differences = runner.read_differences()
    assert differences
    ids = [d[0] for d in differences]
    assert len(ids) == len(set(ids))
    for test_id, entry, rx, reason in differences:
        assert test_id.split("::", 1)[0] in runner.SOURCES, test_id
        assert entry in entries, (test_id, entry)
        assert reason, test_id
