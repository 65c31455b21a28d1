"""Products of arrays: dot, vdot, inner, outer, tensordot, einsum, einsum_path, kron, trace, cross.

Result dtypes are NumPy's (its own functions run on tiny placeholders, cached). Integer products
are computed in 64 bits and wrapped to NumPy's dtype, bool products are logical (any of and),
float16 accumulates in float32 as NumPy does, and floats use XLA's highest precision.
"""
from .._core.engine.jaxload import jax, jnp
import numpy as np

from .._core.rules import probe
from .._core.array import storage, write
from .._core.numerics.casting import numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import (ArrayLike, ArrayLikeSeq, normalize, normalize_axis,
                                        single_out, to_jax)
from .._core.dispatch.np_doc import np_doc

__all__ = ["dot", "vdot", "inner", "outer", "tensordot", "einsum", "einsum_path", "kron", "trace",
           "cross"]

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
HIGHEST = "highest"  # jax.lax.Precision.HIGHEST, by name (JAX is imported on first use)


def compute_dtype(dt):
    """The dtype a product of ``dt`` accumulates in (cast back to ``dt`` afterwards)."""
    if dt.kind == "b" or dt.kind == "i":
        return np.dtype(np.int64)
    if dt.kind == "u":
        return np.dtype(np.uint64)
    if dt == np.float16:
        return np.dtype(np.float32)
    return dt


def finish(r, dt):
    """A product computed in ``compute_dtype(dt)`` as NumPy's ``dt``; NumPy's sums start at +0,
    so a -0.0 product comes out as +0.0."""
    if dt.kind == "f":
        r = jnp.where(r == 0, jnp.zeros((), r.dtype), r)
    elif dt.kind == "c":
        re, im = r.real, r.imag
        r = jax.lax.complex(numpy_cast(jnp.where(re == 0, 0, re), re.dtype),
                            numpy_cast(jnp.where(im == 0, 0, im), im.dtype))
    return (r != 0) if dt.kind == "b" else numpy_cast(r, dt)


def _tdot(a, b, axes, dt):
    ct = compute_dtype(dt)
    r = jnp.tensordot(numpy_cast(a, ct), numpy_cast(b, ct), axes, precision=HIGHEST,
                      preferred_element_type=ct)
    return finish(r, dt)


def _check_out(out, shape, dtype):
    if (not isinstance(out, ndarray) or out.shape != shape or out.dtype != dtype
            or not out.flags.c_contiguous or not out._writeable):
        raise ValueError("output array is not acceptable (must have the right datatype, number of "
                         "dimensions, and be a C-Array)")


def _not_aligned(fn, a, b):
    """NumPy's error for operands whose contracted dimensions differ (raised before any work)."""
    probe.call(fn, probe.like(a), probe.like(b))


@normalize
def _dot(a: ArrayLike, b: ArrayLike):
    dt = probe.dtype_of(np.dot, probe.unit(a), probe.unit(b))
    if a.ndim == 0 or b.ndim == 0:
        return _tdot(a, b, 0, dt)
    j = max(b.ndim - 2, 0)
    if a.shape[-1] != b.shape[j]:
        _not_aligned(np.dot, a, b)
    return _tdot(a, b, ([a.ndim - 1], [j]), dt)


@np_doc(np.dot)
def dot(a, b, out=None):
    r = _dot(a, b)
    if out is None:
        return r
    _check_out(out, r.shape, r.dtype)
    write.assign(out, r)
    return out


@np_doc(np.vdot)
@normalize
def vdot(a: ArrayLike, b: ArrayLike, /):
    dt = probe.dtype_of(np.vdot, probe.Spec((1,), a.dtype), probe.Spec((1,), b.dtype))
    if a.size != b.size:
        _not_aligned(np.vdot, a, b)
    a = a.ravel()
    if a.dtype.kind == "c":
        a = jnp.conj(a)
    return _tdot(a, b.ravel(), 1, dt)


@np_doc(np.inner)
@normalize
def inner(a: ArrayLike, b: ArrayLike, /):
    dt = probe.dtype_of(np.inner, probe.unit(a), probe.unit(b))
    if a.ndim == 0 or b.ndim == 0:
        return _tdot(a, b, 0, dt)
    if a.shape[-1] != b.shape[-1]:
        _not_aligned(np.inner, a, b)
    return _tdot(a, b, ([a.ndim - 1], [b.ndim - 1]), dt)


@normalize
def _outer(a: ArrayLike, b: ArrayLike):
    dt = probe.dtype_of(np.outer, probe.Spec((1,), a.dtype), probe.Spec((1,), b.dtype))
    a, b = numpy_cast(a.ravel(), dt), numpy_cast(b.ravel(), dt)
    if dt.kind == "b":
        return a[:, None] & b[None, :]
    return a[:, None] * b[None, :]


@np_doc(np.outer)
def outer(a, b, out=None):
    r = _outer(a, b)
    if out is None:
        return r
    from .._ufuncs.table import multiply
    return multiply(r, True, out=out) if r.dtype.kind == "b" else multiply(r, 1, out=out)


def _tensordot_axes(axes, ash, bsh):
    try:
        iter(axes)
    except TypeError:
        n = int(axes)
        axes_a, axes_b = list(range(-n, 0)), list(range(n))
    else:
        axes_a, axes_b = axes
    axes_a = [axes_a] if isinstance(axes_a, (int, np.integer)) else list(axes_a)
    axes_b = [axes_b] if isinstance(axes_b, (int, np.integer)) else list(axes_b)
    if len(axes_a) != len(axes_b) or any(
            ash[i] != bsh[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError("shape-mismatch for sum")
    return ([i % len(ash) for i in axes_a], [j % len(bsh) for j in axes_b])


@np_doc(np.tensordot)
@normalize
def tensordot(a: ArrayLike, b: ArrayLike, axes=2):
    dt = probe.dtype_of(np.dot, probe.Spec((1,), a.dtype), probe.Spec((1,), b.dtype))
    return _tdot(a, b, _tensordot_axes(axes, a.shape, b.shape), dt)


def _split_operands(operands):
    """einsum's operands in the subscripts-string form: (subscripts, arrays)."""
    if operands and isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    n = len(operands) - len(operands) % 2
    ops, subs = list(operands[0:n:2]), list(operands[1:n:2])
    letters = _LETTERS[26:] + _LETTERS[:26]  # NumPy's labels: 0-25 'A'-'Z', 26-51 'a'-'z'

    def conv(sub):
        s = ""
        for k in sub:
            if k is Ellipsis:
                s += "..."
            else:
                k = int(k)
                if not 0 <= k < 52:
                    raise ValueError("subscript is not within the valid range [0, 52)")
                s += letters[k]
        return s
    text = ",".join(conv(s) for s in subs)
    if len(operands) % 2:
        text += "->" + conv(operands[-1])
    return text, ops


def _canonical(subscripts):
    """``subscripts`` with the output made explicit (implicit mode: the broadcast dimensions,
    then the labels met once, in character order, as NumPy does) and the labels renamed in order
    of first appearance, so that every spelling of one contraction (``"ij,jk"``, ``"ab,bc"``,
    the sublist form) is one compiled kernel per shape. Subscripts this does not read cleanly
    are returned unchanged (NumPy's probe and ``jnp.einsum`` judge them)."""
    s = subscripts.replace(" ", "")
    if not s:
        return subscripts
    ins, arrow, out = s.partition("->")
    terms = ins.split(",") + ([out] if arrow else [])
    bare = [t.replace("...", "", 1) for t in terms]
    if "->" in out or not all(b == "" or (b.isascii() and b.isalpha()) for b in bare):
        return subscripts
    labels = "".join(bare[:len(bare) - bool(arrow)])
    if arrow:
        if len(set(bare[-1])) != len(bare[-1]) or not set(bare[-1]) <= set(labels) or (
                "..." in out and "..." not in ins):
            return subscripts
    else:
        once = sorted(c for c in set(labels) if labels.count(c) == 1)
        out = ("..." if "..." in ins else "") + "".join(once)
    names = {}
    for c in labels:
        names.setdefault(c, _LETTERS[len(names)])
    rename = "".join(names.get(c, c) for c in ins + "->" + out)
    return rename


def _jax_path(optimize):
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return tuple(tuple(p) for p in optimize[1:])
    if optimize in ("greedy", "optimal"):
        return optimize
    return "auto" if optimize else "unoptimized"


@normalize
def _einsum(subscripts, ops: ArrayLikeSeq, dtype, casting, optimize):
    dt = np.result_type(*[o.dtype for o in ops]) if dtype is None else dtype
    for o in ops:
        if not np.can_cast(o.dtype, dt, casting):
            raise TypeError(f"Cannot cast array data from dtype('{o.dtype}') to dtype('{dt}') "
                            f"according to the rule '{casting}'")
    ct = compute_dtype(dt)
    try:
        path = (list(optimize) if isinstance(optimize, tuple) else
                "auto" if optimize == "unoptimized" else optimize)
        r = jnp.einsum(subscripts, *[numpy_cast(o, ct) for o in ops], optimize=path,
                       precision=HIGHEST, preferred_element_type=ct)
    except (TypeError, ValueError, IndexError) as e:
        raise ValueError(str(e)) from None
    # NumPy's unoptimized einsum accumulates from +0; its optimized path keeps -0.0 products
    return finish(r, dt) if len(ops) > 1 and optimize == "unoptimized" else (
        (r != 0) if dt.kind == "b" else numpy_cast(r, dt))


def _einsum_view(subscripts, a):
    """One operand, no label summed: NumPy's einsum returns a view of it (diagonals for repeated
    labels, then the output's order); None where that is not the case or the subscripts do not
    fit the operand (the kernel raises NumPy's error)."""
    ins, arrow, out = subscripts.partition("->")
    if not arrow or "," in ins or ins.count("...") > 1:
        return None
    nell = a.ndim - len(ins.replace("...", "")) if "..." in ins else 0
    if nell < 0:
        return None
    ell = list(range(nell))  # the broadcast dimensions, as labels that no letter can be

    def labels(term):
        head, dots, tail = term.partition("...")
        return list(head) + (ell if dots else []) + list(tail)
    src, dst = labels(ins), labels(out)
    if len(src) != a.ndim or set(src) != set(dst) or len(set(dst)) != len(dst):
        return None
    v = a
    while len(set(src)) < len(src):
        c = next(c for c in src if src.count(c) > 1)
        i, j = [k for k, x in enumerate(src) if x == c][:2]
        if v.shape[i] != v.shape[j]:
            return None
        shape = tuple(n for k, n in enumerate(v.shape) if k not in (i, j)) + (v.shape[i],)
        d = v._view(("diagonal", (0, i, j)), (), shape)
        storage.set_writeable(d, v._writeable)  # einsum's diagonal: as writeable as its operand
        v, src = d, [x for k, x in enumerate(src) if k not in (i, j)] + [c]
    perm = tuple(src.index(x) for x in dst)
    if perm != tuple(range(len(perm))):
        return v.transpose(perm)
    return v if v is not a else a[...]


@np_doc(np.einsum)
def einsum(*operands, out=None, optimize=False, **kwargs):
    bad = set(kwargs) - {"dtype", "order", "casting"}
    if bad:
        raise TypeError(f"'{sorted(bad)[0]}' is an invalid keyword argument for einsum")
    if out is not None:
        out = single_out(out, "keyword parameter out must be an array for einsum",
                         "operand array with iterator write flag set is read-only")
    if kwargs.get("order", "K") not in ("K", "k"):
        probe.call(np.einsum, "", 0, order=kwargs["order"])  # NumPy's error for a bad order
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        einsum_path(*operands, optimize=optimize)  # NumPy's RuntimeError for an invalid path
    subscripts, ops = _split_operands(operands)
    dtype = kwargs.get("dtype")
    dtype = None if dtype is None else np.dtype(dtype)
    casting, path = kwargs.get("casting", "safe"), _jax_path(optimize)
    if len(ops) == 1 and isinstance(ops[0], ndarray) and dtype is None and out is None:
        view = _einsum_view(_canonical(subscripts), ops[0])  # NumPy's einsum returns a view
        if view is not None:
            return view
    try:
        r = _einsum(_canonical(subscripts), ops, dtype, casting, path)
    except (ValueError, TypeError):
        # the error as the caller spelt the subscripts (its message names their labels)
        r = _einsum(subscripts, ops, dtype, casting, path)
    if out is None:
        return r
    if out.shape != r.shape:
        raise ValueError("output has wrong dimensions or dtype")
    write.assign(out, r)
    return out


@np_doc(np.einsum_path)
def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """A contraction order from shapes only: NumPy's own planner on placeholders."""
    subscripts, ops = _split_operands(operands)
    args = [subscripts] + [probe.placeholder(probe.like(to_jax(o))) for o in ops]
    return np.einsum_path(*args, optimize=optimize, einsum_call=einsum_call)


@np_doc(np.kron)
@normalize
def kron(a: ArrayLike, b: ArrayLike):
    dt = probe.dtype_of(np.kron, probe.unit(a), probe.unit(b))
    nd = max(a.ndim, b.ndim)
    a = numpy_cast(a.reshape((1,) * (nd - a.ndim) + a.shape), dt)
    b = numpy_cast(b.reshape((1,) * (nd - b.ndim) + b.shape), dt)
    r = (a.reshape(sum(((n, 1) for n in a.shape), ())) *
         b.reshape(sum(((1, n) for n in b.shape), ())))
    return numpy_cast(r.reshape(tuple(m * n for m, n in zip(a.shape, b.shape))), dt)


@normalize
def _trace(a: ArrayLike, offset, axis1, axis2, dtype):
    dt = probe.dtype_of(np.trace, probe.unit(a), 0, axis1, axis2, dtype)
    ct = compute_dtype(dt) if dt.kind != "b" else dt
    d = jnp.diagonal(a, offset, axis1, axis2)
    return numpy_cast(jnp.sum(numpy_cast(d, ct), axis=-1, dtype=ct), dt)


@np_doc(np.trace)
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    r = _trace(a, offset, axis1, axis2, None if dtype is None else np.dtype(dtype))
    if out is None:
        return r
    write.assign(out, r, readonly="output array is read-only")
    return out


@np_doc(np.cross)
@normalize
def cross(a: ArrayLike, b: ArrayLike, axisa=-1, axisb=-1, axisc=-1, axis=None):
    shape, dt = probe.call(np.cross, probe.like(a), probe.like(b), axisa, axisb, axisc, axis)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = numpy_cast(jnp.moveaxis(a, normalize_axis(axisa, a.ndim), -1), dt)
    b = numpy_cast(jnp.moveaxis(b, normalize_axis(axisb, b.ndim), -1), dt)
    if a.shape[-1] == 2:
        a = jnp.concatenate([a, jnp.zeros(a.shape[:-1] + (1,), dt)], -1)
    if b.shape[-1] == 2:
        b = jnp.concatenate([b, jnp.zeros(b.shape[:-1] + (1,), dt)], -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    r = jnp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    if len(shape) == len(r.shape) - 1:
        return r[..., 2].reshape(shape)
    return jnp.moveaxis(r, -1, normalize_axis(axisc, len(shape))).reshape(shape)
