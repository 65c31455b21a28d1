"""tnp._core.rules."""
