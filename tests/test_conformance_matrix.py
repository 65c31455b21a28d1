"""``conformance_tests/matrix.py``: the default run's share of a test matrix meets every case
and every function, and leaves the rest to the ``slow`` profile."""
import itertools

import pytest

from matrix import kept, rotated

FUNCTIONS = [f"f{i}" for i in range(8)]
CASES = list(itertools.product("abcdefghijklmn", "abcdefghijklmn"))


def _default(params):
    return [p.values for p in params if not any(m.name == "slow" for m in p.marks)]


@pytest.mark.parametrize("share", [2, 3, 4])
def test_rotated_share_meets_every_case_and_function(share):
    params = rotated(((f, *c) for f in FUNCTIONS for c in CASES), share)
    assert len(params) == len(FUNCTIONS) * len(CASES)  # the rest marked, none dropped
    default = _default(params)
    assert {v[1:] for v in default} == set(CASES)
    for f in FUNCTIONS:
        n = sum(v[0] == f for v in default)
        assert len(CASES) // share <= n <= -(-len(CASES) // share)


def test_rotated_leaves_slow_parameters_as_they_are():
    params = [pytest.param("f0", 1, marks=pytest.mark.slow), ("f0", 2), ("f0", 3)]
    out = rotated(params, 2)
    assert [p.values for p in out] == [("f0", 1), ("f0", 2), ("f0", 3)]
    assert _default(out) == [("f0", 2)]  # (the slow one is not counted)


def test_kept_marks_the_others():
    params = kept(["int8", "int16", "float64"], {"int8", "float64"})
    assert _default(params) == [("int8",), ("float64",)]
    assert [p.id for p in params] == ["int8", "int16", "float64"]
