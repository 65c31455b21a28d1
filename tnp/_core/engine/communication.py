"""Communication between devices: the collectives XLA compiled into a computation, read from
its per-device HLO text, and the reshardings a program's runs cause.

``collectives(text)`` reads an executable's optimised, partitioned HLO (one device's program)
and returns its collectives (``KINDS``), each with the bytes all devices together send for one
run under the usual ring and pairwise algorithms (``_sent``): an all-reduce of S bytes over a
group of g devices sends 2(g-1)S per group, an all-gather or all-to-all of S result bytes
(g-1)S, a reduce-scatter of S result bytes g(g-1)S, a collective-permute S per
source-target pair. ``full_size(text)`` counts the buffers the per-device program computes as
large as a split array's global size (a replicated full-size intermediate: a sharded
computation that XLA could not keep split; a collective's result is data received, counted as
communication, not here).

A resharding is a collective that changes where data lives rather than reducing it (an
all-gather or an all-to-all: a view, reshape, fancy index or product that needs other
devices' blocks), or a ``device_put`` to another layout (``devices.place``); ``note_reshard``
is the one counter of both.

Under ``python -m tnp run --report`` (``watch``, with ``syncs`` reporting on), every executable
XLA builds or loads is read once, when it is made (a wrapper of JAX's
``compile_or_get_cached``); a computation that ran (``ran``: a lazy flush, a kernel call) adds
its executable's collectives, bytes, reshardings and full-size buffers to the program line
that ran it (``LINES``).
"""
import collections
import math
import re
import sys
import threading

from . import syncs
from .jaxload import on_load

class _Pattern:
    """A regular expression compiled at its first use (only ``--report`` reads HLO text, so
    ``import tnp`` compiles none of these)."""
    __slots__ = ("source", "_rx")

    def __init__(self, source):
        self.source, self._rx = source, None

    def __getattr__(self, name):  # (``finditer``, ``search``, ``match``...: the compiled one's)
        if self._rx is None:
            self._rx = re.compile(self.source)
        return getattr(self._rx, name)


KINDS = ("all-reduce", "all-gather", "reduce-scatter", "collective-permute", "all-to-all")
RESHARDING = frozenset({"all-gather", "all-to-all"})  # collectives that move data, not reduce it
_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4,
          "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}
_ARRAY = _Pattern(r"\b(pred|[suf]\d+|bf16|c64|c128)\[([\d,]*)\]")
_OP = _Pattern(r"^\s*(?:ROOT )?%\S+ = (.*?) (" + "|".join(KINDS) + r")(-start)?\(")
_GROUPS_LIST = _Pattern(r"replica_groups=\{((?:\{[\d,]*\},?)*)\}")
_GROUPS_IOTA = _Pattern(r"replica_groups=\[(\d+),(\d+)\]<=")
_GROUPS_MESH = _Pattern(r"replica_groups=mesh\[([^\]]*)\]\s*\{([^}]*)\}")
_PAIRS = _Pattern(r"source_target_pairs=\{((?:\{\d+,\d+\},?)*)\}")
_OP_NAME = _Pattern(r'op_name="(?:[^"]*/)?([^"/]*)"')
_PARTITIONS = _Pattern(r"num_partitions=(\d+)")
_TILED = _Pattern(r"(\S+)\[([\d,]*)\]\{[^}]*\} parameter\(\d+\), sharding=\{devices=\[([\d,]+)\]"
                    r"[^}]*\}")

_NAME = _Pattern(r"^\s*(?:ROOT )?%(([\w-]+?)(?:\.\d+)?) = ")
_OPERANDS = _Pattern(r"%([\w.-]+)")
_CONTROL = _Pattern(r"(?:body|condition|true_computation|false_computation)=%([\w.-]+)"
                      r"|branch_computations=\{([^}]*)\}")
_RELAYOUT = ("copy", "wrapped_copy", "bitcast", "transpose", "wrapped_transpose")

Collective = collections.namedtuple("Collective", "kind bytes sent groups op")
# kind: one of KINDS; bytes: its result's bytes on one device; sent: the bytes all devices send
# in one run; groups: (number of groups, devices per group); op: the operation that caused it


def _arrays(text):
    """(dtype, shape) of each array type in an HLO type string (a tuple's elements in order)."""
    return [(d, tuple(int(n) for n in s.split(",") if n)) for d, s in _ARRAY.findall(text)]


def _nbytes(dtype, shape):
    return _BYTES.get(dtype, 8) * math.prod(shape)


def _groups(line, devices):
    """(groups, devices per group) of a collective's line (every device in one group when it
    names none)."""
    m = _GROUPS_IOTA.search(line)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = _GROUPS_MESH.search(line)
    if m:
        sizes = dict((k.strip("'"), int(v)) for k, v in
                     (a.split("=") for a in m.group(1).split(",")))
        per = math.prod(sizes[a.strip().strip("'")] for a in m.group(2).split(",") if a.strip())
        return devices // per, per
    m = _GROUPS_LIST.search(line)
    if m and m.group(1):
        groups = re.findall(r"\{([\d,]*)\}", m.group(1))
        return len(groups), len(groups[0].split(","))
    return 1, devices


def _sent(kind, nbytes, groups, per, line):
    """The bytes all devices send in one run of a collective of ``nbytes`` result bytes."""
    if kind == "collective-permute":
        m = _PAIRS.search(line)
        pairs = re.findall(r"\{(\d+),(\d+)\}", m.group(1)) if m else []
        return nbytes * sum(1 for s, t in pairs if s != t)
    if kind == "all-reduce":
        return groups * 2 * (per - 1) * nbytes
    if kind == "reduce-scatter":
        return groups * per * (per - 1) * nbytes
    return groups * (per - 1) * nbytes  # all-gather, all-to-all


def collectives(text):
    """The collectives (``Collective``) of an executable's per-device HLO ``text``."""
    m = _PARTITIONS.search(text)
    devices = int(m.group(1)) if m else 1
    out = []
    for line in text.splitlines():
        m = _OP.match(line)
        if not m:
            continue
        arrays = _arrays(m.group(1))
        if m.group(3):  # an async start: its tuple holds the operand and the result
            arrays = [max(arrays, key=lambda a: math.prod(a[1]))] if arrays else []
        nbytes = sum(_nbytes(d, s) for d, s in arrays)
        groups, per = _groups(line, devices)
        op = _OP_NAME.search(line)
        out.append(Collective(m.group(2), nbytes, _sent(m.group(2), nbytes, groups, per, line),
                              (groups, per), op.group(1) if op else "unnamed"))
    return out


def _computations(text):
    """The HLO module's computations: name (``"ENTRY"`` for the entry) -> instruction lines
    (in the order printed: a computation's callees come before it)."""
    out, lines = {}, None
    for line in text.splitlines():
        if line.startswith("ENTRY "):
            lines = out["ENTRY"] = []
        elif line.startswith("%"):
            lines = out[line[1:].split(" ", 1)[0]] = []
        elif line.startswith("  ") and lines is not None:
            lines.append(line)
    return out


def full_size(text):
    """(buffers as large as a split parameter's global size, buffers at least its per-device
    size) among the results of the per-device program's instructions outside fusions and
    reducers (the entry computation and the loops' and conditionals' bodies), save the
    collectives' and their copies and relayouts (data received, counted as communication): the
    first counts replicated full-size intermediates, computed whole on every device."""
    split = []  # (per-device elements, global elements) of each split parameter
    for _, shape, tiles in _TILED.findall(text):
        local = math.prod(int(n) for n in shape.split(",") if n)
        parts = math.prod(int(n) for n in tiles.split(",")[:len(shape.split(","))])
        if parts > 1:
            split.append((local, local * parts))
    if not split:
        return 0, 0
    smallest = min(local for local, _ in split)
    sizes = {g for _, g in split}
    bodies = _computations(text)
    called = {"ENTRY"}
    for lines in bodies.values():
        for line in lines:
            for one, many in _CONTROL.findall(line):
                called.update([one] if one else _OPERANDS.findall(many))
    full = large = 0
    received = set()  # collectives' results, and copies or relayouts of them
    for line in (ln for name in called for ln in bodies.get(name, ())):
        if " = " not in line or " parameter(" in line:
            continue
        name = _NAME.match(line)
        if _OP.match(line) or (name and name.group(2).startswith(_RELAYOUT) and set(
                _OPERANDS.findall(line.split(" = ", 1)[1].split("),", 1)[0])) <= received):
            received.add(name.group(1) if name else None)
            continue
        for _, shape in _arrays(line.split(" = ", 1)[1].split("(", 1)[0]):
            n = math.prod(shape)
            if n >= smallest:
                large += 1
                full += n in sizes
    return full, large


# ---- the report's accounting ---------------------------------------------------------------
LINES = collections.defaultdict(collections.Counter)
# program line -> {(kind, op): bytes sent, ("runs", kind, op): runs, ("reshards", op): count}
_state = threading.local()  # .fresh: HLO texts of the executables made in this thread
_BY_RUN = {}  # (computation, argument signature) -> its collectives (once read)
_watching = [False]


def note_reshard(op, count=1, line=False):
    """``count`` reshardings caused by ``op`` (the one counter: a run's all-gathers and
    all-to-alls, ``devices.place`` to another layout), by program line."""
    if syncs.REPORTING:
        line = syncs.program_line(sys._getframe(1)) if line is False else line
        LINES[line]["reshards", op] += count


def fresh():
    """Start a run's window: executables made in this thread from now are the run's."""
    _state.fresh = []


def taken():
    """The HLO texts of the executables made in this thread since ``fresh()`` (the window
    closes)."""
    made = getattr(_state, "fresh", None) or []
    _state.fresh = None
    return made


def ran(computation, args):
    """A computation (a hashable key of what ran) ran on ``args`` in this thread since
    ``fresh()``: its collectives (read when its executable was made) are counted on the
    program line that ran it."""
    made = getattr(_state, "fresh", None)
    _state.fresh = None
    key = (computation, tuple((getattr(a, "shape", None), getattr(a, "dtype", None),
                               getattr(a, "sharding", None)) for a in args))
    if made:
        sizes = [full_size(text) for text in made]
        _BY_RUN[key] = ([c for text in made for c in collectives(text)],
                        sum(f for f, _ in sizes), sum(n for _, n in sizes))
    found = _BY_RUN.get(key)
    if not found or not (found[0] or found[1] or found[2]):
        return
    line = syncs.program_line(sys._getframe(1))
    counts = LINES[line]
    for c in found[0]:
        counts[c.kind, c.op] += c.sent
        counts["runs", c.kind, c.op] += 1
        if c.kind in RESHARDING:
            counts["reshards", c.op] += 1
    counts["full", None] += found[1]
    counts["buffers", None] += found[2]


def _made(executable):
    """JAX made (compiled or loaded) ``executable``: its collectives are read once."""
    made = getattr(_state, "fresh", None)
    if made is None:
        return
    try:
        text = executable.hlo_modules()[0].to_string()
    except Exception:  # noqa: BLE001  (a backend without HLO text: nothing to read)
        return
    made.append(text)


def watch():
    """Read every executable JAX makes from now on (``_made``), once JAX is imported."""
    if _watching[0]:
        return
    _watching[0] = True

    def install():
        from jax._src import compiler  # (JAX's one function that returns every executable)
        original = compiler.compile_or_get_cached

        def compile_or_get_cached(*args, **kwargs):
            executable = original(*args, **kwargs)
            _made(executable)
            return executable
        compiler.compile_or_get_cached = compile_or_get_cached
    on_load(install)


def rows():
    """The report's rows: ``[line, {kind: [runs, bytes]}, {op: reshardings}, full-size
    buffers]`` by program line, most bytes first (full-size buffers: a split array's global
    size on one device, summed over the runs)."""
    out = []
    for line, counts in LINES.items():
        kinds, reshards = {}, {}
        for k, n in counts.items():
            if k[0] in ("full", "buffers"):
                continue
            if k[0] == "reshards":
                reshards[k[1]] = reshards.get(k[1], 0) + n
            elif k[0] == "runs":
                kinds.setdefault(k[1], [0, 0])[0] += n
            else:
                kinds.setdefault(k[0], [0, 0])[1] += n
        if kinds or reshards or counts["full", None]:
            out.append([line, kinds, reshards, counts["full", None]])
    out.sort(key=lambda r: -sum(b for _, b in r[1].values()))
    return out
