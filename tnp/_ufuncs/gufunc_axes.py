"""``axes=``, ``axis=`` and ``keepdims=`` of NumPy's generalized ufuncs (matmul, vecdot, matvec,
vecmat) for tnp's gufuncs.

NumPy validates the specification (run once on all-ones placeholders of the operands' numbers
of dimensions: its own errors, nothing computed); tnp then moves each operand's core axes to the
end (views, no copy), calls the gufunc and moves the output's core axes to where ``axes`` puts
them (or keeps the reduced axis with ``keepdims``). Private module: no public names.
"""
import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .._core.array.ndarray import ndarray
from .._core.methods import routines
from .._core.ufunc import ufunc

__all__ = []


def _entry(e):
    return (e,) if not isinstance(e, (tuple, list)) else tuple(e)


class gufunc(ufunc):
    """A tnp.ufunc with a core signature that also takes ``axes``, ``axis`` and ``keepdims``."""

    def __call__(self, *args, axes=None, axis=None, keepdims=False, **kwargs):
        if axes is None and axis is None and keepdims is False:
            return super().__call__(*args, **kwargs)
        return self._call_axes(args, axes, axis, keepdims, kwargs)

    def _call_axes(self, args, axes, axis, keepdims, kwargs):
        if len(args) != self.nin:  # positional outputs: NumPy's own handling via ``out=``
            if self.nin < len(args) <= self.nargs and "out" not in kwargs:
                kwargs = dict(kwargs, out=args[self.nin:] if self.nout > 1 else args[self.nin])
                args = args[:self.nin]
            else:
                return super().__call__(*args, axes=axes, axis=axis, keepdims=keepdims,
                                        **kwargs)
        ops = [a if isinstance(a, ndarray) else routines.tnp.asarray(a) for a in args]
        spec = {k: v for k, v in (("axes", axes), ("axis", axis)) if v is not None}
        if keepdims is not False:
            spec["keepdims"] = keepdims
        phs = [np.ones((1,) * o.ndim, o.dtype) for o in ops]
        with np.errstate(all="ignore"):
            probe = self._np(*phs, **spec)  # NumPy's own error for an invalid specification
        out_ndim = np.ndim(probe)
        ins = list(self._core)
        if axis is not None:
            in_axes = [(axis,)] * self.nin
            out_axes = (axis,) if keepdims else ()
        elif axes is not None:
            in_axes = [_entry(e) for e in list(axes)[:self.nin]]
            out_axes = _entry(axes[self.nin]) if len(axes) > self.nin else ()
            if keepdims and len(axes) == self.nin:  # the kept axes: the output's last ones
                out_axes = tuple(range(-len(in_axes[0]), 0))
        else:  # keepdims alone: the default core axes, the last ones
            in_axes = [tuple(range(-k, 0)) for k in ins]
            out_axes = in_axes[0]
        moved = []
        for o, ax in zip(ops, in_axes):
            k = len(ax)
            src = [normalize_axis_index(a, o.ndim) for a in ax]
            moved.append(_moveaxis(o, src, range(o.ndim - k, o.ndim)) if k else o)
        out = kwargs.get("out")
        if out is not None:
            single = out[0] if isinstance(out, tuple) else out
            if single is not None:
                k = len(out_axes)
                try:
                    dims = [normalize_axis_index(a, single.ndim) for a in out_axes]
                    if keepdims:  # the kept size-1 axes squeezed away: a view writing through
                        view = single.squeeze(axis=tuple(dims))
                    elif k:
                        view = _moveaxis(single, dims, range(single.ndim - k, single.ndim))
                    else:
                        view = single
                    super().__call__(*moved, **dict(kwargs, out=view))
                except ValueError:  # NumPy's message names the operands as the caller gave them
                    self._axes_numpy_error(ops, spec, single)
                    raise
                return out
        try:
            r = super().__call__(*moved, **kwargs)
        except ValueError:
            self._axes_numpy_error(ops, spec, None)
            raise
        if out is not None:
            return r
        if keepdims:
            return _expand_dims(r, [normalize_axis_index(a, out_ndim) for a in out_axes])
        if out_axes:
            k = len(out_axes)
            dst = [normalize_axis_index(a, out_ndim) for a in out_axes]
            return _moveaxis(r, range(out_ndim - k, out_ndim), dst)
        return r

    def _axes_numpy_error(self, ops, spec, out):
        """Raise NumPy's own error for this call (zero-strided placeholders of the operands'
        shapes; only on a failure path, so the placeholder computation costs nothing usual)."""
        phs = [np.broadcast_to(np.zeros((), o.dtype), o.shape) for o in ops]
        kw = dict(spec)
        if out is not None:
            kw["out"] = np.zeros(out.shape, out.dtype)
        with np.errstate(all="ignore"):
            self._np(*phs, **kw)


def _moveaxis(x, source, destination):
    """``moveaxis`` for axes already normalised (NumPy's order): a transposed view of ``x``."""
    order = [n for n in range(x.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return x.transpose(order)


def _expand_dims(x, axes):
    """``expand_dims`` for axes already normalised against the result's ndim: a view."""
    dims = iter(x.shape)
    return x.reshape(tuple(1 if d in axes else next(dims) for d in range(x.ndim + len(axes))))
