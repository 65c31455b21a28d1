"""``tnp.ufunc``: NumPy's universal functions on JAX.

Loop dtypes come from NumPy itself (``numpy.ufunc.resolve_dtypes`` with NEP 50 weak Python
scalars) and every call's validity (casting errors, missing loops) from NumPy run once on empty
placeholder arrays of the same dtypes; both are cached per dtype signature, so the hot path is a
dict lookup and one compiled kernel call. ``out=`` and ``where=`` write through the one write path.
"""
import functools
import re

import jax
import jax.numpy as jnp
import numpy as np

from . import dtypes, write
from .ndarray import ndarray
from .normalize import to_jax


def _core_ndims(signature):
    """Number of core dimensions of each operand of a gufunc signature ("(n),(n)->()" -> [1,1,0])."""
    if not signature:
        return None
    ins, outs = signature.split("->")
    return [0 if not g.strip() else len(g.split(",")) for g in re.findall(r"\(([^)]*)\)", ins)]


class ufunc:
    """A NumPy ufunc implemented on JAX. ``impl`` maps loop-dtype jax arrays to jax results."""

    def __init__(self, np_ufunc, impl):
        self._np = np_ufunc
        self._impl = impl
        self.__name__ = np_ufunc.__name__
        self.__doc__ = np_ufunc.__doc__
        self.nin, self.nout, self.nargs = np_ufunc.nin, np_ufunc.nout, np_ufunc.nargs
        self.ntypes, self.types = np_ufunc.ntypes, np_ufunc.types
        self.identity, self.signature = np_ufunc.identity, np_ufunc.signature
        self._core = _core_ndims(np_ufunc.signature)
        self._resolve = functools.lru_cache(maxsize=None)(self._resolve_uncached)
        self._kernel = functools.lru_cache(maxsize=None)(self._kernel_uncached)

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    # ---- dtype resolution (NumPy decides; cached) ------------------------------------------
    def _placeholders(self, keys):
        out = []
        for i, k in enumerate(keys):
            if k in dtypes.WEAK_PLACEHOLDER:
                out.append(dtypes.WEAK_PLACEHOLDER[k])
            elif self._core is None:
                out.append(np.empty((0,), k))
            else:
                out.append(np.zeros((1,) * self._core[i], k))
        return out

    def _resolve_uncached(self, keys, out_dtypes, dtype, signature, casting):
        for k in keys:
            if isinstance(k, np.dtype):
                dtypes.check_supported(k)
        phs = self._placeholders(keys)
        kwargs = {"casting": casting}
        if dtype is not None:
            kwargs["dtype"] = dtype
        if signature is not None:
            kwargs["signature"] = signature
        res = self._np(*phs, **kwargs)  # raises NumPy's own error for an invalid call
        res = res if isinstance(res, tuple) else (res,)
        if out_dtypes is not None:
            outs = tuple(np.empty(np.shape(r), dt) for r, dt in zip(res, out_dtypes))
            self._np(*phs, out=outs if self.nout > 1 else outs[0], **kwargs)
        sig = signature
        if dtype is not None and sig is None:
            sig = (None,) * self.nin + (dtype,) * self.nout
        kw = {"casting": casting} if sig is None else {"casting": casting, "signature": sig}
        loop = self._np.resolve_dtypes(tuple(keys) + (None,) * self.nout, **kw)
        return loop[:self.nin], tuple(np.dtype(r.dtype) for r in res)

    # ---- compiled kernels ----------------------------------------------------------------
    def _kernel_uncached(self, in_dtypes, out_dtypes):
        impl = self._impl

        def kernel(*xs):
            xs = [jnp.asarray(x, dt) for x, dt in zip(xs, in_dtypes)]
            r = impl(*xs)
            if isinstance(r, tuple):
                return tuple(v.astype(dt) for v, dt in zip(r, out_dtypes))
            return r.astype(out_dtypes[0])
        return jax.jit(kernel)

    # ---- call ------------------------------------------------------------------------------
    def __call__(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None,
                 subok=True, signature=None):
        if len(args) != self.nin:
            if len(args) == self.nargs and out is None:
                args, out = args[:self.nin], args[self.nin:]
            else:
                self._np(*[0] * len(args))  # NumPy's own TypeError for the wrong argument count
        ops, keys = [], []
        for a in args:
            t = type(a)
            if t is ndarray:
                ops.append(a._value)
                keys.append(a._dtype)
            elif t in dtypes.WEAK_PLACEHOLDER:
                ops.append(a)
                keys.append(t)
            else:
                v = to_jax(a)
                ops.append(v)
                keys.append(np.dtype(v.dtype))
        outs = _normalize_out(out, self.nout)
        dtype = dtypes.canonical(dtype) if dtype is not None else None
        in_dts, out_dts = self._resolve(
            tuple(keys), None if outs is None else tuple(o.dtype for o in outs), dtype,
            _hashable_signature(signature), casting)
        for i, k in enumerate(keys):
            if k is int:
                dtypes.check_python_int(ops[i], in_dts[i])
                if in_dts[i].kind in "fc":
                    ops[i] = float(ops[i])
        result = self._kernel(in_dts, out_dts)(*ops)
        if outs is None:
            if self.nout == 1:
                return ndarray._wrap(result)
            return tuple(ndarray._wrap(r) for r in result)
        results = result if self.nout > 1 else (result,)
        wh = None if where is True else to_jax(where)
        for o, r in zip(outs, results):
            if o is not None:
                write.assign(o, r, where=wh)
        if self.nout == 1:
            return outs[0]
        return tuple(o if o is not None else ndarray._wrap(r) for o, r in zip(outs, results))


def _hashable_signature(signature):
    if signature is None or isinstance(signature, str):
        return signature
    return tuple(None if s is None else dtypes.canonical(s) for s in signature)


def _normalize_out(out, nout):
    if out is None:
        return None
    if not isinstance(out, tuple):
        out = (out,)
    if all(o is None for o in out):
        return None
    if len(out) != nout:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    for o in out:
        if o is not None and not isinstance(o, ndarray):
            raise TypeError("return arrays must be of ArrayType")
    return out
