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

from . import indexing, lenses
from .errors import TnpTracingError


def _is_tracer(x):
    return isinstance(x, jax.core.Tracer)


def _write(chain, adv, has_where, root, dyns, adv_dyn, value, where):
    target = lenses.chain_get(chain, root, dyns) if (chain or adv or has_where) else root
    if adv is not None:
        axes, struct = adv
        full = indexing.expand(target, axes)
        idx = indexing.build_index(struct, adv_dyn)
        cur = full[idx]
    else:
        cur = target
    v = jnp.broadcast_to(value.astype(cur.dtype), cur.shape)
    if has_where:
        v = jnp.where(where, v, cur)
    if adv is not None:
        new = full.at[idx].set(v)
        v = jnp.squeeze(new, adv[0]) if adv[0] else new
    return lenses.chain_put(chain, root, dyns, v) if chain else v


@functools.lru_cache(maxsize=None)
def _kernel(chain, adv, has_where, donate):
    fn = functools.partial(_write, chain, adv, has_where)
    return jax.jit(fn, donate_argnums=(0,) if donate else ())


# Reference count of a root buffer that only its owning ndarray holds, seen from inside _donatable.
_SOLE_OWNER_REFS = None


def _refcount(root):
    buf = root._buf
    return sys.getrefcount(buf)


def _donatable(root):
    return (not root._exported and not _is_tracer(root._buf)
            and _refcount(root) <= _SOLE_OWNER_REFS)


def _calibrate():
    """How many references a buffer held by its root alone shows through _refcount."""
    global _SOLE_OWNER_REFS

    class _Probe:
        __slots__ = ("_buf",)
    p = _Probe()
    p._buf = jnp.zeros(1)
    _SOLE_OWNER_REFS = _refcount(p)


def host_value(value, dtype):
    """A value to write, as what JAX takes; Python scalars convert exactly as NumPy's setitem does."""
    from .ndarray import ndarray
    if isinstance(value, ndarray):
        return value._value
    if isinstance(value, jax.Array):
        return value
    if isinstance(value, (bool, int, float, complex, np.generic)):
        tmp = np.empty((), dtype)
        tmp[()] = value  # NumPy's own conversion: OverflowError, NaN-to-int ValueError, ...
        return tmp
    arr = np.asarray(value)
    from .dtypes import check_supported
    check_supported(arr.dtype)
    return arr


def check_broadcast(value_shape, target_shape):
    """NumPy's setitem broadcasting: leading size-1 dims of the value may be dropped."""
    vs = tuple(value_shape)
    while len(vs) > len(target_shape) and vs[0] == 1:
        vs = vs[1:]
    try:
        if np.broadcast_shapes(vs, tuple(target_shape)) == tuple(target_shape):
            return vs
    except ValueError:
        pass
    raise ValueError(f"could not broadcast input array from shape {tuple(value_shape)} "
                     f"into shape {tuple(target_shape)}")


def assign(target, value, index=None, where=None):
    """Write ``value`` into ``target[index]`` (the whole of ``target`` if index is None),
    only where ``where`` is True. ``target`` is a tnp ndarray, a root or a view."""
    if not target._writeable:
        raise ValueError("assignment destination is read-only")
    root = target._root
    chain, dyns = target._lens, target._dyn
    adv = adv_dyn = None
    shape = target._shape
    if index is not None:
        plan = indexing.parse(shape, index)
        if isinstance(plan, indexing.BasicPlan):
            chain, dyns = chain + (plan.lens,), dyns + (plan.dyn,)
        else:
            adv, adv_dyn = plan.struct, plan.dyn
        shape = plan.shape
    v = host_value(value, target._dtype)
    vshape = check_broadcast(np.shape(v), shape)
    if vshape != np.shape(v):
        v = v.reshape(vshape)
    wh = None
    if where is not None:
        wh = where
        np.broadcast_shapes(np.shape(wh), shape)
    buf = root._buf
    traced = _is_tracer(v) or _is_tracer(wh) or any(
        _is_tracer(d) for d in (adv_dyn or ())) or any(_is_tracer(x) for d in dyns for x in d)
    if traced and not _is_tracer(buf):
        from . import tracing
        if not tracing.capture_write(root):
            raise TnpTracingError(
                "a write under a JAX trace to a tnp array created outside the traced function "
                "would leak a tracer; pass the array in and return it, or use tnp_ext.jit, which "
                "writes such updates back to the caller's arrays")
        buf = root._buf
    del buf
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
