"""The internal interface ``tnp_ext`` uses: the one module of ``tnp._core`` it imports (besides
``tnp._core.settings``, which ``tnp_ext.placement`` sets). Nothing else imports it.

Why one module: ``tnp_ext`` (``jit``, the optimizers, the JAX transforms) works on what a tnp
array is, not only on what NumPy shows of it: an array's jax value, its root and the root's
buffer, the roots' locks and the write-back of a compiled call. Named here, that is a small,
documented contract: ``tnp._core`` may move and rename its modules and attributes as long as
these names keep their meaning, and ``tnp_ext`` never assigns an array's storage itself (the
door to storage is the array layer's, see ``tnp._core.array``).

This is the top layer of ``tnp._core`` (``tests/test_import_graph.py``): it may import every
layer, and no module of ``tnp._core`` imports it.

Arrays and values
    ``ndarray`` (the class, for type checks), ``is_array(x)``, ``wrap(v)`` (a jax value or a
    tracer as a new tnp root, no copy), ``value(a)`` (an array's value as a ``jax.Array``: a
    pending lazy value is computed, a view is read through its lenses), ``to_jax(x)`` (any
    array-like as a ``jax.Array``), ``normalize`` and ``ArrayLike`` (tnp's argument normaliser,
    for functions on tnp arrays written with ``jax.numpy``).
Roots and buffers (``tnp_ext.jit``'s write-back and donation)
    ``root(a)``, ``buffer(r)`` (a root's buffer as it stands: read it holding the root's lock),
    ``plain_roots(arrays)``, ``view_key(a)``, ``settle(roots)``; the lock protocol of
    ``tnp._core.array.write``: ``hold``, ``swap``, ``claim``, ``commit``, ``unclaim``; and the
    one write path, ``assign``.
Traces
    ``current_trace``, ``outside_trace``, ``push_capture``/``pop_capture`` (the capture context
    a traced write to an outside array is offered to), ``capture_write``, ``may_write``,
    ``TnpTracingError``.
Processes
    ``start_distributed`` (``tnp_ext.distributed.initialize``): the one start of JAX's
    distributed runtime (``tnp._core.engine.distributed.start``).
"""
import operator

from .array import write
from .array.ndarray import ndarray
from .dispatch.normalize import ArrayLike, normalize, to_jax
from .engine import distributed, lazy, tracing
from .rules.errors import TnpTracingError

__all__ = ["ndarray", "is_array", "wrap", "value", "to_jax", "normalize", "ArrayLike", "root",
           "buffer", "plain_roots", "view_key", "settle", "hold", "swap", "claim", "commit",
           "unclaim", "assign", "current_trace", "outside_trace", "push_capture", "pop_capture",
           "capture_write", "may_write", "TnpTracingError", "start_distributed"]


# ---- arrays and values ---------------------------------------------------------------------
def is_array(x):
    """Whether ``x`` is a tnp array."""
    return isinstance(x, ndarray)


wrap = ndarray._wrap  # wrap(v): a new tnp root owning the jax value (or tracer) v, no copy
value = operator.attrgetter("_value")  # value(a): a tnp array's value as a jax.Array


# ---- roots and buffers ---------------------------------------------------------------------
root = operator.attrgetter("_root")  # root(a): the root array that owns a's buffer (a itself)
buffer = operator.attrgetter("_buf")  # buffer(r): the root r's buffer now (hold its lock)


def plain_roots(arrays):
    """Whether every one of ``arrays`` is a plain writeable root: exactly a ``tnp.ndarray``, not
    a view, standing for an array (not for a NumPy scalar)."""
    for a in arrays:
        if type(a) is not ndarray or a._base is not None or not a._writeable or a._scalar:
            return False
    return True


def view_key(a):
    """How the tnp array ``a`` is made from its root: ``(lens chain and dynamic operands,
    writeable, stands for a NumPy scalar)``, hashable (a compiled plan's key)."""
    return a._chain(), a._writeable, a._scalar


def settle(roots):
    """Compute the pending (lazy) values the roots hold, before a call reads their buffers.
    Hold the roots' locks."""
    if lazy.on:
        lazy.settle(roots)


hold = write.hold  # with hold(roots): the roots' locks, in one global order
swap = write.swap  # with swap(roots, values): the roots hold values (tracers) on this thread
claim = write.claim  # claim(roots, candidates): (buffers, donated indices), holding the roots
commit = write.commit  # commit(root, buf): the root's new buffer (a write-back), holding it
unclaim = write.unclaim  # unclaim(roots, bufs, donated): put claimed buffers back (a failure)
assign = write.assign  # assign(target, value, index=None, where=None): the one write path


# ---- traces --------------------------------------------------------------------------------
current_trace = tracing.current_trace
outside_trace = tracing.outside_trace
push_capture = tracing.push
pop_capture = tracing.pop
capture_write = tracing.capture_write


def may_write(root, trace):
    """Whether a write to ``root`` under ``trace`` (a JAX trace, not eager) may go ahead: the
    root was made under it, or the active capture context takes the write."""
    return root._trace is trace or tracing.capture_write(root)


# ---- processes -----------------------------------------------------------------------------
start_distributed = distributed.start
