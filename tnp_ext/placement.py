"""Where new tnp arrays live: ``tnp_ext.placement("auto")`` puts arrays of fewer than
``threshold`` elements made from host data on the host tier (NumPy runs their operations),
``"device"`` everything numeric on the device. The mode and threshold are the settings
``TNP_PLACEMENT`` and ``TNP_HOST_THRESHOLD`` (``tnp._core.settings``; ``python -m tnp config``
shows them); see ``tnp._core.dispatch.tiers``."""
import contextlib

from tnp._core import settings as _settings


@contextlib.contextmanager
def _restoring(previous):
    try:
        yield
    finally:
        _settings.restore(previous)


def placement(mode=None, *, threshold=None, warmup_ms=None):
    """Set the placement mode (``"device"`` or ``"auto"``), the host threshold in elements
    and/or the warm-up in milliseconds (``TNP_HOST_WARMUP_MS``: how long arrays over the
    threshold stay on the host; 0: placed by size alone), for the rest of the program; used as
    ``with tnp_ext.placement(...):`` the old setting comes back at the end of the block.
    Arrays already made stay where they are."""
    return _restoring(_settings.update(placement=mode, host_threshold=threshold,
                                       host_warmup_ms=warmup_ms))


def current_placement():
    """``(mode, threshold)`` now in force."""
    return _settings.get("placement"), _settings.get("host_threshold")
