"""The hot path of a ufunc call and lazy recording.

A call on tnp arrays (and Python scalars) with no keywords, of a loop seen before, is one dict
lookup (``ufunc._fast``, keyed by ``fast_key`` and filled by the slow path, ``ufunc._call``) and
the compiled kernel, or, when recording (``lazy``), a pending node holding the kernel. The
ufunc's ``__call__`` hands its device part (``device_call``, made once per ufunc) to
``frontend.device_or_numpy``.
"""
from ..engine.jaxload import jcore as _jcore, ArrayImpl

from ..engine import lazy, tracing
from ..array import write
from ..numerics.fperr import errcheck as _errcheck
from ..engine import fpcheck
from ..array.ndarray import ndarray

_EXACT_INT = 2**53  # Python ints the fast path takes lie within it (``fast_key``)


def fast_key(a):
    """What the ufunc fast path keys a call on: a tnp array's dtype, the type of a Python float
    or complex; for a Python int, what decides NumPy's loop and errors (NEP 50: a weak scalar,
    whose value decides only whether it fits the other operands' dtype: OverflowError, or a
    constant comparison): ``int`` in [0, 128), where it fits every dtype; else, for |a| < 2**53
    (exact in float64, the slow path's conversion for a float loop), the bit length of ``a``, or
    ``-1 -`` that of ``~a`` when negative (a signed dtype of n bits holds ``a`` when that length
    is under n, an unsigned one when ``a`` is not negative and its length at most n); None for
    anything else."""
    t = type(a)
    if t is ndarray:
        return a._dtype
    if t is float or t is complex:
        return t
    if t is int:
        if 0 <= a < 128:
            return int
        if 0 < a < _EXACT_INT:
            return a.bit_length()
        if -_EXACT_INT < a < 0:
            return -1 - (~a).bit_length()
    return None


def record_node(kernel, args, core=False):
    """The pending node of ``kernel`` on ``args`` (``lazy``), or None (under a JAX trace, or an
    operand that cannot be recorded)."""
    if not isinstance(tracing.current_trace(), _jcore.EvalTrace):
        return None
    return lazy.record(kernel, [lazy.read(a) if type(a) is ndarray else a for a in args], core)


def device_call(uf):
    """The device part of ``uf.__call__``, made once per ufunc: the hot path, else the slow
    path (``uf._call``: NEP 13, dtype resolution, ``out=``/``where=``, error checks)."""
    nin, nout, fast = uf._np.nin, uf._np.nout, uf._fast
    gufunc = uf._core is not None

    def call(*args, **kwargs):
        # The hot path: tnp arrays only, no keywords, a loop seen before (``_fast``, filled by
        # ``_call``) and no error state to check: one dict lookup and the compiled kernel.
        if not kwargs and len(args) == nin:
            kernel = fast.get(tuple(map(fast_key, args)))
            if kernel is not None and _errcheck.modes() is None:
                if lazy.on and nout == 1:  # recorded: a new root holding its node
                    node = record_node(kernel, args, gufunc)
                    if node is not None:
                        return lazy.adopt(ndarray._wrap(node))
                # not recorded (two results): the lazy modes' flags from the call's own kernel
                watch = fpcheck.state(kernel.fp_check) if lazy.on else None  # (TNP_LAZY=0:
                try:  # 'raise' only)
                    xs = [a._value if type(a) is ndarray else a for a in args]
                    results, found = (kernel if watch is None else kernel.checked())(*xs)
                except (TypeError, ValueError, IndexError, OverflowError):  # mismatched shapes,
                    return uf._call(*args)  # an int past the dtype: NumPy's error
                if watch is not None:
                    fpcheck.eager(watch, found)
                if nout == 1:
                    return ndarray._wrap(results[0])
                return tuple(ndarray._wrap(r) for r in results)
        return uf._call(*args, **kwargs)
    return call


def record_inplace(uf, target, other):
    """``target op= other`` recorded lazily (``lazy``) when the target is writeable, on the
    device, and the call's loop, seen before, gives the target's dtype and shape (no cast,
    no broadcast of the target): its root then holds a pending node (``write``). Returns
    whether it did; the caller holds the root's lock."""
    root = target._root
    if (not target._writeable or uf.nout != 1 or uf._core is not None
            or _errcheck.modes() is not None
            or type(root._buf) is not lazy.Node and type(root._buf) is not ArrayImpl):
        return False
    kernel = uf._fast.get((fast_key(target), fast_key(other)))
    if kernel is None:
        return False
    node = record_node(kernel, (target, other))
    if node is None or node.dtype != target._dtype or node.shape != target._shape:
        return False
    write.rebind_pending(target, node)
    node = None  # a flush outputs the nodes held outside its graph: this one is not
    lazy.bound(root)
    return True
