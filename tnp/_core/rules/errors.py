"""tnp's own warning and error classes. NumPy's exception classes are raised as they are."""


class TnpFallbackWarning(UserWarning):
    """A NumPy name ran through tnp's fallback path (NumPy on the host), not natively on JAX."""


class TnpTracingError(TypeError):
    """An operation needs a concrete value (a data-dependent shape, a write to an array that
    lives outside the traced function) but was called under a JAX trace."""
