"""Root buffers and their locks: what a reader of a root's buffer needs (``ndarray._value``)
and what the one write path (``write``) builds its thread safety on; the scheme is described in
``write``'s docstring.
"""
import threading

from ..engine.jaxload import ArrayImpl

from ..engine import lazy

N_STRIPES = 64
STRIPES = tuple(threading.RLock() for _ in range(N_STRIPES))


class _Busy:
    """``root._buf`` while a write may donate the buffer: readers wait for the lock."""
    __slots__ = ()

    def __repr__(self):
        return "<tnp: buffer being written>"


BUSY = _Busy()


def lock_of(root):
    """The (re-entrant) lock of a root's buffer."""
    return STRIPES[(id(root) >> 4) % N_STRIPES]


def buffer(root):
    """A reader's ``root._buf``: the fast path of ``ndarray._value`` handles concrete arrays;
    here a pending value (``lazy``) is computed, and a buffer being written (or swapped for
    tracers by another thread) is waited for."""
    b = root._buf
    if type(b) is ArrayImpl:
        return b
    if type(b) is lazy.Node:
        return lazy.force(root)
    lock = lock_of(root)
    if lock._is_owned():  # this thread's own trace (tracers) or write
        return b
    with lock:
        return root._buf
