"""NumPy's floating-point warnings for lazily fused graphs: one flag per flushed graph, the
warnings delivered when the program next observes a value.

A recorded operation that can meet a floating-point error in a non-'raise' error state
('warn', NumPy's default, 'print', 'log', 'call'; 'raise' runs eagerly, ``numerics/fperr``)
carries a check (``numerics.fperr.Check``) and the error state of its statement (NumPy's
error state object, a context variable: an operation recorded inside ``errstate(divide=
'ignore')`` stays silent whenever it is flushed). A flushed graph with checks computes one
extra boolean output (``flag``): a non-finite float result among its outputs, an integer
division's zero divisor (or minimum by -1), a float cast to an integer out of range. The flush
does not read it (``pending``): every named sync point (``syncs.record``: printing,
``__array__``, scalar conversion, ``item``, a bound or mask read...) delivers the flags of the
graphs already done once the value it reads is computed (``deliver``: those it was computed
from among them; a graph still running waits for a later sync point), a warnings block's entry
and exit every flag of the work its thread recorded (``warnblocks``), the program's exit every
flag, waiting for its graph; and each flush drops the records whose flag is ready and false
(``poll``, no wait). A record holds its graph's leaves (all but those the flush donated) until
then, so that a set flag can be replayed exactly; only a set flag costs more: the graph's
operations are evaluated again from its leaves (eagerly, in JAX) and each checked one is run by
NumPy itself on its host operands, under its recorded error state, in the order recorded
(``Check.replay``): NumPy's categories, messages and modes, a warning placed at the program's
line that observed the value. A leaf the record no longer has (donated to an in-place result)
leaves the operations reading it to ``Check.guess`` (categories from the result). What the
flag cannot see: an error whose non-finite value does not reach an output of the graph
(``1/(1 + exp(-x))`` with ``exp`` overflowing: the result is 0).
"""
import atexit
import os
import sys
import threading
import warnings
import weakref

import numpy as np
from numpy._core._ufunc_config import _extobj_contextvar as _extobj  # NumPy's errstate holder

from .. import settings
from .jaxload import ArrayImpl

_PENDING = []  # records of flushed graphs whose flag is not yet read (``_Record``)
_LOCK = threading.Lock()
_OWN_DIRS = tuple(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))) + os.sep + d + os.sep for d in ("tnp", "tnp_ext"))
_DELIVERING = threading.local()


def user_stacklevel():
    """``warnings.warn``'s stacklevel, from its caller, of the program's innermost frame
    outside tnp (where NumPy's warning would point)."""
    f, level = sys._getframe(1), 1
    while f is not None and f.f_code.co_filename.startswith(_OWN_DIRS):
        f, level = f.f_back, level + 1
    return level


_QUIET = {}  # NumPy's error state object -> whether every category is 'ignore'
ON = [True]  # ``settings``' TNP_FP_WARNINGS


def _setting(name, value):
    ON[0] = bool(value)


settings.watch(_setting, "fp_warnings")


def state(check):
    """``(check, the current error state)`` for a node being recorded with ``check``, or None
    when there is none or the state ignores every category."""
    if check is None or not ON[0]:
        return None
    st = _extobj.get()
    q = _QUIET.get(st)
    if q is None:
        if len(_QUIET) > 64:
            _QUIET.clear()
        q = _QUIET[st] = all(m == "ignore" for m in np.geterr().values())
    return None if q else (check, st)


def flag(checks, outs, operands, values):
    """The graph's flag (inside its traced computation): the OR of its checked nodes'
    ``Check.flag`` (``checks``: per node None or its check; ``outs``: the output
    positions; ``operands(k)``: node k's operand values; ``values``: the nodes' values), or
    None when none checks anything."""
    found = None
    outs = frozenset(outs)
    for k, c in enumerate(checks):
        if c is not None:
            f = c.flag(operands(k), values[k], k in outs)
            if f is not None:
                found = f if found is None else found | f
    return found


class _Record:
    """A flushed graph's flag and what its replay needs: its wiring, its leaves (the donated
    ones held weakly), its checks, and its outputs' values (weakly) by node position;
    ``threads``: the identities of the threads that recorded its checks."""
    __slots__ = ("flag", "wiring", "leaves", "checks", "outputs", "threads")


def _weak(x):
    """An array held weakly (a ``weakref``), any other value as it is (a tuple)."""
    return weakref.ref(x) if isinstance(x, (ArrayImpl, np.ndarray)) else (x,)


def _strong(held):
    """``_weak``'s value (or a value held as ``(value,)``), or ``_GONE`` for an array freed or
    donated since."""
    if type(held) is tuple:
        x = held[0]
    else:
        x = held()
        if x is None:
            return _GONE
    return _GONE if type(x) is ArrayImpl and x.is_deleted() else x


_GONE = object()


def pending(found, wiring, leaves, checks, outputs, threads, donated=()):
    """Keep a flushed graph's flag ``found`` (a device boolean; for an eager call, its four
    categories and no ``wiring``) until it is read; its leaves (weakly those at the positions
    ``donated``: their buffers are the outputs') and its outputs (weakly); ``threads``: those
    that recorded its checks."""
    rec = _Record()
    rec.flag, rec.wiring, rec.checks, rec.threads = found, wiring, checks, threads
    rec.leaves = [_weak(x) if i in donated else (x,) for i, x in enumerate(leaves)]
    rec.outputs = {k: _weak(v) for k, v in outputs.items()}
    with _LOCK:
        _PENDING.append(rec)


def eager(watch, found):
    """Keep the categories ``found`` of a ufunc call run eagerly while lazy fusion is on (not
    recorded: ``out=``, ``where=``, two results): ``watch`` is ``state``'s value when the call
    began, ``found`` the (divide, over, under, invalid) vector its own kernel computed
    (``fperr.call_flags``: no second kernel, and no operand held, so a write may still donate
    them), given by ``Check.emit`` in the recorded state. Nothing is kept under a trace."""
    if type(found) is not ArrayImpl and type(found) is not np.ndarray:
        return
    poll()
    pending(found, None, (), [watch], {}, (threading.get_ident(),))


def poll():
    """Drop the pending records whose flag is computed and false (no wait): a loop that never
    reads a value keeps only the leaves of graphs still running or that will warn."""
    if _PENDING:
        with _LOCK:
            _PENDING[:] = [r for r in _PENDING
                           if not (_ready(r.flag) and not np.asarray(r.flag).any())]


def _ready(x):
    try:
        return x.is_ready()
    except AttributeError:  # a NumPy value (the NumPy tier)
        return True


def deliver(read=None, own=False):
    """Give NumPy's warnings of the set flags (``_replay``), in the order flushed. At a sync
    point to the host (``lazy.sync``) ``read`` is the value the program reads, computed first:
    it is waited for (the read would wait for it), and then only the graphs already done are
    delivered, which include every graph it was computed from (a graph's flag is an output of
    its own execution, ready with the others), without waiting for graphs still running (their
    warnings wait for a later sync point). With ``own`` (a warnings block's edge,
    ``warnblocks``) every flag of the work the current thread recorded is read, waiting for its
    graph; with neither (the program's exit, a test's end) every flag."""
    if not _PENDING or delivering():
        return
    if read is not None:
        _wait(read)
    me = threading.get_ident()
    with _LOCK:
        if own:
            recs = [r for r in _PENDING if me in r.threads]
        elif read is not None:
            recs = [r for r in _PENDING if _ready(r.flag)]
        else:
            recs = _PENDING[:]
        if len(recs) == len(_PENDING):
            del _PENDING[:]
        else:
            taken = set(map(id, recs))
            _PENDING[:] = [r for r in _PENDING if id(r) not in taken]
    _DELIVERING.on = True
    try:
        for i, rec in enumerate(recs):
            found = np.asarray(rec.flag)
            if found.any():
                try:
                    _replay(rec, found)
                except BaseException:
                    with _LOCK:
                        _PENDING[:0] = recs[i + 1:]
                    raise
    finally:
        _DELIVERING.on = False


def delivering():
    """Whether this thread is giving warnings now (``deliver``: NumPy's replay runs)."""
    return getattr(_DELIVERING, "on", False)


def _wait(x):
    """Wait until the device value ``x`` is computed (a deleted one, or any other value, at
    once)."""
    if type(x) is ArrayImpl and not x.is_deleted():
        x.block_until_ready()


def _replay(rec, found):
    """The graph's operations evaluated again (JAX, eagerly) and each checked one run by NumPy
    under its recorded error state; an operation with an operand gone, ``Check.guess``; an
    eager call's categories ``found`` given as they are (``Check.emit``)."""
    if rec.wiring is None:
        check, st = rec.checks[0]
        tok = _extobj.set(st)
        try:
            check.emit(tuple(bool(f) for f in found))
        finally:
            _extobj.reset(tok)
        return
    leaves = [_strong(x) for x in rec.leaves]
    vals = []

    def get(i):
        if type(i) is tuple:  # a view read: lenses, base, offsets
            base = get(i[1])
            return _GONE if base is _GONE else i[0](base, leaves[i[2]])
        return vals[-1 - i] if i < 0 else leaves[i]
    last = max(k for k, c in enumerate(rec.checks) if c is not None)
    for k, (fn, w) in enumerate(rec.wiring[:last + 1]):
        xs = [get(i) for i in w]
        known = all(x is not _GONE for x in xs)
        vals.append(fn(*xs) if known else _GONE)
        c = rec.checks[k]
        if c is None:
            continue
        check, state = c
        tok = _extobj.set(state)
        try:
            if known:
                host = [np.asarray(x) if isinstance(x, ArrayImpl) else x for x in xs]
                _numpy_warnings(check.replay, host)
            else:
                out = rec.outputs.get(k)
                r = _GONE if out is None else _strong(out)
                if r is not _GONE:
                    check.guess([None if x is _GONE else np.asarray(x)
                                 if isinstance(x, ArrayImpl) else x for x in xs], r)
        finally:
            _extobj.reset(tok)


def _numpy_warnings(run, xs):
    """``run(*xs)`` (NumPy), its floating-point RuntimeWarnings given again at the program's
    line (NumPy's own would point into tnp); its prints, logs and calls are NumPy's."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(*xs)
    for w in caught:
        if issubclass(w.category, RuntimeWarning) and " encountered in " in str(w.message):
            warnings.warn(w.message, w.category, stacklevel=user_stacklevel())
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


atexit.register(deliver)
