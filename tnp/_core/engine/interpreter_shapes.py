"""The NumPy tier's rules for primitives that move data without computing: broadcasts,
reshapes, transposes, slices, concatenation, padding, reversal, splitting and ``iota``."""
import numpy as np

from .interpreter_base import rule


@rule("broadcast_in_dim")
def _broadcast_in_dim(eqn, x, *dyn):
    shape = eqn.params["shape"]
    dims = eqn.params["broadcast_dimensions"]
    s = [1] * len(shape)
    for d, n in zip(dims, x.shape):
        s[d] = n
    return np.broadcast_to(x.reshape(s), shape)


@rule("reshape")
def _reshape(eqn, x, *dyn):
    if eqn.params.get("dimensions"):
        x = np.transpose(x, eqn.params["dimensions"])
    return np.reshape(x, eqn.params["new_sizes"])


@rule("transpose")
def _transpose(eqn, x):
    return np.transpose(x, eqn.params["permutation"])


@rule("squeeze")
def _squeeze(eqn, x):
    return np.squeeze(x, tuple(eqn.params["dimensions"]))


@rule("expand_dims")
def _expand_dims(eqn, x):
    return np.expand_dims(x, tuple(eqn.params["dimensions"]))


@rule("rev")
def _rev(eqn, x):
    return np.flip(x, tuple(eqn.params["dimensions"]))


@rule("slice")
def _slice(eqn, x):
    p = eqn.params
    strides = p["strides"] or (1,) * x.ndim
    return x[tuple(slice(a, b, s) for a, b, s in
                   zip(p["start_indices"], p["limit_indices"], strides))]


@rule("concatenate")
def _concatenate(eqn, *xs):
    return np.concatenate(xs, axis=eqn.params["dimension"])


@rule("split")
def _split(eqn, x):
    cuts = np.cumsum(eqn.params["sizes"])[:-1]
    return np.split(x, cuts, axis=eqn.params["axis"])


@rule("pad")
def _pad(eqn, x, value):
    config = eqn.params["padding_config"]
    aval = eqn.outvars[0].aval
    # interior padding first, then the edges (negative edges cut)
    inner = [n + max(n - 1, 0) * i for n, (_, _, i) in zip(x.shape, config)]
    mid = np.full(inner, value, x.dtype)
    mid[tuple(slice(None, None, i + 1) for _, _, i in config)] = x
    full = np.full([n + max(lo, 0) + max(hi, 0) for n, (lo, hi, _) in zip(inner, config)],
                   value, x.dtype)
    full[tuple(slice(max(lo, 0), max(lo, 0) + n) for n, (lo, _, _) in zip(inner, config))] = mid
    out = full[tuple(slice(-min(lo, 0), full.shape[d] + min(hi, 0))
                     for d, (lo, hi, _) in enumerate(config))]
    assert out.shape == tuple(aval.shape)
    return out


@rule("iota")
def _iota(eqn, *dyn):
    p = eqn.params
    shape, d = p["shape"], p["dimension"]
    r = np.arange(shape[d], dtype=p["dtype"])
    s = [1] * len(shape)
    s[d] = shape[d]
    return np.broadcast_to(r.reshape(s), shape)


@rule("stack")
def _stack(eqn, *xs):
    return np.stack(xs, axis=eqn.params["axis"])


@rule("unstack")
def _unstack(eqn, x):
    return list(np.moveaxis(x, eqn.params["axis"], 0))


@rule("tile")
def _tile(eqn, x):
    return np.tile(x, eqn.params["reps"])


@rule("platform_index")
def _platform_index(eqn, *xs):
    """The branch ``lax.platform_dependent`` takes on the CPU (the default's, after the
    named ones, when no group names it)."""
    groups = eqn.params["platforms"]
    for i, group in enumerate(groups):
        if group is not None and "cpu" in group:
            return np.int32(i)
    return np.int32(len(groups))
