"""tnp._core.array."""
