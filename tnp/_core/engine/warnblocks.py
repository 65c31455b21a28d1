"""NumPy's floating-point warnings of pending device work given at the edges of a warnings
block, so that they land inside it: ``warnings.catch_warnings`` (``pytest.warns`` and pytest's
recorder subclass it) at its entry and exit, ``numpy.errstate`` (tnp's ``errstate`` is NumPy's
class) at its exit, as a ``with`` block or a decorator, where it gives a callback or a
category 'call', 'print' or 'log'.

NumPy warns at the operation. On the device tier a recorded operation's check is computed in its
fused graph and its warnings are given at the next sync point (``fpcheck``), so a block that
records work and reads nothing would end before them, and they would come later under other
filters. At an edge (``edge``), the graphs holding checks that the current thread recorded are
flushed (``lazygraph.flush_checked``, reason "warnings") and every flag of the thread's work is
read, waiting (``fpcheck.deliver(own=True)``): the same delivery as a sync point's, before the
block restores (at its exit) or replaces (at a ``catch_warnings`` entry: work recorded before
the block warned before it in NumPy) the filters. An ``errstate`` entry needs nothing: each
recorded operation keeps the error state of its statement. An ``errstate`` exit delivers where
the block gave a callback, a log or prints (their calls are made by the block's end), not for
'warn' and 'ignore': the filters do not change at its edges, so a warning has the same fate at
the next sync point or ``catch_warnings`` edge, and a loop with an ``errstate(divide='ignore')``
block per step keeps its fused graph (a flush per block costs 5-9x on such a loop).

The edge is a test of two containers when nothing is pending (no checked graph, no unread
flag: tens of nanoseconds), and is skipped for the blocks of tnp's, NumPy's and JAX's own code
(their internal ``errstate(all='ignore')``, NumPy's replay in ``fpcheck``) and inside the lazy
engine (its lock held: a flush). A thread's block delivers that thread's work only: NumPy's
error state is per thread, and another thread's work warns at that thread's sync points and
blocks.

The hooks wrap the standard library's and NumPy's methods at ``import tnp`` (``install``,
called by ``lazy``); with nothing pending they call the originals and do nothing else, so
``warnings`` and ``errstate`` behave for other code as before.

Why the standard library's class: the block is what the program marks, and ``catch_warnings``
is the one class every such block is (pytest's recorders subclass it; a program's own blocks
use it). The alternatives give less: a sync per checked operation ('warn' at the statement)
gives up lazy fusion; ``warnings.showwarning`` runs only once a warning is emitted (the missing
event); a trace or audit hook sees no block exit and costs every line.
"""
import functools
import os
import sys
import threading
import warnings

import numpy as np
from numpy._core._ufunc_config import _Unspecified  # errstate's "no callback given"

from . import fpcheck, lazygraph

_SKIP_DIRS = fpcheck._OWN_DIRS + (os.path.dirname(os.path.abspath(np.__file__)) + os.sep,)
_SKIP_PACKAGES = (os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep)  # (not imported yet)
# what is pending, tested by the hooks (C-level truth tests; both containers are mutated in
# place, never rebound): the dict under ``lazygraph.CHECKED`` and ``fpcheck``'s records
_GRAPHS, _RECORDS = lazygraph.CHECKED.data, fpcheck._PENDING
_EFFECTS = frozenset({"call", "print", "log"})


def _effects(block):
    """Whether the ``errstate`` ``block`` gives a callback or a mode that calls, prints or logs
    (its exit delivers; an inner block inheriting them leaves it to the block giving them)."""
    return (block._call is not _Unspecified or block._all in _EFFECTS or block._divide in _EFFECTS
            or block._over in _EFFECTS or block._under in _EFFECTS
            or block._invalid in _EFFECTS)


def edge(filename):
    """At a warnings block's edge in code of the file ``filename``, something pending: the
    current thread's pending floating-point warnings given (module docstring)."""
    if (fpcheck.delivering() or lazygraph.LOCK._is_owned() or filename.startswith(_SKIP_DIRS)
            or any(p in filename for p in _SKIP_PACKAGES)):
        return
    lazygraph.flush_checked(threading.get_ident())
    fpcheck.deliver(own=True)


def install():
    """Wrap ``catch_warnings.__enter__``/``__exit__`` and ``errstate.__exit__``/``__call__``
    (once); each calls ``edge`` only when something is pending (and ``errstate``'s only for a
    block that calls, prints or logs: ``_effects``)."""
    cw, es = warnings.catch_warnings, np.errstate
    if getattr(cw.__exit__, "tnp_edge", False):
        return
    enter, exit_, es_exit, es_call = cw.__enter__, cw.__exit__, es.__exit__, es.__call__

    @functools.wraps(enter)
    def catch_enter(self):
        if _GRAPHS or _RECORDS:
            edge(sys._getframe(1).f_code.co_filename)
        return enter(self)

    @functools.wraps(exit_)
    def catch_exit(self, *exc_info):
        try:
            if _GRAPHS or _RECORDS:
                edge(sys._getframe(1).f_code.co_filename)
        finally:
            exit_(self, *exc_info)

    @functools.wraps(es_exit)
    def errstate_exit(self, *exc_info):
        try:
            if (_GRAPHS or _RECORDS) and _effects(self):
                edge(sys._getframe(1).f_code.co_filename)
        finally:
            es_exit(self, *exc_info)

    @functools.wraps(es_call)
    def errstate_call(self, func):
        where = getattr(getattr(func, "__code__", None), "co_filename", "")

        @functools.wraps(func)
        def delivered(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            finally:
                if (_GRAPHS or _RECORDS) and _effects(self):
                    edge(where)
        return es_call(self, delivered)

    for f in (catch_enter, catch_exit, errstate_exit, errstate_call):
        f.tnp_edge = True
    cw.__enter__, cw.__exit__ = catch_enter, catch_exit
    es.__exit__, es.__call__ = errstate_exit, errstate_call
