"""The NumPy tier's rules for indexing primitives: ``dynamic_slice``, ``dynamic_update_slice``,
``gather`` and the ``scatter`` family, with ``lax``'s index semantics (a start clamped so the
slice fits; a ``fill`` gather's out-of-bounds slices filled, a ``drop`` scatter's updates
dropped). Batched operand dimensions are not handled (``Unsupported``)."""
import numpy as np

from .interpreter_base import Unsupported, rule


def _starts(starts, shape, sizes):
    return [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, shape, sizes)]


@rule("dynamic_slice")
def _dynamic_slice(eqn, x, *starts):
    sizes = eqn.params["slice_sizes"]
    st = _starts(starts, x.shape, sizes)
    return x[tuple(slice(s, s + k) for s, k in zip(st, sizes))]


@rule("dynamic_update_slice")
def _dynamic_update_slice(eqn, x, update, *starts):
    st = _starts(starts, x.shape, update.shape)
    out = x.copy()
    out[tuple(slice(s, s + k) for s, k in zip(st, update.shape))] = update
    return out


def _mode(mode):
    """``"clip"``, ``"fill"`` (or drop) or ``"promise"`` for a GatherScatterMode."""
    name = str(getattr(mode, "name", mode)).lower()
    return "fill" if "fill" in name or "drop" in name else "clip" if "clip" in name else "promise"


def _windows(operand_shape, idx, index_map, window, batch_nd):
    """Per operand dimension, the index array (batch dims, then window dims) of each element
    of each window, and per batch element whether its window is in bounds."""
    starts = [np.zeros(idx.shape[:-1], np.int64) for _ in operand_shape]
    for k, d in enumerate(index_map):
        starts[d] = idx[..., k].astype(np.int64)
    ok = np.ones(idx.shape[:-1], bool)
    for d, n in enumerate(operand_shape):
        ok &= (starts[d] >= 0) & (starts[d] <= n - window[d])
    arrays = []
    nw = len(window)
    for d, n in enumerate(operand_shape):
        s = np.clip(starts[d], 0, max(n - window[d], 0))
        shape = [1] * nw
        shape[d] = window[d]
        arrays.append(s.reshape(s.shape + (1,) * nw) + np.arange(window[d]).reshape(shape))
    return arrays, ok


@rule("gather")
def _gather(eqn, x, idx):
    p = eqn.params
    dn = p["dimension_numbers"]
    if getattr(dn, "operand_batching_dims", ()):
        raise Unsupported("gather")
    sizes = tuple(p["slice_sizes"])
    arrays, ok = _windows(x.shape, idx, dn.start_index_map, sizes, idx.ndim - 1)
    out = x[tuple(arrays)]  # batch dims + every operand dim (window)
    if _mode(p["mode"]) == "fill":
        fill = p.get("fill_value")
        if fill is None:
            fill = np.nan if x.dtype.kind in "fc" else (
                True if x.dtype.kind == "b" else np.iinfo(x.dtype).min
                if x.dtype.kind == "i" else np.iinfo(x.dtype).max)
        out = np.where(ok.reshape(ok.shape + (1,) * x.ndim), out, np.asarray(fill, x.dtype))
    nb = idx.ndim - 1
    out = out.reshape(out.shape[:nb] + tuple(
        n for d, n in enumerate(sizes) if d not in dn.collapsed_slice_dims))
    # offset dims go to their positions, batch dims fill the others in order
    rank = out.ndim
    offset = list(dn.offset_dims)
    batch_pos = [d for d in range(rank) if d not in offset]
    perm = [0] * rank
    for i, d in enumerate(batch_pos):
        perm[d] = i
    for i, d in enumerate(offset):
        perm[d] = nb + i
    return np.transpose(out, perm)


_SCATTER = {"scatter": None, "scatter-add": np.add, "scatter_add": np.add,
            "scatter-mul": np.multiply, "scatter_mul": np.multiply,
            "scatter-min": np.minimum, "scatter_min": np.minimum,
            "scatter-max": np.maximum, "scatter_max": np.maximum,
            "scatter-sub": np.subtract, "scatter_sub": np.subtract}


@rule(*_SCATTER)
def _scatter(eqn, x, idx, updates):
    p = eqn.params
    dn = p["dimension_numbers"]
    if getattr(dn, "operand_batching_dims", ()):
        raise Unsupported(eqn.primitive.name)
    window_dims = list(dn.update_window_dims)
    inserted = set(dn.inserted_window_dims)
    nb = idx.ndim - 1
    # the window's size per operand dimension (1 for an inserted one)
    wsizes = iter(updates.shape[d] for d in window_dims)
    window = tuple(1 if d in inserted else next(wsizes) for d in range(x.ndim))
    # updates as batch dims (in order) + operand dims
    ub = [d for d in range(updates.ndim) if d not in window_dims]
    u = np.transpose(updates, ub + window_dims).reshape(
        tuple(updates.shape[d] for d in ub) + window)
    arrays, ok = _windows(x.shape, idx, dn.scatter_dims_to_operand_dims, window, nb)
    if _mode(p["mode"]) == "fill":
        keep = np.broadcast_to(ok.reshape(ok.shape + (1,) * x.ndim), u.shape)
        arrays = [np.broadcast_to(a, u.shape)[keep] for a in arrays]
        u = u[keep]
    out = x.copy()
    f = _SCATTER[eqn.primitive.name]
    if f is None:
        out[tuple(arrays)] = u
    else:
        f.at(out, tuple(np.broadcast_to(a, u.shape) for a in arrays), u)
    return out
