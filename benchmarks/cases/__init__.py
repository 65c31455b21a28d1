"""Benchmark cases: each module defines ``cases(quick: bool) -> list[benchmarks.runner.Case]``."""
