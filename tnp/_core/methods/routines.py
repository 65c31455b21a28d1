"""The tnp routines the array's methods and operators call: ``a.sum()`` is ``tnp.sum(a)``,
``a + b`` is ``tnp.add(a, b)``. They are defined above ``tnp._core`` (``tnp._routines``), so
``tnp/__init__`` gives them to this layer at import (``register``): the names this layer calls
are listed here, once, and ``tnp`` below holds them, filled once (an attribute lookup, as on a
module, on the method hot path).
"""

# The routines the methods and operators call, by the module that calls them.
DELEGATED = (  # ``methods``: methods that are the routine with the array as first argument
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "cumprod", "cumsum",
    "diagonal", "dot", "max", "mean", "min", "nonzero", "prod", "put", "ravel", "repeat",
    "round", "searchsorted", "squeeze", "std", "sum", "swapaxes", "take", "trace", "var")
NAMES = DELEGATED + (
    # ``methods``, ``properties``, ``protocols``
    "asarray", "astype", "choose", "clip", "compress", "conjugate", "copy", "copyto",
    "partition", "reshape", "sort", "transpose", "zeros",
    # ``operators``: the ufuncs behind them, and what ``==`` answers without a loop
    "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
    "square", "matmul", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
    "right_shift", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "negative", "positive", "absolute", "invert", "divmod", "full")
# Routines a method calls after asking the host-tier question itself (``host_tier.method``):
# ``past_host`` holds their entries past that question (``frontend.entry``'s ``device``).
PAST_HOST = DELEGATED + ("reshape", "transpose")


class _Routines:
    """``tnp.<name>`` for each name registered (an attribute: the routine itself)."""


tnp = _Routines()  # tnp.<name>: the public routine
past_host = _Routines()  # past_host.<name>: its entry once the host tier has declined the call
_namespace = None  # the tnp module: ``ndarray.__array_namespace__``


def register(namespace, routines):
    """Give this layer ``routines`` (name -> tnp's public routine, exactly ``NAMES``) and the
    tnp module ``namespace`` (the array API namespace); ``tnp/__init__`` calls it once."""
    global _namespace
    if set(routines) != set(NAMES):
        raise ValueError(f"ndarray's methods call {sorted(NAMES)}; given {sorted(routines)}")
    _namespace = namespace
    for name, fn in routines.items():
        setattr(tnp, name, fn)
    for name in PAST_HOST:
        fn = routines[name]
        setattr(past_host, name, getattr(fn, "device", fn))


def namespace():
    """The tnp module, as registered."""
    return _namespace
