"""The array's NumPy-facing properties: ``shape`` (settable, in place), ``strides``, ``T``,
``mT``, ``real`` and ``imag`` (views, settable), ``flags`` and ``flat``."""
import functools

from ..engine.jaxload import jit, jnp
import numpy as np

from ..rules import probe
from ..array import storage, write
from ..array.flags import Flags, FlatIter, numpy_layout
from ..array.ndarray import ndarray
from .routines import tnp


def _shape(self):
    return self._shape


def _set_shape(self, value):
    """In place where NumPy allows it (no copy needed); views taken before stay valid."""
    ph = numpy_layout(self).view()
    ph.shape = value  # NumPy's errors; resolves -1
    shape = ph.shape
    if self._base is None:
        if self._on_host:
            write.reshape_host(self, shape)
        else:
            write.replace_root(self, _reshaped(self._value, shape))
    else:
        storage.reshape_view(self, shape)


def _strides(self):
    """The strides NumPy reports for the same array (a root is C-contiguous; views replay)."""
    return numpy_layout(self).strides


def _T(self):
    return self.transpose()


def _mT(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return tnp.swapaxes(self, -1, -2)


def _real(self):
    if self._dtype.kind == "c":
        return self._view(("real", None), (), self._shape, _real_dtype(self._dtype))
    return self


def _set_real(self, value):
    write.assign(self.real, value)


def _imag(self):
    if self._dtype.kind == "c":
        return self._view(("imag", None), (), self._shape, _real_dtype(self._dtype))
    return ndarray._wrap(jnp.zeros(self._shape, self._dtype), writeable=False)


def _set_imag(self, value):
    if self._dtype.kind != "c":
        probe.call(setattr, probe.Out((0,), self._dtype), "imag", 0)  # NumPy's TypeError
        raise TypeError("array does not have imaginary part to set")
    write.assign(self.imag, value)


def _flags(self):
    return Flags(self)


def _flat(self):
    return FlatIter(self)


def _set_flat(self, value):
    self.flat[...] = value


ndarray.shape = property(_shape, _set_shape)
ndarray.strides = property(_strides)
ndarray.T = property(_T)
ndarray.mT = property(_mT)
ndarray.real = property(_real, _set_real)
ndarray.imag = property(_imag, _set_imag)
ndarray.flags = property(_flags)
ndarray.flat = property(_flat, _set_flat)


@functools.partial(jit, static_argnums=1)
def _reshaped(buf, shape):
    return buf.reshape(shape)


def _real_dtype(dt):
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt
