"""Input and output in NumPy's own formats (.npy, .npz, text, raw binary, pickle).

Files are read and written by NumPy itself, so they are interchangeable with NumPy both ways:
arrays are copied from the device to write them (a sync point) and loaded arrays become tnp arrays
placed by ``tiers.new_root`` (NumPy-only dtypes on the host; masked arrays stay NumPy's).
"""
import collections.abc
import functools
import inspect

import numpy as np
from numpy.lib._npyio_impl import BagObj

from .._core.dispatch.fallback import from_numpy_tree, to_numpy_tree
from .._core.dispatch.np_doc import np_doc
from .._core.engine import distributed

__all__ = ["save", "load", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
           "fromfile", "fromregex"]


def _host_io(numpy_fn, notes):
    """NumPy's ``numpy_fn`` with NumPy's signature: tnp arrays in go to the host, arrays out
    come back as tnp arrays."""
    @functools.wraps(numpy_fn)
    def fn(*args, **kwargs):
        return from_numpy_tree(numpy_fn(*to_numpy_tree(args), **to_numpy_tree(kwargs)),
                               (args, kwargs))
    fn.__module__ = __name__
    fn.__signature__ = inspect.signature(numpy_fn)
    del fn.__wrapped__
    return np_doc(numpy_fn, notes=notes)(fn)


def _host_writer(numpy_fn, notes):
    """NumPy's writer ``numpy_fn`` (its file the first argument) with NumPy's signature: the
    arrays go to the host and NumPy writes them; in a run of several processes (``python -m tnp
    run --processes``) every process gathers them and process 0 alone writes the file."""
    file_arg = next(iter(inspect.signature(numpy_fn).parameters))

    @functools.wraps(numpy_fn)
    def fn(*args, **kwargs):
        args, kwargs = to_numpy_tree(args), to_numpy_tree(kwargs)
        if args:
            file, args = args[0], args[1:]
        elif file_arg in kwargs:
            file = kwargs.pop(file_arg)
        else:
            return numpy_fn(*args, **kwargs)  # (NumPy's error: no file)
        with distributed.file_for_writer(file) as f:
            return numpy_fn(f, *args, **kwargs)
    fn.__module__ = __name__
    fn.__signature__ = inspect.signature(numpy_fn)
    del fn.__wrapped__
    return np_doc(numpy_fn, notes=notes + " In a run of several processes, process 0 writes "
                  "the file.")(fn)


save = _host_writer(np.save, "The array is copied from the device and written by NumPy.")
savez = _host_writer(np.savez, "The arrays are copied from the device and written by NumPy.")
savez_compressed = _host_writer(np.savez_compressed,
                                "The arrays are copied from the device and written by NumPy.")
savetxt = _host_writer(np.savetxt, "The array is copied from the device and written by NumPy.")
loadtxt = _host_io(np.loadtxt, "Parsed by NumPy on the host.")
genfromtxt = _host_io(np.genfromtxt, "Parsed by NumPy on the host (masked results stay NumPy's).")
fromfile = _host_io(np.fromfile, "Read by NumPy on the host.")
fromregex = _host_io(np.fromregex, "Parsed by NumPy on the host.")


class NpzFile(collections.abc.Mapping):
    """NumPy's ``NpzFile`` (lazy, a context manager) whose members load as tnp arrays."""

    def __init__(self, npz):
        self._npz = npz
        self.files = npz.files
        self.f = BagObj(self)

    def __getitem__(self, key):
        return from_numpy_tree(self._npz[key], ())

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


@np_doc(np.load, host_tier=False, notes="``mmap_mode`` maps the file as in NumPy, but the data "
        "is then copied (read-only with 'r', as NumPy's map), so writes to the result do not "
        "reach the file. An .npz file gives an NpzFile whose members are tnp arrays.")
def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    out = np.load(file, mmap_mode, allow_pickle, fix_imports, encoding,
                  max_header_size=max_header_size)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out)
    if isinstance(out, np.memmap):
        out = np.asarray(out)  # a view of the map: copied by ``new_root``
    return from_numpy_tree(out, ())
