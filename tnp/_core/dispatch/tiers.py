"""The tiers and the one placement decision: whether an array's storage is a host ``numpy.ndarray`` (the host
tier, where NumPy itself runs operations) or a ``jax.Array`` (the device tier).

- Dtypes XLA cannot hold (object, str, bytes, void/structured, datetime64, timedelta64, a
  longdouble wider than float64) always live on the host.
- Numeric arrays: with the mode ``"auto"`` (the default), an array of fewer than ``THRESHOLD``
  elements made from host data (Python data, NumPy arrays, the result of an operation that ran
  on the host) lives on the host, a larger one on the device once the program is past its
  warm-up; with ``"device"`` every numeric array is on the device (the conformance suite's
  mode: it tests the device implementations); ``"sharded"`` is ``"auto"`` on the host (the
  threshold and the warm-up) and, with several devices, lays a device array out over all of
  them (``engine.devices.layout``: split along an axis when it is large, replicated else), at
  birth: ``new_root`` puts host data there directly, creation kernels take the layout as an
  argument.
- The warm-up (placement by cost, not size alone): the device's costs are paid once per
  program (JAX's import, about 1.2 s on a 2-core CPU, where ``import numpy`` takes 0.1 s) and
  once per new computation (an XLA compile, 20-500 ms), while NumPy's are per element. A
  short program cannot win them back, so for ``WARMUP`` seconds (``TNP_HOST_WARMUP_MS``,
  default 1 s) after the program made its first array at or over the threshold, large arrays
  stay on the host too; after it, results at or over the threshold are placed on the device
  (and their operations follow them there). ``large_on_host`` is the rule; ``benchmarks/cases/
  cold.py`` measures it (the same programs with the warm-up 0).
- Set by the environment (``TNP_PLACEMENT=device|auto|sharded``,
  ``TNP_HOST_THRESHOLD=<elements>``, ``TNP_SHARD_THRESHOLD=<elements per device>``,
  read by ``tnp._core.settings``) or at run time through ``settings`` (``configure``,
  ``tnp_ext.placement``), which tells this module (``MODE``, ``THRESHOLD``). An array made
  from a ``jax.Array``, or with ``device=`` a ``jax.Device``, is on the device whatever the
  mode.

``new_root`` is the one constructor of a root from a NumPy array (host-tier results, fallback,
``io``, ``frombuffer`` and kin, ``tnp.random``'s exact streams); it takes ownership, so a
result that may be a caller's own array is copied first (``fallback.from_numpy_tree``).
Creation routines with a shape decide before allocating: ``made_on_device`` on their declared
``result_size`` (``frontend.entry``), so a large one is never made by NumPy and then copied.

``HOSTED`` says whether the mode keeps small arrays on the host (``"auto"``, ``"sharded"``).
``routing`` says whether any call can run on the host at all: false until a host array exists
or the mode is ``HOSTED``, so a program that never meets the host tier pays nothing for it.
"""
from .. import settings
from ..engine.jaxload import jax, ArrayImpl
import time
import threading

import numpy as np

from ..engine import devices
from ..rules import dtypes
from ..array import flags, storage, write
from ..array.ndarray import ndarray
from . import host_threads

MODES = settings.BY_NAME["placement"].choices
MODE = THRESHOLD = WARMUP = None
HOSTED = False  # the mode keeps arrays made from small host data on the host
routing = False
following = False  # past a warm-up that kept large arrays on the host (mode HOSTED): the
# operations meeting them take them along (``follow``); never set where none was kept, so the
# hot paths of a program that had none (or ran with the warm-up 0) never ask
_warm = [False, None]  # whether the warm-up is over; when the first large array was kept
_WARM_LOCK = threading.Lock()


def _setting(name, value):
    """``settings``' watcher: the mode, threshold and warm-up kept here for the hot paths (a
    new warm-up starts its clock again)."""
    global MODE, THRESHOLD, WARMUP, HOSTED, routing, following
    if name == "placement":
        MODE = value
        HOSTED = value != "device"
        routing = routing or HOSTED
    elif name == "host_threshold":
        THRESHOLD = value
    else:
        WARMUP = max(value, 0) / 1000
        _warm[:] = [WARMUP == 0, None]
    following = _warm[0] and HOSTED and _warm[1] is not None


settings.watch(_setting, "placement", "host_threshold", "host_warmup_ms")


def large_on_host():
    """Whether an array at or over the threshold, made from host data in mode ``"auto"``, stays
    on the host: during the warm-up (asked only for such arrays: its clock starts at the
    first)."""
    global following
    if _warm[0]:
        return False
    # the program's own time: its CPU time (a loaded machine's waits not counted) less what
    # the host tier's threads spent on split calls (counted, the warm-up of a program whose
    # calls the host tier splits ended 1.5-1.9x sooner in its wall time)
    now = time.process_time() - host_threads.cpu_seconds()
    with _WARM_LOCK:  # (threads making large arrays at once: one clock, one end)
        if _warm[1] is None:
            _warm[1] = now
        elif now - _warm[1] >= WARMUP:
            _warm[0] = following = True
        return not _warm[0]


def follow(*values):
    """After the warm-up (``following``): where one of ``values`` (tnp arrays; ``out``
    tuples) is on the device, the roots of those on the host at or over the threshold move
    there (``write.to_device``), so an operation (a call, a write, an index) that runs on the
    device because of the one does not copy the others to it, or write them back, each time.
    Returns whether one moved."""
    arrays = [v for x in values for v in (x if type(x) is tuple else (x,)) if type(v) is ndarray]
    if not any(type(a._root._buf) is not np.ndarray for a in arrays):
        return False
    moved = False
    for a in arrays:
        root = a._root
        if (type(root._buf) is np.ndarray and root._buf.size >= THRESHOLD
                and root._dtype in dtypes.SUPPORTED):
            write.to_device(root)
            moved = True
    return moved


def configure(mode=None, threshold=None):
    """Set the placement mode (``"device"``, ``"auto"`` or ``"sharded"``) and/or the host
    threshold (elements)
    through ``settings``; returns the previous ``(mode, threshold)``. Arrays already made stay
    where they are."""
    previous = MODE, THRESHOLD
    settings.update(placement=mode, host_threshold=threshold)
    return previous


def host_only(dtype):
    """Whether arrays of ``dtype`` can only live on the host (XLA cannot hold it)."""
    return np.dtype(dtype) not in dtypes.SUPPORTED


def on_host(size, dtype):
    """Whether a new array of ``size`` elements of ``dtype`` made from host data goes to the
    host."""
    return host_only(dtype) or (HOSTED and (size < THRESHOLD or large_on_host()))


def made_on_device(size):
    """Whether a result of ``size`` elements known before anything is computed (a creation
    routine's, from its arguments; a ufunc's on host operands, from their broadcast shape) is
    made by the device implementation directly, not by NumPy and then copied: in mode
    ``"auto"`` or ``"sharded"``, at or over the threshold after the warm-up. (Its dtype aside: a
    NumPy-only one is refused by the device and made on the host.)"""
    return HOSTED and size >= THRESHOLD and not large_on_host()


def new_root(host, view_dtype=None):
    """A new tnp array holding the NumPy array ``host``, placed by the rule above. It takes
    ownership (the caller gives ``host`` up: never pass an array a user holds); a view is
    copied. Read-only where ``host`` is, as NumPy's result would be. ``view_dtype``: the dtype
    of a view of it to be made (one only the host holds keeps the root on the host)."""
    global routing
    dt = host.dtype
    canon = dtypes.CANONICAL.get(dt)  # None: a dtype only the host can hold
    hflags = host.flags
    writeable = hflags.writeable
    locked = not writeable and _never_writeable(host)
    if canon is None or (HOSTED and (host.size < THRESHOLD or large_on_host())) or (
            view_dtype is not None and host_only(view_dtype)):
        routing = True
        if not (writeable and hflags.owndata):
            # the root owns its memory, written only by the write path
            host = host.copy(order="K")  # (its axes' order in memory kept: ``_layout``)
            hflags = host.flags
        buf = host.view()  # what everything else sees: read-only (``write.writing``)
        buf.setflags(write=False)
        root = ndarray._wrap_host(buf, dt if canon is None else canon, writeable)
        if locked:
            storage.set_read_only_source(root)
        return root if hflags.c_contiguous else _layout(root, host)
    root = ndarray._wrap(_owned(dtypes.native(host)), writeable)
    if locked:
        storage.set_read_only_source(root)
    return _layout(root, host)


def _never_writeable(host):
    """Whether NumPy refuses to make the read-only array ``host`` writeable (its memory is a
    read-only buffer's: ``frombuffer`` of ``bytes``)."""
    v = host.view()
    try:
        v.setflags(write=True)
    except ValueError:
        return True
    return False


def _layout(root, host):
    """``root`` laid out as NumPy's ``host`` is (``flags``: its strides and views report it):
    C's order, Fortran's, or the permuted order of a 'K' result (``zeros_like`` of a transposed
    array)."""
    hflags = host.flags
    if hflags.c_contiguous:
        return root
    if hflags.f_contiguous:
        return flags.mark_fortran(root)
    return flags.mark_order(root, map(int, np.argsort([-s for s in host.strides], kind="stable")))


def _owned(host):
    """``host`` (which the caller gave up) on the device with its layout (``devices.put``), in
    buffers JAX owns: on a CPU JAX may alias an aligned NumPy array's memory instead of copying
    it, and a buffer JAX does not own is never donated (an in-place write to the array would
    copy it: donation silently declined). Such an upload is copied on the device (no kernel
    compiled); a sharded or replicated upload is copied by JAX already."""
    value = devices.put(host)  # (under a JAX trace: a traced value, no buffer)
    if host.size and type(value) is ArrayImpl and len(value.sharding.device_set) == 1 \
            and value.unsafe_buffer_pointer() == host.ctypes.data:
        value = jax.device_put(value, may_alias=False)
    return value
