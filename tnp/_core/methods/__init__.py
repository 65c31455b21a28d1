"""tnp._core.methods."""
