"""Device-sync accounting: how often tnp's named sync points copied a value from the device.

``record(name, value)`` is called at each sync point and costs one Counter increment. Every sync
point moves a value between the tiers: ``to_device`` a host array to the device, the others a
device value to the host. When reporting is on (``python -m tnp run --report`` / ``--compare``,
through ``set_program``), the first program line that reached each sync point, and each fallback
name (``note_fallback``), is remembered too: the deepest frame of the stack that lies in the
program's own files; and ``MOVES`` counts each move by its program line, sync point and the
value's shape and dtype; ``FLUSHES`` counts lazy flushes (``lazy``) by program line and reason, ``TIERS`` the
tiering decisions (``tiering``) by program line.
"""
import collections
import os
import sys

# name -> what the sync point is, for reports
SYNC_POINTS = {
    "scalar": "bool()/int()/float()/complex()/operator.index()/format() of an array",
    "item": "ndarray.item()",
    "to_numpy": "conversion to a NumPy array (__array__: print/repr/str, tolist, np.asarray, "
                "fallback inputs, other libraries)",
    "mask": "boolean-mask indexing with a device mask (the result shape needs its values)",
    "bounds": "bounds check of an integer index array on the device",
    "check": "a device value read to decide an error or a Python result (singular matrix, "
             "negative weights, non-finite input, ...)",
    "shape": "a result shape that depends on the values (nonzero, unique, set routines, "
             "trim_zeros, ...)",
    "to_device": "a host-tier array copied to the device for an operation with device arrays "
                 "(once per version of the array)",
}

COUNTS = collections.Counter()
ON_SYNC = []  # what runs at a sync point to the host (``lazy`` registers ``sync``)
LINES = {}            # sync point name -> (file, line) of its first use by the program
FALLBACK_LINES = {}   # fallback qualname -> (file, line) of its first use by the program
MOVES = collections.Counter()  # (program line, sync point, shape, dtype name) -> moves
FLUSHES = collections.Counter()  # (program line, reason) -> lazy flushes
TIERS = collections.Counter()  # (program line, tier event) -> count (``tiering``)
# what ``tiering`` counts, for reports
TIER_EVENTS = {"cold": "runs on the NumPy tier (a cold graph or kernel: no compile)",
               "compile": "compiles on the program's path",
               "eager": "compiles at the first sighting, on the program's path (a large graph: "
                        "its NumPy-tier estimate exceeds the compile's)",
               "cached": "loads at the first sighting the executable an earlier run compiled "
                         "(the persistent compilation cache; no NumPy-tier run)",
               "background": "compiles in the background (a hot graph or kernel)",
               "fallback": "cold runs with no NumPy rule (compiled on the program's path)",
               "megamorphic": "structures that stopped compiling (recompiled often, few runs)"}

_program_dir = None   # the program's directory, under ``python -m tnp run``
REPORTING = False  # whether the program's lines are being reported (``set_program``): read
# as a module attribute on hot paths (a kernel call asks it)
_TNP_DIRS = tuple(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
                  + os.sep + d + os.sep for d in ("tnp", "tnp_ext"))
_is_program = {}


def set_program(program_dir, report):
    """The program's own files lie under ``program_dir``; ``report``: remember first-use lines."""
    global _program_dir, REPORTING
    _program_dir = os.path.abspath(program_dir) + os.sep
    REPORTING = bool(report)
    _is_program.clear()


def record(name, value):
    """A sync point ran (``name`` is a key of ``SYNC_POINTS``), moving ``value`` (an array).
    At a move to the host, the value is computed and pending floating-point warnings are given
    first (``ON_SYNC``: ``lazy.sync``)."""
    COUNTS[name] += 1
    if ON_SYNC and name != "to_device":
        ON_SYNC[0](value)
    if REPORTING:
        _note_move(name, value, sys._getframe(1))


def _note_move(name, value, frame):
    line = program_line(frame)
    LINES.setdefault(name, line)
    MOVES[line, name, tuple(value.shape), str(value.dtype)] += 1


def note_flush(reason):
    """A lazy flush ran, forced by ``reason`` (a key of ``lazy.REASONS``)."""
    if REPORTING:
        FLUSHES[program_line(sys._getframe(1)), reason] += 1


def note_tier(event, line=False):
    """A tiering decision (a key of ``TIER_EVENTS``) was made, by the program's line ``line``
    (``caller_line``'s, for a background thread) or the caller's."""
    if REPORTING:
        TIERS[program_line(sys._getframe(1)) if line is False else line, event] += 1


def caller_line():
    """The program line of the current call (None when not reporting)."""
    return program_line(sys._getframe(1)) if REPORTING else None


def direction(name):
    """The direction of a sync point's move."""
    return "host -> device" if name == "to_device" else "device -> host"


def check(flag):
    """``bool(flag)`` of a device value (a ``jax.Array``, not a tnp array: its ``__bool__``
    would count a second sync) that decides an error or a Python result."""
    record("check", flag)
    return bool(flag)


def count(n):
    """``int(n)`` of a device value that decides a result's shape."""
    record("shape", n)
    return int(n)


def note_fallback(qualname):
    """A NumPy name ran through the fallback path (counted by ``fallback.USED``)."""
    if REPORTING and qualname not in FALLBACK_LINES:
        FALLBACK_LINES[qualname] = program_line(sys._getframe(1))


def in_program(filename):
    """Whether ``filename`` is one of the program's own files (not tnp, not an installed
    library)."""
    hit = _is_program.get(filename)
    if hit is None:
        path = os.path.abspath(filename)
        hit = (_program_dir is not None and not filename.startswith("<")
               and path.startswith(_program_dir)
               and not path.startswith(_TNP_DIRS) and os.sep + "site-packages" + os.sep
               not in path)
        _is_program[filename] = hit
    return hit


def program_line(frame):
    """(file, line) of the deepest frame at or above ``frame`` in the program's files, or None."""
    while frame is not None:
        if in_program(frame.f_code.co_filename):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None
