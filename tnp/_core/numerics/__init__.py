"""tnp._core.numerics."""
