"""View lenses: how a view reads its value from its root's buffer and writes a new value back.

A lens is a hashable static description ``(kind, static)`` plus per-lens dynamic operands (the
start offsets of a slice, so ``a[i:i+2]`` in a loop reuses one compiled kernel). A view holds a
chain of lenses from its root; lenses compose, so a view of a view writes through to the root.
``get`` and ``put`` kernels are jitted once per chain (JAX adds shape/dtype keys); the put kernel
donates the root's buffer so an eager write is in place on the device.
"""
import functools
import math

from .jaxload import jit, jnp, lax
import numpy as np

from . import caches

# ---- single lenses: get(x, dyn) -> view value;  put(x, dyn, v) -> new x -------------------


def _index_get(static, x, los):
    spans, steps, shape, _ = static
    if x.ndim and all(type(lo) is int for lo in los):  # constant offsets: one axis at a
        y = x  # time, so reads of one row block share their first slice (one halo exchange)
        for axis, (lo, span) in enumerate(zip(los, spans)):
            if span != x.shape[axis]:
                y = lax.slice_in_dim(y, lo, lo + span, axis=axis)
    else:
        y = lax.dynamic_slice(x, los, spans) if x.ndim else x
    if any(abs(s) != 1 for s in steps):
        y = lax.slice(y, (0,) * y.ndim, y.shape, tuple(abs(s) for s in steps))
    rev = tuple(i for i, s in enumerate(steps) if s < 0)
    if rev:
        y = lax.rev(y, rev)
    return y.reshape(shape)


def _index_put(static, x, los, v):
    spans, steps, _, _ = static
    strided = tuple(0 if sp == 0 else (sp - 1) // abs(st) + 1 for sp, st in zip(spans, steps))
    v = v.reshape(strided)
    rev = tuple(i for i, s in enumerate(steps) if s < 0)
    if rev:
        v = lax.rev(v, rev)
    if not x.ndim:
        return v
    if all(type(lo) is int for lo in los) and all(s == 1 for s in steps):
        return _region_put(x, los, spans, v)
    if any(abs(s) != 1 for s in steps):
        block = lax.dynamic_slice(x, los, spans)
        v = block.at[tuple(slice(None, None, abs(s)) for s in steps)].set(v)
    return lax.dynamic_update_slice(x, v, los)


def _region_put(x, los, spans, v):
    """``x`` with the block at the constant offsets ``los`` replaced by ``v``, as a select of
    ``v`` padded to ``x``'s shape: XLA's partitioner keeps a split ``x`` split (a
    dynamic-update-slice along a split axis it computes on the gathered array). Offsets are
    constants in the mode "sharded" only (``devices.offsets_kind``)."""
    pad = [(lo, n - lo - span, 0) for lo, span, n in zip(los, spans, x.shape)]
    inside = None
    for axis, (lo, span, n) in enumerate(zip(los, spans, x.shape)):
        if span == n:
            continue
        i = lax.broadcasted_iota(jnp.int32, x.shape, axis)
        cond = (i >= lo) & (i < lo + span)
        inside = cond if inside is None else inside & cond
    full = lax.pad(v.astype(x.dtype), jnp.zeros((), x.dtype), pad)
    return full if inside is None else jnp.where(inside, full, x)


def _transpose_get(perm, x, _):
    return jnp.transpose(x, perm)


def _transpose_put(perm, x, _, v):
    return jnp.transpose(v, np.argsort(perm))


def _reshape_get(shapes, x, _):
    return x.reshape(shapes[1])


def _reshape_put(shapes, x, _, v):
    return v.reshape(shapes[0])


def _real_get(_, x, __):
    return jnp.real(x)


def _real_put(_, x, __, v):
    return lax.complex(v.astype(jnp.real(x).dtype), jnp.imag(x))


def _imag_get(_, x, __):
    return jnp.imag(x)


def _imag_put(_, x, __, v):
    return lax.complex(jnp.real(x), v.astype(jnp.real(x).dtype))


def _diagonal_get(static, x, _):
    offset, axis1, axis2 = static
    return jnp.diagonal(x, offset, axis1, axis2)


def _diagonal_put(static, x, _, v):  # after setflags(write=True), as NumPy allows
    offset, axis1, axis2 = static
    xt = jnp.moveaxis(x, (axis1, axis2), (-2, -1))
    k = jnp.arange(v.shape[-1])
    xt = xt.at[..., k + max(-offset, 0), k + max(offset, 0)].set(v)
    return jnp.moveaxis(xt, (-2, -1), (axis1, axis2))


def _broadcast_get(shape, x, _):
    return jnp.broadcast_to(x, shape)


def _broadcast_put(shape, x, _, v):
    """After setflags(write=True) (or ``broadcast_arrays``' writeable views): a base element
    takes the last of its copies in ``v`` that was changed (NumPy writes only the elements
    assigned, all to the one base element), and keeps its value where none was."""
    lead = len(shape) - x.ndim
    axes = tuple(range(lead)) + tuple(lead + i for i, (n, m) in enumerate(
        zip(x.shape, shape[lead:])) if n == 1 and m != 1)
    if not axes:
        return v.reshape(x.shape)
    changed = v != jnp.broadcast_to(x, shape)
    if jnp.issubdtype(v.dtype, jnp.inexact):  # (an unchanged NaN is not a change)
        changed = changed & ~(jnp.isnan(v) & jnp.isnan(jnp.broadcast_to(x, shape)))
    front = tuple(range(len(axes)))
    vt, ct = jnp.moveaxis(v, axes, front), jnp.moveaxis(changed, axes, front)
    k = math.prod(vt.shape[:len(axes)])
    vt, ct = vt.reshape((k,) + vt.shape[len(axes):]), ct.reshape((k,) + ct.shape[len(axes):])
    last = k - 1 - jnp.argmax(ct[::-1], axis=0)
    pick = jnp.take_along_axis(vt, last[None], axis=0)[0]
    return jnp.where(ct.any(axis=0), pick, x.reshape(pick.shape)).reshape(x.shape)


def _to_octets(x):
    """The bytes of ``x`` along a new last axis, as NumPy lays them out (little-endian; a
    complex number as its real then imaginary part; bool as one byte 0/1)."""
    if x.dtype == jnp.bool_:
        x = x.astype(jnp.uint8)
    if jnp.iscomplexobj(x):
        x = jnp.stack([x.real, x.imag], -1).reshape(*x.shape[:-1], x.shape[-1] * 2)
    b = lax.bitcast_convert_type(x, jnp.uint8)  # (no -1 in reshapes: sizes may be 0)
    return b if x.dtype.itemsize == 1 else b.reshape(*b.shape[:-2], b.shape[-2] * b.shape[-1])


def _from_octets(b, dtype):
    """Bytes (last axis) read as ``dtype`` values; a nonzero byte read as bool is True."""
    if dtype == np.bool_:
        return b != 0
    if dtype.kind == "c":
        part = _from_octets(b, np.dtype(dtype.char.lower()))
        part = part.reshape(*part.shape[:-1], part.shape[-1] // 2, 2)
        return lax.complex(part[..., 0], part[..., 1])
    if dtype.itemsize == 1:
        return lax.bitcast_convert_type(b, dtype)
    return lax.bitcast_convert_type(
        b.reshape(*b.shape[:-1], b.shape[-1] // dtype.itemsize, dtype.itemsize), dtype)


def _bitcast(x, dtype, shape):
    """``x``'s bytes along its last axis reinterpreted as ``dtype``, in ``shape`` (NumPy's view
    of a contiguous last axis; a 0-d array keeps its itemsize)."""
    return _from_octets(_to_octets(x.reshape(x.shape or (1,))), dtype).reshape(shape)


def byteswapped(x):
    """Each element's bytes reversed (each part's, for complex numbers, as NumPy does)."""
    part = x.dtype.itemsize // (2 if jnp.iscomplexobj(x) else 1)
    b = _to_octets(x.reshape(x.shape or (1,)))
    b = b.reshape(*b.shape[:-1], b.shape[-1] // part, part)[..., ::-1].reshape(b.shape)
    return _from_octets(b, x.dtype).reshape(x.shape)


def _bitcast_get(static, x, _):
    return _bitcast(x, *static)


def _bitcast_put(_, x, __, v):
    return _bitcast(v, x.dtype, x.shape)


def _field_get(static, x, _):
    dtype, offset = static
    return _from_octets(_to_octets(x[..., None])[..., offset:offset + dtype.itemsize],
                        dtype)[..., 0]


def _field_put(static, x, _, v):
    dtype, offset = static
    b = _to_octets(x[..., None]).at[..., offset:offset + dtype.itemsize].set(
        _to_octets(v[..., None]))
    return _from_octets(b, x.dtype)[..., 0]


LENSES = {
    "bitcast": (_bitcast_get, _bitcast_put),
    "field": (_field_get, _field_put),
    "index": (_index_get, _index_put),
    "transpose": (_transpose_get, _transpose_put),
    "reshape": (_reshape_get, _reshape_put),
    "real": (_real_get, _real_put),
    "imag": (_imag_get, _imag_put),
    "diagonal": (_diagonal_get, _diagonal_put),
    "broadcast": (_broadcast_get, _broadcast_put),
}
READ_ONLY_KINDS = frozenset({"diagonal", "broadcast"})  # views created read-only


def chain_get(chain, root, dyns):
    x = root
    for (kind, static), dyn in zip(chain, dyns):
        x = LENSES[kind][0](static, x, dyn)
    return x


def chain_put(chain, root, dyns, value):
    levels = [root]
    for (kind, static), dyn in zip(chain[:-1], dyns[:-1]):
        levels.append(LENSES[kind][0](static, levels[-1], dyn))
    for (kind, static), dyn, x in zip(reversed(chain), reversed(dyns), reversed(levels)):
        value = LENSES[kind][1](static, x, dyn, value)
    return value


@caches.kernel_cache
def get_kernel(chain):
    return jit(functools.partial(chain_get, chain))


def _strided_positions(offset, shape, strides, itemsize):
    """The positions in a 1-d byte buffer of each element's bytes (a new last axis) of the
    array NumPy makes over it with ``offset`` and ``strides`` (in bytes)."""
    pos = jnp.full(shape, offset, jnp.int64)
    for axis, stride in enumerate(strides):
        if stride:
            pos = pos + lax.broadcasted_iota(jnp.int64, shape, axis) * stride
    return pos[..., None] + jnp.arange(itemsize, dtype=jnp.int64)


def _strided_get(static, x, _):  # ``tnp.ndarray(shape, dtype, buffer, offset, strides)``
    offset, shape, strides, dtype = static
    return _from_octets(x[_strided_positions(offset, shape, strides, dtype.itemsize)],
                        dtype)[..., 0]


def _strided_put(static, x, _, v):
    """Only the bytes that change are written: elements of an overlapping view (a sliding
    window's) share bytes, and a scatter of every element would write their old values too."""
    offset, shape, strides, dtype = static
    pos = _strided_positions(offset, shape, strides, dtype.itemsize)
    new = _to_octets(v[..., None])
    return x.at[jnp.where(new != x[pos], pos, x.shape[0])].set(new, mode="drop")


LENSES["strided"] = (_strided_get, _strided_put)


# ---- the host tier: the same lenses as NumPy views of a host root's buffer -------------------
def _host_index(static, x, los):
    spans, steps, shape, _ = static
    if not x.ndim:
        return x.reshape(shape)
    idx = []
    for lo, span, step in zip(los, spans, steps):
        lo = int(lo)
        if step > 0:
            idx.append(slice(lo, lo + span, step))
        else:  # the last ``(span - 1) // -step + 1`` elements of the span, reversed
            idx.append(slice(lo + span - 1 - (span - 1) % -step if span else lo,
                             lo - 1 if lo else None, step))
    return x[tuple(idx)].reshape(shape)


def _host_field(static, x, _):
    dtype, offset = static
    if x.dtype.hasobject:  # NumPy views no references as another dtype: the field by name
        for name, (fdt, foff, *_) in x.dtype.fields.items():
            if foff == offset and fdt == dtype:
                return x[name]
    field = np.dtype({"names": ["f"], "formats": [dtype], "offsets": [offset],
                      "itemsize": x.dtype.itemsize})
    return x.view(field)["f"]


HOST_GETS = {
    "bitcast": lambda static, x, _: x.view(static[0]).reshape(static[1]),
    "field": _host_field,
    "index": _host_index,
    "transpose": lambda perm, x, _: x.transpose(perm),
    "reshape": lambda shapes, x, _: x.reshape(shapes[1]),
    "real": lambda _, x, __: x.real,
    "imag": lambda _, x, __: x.imag,
    "diagonal": lambda static, x, _: np.diagonal(x, *static),
    "broadcast": lambda shape, x, _: np.broadcast_to(x, shape),
    "strided": lambda static, x, _: strided_host(x, *static),
}


def strided_host(octets, offset, shape, strides, dtype):
    """NumPy's array over the 1-d bytes ``octets`` (a host array or a layout placeholder)."""
    return np.ndarray(shape, dtype, octets, offset, strides)


def host_get(chain, dyns, root, writeable=False):
    """The view of the host array ``root`` through ``chain``, as a NumPy view of it; with
    ``writeable``, one NumPy can write where ``root`` is writeable (NumPy makes its diagonal
    and broadcast_to read-only; the tnp view is written only where it is writeable)."""
    x = root
    for (kind, static), dyn in zip(chain, dyns):
        y = HOST_GETS[kind](static, x, dyn)
        if writeable and kind in READ_ONLY_KINDS and x.flags.writeable:
            y.flags.writeable = True
        x = y
    return x


def host_set(chain, dyns, root, put):
    """``put(view)`` on the view of the host array ``root`` through ``chain``, written through:
    where NumPy's reshape of a strided view copies (``a.flat`` of ``b[::2, ::3]``), the copy is
    written back into the view it was made from."""
    x, copies = root, []
    for (kind, static), dyn in zip(chain, dyns):
        y = HOST_GETS[kind](static, x, dyn)
        if kind == "reshape" and y.size and not np.may_share_memory(y, x):
            copies.append((x, y))
        elif kind in READ_ONLY_KINDS and x.flags.writeable:  # (as ``host_get``'s writeable)
            y.flags.writeable = True
        x = y
    put(x)
    for src, copy in reversed(copies):
        src[...] = copy.reshape(src.shape)
