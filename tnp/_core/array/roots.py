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
    """A reader's ``root._buf`` when the one it loaded was not a concrete array (the fast path
    of ``ndarray._value`` and the other readers use a concrete ``jax.Array`` loaded once). A
    pending value (``lazy``) is computed; a buffer being written (``BUSY``, or swapped for
    tracers by another thread) is waited for, under the root's lock, and read again: a write
    may leave a pending node (``a += b`` recorded lazily), and a node computed outside the lock
    may be taken by a writer (``BUSY``) before it is returned. A pending value is computed
    without the root's lock: a writer holding its own root's lock may read this root. A host
    root's buffer (``numpy.ndarray``) is returned as it is."""
    b = root._buf
    lock = lock_of(root)
    while type(b) is not ArrayImpl:
        if type(b) is lazy.Node:
            b = lazy.force(root)
        elif lock._is_owned():  # this thread's own trace (tracers) or write
            return b
        else:
            with lock:
                b = root._buf
            if type(b) is not lazy.Node:
                return b
    return b
