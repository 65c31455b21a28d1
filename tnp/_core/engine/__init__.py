"""tnp._core.engine."""
