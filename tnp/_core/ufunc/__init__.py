"""tnp._core.ufunc."""
