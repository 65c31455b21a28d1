"""The NumPy-suite runner's per-test timeout (``conformance_tests/numpy_suite/suite_conftest.py``)
counts process CPU time, with a wall-clock backstop: a test that waits (a loaded machine, a
sleep) under the CPU limit passes; one that computes past it, or blocks past the backstop, is
cut with a message naming the limit."""
import json
import os
import shutil

from conformance_tests.numpy_suite import runner

TESTS = '''
import time


def test_waits_past_the_limit_without_cpu():
    time.sleep(1.5)


def test_computes_past_the_limit():
    end = time.process_time() + 10
    while time.process_time() < end:
        pass


def test_blocks_past_the_backstop():
    time.sleep(30)
'''


def test_per_test_timeout_is_cpu_time_with_wall_backstop(tmp_path):
    workdir = str(tmp_path)
    shutil.copy(os.path.join(runner.HERE, "suite_conftest.py"), os.path.join(workdir, "conftest.py"))
    with open(os.path.join(workdir, "pytest.ini"), "w") as f:
        f.write(runner.PYTEST_INI)
    with open(os.path.join(workdir, "test_t.py"), "w") as f:
        f.write(TESTS)
    record = os.path.join(workdir, "record.jsonl")
    assert runner.run_pytest(workdir, ["test_t.py"], record, timeout=300, test_timeout=1,
                             placement="device", xdist=0, log=os.path.join(workdir, "log"))
    with open(record) as f:
        calls = {r["id"].split("::")[1]: r for r in map(json.loads, f)
                 if r["event"] == "report" and r["when"] == "call"}
    assert calls["test_waits_past_the_limit_without_cpu"]["outcome"] == "passed"
    cpu = calls["test_computes_past_the_limit"]
    assert cpu["outcome"] == "failed" and "over 1 s of CPU time" in cpu["msg"]
    assert cpu["dur"] < 5
    wall = calls["test_blocks_past_the_backstop"]
    assert wall["outcome"] == "failed" and f"over {runner.WALL_FACTOR:g} s of wall-clock time" in wall["msg"]
