"""The bodies of the ufunc methods' kernels (``reduce``, ``accumulate``, ``reduceat``'s folds,
``at``) and of their float-error flags: pure functions of JAX arrays, traced and compiled
once per ufunc, method and static argument set (``method_kernel``; ``ufunc._method_kernel``
caches them). ``reduce_body`` is also the reduction the routines' own fronts trace.
"""
import functools

from ..engine.jaxload import jax, jit, jnp, lax
import numpy as np

from ..numerics.fperr import flags as _fp_flags, int_fold_flags
from ..numerics.casting import numpy_cast
from .loops import cast_in as _cast_in

# Binary ufuncs whose reduction may use XLA's tree reduction (associative and commutative).
_TREE_REDUCE = frozenset({"bitwise_and", "bitwise_or", "bitwise_xor", "logical_and",
                          "logical_or", "logical_xor", "fmax", "fmin"})


def _fold(uf, dt, x, mask=None, init=None):
    """Left fold of ``uf`` over axis 0 of ``x`` (NumPy's order); masked elements are skipped."""
    def step(c, v):
        new = numpy_cast(uf._impl(c, v[0]), dt)
        return (new if mask is None else jnp.where(v[1], new, c)), None
    xs = (x, x if mask is None else mask)
    if init is None:  # NumPy demands an identity or an initial value for a masked reduction
        carry, xs = x[0], (x[1:], xs[1][1:])
    else:
        carry = jnp.broadcast_to(numpy_cast(jnp.asarray(init), dt), x.shape[1:])
    carry, _ = lax.scan(step, carry, xs)
    return carry


def reduce_body(uf, static, x, where):
    """The reduction engine's body: ``uf.reduce`` over ``axes`` in ``dt`` (inside a kernel)."""
    axes, dt, keepdims, initial, has_initial = static
    x = _cast_in(x, dt)
    name = uf.__name__
    ident = uf.identity
    if where is not None:
        where = jnp.broadcast_to(where, x.shape)
    # float16: NumPy's sums accumulate in float32 (pairwise) and round once; its products
    # round at every step (the fold below)
    half = dt == np.float16
    if axes and ((name == "add" or name == "multiply" and not half) or (
            name in ("maximum", "minimum") and dt.kind != "c")):
        fn = {"add": jnp.sum, "multiply": jnp.prod, "maximum": jnp.max, "minimum": jnp.min}[name]
        kw = {"initial": initial} if has_initial else {}
        if where is not None:
            kw["where"] = where
        if name in ("add", "multiply"):
            kw["dtype"] = np.dtype(np.float32) if half else dt
        if name == "add" and has_initial and dt.kind in "fc":
            # XLA's sum starts at +0.0, which turns a sum of -0.0s into +0.0; -0.0 is the
            # identity that keeps every sign (XLA's reduce needs an identity to start from)
            acc = kw["dtype"]
            neg_zero = -jnp.zeros((), acc)
            xv = x.astype(acc) if where is None else jnp.where(where, x.astype(acc), neg_zero)
            r = lax.reduce(xv, neg_zero, lax.add, axes) + numpy_cast(
                jnp.asarray(initial), dt).astype(acc)
        else:
            r = fn(x, axis=axes, **kw)
    elif axes and name in _TREE_REDUCE and (ident is not None or dt.kind in "fc"):
        init = numpy_cast(jnp.asarray(np.nan if ident is None else ident), dt)
        xv = x if where is None else jnp.where(where, x, init)
        r = lax.reduce(xv, init, lambda p, q: numpy_cast(uf._impl(p, q), dt), axes)
        if has_initial:
            r = numpy_cast(uf._impl(numpy_cast(jnp.asarray(initial), dt), r), dt)
    else:
        rest = [i for i in range(x.ndim) if i not in axes]
        perm = list(axes) + rest
        n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
        xt = jnp.transpose(x, perm).reshape((n,) + tuple(x.shape[i] for i in rest))
        mt = None
        if where is not None:
            mt = jnp.transpose(where, perm).reshape(xt.shape)
        r = _fold(uf, dt, xt, mt, initial if has_initial else ident)
    if keepdims:
        r = jnp.expand_dims(r, axes)
    return numpy_cast(r, dt)


def _accumulate_body(uf, static, x):
    """``uf.accumulate`` along ``ax`` in ``dt`` (inside a kernel), in NumPy's order (a left
    fold, rounded at every step) wherever the order can change the answer and the cost allows."""
    ax, dt, include_initial = static
    x = _cast_in(x, dt)
    name = uf.__name__
    if name in ("add", "multiply") and dt.kind in "biu":  # (any order gives NumPy's answer)
        r = _xla_cumulative(name, dt, ax, x)
    elif name in ("add", "multiply") and dt.kind == "f" and dt != np.float16:
        # NumPy's float sums and products accumulate in sequence. On CPU the sequential scan
        # gives NumPy's bits and costs no more than XLA's parallel scan (README,
        # diff-accumulation); on a GPU or TPU a loop of n steps costs seconds, so XLA's scan
        # stays there, within the error bound the README states.
        r = lax.platform_dependent(
            x, cpu=functools.partial(_sequential_accumulate, uf, dt, ax),
            default=functools.partial(_xla_cumulative, name, dt, ax))
    elif dt.kind in "biu" and (name in _TREE_REDUCE or name in ("maximum", "minimum")):
        r = lax.associative_scan(lambda p, q: numpy_cast(uf._impl(p, q), dt), x, axis=ax)
    else:  # (complex sums keep NumPy's signed zeros; float16 rounds at every step as NumPy)
        r = _sequential_accumulate(uf, dt, ax, x)
    if include_initial:
        shape = list(r.shape)
        shape[ax] = 1
        r = jnp.concatenate([jnp.full(shape, uf.identity, dt), r], axis=ax)
    return r


def _sequential_accumulate(uf, dt, ax, x):
    """The left fold of ``uf`` along ``ax`` with every partial result: NumPy's own order."""
    if x.shape[ax] == 0:
        return x
    xm = jnp.moveaxis(x, ax, 0)

    def step(c, v):
        new = numpy_cast(uf._impl(c, v), dt)
        return new, new
    _, ys = lax.scan(step, xm[0], xm[1:])
    return jnp.moveaxis(jnp.concatenate([xm[:1], ys]), 0, ax)


def _xla_cumulative(name, dt, ax, x):
    """XLA's cumulative sum or product (a parallel scan: another order than NumPy's). XLA's sum
    starts from +0: in NumPy's order a prefix of -0.0s sums to -0.0, which is put back."""
    r = (jnp.cumsum if name == "add" else jnp.cumprod)(x, axis=ax, dtype=dt)
    if name == "add" and dt.kind == "f" and x.shape[ax]:
        r = lax.cond(_any_neg_zero(jnp.take(x, 0, axis=ax)),
                     functools.partial(_leading_neg_zeros, ax=ax), lambda x, r: r, x, r)
    return r


def _any_neg_zero(x):
    return jnp.any((x == 0) & jnp.signbit(x))


def _leading_neg_zeros(x, r, ax):
    """``r`` (a cumulative sum of ``x`` along ``ax``) with the leading run of -0.0s of ``x``
    kept -0.0, as NumPy's sequential sum gives them (XLA's starts from +0)."""
    other = (x != 0) | ~jnp.signbit(x)
    first = jnp.where(jnp.any(other, axis=ax, keepdims=True),
                      jnp.argmax(other, axis=ax, keepdims=True), x.shape[ax])
    lead = lax.broadcasted_iota(first.dtype, x.shape, ax) < first
    return jnp.where(lead, jnp.asarray(-0.0, r.dtype), r)


def _fold_body(uf, static, seg):
    (dt,) = static
    return _fold(uf, dt, seg)


def _at_body(uf, static, a, pos, *vals):
    in_dts, a_dt = static
    flat = a.reshape(-1)
    pos = pos.reshape(-1)
    vals = tuple(v.reshape(-1) for v in vals)
    name = uf.__name__
    if name in ("add", "multiply", "maximum", "minimum") and a_dt.kind not in "bc" and \
            in_dts[0] == a_dt and vals and vals[0].dtype == a_dt:
        ref = flat.at[pos]
        op = {"add": ref.add, "multiply": ref.multiply, "maximum": ref.max,
              "minimum": ref.min}[name]
        return op(vals[0]).reshape(a.shape)

    def step(f, k):
        i = pos[k]
        args = (_cast_in(f[i], in_dts[0]),) + tuple(_cast_in(v[k], d) for v, d in
                                                    zip(vals, in_dts[1:]))
        r = uf._impl(*args)
        return f.at[i].set(numpy_cast(r, a_dt)), None
    flat, _ = lax.scan(step, flat, jnp.arange(pos.shape[0]))
    return flat.reshape(a.shape)


def _reduce_flags(uf, static, x, where, r):
    """``fperr.flags`` of ``reduce_body``'s result ``r``: per result element, over the input
    elements reduced into it (masked-out ones read as 1, which sets no flag)."""
    axes, dt, keepdims = static[:3]
    x = _cast_in(x, dt)
    if where is not None:
        x = jnp.where(where, x, jnp.ones((), dt))
    if dt.kind in "iu":  # (one axis: NumPy reduces the integer divisions over one only)
        return int_fold_flags(uf.__name__, x, _accumulate_body(uf, (axes[0], dt, False), x),
                              axes[0])

    def along(v, every):
        return (jnp.all if every else jnp.any)(v, axis=axes, keepdims=keepdims)
    return _fp_flags(uf.__name__, [x], [r], along)


def _accumulate_flags(uf, static, x, where, r):
    """``fperr.flags`` of ``_accumulate_body``'s result ``r``: per result element, over the
    input elements up to it."""
    ax, dt, include_initial = static
    x = _cast_in(x, dt)
    if include_initial:
        r = lax.slice_in_dim(r, 1, None, axis=ax)
    if dt.kind in "iu":
        return int_fold_flags(uf.__name__, x, r, ax)

    def along(v, every):
        v = v.astype(np.int8)
        return (lax.cummin if every else lax.cummax)(v, axis=ax).astype(bool)
    return _fp_flags(uf.__name__, [x], [r], along)


METHODS = {"reduce": reduce_body, "accumulate": _accumulate_body, "fold": _fold_body,
           "at": _at_body, "reduce_flags": _reduce_flags,
           "accumulate_flags": _accumulate_flags}


def method_kernel(uf, method, static):
    """The compiled kernel of ``uf``'s ``method`` body for the ``static`` arguments."""
    return jit(functools.partial(METHODS[method], uf, static))
