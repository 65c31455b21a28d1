"""NumPy's protocols: ``numpy.add(tnp_array, ...)`` and ``numpy.sum(tnp_array)`` run tnp's
implementation on the device and return tnp arrays."""
import numpy as np

from . import fallback
from .np_doc import REGISTRY
from .ufunc import for_numpy

_NAMESPACES = {"numpy": "main", "numpy.linalg": "linalg", "numpy.fft": "fft",
               "numpy.random": "random", "numpy.lib.stride_tricks": "lib.stride_tricks"}


def array_ufunc(np_ufunc, method, inputs, kwargs):
    tnp_ufunc = for_numpy(np_ufunc)
    if tnp_ufunc is None:  # a ufunc made by frompyfunc, or by another library: NumPy runs it
        name = getattr(np_ufunc, "__name__", "ufunc")
        return fallback.numpy_fallback(getattr(np_ufunc, method), f"{name}.{method}")(
            *inputs, **kwargs)
    out = kwargs.get("out")
    if out is not None and any(isinstance(o, np.ndarray) for o in out):
        # A NumPy array as out: compute on the device, then write the host array.
        kwargs = dict(kwargs)
        np_outs = kwargs.pop("out")
        res = getattr(tnp_ufunc, method)(*inputs, **kwargs)
        res = res if isinstance(res, tuple) else (res,)
        for o, r in zip(np_outs, res):
            np.copyto(o, r.__array__(), casting="unsafe")
        return np_outs[0] if len(np_outs) == 1 else np_outs
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
