"""Grids: meshgrid, mgrid, ogrid, indices, ix_ (jitted kernels with static shapes)."""
import functools
import math
import operator

from .._core.engine.jaxload import jax, jit, jnp
import numpy as np

from .._core.rules import dtypes
from .._core.numerics.casting import cast, numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch import tiers
from .._core.dispatch.np_doc import np_doc
from .creation import arange, asarray, elements

__all__ = ["meshgrid", "mgrid", "ogrid", "indices", "ix_"]


def _sizes(dims, sparse):
    """Sparse grids are aranges (a negative size is empty); dense ones are arrays (an error)."""
    if sparse:
        return tuple(max(d, 0) for d in dims)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    return dims


@functools.partial(jit, static_argnums=(0, 1, 2))
def _indices_kernel(dims, dtype, sparse):
    n = len(dims)
    idx = [jax.lax.broadcasted_iota(dtype, (1,) * i + (d,) + (1,) * (n - i - 1), i)
           for i, d in enumerate(dims)]
    if sparse:
        return tuple(idx)
    if not idx:
        return jnp.zeros((0,), dtype)
    return jnp.stack([jnp.broadcast_to(x, dims) for x in idx])


def _indices_size(dimensions, dtype=int, sparse=False):
    """``indices``' ``result_size``: one array per dimension, each of the grid's shape (sparse:
    of that dimension's length)."""
    dims = tuple(dimensions)
    return elements((sum(dims),)) if sparse else len(dims) * elements(dims)


@np_doc(np.indices, result_size=_indices_size)
def indices(dimensions, dtype=int, sparse=False):
    dims = _sizes(tuple(operator.index(d) for d in dimensions), sparse)
    out = _indices_kernel(dims, dtypes.canonical(dtype).char, bool(sparse))
    return tuple(ndarray._wrap(x) for x in out) if sparse else ndarray._wrap(out)


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _grid_kernel(sizes, steps, starts, dtype, sparse):
    dtype = np.dtype(dtype)
    n = len(sizes)
    out = []
    for i, (size, step, start) in enumerate(zip(sizes, steps, starts)):
        shape = (1,) * i + (size,) + (1,) * (n - i - 1) if sparse else sizes
        rdt = np.result_type(dtype, step, start) if sparse else dtype
        x = numpy_cast(jax.lax.broadcasted_iota(dtype, shape, i), rdt)
        out.append(x * jnp.asarray(step, rdt) + jnp.asarray(start, rdt))
    if sparse:
        return tuple(out)
    return jnp.stack(out) if out else jnp.zeros((0,), dtype)


@functools.partial(jit, static_argnums=(0, 1, 2, 3))
def _line_kernel(length, step, start, dtype):
    return jnp.arange(length, dtype=dtype) * jnp.asarray(step, dtype) + jnp.asarray(start, dtype)


class _Grid:
    """NumPy's ``nd_grid``: ``mgrid`` (dense) and ``ogrid`` (sparse); a complex step is a count."""
    __slots__ = ("sparse",)

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._line(key)
        sizes, steps, starts, nums = [], [], [], [0]
        for k in key:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, (complex, np.complexfloating)):
                step = abs(step)
                n = int(step)
                sizes.append(n)
                nums += [start, k.stop, step]
                step = (k.stop - start) / float(n - 1) if n != 1 else 1
            else:
                sizes.append(math.ceil((k.stop - start) / step))
                nums += [start, k.stop, step]
            steps.append(step)
            starts.append(start)
        typ = np.result_type(*nums)
        count = sum(max(d, 0) for d in sizes) if self.sparse else len(sizes) * math.prod(sizes)
        if tiers.on_host(count, typ):
            return self._numpy(key)
        out = _grid_kernel(_sizes(tuple(sizes), self.sparse), tuple(steps), tuple(starts),
                           typ.char, self.sparse)
        return tuple(ndarray._wrap(x) for x in out) if self.sparse else ndarray._wrap(out)

    def _line(self, key):
        start = 0 if key.start is None else key.start
        step = key.step
        if not isinstance(step, (complex, np.complexfloating)):
            return arange(start, key.stop, step)
        length = int(abs(step))
        typ = np.result_type(start, key.stop, abs(step))
        step = (key.stop - start) / float(length - 1) if length != 1 else 1
        dtype = np.result_type(typ, step, start)
        if tiers.on_host(length, dtype):
            return self._numpy(key)
        return ndarray._wrap(_line_kernel(length, step, start, dtype.char))

    def _numpy(self, key):
        """NumPy's grid, placed (``tiers.new_root``): a dtype XLA cannot hold (longdouble), or
        in mode "auto" fewer elements than the host threshold."""
        r = (np.ogrid if self.sparse else np.mgrid)[key]
        return tuple(map(tiers.new_root, r)) if isinstance(r, tuple) else tiers.new_root(r)


class _MGrid(_Grid):
    __slots__ = ()
    __doc__ = type(np.mgrid).__doc__


class _OGrid(_Grid):
    __slots__ = ()
    __doc__ = type(np.ogrid).__doc__


mgrid = _MGrid(False)
ogrid = _OGrid(True)


@np_doc(np.meshgrid, notes="With copy=False the broadcast outputs are read-only views (NumPy's "
        "are writeable with a warning on write).")
def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    ndim = len(xi)
    if indexing not in ["xy", "ij"]:
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [asarray(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        shape = tuple(np.broadcast_shapes(*(x.shape for x in output)))
        output = tuple(x._view(("broadcast", shape), (), shape, writeable=False)
                       if x.shape != shape else x for x in output)
    if copy:
        return tuple(x.copy() for x in output)
    return output  # sparse=True, copy=False: NumPy's list


@np_doc(np.ix_, notes="A boolean argument is a sync point (its nonzero positions).")
def ix_(*args):
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, (ndarray, np.ndarray)):
            host = np.asarray(new)
            new = asarray(host.astype(np.intp) if host.size == 0 else host)
        else:
            new = asarray(new)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype.kind == "b":
            new = ndarray._wrap(cast(jnp.nonzero(new._value)[0], np.intp))
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)
