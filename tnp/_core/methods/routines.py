"""The tnp routines the array's methods and operators call: ``a.sum()`` is ``tnp.sum(a)``,
``a + b`` is ``tnp.add(a, b)``. They are defined above ``tnp._core`` (``tnp._routines``), so
``tnp/__init__`` gives this layer the tnp module at import (``register``): the names this
layer calls are listed here, once, and ``tnp`` below holds them, each looked up at its first
use (an attribute lookup, as on a module, on the method hot path).
"""

# The routines the methods and operators call, by the module that calls them.
DELEGATED = (  # ``methods``: methods that are the routine with the array as first argument
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "cumprod", "cumsum",
    "diagonal", "dot", "max", "mean", "min", "nonzero", "prod", "put", "ravel", "repeat",
    "round", "searchsorted", "squeeze", "std", "sum", "swapaxes", "take", "trace", "var")
NAMES = DELEGATED + (
    # ``methods``, ``properties``, ``protocols``
    "asarray", "astype", "choose", "clip", "compress", "conjugate", "copy", "copyto",
    "empty", "partition", "reshape", "sort", "transpose",
    # ``operators``: the ufuncs behind them, and what ``==`` answers without a loop
    "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
    "square", "matmul", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
    "right_shift", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "negative", "positive", "absolute", "invert", "divmod", "full")
# Routines a method calls after asking the host-tier question itself (``host_tier.method``):
# ``past_host`` holds their entries past that question (``frontend.entry``'s ``device``).
PAST_HOST = DELEGATED + ("reshape", "transpose")


class _Routines:
    """``tnp.<name>`` for each name of ``NAMES`` (an attribute: the routine itself), looked up
    in the registered namespace at its first use (importing the routine's family) and kept.
    ``past_host=True``: the routine's entry past the host-tier question (``PAST_HOST``)."""

    def __init__(self, past_host=False):
        self._past_host = past_host

    def __getattr__(self, name):
        if name not in (PAST_HOST if self._past_host else NAMES) or _namespace is None:
            raise AttributeError(f"ndarray's methods call no tnp routine {name!r}")
        fn = getattr(_namespace, name)
        if self._past_host:
            fn = getattr(fn, "device", fn)
        setattr(self, name, fn)
        return fn


tnp = _Routines()  # tnp.<name>: the public routine
past_host = _Routines(past_host=True)  # past_host.<name>: its entry once the host tier declined
_namespace = None  # the tnp module: ``ndarray.__array_namespace__``


def register(namespace):
    """Give this layer the tnp module ``namespace``, where the routines of ``NAMES`` are found
    (and the array API namespace); ``tnp/__init__`` calls it once."""
    global _namespace
    _namespace = namespace


def namespace():
    """The tnp module, as registered."""
    return _namespace
