"""Iterating over arrays: ndindex, ndenumerate, nditer.

``ndenumerate`` and ``nditer`` are sync points: the operands come to the host once, NumPy's own
iterator walks them, and what was written into readwrite/writeonly operands (and the operands
``nditer`` allocated) goes back to the tnp arrays through the one write path when the iteration
ends, when the ``with`` block exits, or at ``close()``. A host-tier operand that ``nditer`` only
reads is iterated in place (it sees writes made after the iterator was created, as NumPy's does).
"""
import numpy as np

from .._core.array import write
from .._core.array.ndarray import ndarray
from .._core.dispatch.np_doc import np_doc
from .creation import asarray

__all__ = ["ndindex", "ndenumerate", "nditer"]


@np_doc(np.ndindex)
class ndindex(np.ndindex):
    """NumPy's index generator (pure Python over a shape: no array data involved)."""


@np_doc(np.ndenumerate, notes="Sync point: the array comes to the host once; values are NumPy "
                              "scalars, as NumPy yields them.")
class ndenumerate:
    def __init__(self, arr):
        self._it = np.ndenumerate(np.asarray(asarray(arr)))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


def _writes(op_flags, n):
    if op_flags is None:
        return [False] * n
    flags = [op_flags] * n if op_flags and isinstance(op_flags[0], str) else list(op_flags)
    return [any(f in ("readwrite", "writeonly") for f in fl) for fl in flags]


def _operand(o, written):
    """What NumPy's nditer iterates for ``o``: a host-tier array it only reads is its own memory
    (NumPy's read-only view: the iteration sees later writes, as NumPy's does); anything else a
    host copy (written back through the one write path)."""
    if not isinstance(o, ndarray):
        return np.asarray(o)
    return o._host() if o._on_host and not written else o.__array__()


@np_doc(np.nditer, notes="Sync point: operands are iterated on the host by NumPy's nditer and "
                         "written back to the tnp arrays when the iteration ends or closes.")
class nditer:
    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", op_axes=None, itershape=None, buffersize=0):
        single = not isinstance(op, (list, tuple))
        ops = [op] if single else list(op)
        self._orig = ops
        self._write = _writes(op_flags, len(ops))
        host = [None if o is None else _operand(o, w) for o, w in zip(ops, self._write)]
        for o, w in zip(ops, self._write):
            if w and isinstance(o, ndarray) and not o.flags.writeable:
                raise ValueError("operand array with iterator write flag set is read-only")
        self._it = np.nditer(host if not single else host[0], flags, op_flags, op_dtypes, order,
                             casting, op_axes, itershape, buffersize)
        self._synced = False

    def _sync(self):
        if self._synced:
            return
        self._synced = True
        for i, (o, w) in enumerate(zip(self._orig, self._write)):
            if w and isinstance(o, ndarray):
                write.assign(o, self._it.operands[i])

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._it)
        except StopIteration:
            self._sync()
            raise

    def __enter__(self):
        self._it.__enter__()
        return self

    def __exit__(self, *exc):
        self._sync()
        self._it.__exit__(*exc)

    def close(self):
        self._sync()
        self._it.close()

    def iternext(self):
        more = self._it.iternext()
        if not more:
            self._sync()
        return more

    @property
    def operands(self):
        self._sync()
        return tuple(o if isinstance(o, ndarray) else asarray(h)
                     for o, h in zip(self._orig, self._it.operands))

    def __getattr__(self, name):
        return getattr(self._it, name)

    def __len__(self):
        return len(self._it)

    def __getitem__(self, i):
        return self._it[i]

    def __setitem__(self, i, value):
        self._it[i] = value
