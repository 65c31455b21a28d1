"""NumPy's elementwise loops over large host arrays, split across the machine's cores.

NumPy runs a ufunc's loop on one core. On the host tier (``host.operands``), a ufunc call
whose array operands are C-contiguous, of one shape, of numeric dtypes and at least a piece's
worth of elements per thread runs NumPy's own loop on contiguous pieces of them on ``THREADS``
threads at once (NumPy releases the GIL in its numeric loops), writing into results allocated
with the dtypes NumPy's loop gives (resolved on one element of each operand). The work is
elementwise, so every value is NumPy's whatever the split. A piece is ``MIN_PIECE`` elements
for a cheap loop (a comparison, a product: memory-bound) and ``MIN_PIECE_COSTLY`` for a loop
that computes for each element (``costly``: a transcendental function, a complex operand, an
integer division), where the hand-off is paid back sooner.

Floating-point errors: the pieces run with each category the caller's error state does not
ignore in NumPy's mode 'call' (recorded, not acted on). When one is recorded the call runs
again whole, on the calling thread, under the caller's error state: warnings, errors,
callbacks and 'print'/'log' output are NumPy's own, once.

``each_piece`` runs the pieces (``host_pieces`` hands it the pieces of masked steps too): the
first on the calling thread, each other on a thread of its own started at the first split,
whose queue runs what it is handed in order. ``cpu_seconds`` is the CPU time those threads
spent (the placement's warm-up, ``tiers.large_on_host``, takes it out of the program's time:
a split call is one call's work done sooner, not more of the program's time).

``TNP_HOST_THREADS`` (``settings``) sets the threads: 0, the default, is the cores this
process may run on; 1 turns the split off.
"""
import os
import threading
import time

import numpy as np

from .. import settings

MIN_PIECE = 1 << 20  # elements per piece: below it a cheap loop (a comparison, a product) loses
# more to the hand-off and the pieces' page faults than it gains (benchmarks/cases/host_threads.py)
MIN_PIECE_COSTLY = 1 << 18  # the same for a loop that computes (``costly``)
_COSTLY_LOOPS = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh",
    "tanh", "arcsinh", "arccosh", "arctanh", "power", "float_power", "cbrt", "floor_divide",
    "remainder", "fmod", "divmod"})
_NUMERIC = frozenset("biufc")
THREADS = 1
SPLIT_AT = float("inf")  # the smallest call split: two costly pieces' worth, with two threads
_workers = []  # the threads, each with its queue of pieces (made at the first split)
_clocks = []  # each thread's CPU seconds ([seconds]: set as each piece it ran ends)
_WORKERS_LOCK = threading.Lock()


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (no affinity on macOS and Windows)
        return os.cpu_count() or 1


def _setting(name, value):
    global THREADS, SPLIT_AT
    THREADS = value if value > 0 else _cores()
    SPLIT_AT = 2 * MIN_PIECE_COSTLY if THREADS > 1 else float("inf")


settings.watch(_setting, "host_threads")


class _Piece:
    """A piece of work handed to a thread; ``wait`` gives its result (or raises its error)."""
    __slots__ = ("fn", "result", "error", "done")

    def __init__(self, fn):
        self.fn, self.result, self.error = fn, None, None
        self.done = threading.Lock()
        self.done.acquire()

    def run(self, clock):
        """Run it on a thread of ``_workers``: ``clock``, the thread's CPU seconds, is set
        before the caller's ``wait`` returns."""
        try:
            self.result = self.fn()
        except BaseException as e:  # (raised in the caller's thread by ``wait``)
            self.error = e
        finally:
            clock[0] = time.thread_time()
            self.done.release()

    def wait(self):
        self.done.acquire()
        if self.error is not None:
            raise self.error
        return self.result


def _serve(tasks, clock):
    while True:
        tasks.get().run(clock)


def cpu_seconds():
    """The CPU seconds the threads spent running pieces so far."""
    return sum(c[0] for c in _clocks)


def _queues(n):
    """The queues of ``n`` threads, started when first needed (``import tnp`` starts none; a
    thread runs its queue's pieces in order, so that the threads' hand-off costs no more than a
    lock: ``concurrent.futures`` would import ``logging``, 2 ms of a program's start)."""
    if len(_workers) < n:
        import queue  # (not at ``import tnp``: NumPy's start imports no queue either)
        with _WORKERS_LOCK:
            while len(_workers) < n:
                tasks, clock = queue.SimpleQueue(), [0.0]
                threading.Thread(target=_serve, args=(tasks, clock), name="tnp-host",
                                 daemon=True).start()
                _workers.append(tasks)
                _clocks.append(clock)
    return _workers


def _forget_threads():
    """In a forked child the threads do not exist: new ones at the next split."""
    _workers.clear()
    _clocks.clear()


if hasattr(os, "register_at_fork"):  # (POSIX: Windows has no fork)
    os.register_at_fork(after_in_child=_forget_threads)


def costly(ufunc, vals):
    """Whether ``ufunc``'s loop over ``vals`` computes for each element (a transcendental
    function, an integer division, a complex operand) rather than moving memory."""
    return ufunc.__name__ in _COSTLY_LOOPS or any(
        type(v) is np.ndarray and v.dtype.kind == "c" or type(v) is complex for v in vals)


def pieces(size, costly=False):
    """How many pieces a call over ``size`` elements is split into (1: not split)."""
    return min(THREADS, size // (MIN_PIECE_COSTLY if costly else MIN_PIECE))


def split_call(ufunc, vals, shape, size):
    """``ufunc(*vals)`` computed in pieces on several threads, or None where the call does not
    qualify (see the module docstring): ``vals`` are NumPy arrays of ``shape`` (``size``
    elements) and Python scalars."""
    if ufunc.signature is not None or type(ufunc) is not np.ufunc:
        return None
    k = pieces(size, costly(ufunc, vals))
    if k < 2:
        return None
    flat = []
    for v in vals:
        if type(v) is np.ndarray:
            if v.dtype.kind not in _NUMERIC or not v.flags.c_contiguous:
                return None
            v = v.reshape(-1)
        flat.append(v)
    with np.errstate(all="ignore"):  # the result dtypes, from NumPy's loop on one element
        probe = ufunc(*(v[:1] if type(v) is np.ndarray else v for v in flat))
    probe = probe if type(probe) is tuple else (probe,)
    if any(type(p) is not np.ndarray or p.dtype.kind not in _NUMERIC for p in probe):
        return None
    outs = tuple(np.empty(shape, p.dtype) for p in probe)
    flat_outs = tuple(o.reshape(-1) for o in outs)
    bounds = [size * i // k for i in range(k + 1)]

    def piece(i):
        lo, hi = bounds[i], bounds[i + 1]
        ufunc(*(v[lo:hi] if type(v) is np.ndarray else v for v in flat),
              out=tuple(o[lo:hi] for o in flat_outs))
    if each_piece(piece, k)[1]:  # NumPy's own reporting: the call again, whole, in the
        return ufunc(*vals)  # caller's error state
    return outs if len(outs) > 1 else outs[0]


def each_piece(fn, k, threads=True):
    """``[fn(0), ..., fn(k - 1)]`` computed on ``k`` threads at once (``fn(0)`` on the calling
    one; one after another on it where not ``threads``), each under the caller's error state
    with every category it does not ignore recorded (NumPy's mode 'call') rather than acted
    on; returns the results and whether an error was recorded (the caller then computes
    again, whole, for NumPy's own reporting, once)."""
    watched = {c: "ignore" if m == "ignore" else "call" for c, m in np.geterr().items()}
    errors = []

    def piece(i):
        with np.errstate(call=lambda kind, flag: errors.append(kind), **watched):
            return fn(i)
    if not threads:
        return [piece(i) for i in range(k)], bool(errors)
    queues = _queues(k - 1)
    handed = [_Piece(lambda i=i: piece(i)) for i in range(1, k)]
    for q, p in zip(queues, handed):
        q.put(p)
    try:
        first = piece(0)
    finally:
        rest = [p.wait() for p in handed]
    return [first, *rest], bool(errors)
