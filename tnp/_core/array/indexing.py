"""NumPy indexing on tnp arrays: parse an index once into a *plan*.

A basic index (ints, slices, ``None``, ``...``) becomes an ``index`` lens, so the result is a view
whose slice starts are dynamic operands of one compiled kernel. Anything else is an advanced index:
its shape and validity are decided by NumPy itself, replayed on a zero-strided placeholder array of
the same shape (no data is touched), and it runs as a cached compiled gather/scatter.
Out-of-bounds index arrays are checked eagerly (a named sync point for device index arrays);
under a JAX trace that check is skipped (JAX then clamps reads and drops writes).
"""
import operator

from ..engine.jaxload import jit, jnp, JaxArray, Tracer
import numpy as np

from ..engine import caches, devices, syncs
from ..rules import probe
from ..rules.errors import TnpTracingError
from .ndarray import ndarray

_INVALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
            "or boolean arrays are valid indices")


class BasicPlan:
    __slots__ = ("lens", "dyn", "shape", "scalar")

    def __init__(self, lens, dyn, shape, scalar):
        self.lens, self.dyn, self.shape, self.scalar = lens, dyn, shape, scalar


class AdvancedPlan:
    __slots__ = ("struct", "dyn", "shape")

    def __init__(self, struct, dyn, shape):
        self.struct, self.dyn, self.shape = struct, dyn, shape


def _is_tracer(x):
    return isinstance(x, Tracer)


def numpy_index_error(shape, index):
    """Raise exactly what NumPy raises for ``index`` on an array of ``shape`` (or a generic IndexError)."""
    items = index if isinstance(index, tuple) else (index,)
    host = []
    for it in items:
        if isinstance(it, ndarray):
            it = np.asarray(it)
        elif isinstance(it, JaxArray) and not _is_tracer(it):
            it = np.asarray(it)
        host.append(it)
    host = tuple(host) if isinstance(index, tuple) else host[0]
    probe.placeholder(probe.Spec(shape, np.int8))[host]  # the index as is: lists stay lists
    raise IndexError(_INVALID)


def _as_int(x):
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, np.integer):
        return int(x)
    if hasattr(x, "__index__") and not hasattr(x, "shape"):
        return operator.index(x)
    return None


def _bound(v):
    """A slice bound as an int (None stays None): NumPy takes anything with ``__index__`` there,
    a 0-d integer array included (a named sync point for a device one)."""
    if v is None:
        return None
    i = _as_int(v)
    if i is not None:
        return i
    if hasattr(v, "__index__"):
        try:
            return operator.index(v)
        except TypeError as e:
            if type(e) is TypeError:  # NumPy's own message (a float or a sized array)
                raise
    # no __index__, or a traced value (JAX's conversion error is no NumPy message)
    raise TypeError("slice indices must be integers or None or have an __index__ method")


def _out_of_bounds(i, n, dim):
    """NumPy's error for the integer index ``i`` outside an axis of size ``n``; one that no intp
    holds is NumPy's own (OverflowError above, IndexError below), from a 0-size placeholder."""
    if not np.iinfo(np.intp).min <= i <= np.iinfo(np.intp).max:
        probe.placeholder(probe.Spec((0,), np.int8))[i]
    raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")


def _slice_bounds(s, n):
    start, stop, step = slice(_bound(s.start), _bound(s.stop), _bound(s.step)).indices(n)
    length = len(range(start, stop, step))
    return start, stop, step, length


_PLANS = {}  # (shape, ``_plain_key``) -> BasicPlan; started afresh past probe.CACHE_SIZE
_INT_NONE = frozenset({int, type(None)})


def _plain_key(items):
    """A basic index of Python ints, None, ``...`` and slices of ints and None as a hashable key
    (a slice as its three bounds), or None for any other index (bools, NumPy integers and
    objects with ``__index__`` equal ints as keys, but not as indices: never cached)."""
    key = []
    for it in items:
        t = type(it)
        if t is slice:
            bounds = it.start, it.stop, it.step
            if not _INT_NONE.issuperset(map(type, bounds)):
                return None
            key.append(bounds)
        elif t is int or it is None or it is Ellipsis:
            key.append(it)
        else:
            return None
    return tuple(key)


def parse(shape, index, before_bounds=None):
    """Return a BasicPlan or an AdvancedPlan for ``array[index]`` on an array of ``shape`` (a
    plain basic index seen before is one lookup: ``_PLANS``). ``before_bounds``: called for an
    advanced index once its form is checked, before its values are (a write's value is
    converted there in NumPy's order: ``x[[9]] = -1`` of a uint8 ``x`` is an OverflowError)."""
    items = index if isinstance(index, tuple) else (index,)  # a tuple subclass too, as NumPy
    key = _plain_key(items)
    if key is not None:
        plan = _PLANS.get((shape, key))
        if plan is None:
            plan = _basic_plan(shape, items, index)
            if len(_PLANS) >= probe.CACHE_SIZE:
                _PLANS.clear()
            _PLANS[shape, key] = plan
        return plan
    basic = True
    for it in items:
        if not (it is None or it is Ellipsis or type(it) is slice or _as_int(it) is not None):
            basic = False
            break
    if basic:
        return _basic_plan(shape, items, index)
    return _advanced_plan(shape, items, index, before_bounds)


def _basic_plan(shape, items, index):
    ndim = len(shape)
    n_ell = sum(1 for it in items if it is Ellipsis)
    consumed = sum(1 for it in items if it is not None and it is not Ellipsis)
    if n_ell > 1 or consumed > ndim:
        numpy_index_error(shape, index)
    los, spans, steps, out, kinds = [], [], [], [], []
    dim = 0
    for it in items:
        if it is None:
            out.append(1)
            kinds.append("n")
        elif it is Ellipsis:
            for _ in range(ndim - consumed):
                los.append(0), spans.append(shape[dim]), steps.append(1), out.append(shape[dim])
                kinds.append("s")
                dim += 1
        elif type(it) is slice:
            n = shape[dim]
            start, _, step, length = _slice_bounds(it, n)
            if length == 0:
                lo, span, step = 0, 0, 1
            elif step > 0:
                lo, span = start, (length - 1) * step + 1
            else:
                lo, span = start + (length - 1) * step, (length - 1) * -step + 1
            los.append(lo), spans.append(span), steps.append(step), out.append(length)
            kinds.append("s")
            dim += 1
        else:
            i, n = _as_int(it), shape[dim]
            if not -n <= i < n:
                _out_of_bounds(i, n, dim)
            los.append(i % n), spans.append(1), steps.append(1)
            kinds.append("i")
            dim += 1
    for d in range(dim, ndim):
        los.append(0), spans.append(shape[d]), steps.append(1), out.append(shape[d])
        kinds.append("s")
    if len(out) > 32:  # NumPy's own check of the result's rank (its NPY_MAXDIMS)
        probe.placeholder(probe.Spec(shape, np.int8))[index]
    scalar = n_ell == 0 and consumed == ndim and all(it is not None for it in items) and not out
    # static: per-dim spans and steps, the view's shape, and the item kinds in order (slice,
    # int, newaxis) from which flags/strides replay the same index in NumPy
    lens = ("index", (tuple(spans), tuple(steps), tuple(out), "".join(kinds)))
    return BasicPlan(lens, tuple(los), tuple(out), scalar)


def _index_array(it):
    """An index entry that is not basic, as (host numpy array or device jax array), or None: a
    host-tier array gives a NumPy copy of its value (no device copy; a copy, because JAX may
    alias a read-only array that the write path changes in place)."""
    if isinstance(it, ndarray):
        it = np.array(it._host()) if it._on_host else it._value
    if isinstance(it, JaxArray):
        return it
    if isinstance(it, (bool, np.bool_)):
        return np.asarray(it)
    if isinstance(it, (list, tuple, np.ndarray)):
        try:
            a = np.asarray(it)
        except ValueError:
            return None
        if a.size == 0 and not isinstance(it, np.ndarray) and a.dtype.kind == "f":
            a = a.astype(np.intp)  # NumPy reads an empty sequence as an empty integer index
        if a.dtype.kind in "biu" and not a.dtype.isnative:  # XLA takes native byte order only
            a = a.astype(a.dtype.newbyteorder("="))
        return a
    if getattr(type(it), "__array__", None) is not None and not isinstance(it, np.generic):
        a = it.__array__()  # an array-like (its array may be a tnp array: a class written for
        if isinstance(a, (ndarray, np.ndarray)):  # ``import tnp as np``)
            return _index_array(a)
    return None


def _bool0_rewrite(shape, items):
    """A 0-d boolean index is a length-1 mask on a new axis: ``a[..., True] == a[..., None][..., [True]]``.

    Returns the axes to insert and the items with each 0-d boolean turned into a 1-d mask."""
    def is_bool0(it):
        return isinstance(it, (bool, np.bool_)) or (
            getattr(it, "dtype", None) == np.bool_ and getattr(it, "ndim", 1) == 0)
    if not any(is_bool0(it) for it in items):
        return (), items
    consumed = sum(1 if is_bool0(it) or it is None or type(it) is slice or _as_int(it) is not None
                   else (np.ndim(it) if getattr(it, "dtype", None) == np.bool_ else 1)
                   for it in items if it is not Ellipsis and it is not None)
    axes, new, dim = [], [], 0
    for it in items:
        if it is Ellipsis:
            dim += len(shape) + sum(map(is_bool0, items)) - consumed
            new.append(it)
        elif it is None:
            new.append(it)
        elif is_bool0(it):
            axes.append(dim)
            new.append(_index_array(it).reshape(1))
            dim += 1
        else:
            a = _index_array(it) if _as_int(it) is None and type(it) is not slice else None
            dim += a.ndim if a is not None and a.dtype == np.bool_ else 1
            new.append(it)
    return tuple(axes), tuple(new)


def _advanced_plan(shape, items, index, before_bounds=None):
    given_shape = shape
    expand, items = _bool0_rewrite(shape, items)
    if len(shape) + len(expand) > 64:  # past NumPy's dimension limit: NumPy's IndexError
        numpy_index_error(given_shape, index)
    if expand:
        shape = list(shape)
        for ax in expand:
            shape.insert(ax, 1)
        shape = tuple(shape)
    arrays = []
    for it in items:
        if it is None or it is Ellipsis or type(it) is slice or _as_int(it) is not None:
            arrays.append(None)
            continue
        a = _index_array(it)
        if a is None or not (a.dtype == np.bool_ or a.dtype.kind in "iu"):
            numpy_index_error(shape, index)
        arrays.append(a)
    # NumPy decides validity and the result shape, on placeholders of the same shapes.
    ph = tuple(it if a is None else a if isinstance(a, np.ndarray) and a.dtype == np.bool_
               else probe.placeholder(probe.Spec(a.shape, np.bool_ if a.dtype == np.bool_
                                                 else np.intp))
               for it, a in zip(items, arrays))
    if any(isinstance(a, JaxArray) and a.dtype == np.bool_ for a in arrays):
        # a device mask's result shape needs its values: a named sync point (or a tracing error);
        # its indices are then NumPy's, from the values read (no kernel per count)
        ph = tuple(devices.to_host(_host_mask(a))
                   if isinstance(a, JaxArray) and a.dtype == np.bool_ else p
                   for p, a in zip(ph, arrays))
        arrays = [p if isinstance(a, JaxArray) and a.dtype == np.bool_ else a
                  for p, a in zip(ph, arrays)]
    # (not probe.call: the index holds masks' values and slices; a placeholder per call, uncached)
    try:
        out_shape = probe.placeholder(probe.Spec(shape, np.int8))[ph].shape
    except IndexError:
        if expand:  # NumPy's message counts axes of the index as given (0-d booleans unexpanded)
            numpy_index_error(given_shape, index)
        raise
    if before_bounds is not None:
        before_bounds()
    # NumPy checks bounds only when the broadcast index arrays select something
    selects = 0 not in np.broadcast_shapes(*(
        (int(np.count_nonzero(p)),) if p.dtype == np.bool_ else p.shape
        for p, a in zip(ph, arrays) if a is not None))
    struct, dyn = [], []
    consumed = sum(1 if a is None else (a.ndim if a.dtype == np.bool_ else 1)
                   for it, a in zip(items, arrays) if it is not None and it is not Ellipsis)
    dim = 0
    for it, a in zip(items, arrays):
        if it is None:
            struct.append("newaxis")
        elif it is Ellipsis:
            struct.append("ellipsis")
            dim += len(shape) - consumed
        elif type(it) is slice:
            struct.append(("slice", (_as_int_or_none(it.start), _as_int_or_none(it.stop),
                                     _as_int_or_none(it.step))))
            dim += 1
        elif a is None:
            i, n = _as_int(it), shape[dim]
            if not -n <= i < n:
                _out_of_bounds(i, n, dim)
            struct.append("int")
            dyn.append(i)
            dim += 1
        elif a.dtype == np.bool_:
            for idx in _nonzero(a):
                struct.append("array")
                dyn.append(idx)
            dim += a.ndim
        else:
            if selects:
                check_bounds(a, shape[dim], dim - len([x for x in expand if x <= dim]))
            struct.append("array")
            dyn.append(a)
            dim += 1
    return AdvancedPlan((expand, tuple(struct)), tuple(dyn), out_shape)


def _as_int_or_none(v):
    return _bound(v)


def _host_mask(mask):
    if _is_tracer(mask):
        _nonzero(mask)  # raises the tracing error
    syncs.record("mask", mask)
    return mask


def _nonzero(mask):
    """Integer indices of a boolean mask, read on the host (``_advanced_plan`` reads a device
    mask's values there first, a named sync point); a traced mask raises the tracing error."""
    if _is_tracer(mask):
        raise TnpTracingError(
            "boolean-mask indexing has a data-dependent shape and cannot run under a JAX trace; "
            "use tnp.where(mask, x, fill) or a jit-safe function with size=")
    return tuple(np.nonzero(mask))


_bounds_kernel = jit(lambda a: (jnp.min(a), jnp.max(a)))


def check_bounds(a, n, dim):
    if a.size == 0:
        return
    if isinstance(a, np.ndarray):
        lo, hi = int(a.min()), int(a.max())
    elif _is_tracer(a):
        return
    else:
        syncs.record("bounds", a)
        lo, hi = (int(v) for v in _bounds_kernel(a))
    bad = hi if hi >= n else lo if lo < -n else None
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for axis {dim} with size {n}")


def build_index(struct, dyn):
    """The index tuple for ``jnp`` from a plan's static struct and dynamic operands."""
    out, k = [], 0
    for s in struct:
        if s == "newaxis":
            out.append(None)
        elif s == "ellipsis":
            out.append(Ellipsis)
        elif s == "int" or s == "array":
            out.append(dyn[k])
            k += 1
        else:
            out.append(slice(*s[1]))
    return tuple(out)


def expand(x, axes):
    return jnp.expand_dims(x, axes) if axes else x


@caches.kernel_cache
def gather_kernel(plan_struct):
    axes, struct = plan_struct

    def gather(x, dyn):
        return expand(x, axes)[build_index(struct, dyn)]
    return jit(gather)
