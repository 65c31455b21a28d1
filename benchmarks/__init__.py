"""tnp's benchmarks: ``python -m benchmarks``."""
