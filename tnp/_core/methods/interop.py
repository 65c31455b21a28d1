"""NumPy's protocols: ``numpy.add(tnp_array, ...)`` and ``numpy.sum(tnp_array)`` run tnp's
implementation on the device and return tnp arrays."""
import numpy as np

from ..dispatch import fallback, tiers
from ..array import write
from ..array.ndarray import ndarray
from ..dispatch.np_doc import REGISTRY
from ..ufunc import for_numpy, overridden, ufunc

_NAMESPACES = {"numpy": "main", "numpy.linalg": "linalg", "numpy.fft": "fft",
               "numpy.random": "random", "numpy.lib.stride_tricks": "lib.stride_tricks"}


def array_ufunc(np_ufunc, method, inputs, kwargs):
    # (a subclass's ``__array_ufunc__`` calling ``super()`` passes tnp's own ufunc)
    tnp_ufunc = np_ufunc if isinstance(np_ufunc, ufunc) else for_numpy(np_ufunc)
    if tnp_ufunc is None:  # a ufunc made by frompyfunc, or by another library: NumPy runs it
        name = getattr(np_ufunc, "__name__", "ufunc")
        run = fallback.numpy_fallback(getattr(np_ufunc, method), f"{name}.{method}")
        if method == "at" and isinstance(inputs[0], ndarray):  # NumPy writes a host copy
            host = inputs[0].__array__()
            run(host, *inputs[1:], **kwargs)
            write.assign(inputs[0], host)
            return None
        outs = kwargs.get("out") or ()
        if not any(isinstance(o, ndarray) for o in outs):
            return run(*inputs, **kwargs)
        # tnp arrays as out: NumPy writes host copies, which are then written into them
        host = tuple(o.__array__() if isinstance(o, ndarray) else o for o in outs)
        res = run(*inputs, **dict(kwargs, out=host))
        for o, h in zip(outs, host):
            if isinstance(o, ndarray):
                write.assign(o, h)
        if not isinstance(res, tuple):
            return outs[0] if outs[0] is not None else res
        return tuple(r if o is None else o for o, r in zip(outs, res))
    if overridden(inputs, kwargs):
        return NotImplemented
    out = kwargs.get("out")
    if out is not None and type(out) is not tuple:  # one output array, as NumPy takes it
        out = (out,)
    if out is not None and any(isinstance(o, np.ndarray) for o in out):
        # A NumPy array as out: tnp writes a tnp copy of it (what ``where=`` leaves unwritten
        # keeps its values), then the NumPy array is written.
        copies = tuple(tiers.new_root(o.copy()) if isinstance(o, np.ndarray) else o
                       for o in out)
        getattr(tnp_ufunc, method)(*inputs, **dict(kwargs, out=copies if len(copies) > 1
                                                   else copies[0]))
        for o, c in zip(out, copies):
            if isinstance(o, np.ndarray):
                np.copyto(o, c.__array__(), casting="unsafe")
        return out[0] if len(out) == 1 else out
    if out is not None and len(out) == 1:
        kwargs = dict(kwargs, out=out[0])
    return getattr(tnp_ufunc, method)(*inputs, **kwargs)


def array_function(func, args, kwargs):
    mod = getattr(func, "__module__", "") or ""
    ns = "main" if mod.startswith("numpy") and mod not in _NAMESPACES else _NAMESPACES.get(mod)
    impl = REGISTRY.get((ns, func.__name__))
    if impl is None:
        impl = fallback.numpy_fallback(func, func.__name__)
    return impl(*args, **kwargs)
