"""Input and output in NumPy's own formats (.npy, .npz, text, raw binary, pickle).

Files are read and written by NumPy itself, so they are interchangeable with NumPy both ways:
arrays are copied from the device to write them (a sync point) and loaded arrays of the dtypes
tnp holds are put on the device; anything else (object, str, structured data) stays NumPy's.
"""
import collections.abc
import functools
import inspect

import jax
import numpy as np
from numpy.lib._npyio_impl import BagObj

from .._core import dtypes
from .._core.fallback import to_numpy_tree
from .._core.ndarray import ndarray
from .._core.np_doc import np_doc

__all__ = ["save", "load", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
           "fromfile", "fromregex"]


def _to_tnp(x):
    """Loaded data as tnp arrays where tnp can hold them (NumPy's objects otherwise)."""
    if isinstance(x, np.ndarray) and not isinstance(x, np.ma.MaskedArray) \
            and x.dtype in dtypes.SUPPORTED:
        return ndarray._wrap(jax.device_put(np.asarray(x)))
    if type(x) in (list, tuple):
        return type(x)(_to_tnp(v) for v in x)
    return x


def _host_io(numpy_fn, notes):
    """NumPy's ``numpy_fn`` with NumPy's signature: tnp arrays in go to the host, arrays out
    come back as tnp arrays."""
    @functools.wraps(numpy_fn)
    def fn(*args, **kwargs):
        return _to_tnp(numpy_fn(*to_numpy_tree(args), **to_numpy_tree(kwargs)))
    fn.__module__ = __name__
    fn.__signature__ = inspect.signature(numpy_fn)
    del fn.__wrapped__
    return np_doc(numpy_fn, notes=notes)(fn)


save = _host_io(np.save, "The array is copied from the device and written by NumPy.")
savez = _host_io(np.savez, "The arrays are copied from the device and written by NumPy.")
savez_compressed = _host_io(np.savez_compressed,
                            "The arrays are copied from the device and written by NumPy.")
savetxt = _host_io(np.savetxt, "The array is copied from the device and written by NumPy.")
loadtxt = _host_io(np.loadtxt, "Parsed by NumPy on the host; the result is put on the device.")
genfromtxt = _host_io(np.genfromtxt, "Parsed by NumPy on the host; numeric results are put on "
                      "the device (masked and structured results stay NumPy's).")
fromfile = _host_io(np.fromfile, "Read by NumPy on the host; the result is put on the device.")
fromregex = _host_io(np.fromregex, "Parsed by NumPy on the host; numeric results are put on the "
                     "device (structured results stay NumPy's).")


class NpzFile(collections.abc.Mapping):
    """NumPy's ``NpzFile`` (lazy, a context manager) whose members load as tnp arrays."""

    def __init__(self, npz):
        self._npz = npz
        self.files = npz.files
        self.f = BagObj(self)

    def __getitem__(self, key):
        return _to_tnp(self._npz[key])

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self._npz

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._npz.close()

    def __repr__(self):
        return repr(self._npz)

    def __getattr__(self, name):  # zip, fid, allow_pickle, ... are NumPy's
        return getattr(self._npz, name)


@np_doc(np.load, notes="``mmap_mode`` maps the file as in NumPy, but the data is then copied to "
        "the device, so writes to the result do not reach the file. An .npz file gives an "
        "NpzFile whose members are tnp arrays.")
def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    out = np.load(file, mmap_mode, allow_pickle, fix_imports, encoding,
                  max_header_size=max_header_size)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out)
    return _to_tnp(out)
