"""Where new tnp arrays live: ``tnp_ext.placement("auto")`` puts arrays of fewer than
``threshold`` elements made from host data on the host tier (NumPy runs their operations),
``"device"`` everything numeric on the device. See ``tnp._core.dispatch.placement``."""
import contextlib

from tnp._core.dispatch import placement as _placement


@contextlib.contextmanager
def _restoring(previous):
    try:
        yield
    finally:
        _placement.configure(*previous)


def placement(mode=None, *, threshold=None):
    """Set the placement mode (``"device"`` or ``"auto"``) and/or the host threshold in
    elements, for the rest of the program; used as ``with tnp_ext.placement(...):`` the old
    setting comes back at the end of the block. Arrays already made stay where they are."""
    return _restoring(_placement.configure(mode, threshold))


def current_placement():
    """``(mode, threshold)`` now in force."""
    return _placement.MODE, _placement.THRESHOLD
