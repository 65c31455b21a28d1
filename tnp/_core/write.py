"""The one write path. Every in-place change of a tnp array comes here: ``a[idx] = v``,
augmented assignment, ``out=``, ``copyto``, ``put``, ``fill``, ``ufunc.at`` ...

A write computes the root's new buffer in one cached, jitted kernel: read the target through the
view's lens chain, apply the (optional) advanced index and ``where`` mask, put the result back
through the chain. The root's buffer is donated when nothing else holds it, so an eager write is
in place on the device and costs the same whatever the array size.
"""
import functools
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core as _jcore  # the active trace (no public API for it)

from . import indexing, lenses
from .casting import numpy_cast
from .errors import TnpTracingError


def current_trace():
    """The JAX trace now active (an ``EvalTrace`` when running eagerly)."""
    return _jcore.trace_ctx.trace


def _is_tracer(x):
    return isinstance(x, jax.core.Tracer)


def scatter_last_wins(full, idx, v):
    """``full.at[idx].set(v)`` where repeated indices keep the last value in C order (NumPy's
    rule), deterministically on every backend: only each position's last update is scattered."""
    lin = jnp.arange(full.size).reshape(full.shape)[idx]
    ids = jnp.arange(v.size).reshape(v.shape)
    winner = jnp.full(full.size, -1, ids.dtype).at[lin.ravel()].max(ids.ravel())
    pos = jnp.where(winner[lin] == ids, lin, full.size)
    return full.ravel().at[pos.ravel()].set(v.ravel(), mode="drop").reshape(full.shape)


def _write(chain, adv, has_where, ordered, root, dyns, adv_dyn, value, where):
    target = lenses.chain_get(chain, root, dyns) if (chain or adv or has_where) else root
    if adv is not None:
        axes, struct = adv
        full = indexing.expand(target, axes)
        idx = indexing.build_index(struct, adv_dyn)
        cur = full[idx]
    else:
        cur = target
    v = jnp.broadcast_to(numpy_cast(value, cur.dtype), cur.shape)
    if has_where:
        v = jnp.where(where, v, cur)
    if adv is not None:
        new = full.at[idx].set(v) if ordered else scatter_last_wins(full, idx, v)
        v = jnp.squeeze(new, adv[0]) if adv[0] else new
    return lenses.chain_put(chain, root, dyns, v) if chain else v


@functools.lru_cache(maxsize=None)
def _kernel(chain, adv, has_where, donate):
    # XLA's CPU scatter applies updates in order (the last repeated index wins, as in NumPy);
    # other backends apply them in any order, so there only the last update is scattered.
    ordered = adv is None or jax.default_backend() == "cpu"
    fn = functools.partial(_write, chain, adv, has_where, ordered)
    return jax.jit(fn, donate_argnums=(0,) if donate else ())


# Reference count of a root buffer that only its owning ndarray holds, seen from inside _donatable.
_SOLE_OWNER_REFS = None


def _refcount(root):
    buf = root._buf
    return sys.getrefcount(buf)


def _donatable(root):
    return (not root._exported and not _is_tracer(root._buf)
            and isinstance(current_trace(), _jcore.EvalTrace)
            and _refcount(root) <= _SOLE_OWNER_REFS)


def _calibrate():
    """How many references a buffer held by its root alone shows through _refcount."""
    global _SOLE_OWNER_REFS

    class _Probe:
        __slots__ = ("_buf",)
    p = _Probe()
    p._buf = object()  # any object counts the same; no device work at import
    _SOLE_OWNER_REFS = _refcount(p)


def host_value(value, dtype):
    """A value to write, as what JAX takes; Python scalars convert exactly as NumPy's setitem does."""
    from .ndarray import ndarray
    if isinstance(value, ndarray):
        return value._value
    if isinstance(value, jax.Array):
        return value
    if isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        tmp = np.empty((), dtype)
        tmp[()] = value  # NumPy's own conversion: OverflowError, NaN-to-int ValueError, ...
        return tmp
    arr = np.asarray(value)
    if arr.dtype.kind in "USO":  # strings, objects: NumPy converts them into the target dtype
        tmp = np.empty(arr.shape, dtype)
        tmp[...] = arr
        return tmp
    from .dtypes import check_supported
    check_supported(arr.dtype)
    return arr


@functools.lru_cache(maxsize=None)
def _cycle_kernel(n):
    return jax.jit(lambda v: jnp.resize(jnp.ravel(v), n))


def cyclic(value, n, dtype):
    """``value`` repeated in C order to ``n`` elements (NumPy's rule for ``flat``, ``put``,
    ``putmask``), as a 0-d or 1-d array to write; None when ``value`` is empty (nothing to write)."""
    v = host_value(value, dtype)
    size = int(np.size(v))
    if size == 0:
        return None
    if size == 1:
        return v.reshape(())
    if size == n:
        return v.reshape(n)
    return _cycle_kernel(n)(v)


def check_broadcast(value_shape, target_shape):
    """NumPy's setitem broadcasting: leading size-1 dims of the value may be dropped."""
    vs, target_shape = tuple(value_shape), tuple(target_shape)
    if not vs or vs == target_shape:  # a scalar, or the target's own shape
        return vs
    while len(vs) > len(target_shape) and vs[0] == 1:
        vs = vs[1:]
    try:
        if np.broadcast_shapes(vs, target_shape) == target_shape:
            return vs
    except ValueError:
        pass
    raise ValueError(f"could not broadcast input array from shape {tuple(value_shape)} "
                     f"into shape {tuple(target_shape)}")


_BASIC_INDEX_TYPES = frozenset({slice, int, tuple, type(None), type(Ellipsis)})


def _whole_mask(target, index, value):
    """The mask of ``target[mask] = scalar`` when ``mask`` is a boolean array of target's whole
    shape on the device (``where`` semantics, no sync); otherwise None."""
    if type(index) in _BASIC_INDEX_TYPES:
        return None
    from .ndarray import ndarray
    if isinstance(index, ndarray):
        index = index._value
    if not (isinstance(index, jax.Array) and index.dtype == np.bool_
            and tuple(index.shape) == tuple(target._shape) and target._shape):
        return None
    if isinstance(value, (bool, int, float, complex, np.generic)) or (
            isinstance(value, (ndarray, jax.Array, np.ndarray)) and np.ndim(value) == 0):
        return index
    return None


def _is_view_of(value, root, chain, dyns):
    """Whether ``value`` is the view of ``root`` through ``chain`` (lenses and their dynamic
    operands, which are Python ints)."""
    from .ndarray import ndarray
    return isinstance(value, ndarray) and value._root is root and value._chain() == (chain, dyns)


def assign(target, value, index=None, where=None):
    """Write ``value`` into ``target[index]`` (the whole of ``target`` if index is None),
    only where ``where`` is True. ``target`` is a tnp ndarray, a root or a view."""
    if not target._writeable:
        raise ValueError("assignment destination is read-only")
    mask = _whole_mask(target, index, value)
    if mask is not None:  # a[mask] = scalar: a masked write, no data-dependent shape, no sync
        index, where = None, mask
    root = target._root
    chain, dyns = target._chain()
    adv = adv_dyn = None
    shape = target._shape
    if index is not None:
        plan = indexing.parse(shape, index)
        if isinstance(plan, indexing.BasicPlan):
            chain, dyns = chain + (plan.lens,), dyns + (plan.dyn,)
        else:
            adv, adv_dyn = plan.struct, plan.dyn
        shape = plan.shape
    if adv is None and where is None and _is_view_of(value, root, chain, dyns):
        return  # ``a[i] = a[i]``, the last step of ``a[i] += x``: the data is there already
    v = host_value(value, target._dtype)
    v_shape = np.shape(v)
    vshape = check_broadcast(v_shape, shape)
    if vshape != v_shape:
        v = v.reshape(vshape)
    wh = None
    if where is not None:
        wh = where
        np.broadcast_shapes(np.shape(wh), shape)
    trace = current_trace()
    if root._trace is not trace and not isinstance(trace, _jcore.EvalTrace):
        from . import tracing
        if not tracing.capture_write(root):
            raise TnpTracingError(
                "a write under a JAX trace (jit/vmap/grad) to a tnp array created outside the "
                "traced function would leak a tracer or run only once at trace time; create the "
                "array inside the function (or pass it in and return it), or use tnp_ext.jit, "
                "which writes such updates back to the caller's arrays")
    kernel = _kernel(chain, adv, wh is not None, _donatable(root))
    root._buf = kernel(root._buf, dyns, adv_dyn, v, wh)
    root._version += 1
    return target


def replace_root(root, new_buf):
    """Rebind a root's whole buffer (shape may change: ``resize``)."""
    root._buf = new_buf
    root._shape = tuple(new_buf.shape)
    root._version += 1


_calibrate()
