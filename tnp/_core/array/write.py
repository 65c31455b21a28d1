"""The one write path. Every in-place change of a tnp array comes here: ``a[idx] = v``,
augmented assignment, ``out=``, ``copyto``, ``put``, ``fill``, ``ufunc.at`` ...

A write computes the root's new buffer in one cached, jitted kernel: read the target through the
view's lens chain, apply the (optional) advanced index and ``where`` mask, put the result back
through the chain. The root's buffer is donated when nothing else holds it, so an eager write is
in place on the device and costs the same whatever the array size.

Threads (NumPy's guarantee: writes from different threads to different elements of one array
are all kept; a reader never fails because of a concurrent writer, it sees the old or the new
value):

- Every root has a lock: one of ``STRIPES`` re-entrant locks, picked by the root's ``id``
  (no allocation per array; two roots share a lock only by chance, which costs waiting, never
  correctness). A write takes it for its read-modify-write of the root's buffer: read
  ``root._buf``, run the kernel, store the new buffer, bump ``root._version``. So a write
  computes from the latest buffer and no other thread's write in between is lost. Writes to
  distinct arrays take distinct (uncontended) locks. In-place operators (``a += b``) hold the
  lock across their read and write, as NumPy's in-place loop runs without releasing the GIL.
- Donation: inside the lock, before deciding, the writer replaces ``root._buf`` by the
  sentinel ``BUSY`` and only then counts the buffer's references. A reader that loaded the
  buffer before the swap holds a reference, so the count shows it and the buffer is copied,
  not donated; a reader that comes after the swap sees ``BUSY`` and waits for the lock
  (``buffer``), then takes the new buffer. So no buffer another thread holds is donated.
- Readers take no lock on the fast path: ``ndarray._value`` (and every reader of a device
  root: views, their lenses, elements, ``__array__``, printing, methods) loads ``root._buf``
  once and uses it when it is a concrete ``jax.Array``; anything else (``BUSY``, a pending
  node, or a tracer that another thread's ``tnp_ext.jit``/optimizer trace swapped in with
  ``swap``) goes to ``roots.buffer``, which computes a node and waits for the lock (unless this
  thread holds it: its own trace) until it reads a concrete buffer. A view reads its root's
  version before its buffer, so its cache is never labelled newer than its value.
- Host-tier readers take no lock either (a lock would double the cost of ``a[3]``): a host
  write is one NumPy call on the root's own array under the lock, which a reader sees whole
  or not at all wherever NumPy runs it holding the GIL: NumPy's own guarantee, with its limit
  (a large copy or loop that releases the GIL can be seen midway, as in NumPy). A host root's
  device copy and snapshot read its version before its data, as a view does.
- ``tnp_ext`` swaps root buffers (tracers while tracing) and writes compiled results back only
  through ``hold``, ``swap``, ``claim``, ``commit`` and ``unclaim`` below, under the roots' locks
  (taken in one global order).

Limit: two threads tracing ``tnp_ext.jit`` functions for the first time, each reading the
other's written arrays, can wait for each other; run first calls (traces) from one thread.
"""
import functools
import math
import sys

from ..engine.jaxload import jax, jit, jnp, jcore as _jcore, ArrayImpl, JaxArray, Tracer
import numpy as np

from ..engine import caches, lenses, tracing
from . import indexing, storage
from ..numerics.casting import numpy_cast, warn_complex_to_real
from ..rules.dtypes import SUPPORTED, check_python_int
from ..rules.errors import TnpTracingError
from ..engine import lazy
from ..engine.lazy import Node, call, force, rebind
from ..numerics.fperr import errcheck as _errcheck
from .ndarray import ndarray, numpy_value, refused_protocol_array
from .roots import BUSY, N_STRIPES, STRIPES, lock_of
from ..engine.tracing import current_trace, in_trace


def _is_tracer(x):
    return isinstance(x, Tracer)


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


@caches.kernel_cache
def _kernel(chain, adv, has_where, donate):
    # XLA's CPU scatter applies updates in order (the last repeated index wins, as in NumPy);
    # other backends apply them in any order, so there only the last update is scattered.
    ordered = adv is None or jax.default_backend() == "cpu"
    fn = functools.partial(_write, chain, adv, has_where, ordered)
    return jit(fn, donate_argnums=(0,) if donate else ())


# ---- locks, donation, buffer swaps (see the module docstring) ------------------------------
class hold:
    """``with hold(roots):`` the roots' locks, taken in one global order (no deadlock)."""
    __slots__ = ("_locks",)

    def __init__(self, roots):
        if len(roots) == 1:
            self._locks = (lock_of(roots[0]),)
        else:
            self._locks = [STRIPES[i] for i in sorted({(id(r) >> 4) % N_STRIPES
                                                        for r in roots})]

    def __enter__(self):
        for lock in self._locks:
            lock.acquire()
        return self

    def __exit__(self, *exc):
        for lock in reversed(self._locks):
            lock.release()
        return False


class swap:
    """``with swap(roots, values):`` the roots hold ``values`` (e.g. tracers) instead of their
    buffers, seen by this thread alone (others wait for the roots' locks); on exit the saved
    buffers come back and each root's version moves on, so that views cached in between are
    read afresh. Code inside may rebind ``root._buf`` (a traced write): read it before exit."""
    __slots__ = ("_roots", "_values", "_hold", "_saved")

    def __init__(self, roots, values):
        self._roots, self._values, self._hold = roots, values, hold(roots)

    def __enter__(self):
        self._hold.__enter__()
        roots = self._roots
        self._saved = [(r._buf, r._version) for r in roots]
        for r, v in zip(roots, self._values):
            r._buf = v
            r._version += 1
        return self

    def __exit__(self, *exc):
        try:
            for r, (b, ver) in zip(self._roots, self._saved):
                r._buf, r._version = b, ver + 2
        finally:
            self._hold.__exit__()
        return False


def _refs(buf):
    return sys.getrefcount(buf)


def _claim(root):
    """Under the root's lock: its buffer, and whether a write may donate it. A buffer that might
    be donated is first taken out of the root (``BUSY``), then its references are counted: a
    reader that took it before holds one (no donation); one that comes after waits."""
    buf = root._buf
    if type(buf) is Node:  # a pending value: computed first (the node holds no buffer then)
        buf = force(root, "write")
    if type(buf) is not ArrayImpl or root._exported or not isinstance(current_trace(),
                                                                       _jcore.EvalTrace):
        return buf, False
    root._buf = BUSY
    return buf, _refs(buf) <= _SOLE_OWNER_REFS


def _calibrate():
    """How many references a buffer taken out of its root alone shows in _claim."""
    global _SOLE_OWNER_REFS

    class _Probe:
        __slots__ = ("_buf",)
    p = _Probe()
    p._buf = object()  # any object counts the same; no device work at import

    def claim(root):  # _claim's steps on the probe
        buf = root._buf
        root._buf = None
        return buf, _refs(buf)
    _SOLE_OWNER_REFS = claim(p)[1]


def claim(roots, candidates):
    """For ``tnp_ext``, holding the roots (``hold``): the roots' buffers, and the indices among
    ``candidates`` whose buffers may be donated to a computation that writes them. Those roots
    read as busy until ``commit`` gives them their new buffer (or ``unclaim``, on failure)."""
    taken = {}
    for i in candidates:
        b, ok = _claim(roots[i])
        if ok:
            taken[i] = b
        elif roots[i]._buf is BUSY:
            roots[i]._buf = b
    b = None
    bufs = [taken[i] if i in taken else r._buf for i, r in enumerate(roots)]
    return bufs, tuple(taken)


def unclaim(roots, bufs, donate):
    """Put back the buffers ``claim`` took (the computation failed)."""
    for i in donate:
        if roots[i]._buf is BUSY:
            roots[i]._buf = bufs[i]


def commit(root, buf):
    """For ``tnp_ext``, holding the root: its new buffer (a computation's write-back)."""
    root._buf = buf
    root._version += 1
    root._exported = False


def _ndmax_supported():
    try:
        np.array(0, ndmax=0)
        return True
    except TypeError:  # a NumPy without ``ndmax`` (before 2.4)
        return False


_NDMAX = _ndmax_supported()
_PY_SCALARS = (bool, int, float, complex, str, bytes, np.generic)


def host_value(value, dtype, ndmax=None, element=False):
    """A value to write into an array of ``dtype``, as what JAX takes. This is the one
    conversion of Python values written into arrays: NumPy's own (its OverflowError for an int
    out of range, ValueError for NaN to int or a ragged list, TypeError ...).

    ``ndmax``: the target's ndim when it is reached by basic indexing (NumPy refuses deeper
    nested lists); ``element``: the target is one element picked by integers (NumPy converts
    the value as one scalar, so a list is a TypeError)."""
    if isinstance(value, ndarray):
        if value._dtype in SUPPORTED:
            return value._value
        value = value._host()  # a NumPy-only dtype (strings, objects): NumPy's conversion below
    if isinstance(value, JaxArray):
        return value
    if isinstance(value, _PY_SCALARS) or (element and not isinstance(value, np.ndarray)):
        tmp = np.empty((), dtype)
        tmp[()] = value  # NumPy's own conversion: OverflowError, NaN-to-int ValueError, ...
        return tmp
    if not isinstance(value, np.ndarray):  # lists, tuples, objects: NumPy's setitem conversion
        try:
            if ndmax is not None and _NDMAX:
                return np.array(value, dtype=dtype, ndmax=ndmax, copy=None)
            return np.array(value, dtype=dtype, copy=None)
        except ValueError as e:  # an ``__array__`` (of a class written for tnp) gave a tnp array
            return host_value(refused_protocol_array(value, e), dtype, ndmax, element)
    arr = value
    if arr.dtype not in SUPPORTED:  # strings, objects, dates, long doubles...: NumPy converts
        return _setitem_cast(arr, dtype)  # them into the target dtype (or raises its error)
    return arr


def _setitem_cast(v, dtype):
    """The NumPy array ``v`` converted into ``dtype`` as NumPy's setitem converts it (its
    errors), whole, before anything is written."""
    out = np.empty(v.shape, dtype)
    out[...] = v
    return out


@caches.kernel_cache
def _cycle_kernel(n):
    return jit(lambda v: jnp.resize(jnp.ravel(v), n))


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
    raise ValueError(f"could not broadcast input array from shape {shape_str(value_shape)} "
                     f"into shape {shape_str(target_shape)}")


def shape_str(shape):
    """A shape as NumPy's messages print it: ``(3,4)``, ``(2,)``, ``()``."""
    shape = tuple(shape)
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def check_where(where_shape, target_shape):
    """NumPy's check that a ``where=`` mask broadcasts to the target (its message)."""
    try:
        if np.broadcast_shapes(where_shape, target_shape) == tuple(target_shape):
            return
    except ValueError:
        pass
    raise ValueError(f"could not broadcast where mask from shape {shape_str(where_shape)} "
                     f"into shape {shape_str(target_shape)}")


def _full_mask_ndim(index):
    """The ndim of ``index`` when it is one boolean array (else None)."""
    if isinstance(index, (ndarray, JaxArray, np.ndarray)) and index.dtype == np.bool_:
        return len(index.shape)
    return None


def _ndim(value):
    return len(value._shape) if isinstance(value, ndarray) else np.ndim(value)


_BASIC_INDEX_TYPES = frozenset({slice, int, tuple, type(None), type(Ellipsis)})


def _whole_mask(target, index, value):
    """The mask of ``target[mask] = scalar`` when ``mask`` is a boolean array of target's whole
    shape (a tnp array, or a jax array on the device): ``where`` semantics, no sync
    (``assign_masked``); otherwise None."""
    if type(index) in _BASIC_INDEX_TYPES:
        return None
    if isinstance(index, ndarray):
        if index._dtype != np.bool_:  # (an integer index of a host-only byte order stays there)
            return None
    elif not (isinstance(index, JaxArray) and index.dtype == np.bool_):
        return None
    if not (tuple(index.shape) == tuple(target._shape) and target._shape):
        return None
    if isinstance(value, (bool, int, float, complex, np.generic)) or (
            isinstance(value, (ndarray, JaxArray, np.ndarray)) and np.ndim(value) == 0):
        return index
    return None


def _is_view_of(value, root, chain, dyns):
    """Whether ``value`` is the view of ``root`` through ``chain`` (lenses and their dynamic
    operands, which are Python ints)."""
    return isinstance(value, ndarray) and value._root is root and value._chain() == (chain, dyns)


def check_writeable(targets, readonly="assignment destination is read-only"):
    """The one read-only check of every write (``assign``, ``out=``, in-place methods): NumPy's
    ValueError ``readonly`` (the wording of the NumPy function writing) when one of ``targets``
    (tnp arrays, None for none) is read-only, raised before anything is computed. An array
    marked ``_warn_on_write`` (``storage``) warns as NumPy does and is written."""
    if any(t is not None and not t._writeable for t in targets):
        for t in targets:
            if t is not None and not t._writeable and not storage.warned_write(t):
                raise ValueError(readonly)


def assign(target, value, index=None, where=None,
           readonly="assignment destination is read-only"):
    """Write ``value`` into ``target[index]`` (the whole of ``target`` if index is None),
    only where ``where`` is True. ``target`` is a tnp ndarray, a root or a view. A read-only
    target: ValueError ``readonly`` (the wording of the NumPy function writing, ``put: output
    array is read-only``...), before anything else is checked."""
    check_writeable((target,), readonly)
    if type(target._root._buf) is np.ndarray:
        if not in_trace():
            return _assign_host(target, value, index, where)
        to_device(target._root)  # a traced write: the device tier records it
    if where is None:
        mask = _whole_mask(target, index, value)
        if mask is not None:  # a[mask] = scalar: a masked write, no data-dependent shape, no sync
            return assign_masked(target, value, mask)
    root = target._root
    chain, dyns = target._chain()
    adv = adv_dyn = None
    shape = target._shape
    element = False
    if index is not None:
        plan = indexing.parse(shape, index, None if type(value) is not int else
                              functools.partial(check_python_int, value, target._dtype))
        if isinstance(plan, indexing.BasicPlan):
            chain, dyns = chain + (plan.lens,), dyns + (plan.dyn,)
            element = plan.scalar
        else:
            adv, adv_dyn = plan.struct, plan.dyn
            if len(target._shape) == _full_mask_ndim(index) and _ndim(value) > 1:
                raise TypeError(  # NumPy's rule for a mask over every axis (a 1-d selection)
                    "NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                    f"input, input has {_ndim(value)} dimensions")
        shape = plan.shape
    if adv is None and where is None and _is_view_of(value, root, chain, dyns):
        return  # ``a[i] = a[i]``, the last step of ``a[i] += x``: the data is there already
    v = host_value(value, target._dtype, None if adv is not None else len(shape), element)
    warn_complex_to_real(v.dtype, target._dtype)
    v_shape = np.shape(v)
    if element and v_shape and math.prod(v_shape) != 1:
        raise ValueError("setting an array element with a sequence.")
    vshape = check_broadcast(v_shape, shape)
    if vshape != v_shape:
        v = v.reshape(vshape)
    wh = None
    if where is not None:
        wh = where
        check_where(np.shape(wh), shape)
    trace = current_trace()
    if root._trace is not trace and not isinstance(trace, _jcore.EvalTrace):
        if not tracing.capture_write(root):
            raise TnpTracingError(
                "a write under a JAX trace (jit/vmap/grad) to a tnp array created outside the "
                "traced function would leak a tracer or run only once at trace time; create the "
                "array inside the function (or pass it in and return it), or use tnp_ext.jit, "
                "which writes such updates back to the caller's arrays")
    with lock_of(root):
        buf, donate = _claim(root)
        try:
            new = _kernel(chain, adv, wh is not None, donate)(buf, dyns, adv_dyn, v, wh)
        except BaseException:
            root._buf = buf
            raise
        root._buf = new
        root._version += 1
    return target


def assign_masked(target, value, mask):
    """``target[mask] = value`` as ``target = where(mask, value, target)``: ``mask`` a boolean
    array of the target's shape (a tnp array, a jax array or a pending node), ``value`` a scalar
    or an array of the target's shape (a masked value's full-size values, ``masked``: those
    outside the mask are never written), cast as NumPy's setitem casts. No data-dependent
    shape and no sync: recorded lazily when recording (the target's root then holds the
    pending write, as ``rebind_pending``; a loop writing on the same line again first flushes
    its previous iteration's graph, ``lazy.cut``), else one eager write with ``where``."""
    check_writeable((target,))
    root = target._root
    if not (lazy.recording() and _errcheck.modes() is None
            and type(root._buf) in (Node, ArrayImpl)):
        return assign(target, value, where=mask._value if isinstance(mask, ndarray)
                      else lazy.value(mask))
    v = (lazy.operand(value) if isinstance(value, ndarray)
         else host_value(value, target._dtype, element=True))
    warn_complex_to_real(v.dtype, target._dtype)
    m = lazy.operand(mask) if isinstance(mask, ndarray) else mask
    line = lazy.cut()
    with lock_of(root):
        buf = root._buf
        if type(buf) is not Node and type(buf) is not ArrayImpl:  # (being written meanwhile)
            return assign(target, value, where=lazy.value(m))
        chain, dyns = target._chain()
        node = call(_kernel(chain, None, True, False), (buf, dyns, None, v, m), root._shape,
                    root._dtype)
        rebind(root, node)
        root._version += 1
    lazy.mark(line, node)
    node = None  # a flush outputs the nodes held outside its graph: this one is not
    lazy.bound(root)
    return target


def _write_lanes(ordered, root, n, value, *index):
    size = root.size
    flat = 0
    for i, s in zip(index, root.shape):  # (the position in the flattened root)
        flat = flat * s + jnp.where(i < 0, i + s, i)
    pos = jnp.where(jnp.arange(index[0].shape[0]) < n, flat, size)  # padding: dropped
    v = jnp.broadcast_to(numpy_cast(value, root.dtype), pos.shape)
    if not ordered:  # (NumPy's rule where scatters are unordered: the last true lane wins)
        ids = jnp.arange(pos.shape[0])
        winner = jnp.full(size + 1, -1, ids.dtype).at[pos].max(ids)
        pos = jnp.where(winner[pos] == ids, pos, size)
    return root.reshape(-1).at[pos].set(v, mode="drop").reshape(root.shape)


@caches.kernel_cache
def _lanes_kernel(ordered):
    return jit(functools.partial(_write_lanes, ordered))


def assign_lanes(target, indices, n, value):
    """``target[indices[0][:n], indices[1][:n], ...] = value[:n]``: ``target`` a device root,
    ``indices`` one bucket's padded integer buffers (tnp roots), one per axis of ``target``
    (their true lanes the first ``n``, in bounds: the caller checked), ``value`` a scalar or a
    buffer of their bucket (``masked``'s bucketed values). The padding lanes are dropped; one
    kernel per shape and bucket (``n`` is an operand), cast as NumPy's setitem casts, recorded
    lazily when recording (a loop's previous write on the same line flushed first, as
    ``assign_masked``'s: one graph per bucket, not a chain), else one eager write."""
    check_writeable((target,))
    v = (lazy.operand(value) if isinstance(value, ndarray)
         else host_value(value, target._dtype, element=True))
    warn_complex_to_real(v.dtype, target._dtype)
    kernel = _lanes_kernel(jax.default_backend() == "cpu")
    if lazy.recording():
        idx = [lazy.operand(i) for i in indices]
        line = lazy.cut()
        with lock_of(target):
            buf = target._buf
            if type(buf) is Node or type(buf) is ArrayImpl:
                node = call(kernel, (buf, n, v, *idx), target._shape, target._dtype)
                rebind(target, node)
                target._version += 1
                lazy.mark(line, node)
                node = None  # (a flush outputs the nodes held outside its graph)
                lazy.bound(target)
                return target
    replace_root(target, kernel(target._value, n, lazy.value(v), *(i._value for i in indices)))
    return target


class writing:
    """``with writing(root) as owner:`` the host root's own array (its buffer is a read-only
    view of it, which is all any other code sees, so no NumPy function another thread runs can
    write it), to be written by NumPy inside, under the root's lock; on exit the root's version
    moves on."""
    __slots__ = ("_root", "_lock")

    def __init__(self, root):
        self._root, self._lock = root, lock_of(root)

    def __enter__(self):
        self._lock.acquire()
        return self._root._buf.base

    def __exit__(self, *exc):
        try:
            self._root._version += 1
        finally:
            self._lock.release()
        return False


def to_device(root):
    """Move a host root to the device tier (its buffer becomes its device copy)."""
    with lock_of(root):
        if type(root._buf) is np.ndarray:
            root._buf = root._device_copy()
            root._version += 1


def _assign_host(target, value, index, where):
    """``assign`` on the host tier: NumPy's own setitem (or ``copyto`` with ``where``) into
    the root's buffer, through the target's lenses."""
    root = target._root
    v = numpy_value(value, pull=True)
    idx = None if index is None else numpy_value(index, pull=True)
    wh = None if where is None else numpy_value(where, pull=True)

    def put_value(view, v):
        if wh is not None:
            np.copyto(view, v, casting="unsafe", where=wh)
        elif idx is not None and v is not value and view.dtype.hasobject and not isinstance(
                view[idx], np.ndarray):  # one element of an object array: NumPy stores the
            view[idx] = value  # object given (a tnp array itself), as it does its own
        else:
            view[... if idx is None else idx] = v

    def put(view):
        try:
            put_value(view, _converted(v, view.dtype))
        except ValueError as e:  # ``value.__array__`` returned a tnp array: its value
            put_value(view, numpy_value(refused_protocol_array(value, e), pull=True))
    with writing(root) as buf:
        if target is root:
            put(buf)
        else:
            lenses.host_set(*target._chain(), buf, put)
    return target


def _converted(v, dtype):
    """``v`` converted whole into ``dtype`` where NumPy's setitem would convert it element by
    element and could fail midway (strings or objects into numbers: NumPy keeps the elements
    written before the bad one); a write that fails leaves its target as it was."""
    if type(v) is np.ndarray and v.dtype.kind in "USO" and dtype.kind not in "USOV":
        return _setitem_cast(v, dtype)
    return v


def rebind_pending(target, node):
    """A lazily recorded write of a whole array (``a += b``, ``ufunc.record_inplace``; ``node``
    is its new value): the root holds ``node`` or, for a view, a node putting it through the
    view's lenses (this module's write kernel); their operands hold the old value. The caller
    holds the root's lock, and the root's buffer is a node or a device array."""
    root = target._base
    if root is not None:
        chain, dyns = target._chain()
        node = call(_kernel(chain, None, False, False), (root._buf, dyns, None, node, None),
                    root._shape, root._dtype)
        target = root
    rebind(target, node)
    target._version += 1


def reshape_host(root, shape):
    """``root.shape = shape`` on the host tier: NumPy's in-place reshape of the root's own array
    (it stays on the host, its memory shared with nothing new)."""
    with writing(root) as owner:
        owner.shape = shape
        buf = owner.view()
        buf.setflags(write=False)
        root._buf = buf
        root._shape = tuple(shape)


def replace_root(root, new_buf):
    """Rebind a root's whole buffer (shape may change: ``resize``)."""
    with lock_of(root):
        root._buf = new_buf
        root._shape = tuple(new_buf.shape)
        root._version += 1


_calibrate()
