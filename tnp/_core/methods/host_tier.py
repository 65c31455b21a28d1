"""The host tier of the array's methods: ``method`` wraps a method so that on an array held on
the host it is NumPy's own ``ndarray.<name>`` (the front end's one host-or-device sequence,
``frontend.host_or_device``), and ``result`` makes NumPy's result of a call on a host array a
tnp view of it where NumPy made a view, a new array otherwise.
"""
import functools
import operator

import numpy as np

from ..dispatch import host, subclass_results
from ..dispatch.frontend import host_or_device
from ..array import indexing, storage, write
from ..engine import lenses
from ..array.ndarray import ndarray, numpy_value, refused_protocol_array
from ..array.subclasses import as_type_of


def method(name, impl):
    """The method ``name`` of ``ndarray``, ``impl`` on the device: on an array whose root is on
    the host, NumPy's own ``ndarray.<name>`` on its host value when ``host.call`` takes the call
    (an in-place method NumPy would run on the read-only buffer is declined and goes through
    the write path); else ``impl``, or NumPy's method on the host where the device refuses a
    NumPy-only dtype. ``impl`` is past the host-tier question: a routine it calls for the array
    is the routine's entry past it (``routines.past_host``), so no call asks it twice. A method
    NumPy's returns of a subclass's class (``subclass_results.KEEPS``) does so."""
    numpy_method = getattr(np.ndarray, name)
    keeps = subclass_results.KEEPS.get(getattr(np, name, None))

    @functools.wraps(impl)
    def call(self, *args, **kwargs):
        r = host_or_device(numpy_method, impl, (self,) + args, kwargs,
                           type(self._root._buf) is np.ndarray)
        if keeps is None or type(self) is ndarray:
            return r
        return subclass_results.keep(r, keeps, (self,), {})
    return call


def getitem(a, index):
    """``a[index]`` for a host-tier array: NumPy's own result (and errors); a view NumPy makes
    is a tnp view of it (``_host_view``), anything else (an element, a copy) is placed as a new
    array."""
    if type(index) is str and a._dtype.names and index in a._dtype.fields:
        field, offset = a._dtype.fields[index][:2]  # a field: a view of its bytes (of a
        return a._view(("field", (field, offset)), (),  # subarray field: its elements)
                       a._shape + field.shape, field.base)
    shape = a._shape
    value = a._buf if a._base is None else a._host()
    idx = numpy_value(index, pull=True)
    try:
        r = value[idx]
    except ValueError as e:  # an index object's ``__array__`` returned a tnp array
        idx = _protocol_index(idx, e)
        r = value[idx]
    if type(r) is np.void and r.dtype.names is not None and a._writeable:
        return record(a, idx)
    if type(index) is list and a._dtype.names and type(r) is np.ndarray and all(
            type(k) is str for k in index):
        # several fields (``a[['x', 'y']]``): NumPy's view is ``a`` seen with a dtype of the
        # same itemsize holding those fields at their offsets, a dtype view (writes reach
        # ``a``); with object fields NumPy's value, read-only (tnp's dtype views refuse them)
        if r.dtype.hasobject:
            return storage.set_writeable(host.wrap_new(r), False)
        return a._view(("bitcast", (r.dtype, shape)), (), shape, r.dtype)
    return result(a, r, lambda: index_lenses(shape, index))


def _protocol_index(idx, error):
    """The index ``idx`` whose NumPy parse failed with ``error``, each object in it whose
    ``__array__`` returns a tnp array (``refused_protocol_array``) replaced by that array's
    NumPy value; ``error`` re-raised where there is none."""
    items = idx if type(idx) is tuple else (idx,)
    conv = tuple(numpy_value(refused_protocol_array(k, error), pull=True)
                 if hasattr(k, "__array__") and not isinstance(k, (np.ndarray, np.generic))
                 else k for k in items)
    if all(c is k for c, k in zip(conv, items)):
        raise error
    return conv if type(idx) is tuple else conv[0]


def record(a, idx):
    """An element of the writeable structured host array ``a``: NumPy's void scalar, a view of
    the root's own memory as NumPy's is (``x[0]['f'] = v`` writes ``x``), handed out as a
    write (``write.writing``: under the root's lock, its version moved on). Its later writes
    bypass the write path, which for a dtype only the host holds has no device copy or cache
    to keep in step."""
    root = a._root
    with write.writing(root) as owner:
        return (owner if a._base is None else lenses.host_get(*a._chain(), owner))[idx]


def index_lenses(shape, index):
    """The lens of the basic index ``index`` into an array of ``shape``."""
    plan = indexing.parse(shape, index)
    return (plan.lens,), (plan.dyn,)


def result(a, r, lenses):
    """NumPy's result ``r`` of a call on the host array ``a``: a view of its root's buffer as a
    tnp view (``ndarray._host_view``), anything else as a new array (of ``a``'s subclass, as
    NumPy's fancy index of one is) or a scalar."""
    if type(r) is np.ndarray and r.base is not None and r.base is (
            a if a._base is None else a._base)._buf.base:
        return a._host_view(r, lenses)
    r = host.wrap_new(r)
    return as_type_of(r, a) if type(a) is not ndarray and type(r) is ndarray else r


def permutation(n, axes):
    """The axes permutation of ``transpose(axes)`` of an ``n``-d array (checked by NumPy)."""
    return tuple(range(n))[::-1] if axes is None else tuple(operator.index(x) % n for x in axes)
