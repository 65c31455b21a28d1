"""Where new tnp arrays live: ``tnp_ext.placement("auto")`` puts arrays of fewer than
``threshold`` elements made from host data on the host tier (NumPy runs their operations),
``"device"`` everything numeric on the device, ``"sharded"`` as ``"auto"`` with every device
array laid out over all the devices JAX sees: split along an axis from ``shard_threshold``
elements per device, replicated below. The mode and thresholds are the settings
``TNP_PLACEMENT``, ``TNP_HOST_THRESHOLD`` and ``TNP_SHARD_THRESHOLD`` (``tnp._core.settings``;
``python -m tnp config`` shows them); see ``tnp._core.dispatch.tiers`` and
``tnp._core.engine.devices``."""
import contextlib

from tnp._core import settings as _settings


@contextlib.contextmanager
def _restoring(previous):
    try:
        yield
    finally:
        _settings.restore(previous)


def placement(mode=None, *, threshold=None, warmup_ms=None, shard_threshold=None):
    """Set the placement mode (``"device"``, ``"auto"`` or ``"sharded"``), the host threshold
    in elements, the warm-up in milliseconds (``TNP_HOST_WARMUP_MS``: how long arrays over the
    threshold stay on the host; 0: placed by size alone) and/or the shard threshold in elements
    per device, for the rest of the program; used as ``with tnp_ext.placement(...):`` the old
    settings come back at the end of the block. Arrays already made stay where they are."""
    return _restoring(_settings.update(placement=mode, host_threshold=threshold,
                                       host_warmup_ms=warmup_ms,
                                       shard_threshold=shard_threshold))


def current_placement():
    """``(mode, threshold)`` now in force."""
    return _settings.get("placement"), _settings.get("host_threshold")
