"""``ndarray.flags`` and ``ndarray.flat`` for tnp arrays."""
from . import write


class Flags:
    """The flags NumPy would report for the same program (tnp data is always C-contiguous)."""

    def __init__(self, arr):
        self._arr = arr

    @property
    def writeable(self):
        return self._arr._writeable

    @writeable.setter
    def writeable(self, value):
        self._arr.setflags(write=value)

    @property
    def owndata(self):
        return self._arr._base is None

    @property
    def c_contiguous(self):
        return _contiguous(self._arr)

    @property
    def f_contiguous(self):
        a = self._arr
        return a.ndim <= 1 and _contiguous(a) or sum(n != 1 for n in a.shape) <= 1 and _contiguous(a)

    aligned = True
    writebackifcopy = False

    def __getitem__(self, key):
        names = {"WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata",
                 "O": "owndata", "C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
                 "CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
                 "F": "f_contiguous", "FORTRAN": "f_contiguous", "ALIGNED": "aligned",
                 "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy"}
        return getattr(self, names[key])

    def __repr__(self):
        return "\n".join(f"  {k.upper()} : {getattr(self, k)}" for k in (
            "c_contiguous", "f_contiguous", "owndata", "writeable", "aligned", "writebackifcopy"))


def _contiguous(a):
    """Whether NumPy's array for the same view chain would be C-contiguous."""
    for kind, static in a._lens:
        if kind == "index":
            _, steps, _ = static
            if any(abs(s) != 1 for s in steps if s):
                return False
        elif kind in ("transpose", "real", "imag", "diagonal", "broadcast"):
            if kind == "transpose" and list(static) == sorted(static):
                continue
            return a.size <= 1
    return True


class FlatIter:
    """``a.flat``: a 1-d view of ``a`` in C order that reads and writes through."""

    def __init__(self, arr):
        self.base = arr

    def _flat(self):
        a = self.base
        return a._view(("reshape", (a.shape, (a.size,))), (), (a.size,))

    def __getitem__(self, index):
        return self._flat()[index]

    def __setitem__(self, index, value):
        write.assign(self._flat(), value, index=index)

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(self._flat())

    def __array__(self, dtype=None, copy=None):
        return self._flat().__array__(dtype, copy)
