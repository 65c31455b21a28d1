"""tnp._core.dispatch."""
