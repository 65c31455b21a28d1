"""Writes under a JAX trace to arrays that live outside it.

By default such a write is an error (it would leak a tracer into the caller's array).
``tnp_ext.jit`` pushes a capture context: the write is then recorded and the array's new value is
returned from the compiled function and written back to the caller's array after the call.
"""
from .jaxload import jcore as _jcore, until_loaded

_captures = []


def current_trace():
    """The JAX trace now active (an ``EvalTrace`` when running eagerly)."""
    return _jcore.trace_ctx.trace


def _traced():
    return type(_jcore.trace_ctx.trace) is not _jcore.EvalTrace


# Whether a JAX trace is active: host code asks this (never true before JAX is imported).
in_trace = until_loaded(lambda: False, _traced)


def capture_write(root):
    """Offer a traced write to ``root`` (an array from outside the trace) to the active capture
    context. Returns True if a context took it (and rebinding ``root._buf`` is then safe)."""
    return bool(_captures) and _captures[-1].capture(root)


def push(ctx):
    _captures.append(ctx)


def pop(ctx):
    assert _captures and _captures[-1] is ctx
    _captures.pop()


def active():
    """Whether a tnp_ext.jit capture context is tracing now."""
    return bool(_captures)


def outside_trace():
    """A context in which new tnp arrays are concrete and belong to no trace (eager), even
    while a JAX trace is active: for state that must outlive the trace (optimizer slots,
    random keys), which tnp_ext.jit then threads through the compiled function."""
    return _jcore.eval_context()  # no public API gives an eager context inside a trace
