"""The dispatch basket: common operations on small arrays, where per-call overhead dominates."""
import jax.numpy as jnp
import numpy as np

import tnp
from benchmarks.runner import Case

N = 1000


def _inputs():
    a = np.linspace(-1.0, 1.0, N)
    b = np.linspace(2.0, 3.0, N)
    m = a.reshape(10, 100)
    idx = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    return {"numpy": (np, a, b, m, idx),
            "jax": (jnp, jnp.asarray(a), jnp.asarray(b), jnp.asarray(m), jnp.asarray(idx)),
            "tnp": (tnp, tnp.asarray(a), tnp.asarray(b), tnp.asarray(m), tnp.asarray(idx))}


def _unread(x):
    """A tnp view as returned, unread: blocking waits for its root's buffer only (a view is
    read by the operation that consumes it). NumPy's and JAX's results are unchanged."""
    return x._root if isinstance(x, tnp.ndarray) else x


OPS = {
    "add": lambda xp, a, b, m, i: a + b,
    "multiply scalar": lambda xp, a, b, m, i: a * 2.0,
    "sin": lambda xp, a, b, m, i: xp.sin(a),
    "less": lambda xp, a, b, m, i: a < b,
    "sum": lambda xp, a, b, m, i: a.sum(),
    "max": lambda xp, a, b, m, i: a.max(),
    "mean axis 0": lambda xp, a, b, m, i: m.mean(axis=0),
    "slice a[2:5]": lambda xp, a, b, m, i: a[2:5],
    "strided a[::3]": lambda xp, a, b, m, i: a[::3],
    "int index a[3]": lambda xp, a, b, m, i: a[3],
    "row m[4]": lambda xp, a, b, m, i: m[4],
    "reshape": lambda xp, a, b, m, i: a.reshape(20, 50),
    "transpose": lambda xp, a, b, m, i: m.T,
    "fancy index": lambda xp, a, b, m, i: a[i],
    "zeros": lambda xp, a, b, m, i: xp.zeros(N),
    "arange": lambda xp, a, b, m, i: xp.arange(N),
    "matvec": lambda xp, a, b, m, i: m @ b[:100],
    "where": lambda xp, a, b, m, i: xp.where(a > 0, a, 0.0),
    # The view-making operations again, their tnp views unread (above, blocking reads them).
    "slice a[2:5], view unread": lambda xp, a, b, m, i: _unread(a[2:5]),
    "strided a[::3], view unread": lambda xp, a, b, m, i: _unread(a[::3]),
    "row m[4], view unread": lambda xp, a, b, m, i: _unread(m[4]),
    "reshape, view unread": lambda xp, a, b, m, i: _unread(a.reshape(20, 50)),
    "transpose, view unread": lambda xp, a, b, m, i: _unread(m.T),
}


class _Floor:
    """The least a Python class wrapping NumPy's arrays pays per call with tnp's invariants: a
    result is a new object of tnp.ndarray's slots holding a read-only NumPy view (the host
    tier's root: only the write path writes its memory). Nothing is checked or placed, so its
    ratio to NumPy is a floor for tnp's host tier on these sizes."""
    __slots__ = tuple(tnp.ndarray.__slots__)

    @classmethod
    def new(cls, r):
        v = r.view()
        v.setflags(write=False)
        w = object.__new__(cls)
        w._buf = v
        w._base = w._rshape = w._hview = w._cache = w._trace = None
        w._lens = w._dyn = ()
        w._shape, w._dtype = v.shape, v.dtype
        w._scalar = w._exported = False
        w._version, w._writeable = 0, True
        return w

    def __add__(self, other):
        return _Floor.new(np.add(self._buf, other._buf))

    def __mul__(self, other):
        return _Floor.new(np.multiply(self._buf, other))

    def __lt__(self, other):
        return _Floor.new(np.less(self._buf, other._buf))

    def __getitem__(self, index):
        return _Floor.new(self._buf[index])

    def sum(self):
        return self._buf.sum()


FLOOR = {
    "add": lambda xp, a, b: a + b,
    "multiply scalar": lambda xp, a, b: a * 2.0,
    "less": lambda xp, a, b: a < b,
    "sum": lambda xp, a, b: a.sum(),
    "slice a[2:5]": lambda xp, a, b: a[2:5],
    "zeros": lambda xp, a, b: xp.zeros(N),
}


def _unwrap(r):
    return r._buf if type(r) is _Floor else r


def _floor_inputs():
    a = np.linspace(-1.0, 1.0, N)
    b = np.linspace(2.0, 3.0, N)
    floor_xp = type("floor", (), {"zeros": staticmethod(lambda n: _Floor.new(np.zeros(n)))})
    return {"numpy": (np, a, b), "floor wrapper": (floor_xp, _Floor.new(a), _Floor.new(b)),
            "tnp": (tnp, tnp.asarray(a), tnp.asarray(b))}


def cases(quick):
    def make(op):
        def build():
            ins = _inputs()
            return {impl: (lambda args=args: op(*args)) for impl, args in ins.items()}
        return build
    def make_floor(op):
        def build():
            fns = {impl: (lambda args=args: op(*args)) for impl, args in _floor_inputs().items()}
            wrapped = fns["floor wrapper"]  # its NumPy array: what ``runner.block`` knows
            fns["floor wrapper"] = lambda: _unwrap(wrapped())
            return fns
        return build
    return ([Case("dispatch", name, N, make(op)) for name, op in OPS.items()]
            + [Case("dispatch floor", name, N, make_floor(op)) for name, op in FLOOR.items()])
