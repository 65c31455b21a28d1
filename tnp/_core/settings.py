"""Every ``TNP_*`` setting, in one place: ``SETTINGS`` below is the table (name, environment
variable, kind, default, allowed values, meaning) and the documentation; ``python -m tnp config``
prints each setting, its value and where the value came from, and the README's settings table
is ``markdown()`` (``tests/test_settings.py`` checks it).

Every variable is read and validated once, when this module is imported (``import tnp``): a bad
value raises ``ValueError`` naming the variable, the value and the values allowed. An empty
variable counts as not set. Booleans are ``0`` or ``1``.

At run time ``set``/``update`` change a setting (``tnp_ext.placement``, ``lazy.enable``); the
source of each value is kept: ``"default"``, ``"environment"`` or ``"run time"``. Settings
marked *at import* are used once, as tnp starts (refused at run time). A module that keeps a
setting in a module global for speed on a hot path (``lazy.on``, ``tiers.MODE``) registers
with ``watch`` at its import and is told of every change.

The bottom layer of ``tnp._core``: it imports nothing from tnp.
"""
import os
import re
import threading


class Setting:
    """One setting: ``name`` (its key here), ``env`` (its variable), ``kind`` (``"bool"``,
    ``"int"``, ``"choice"``, ``"path"``, ``"address"``: host:port, ``"ints"``: integers
    separated by commas), ``default`` (the value, or a function giving it), ``shown`` (the
    default as documented), ``choices`` (of a choice), ``runtime`` (changeable at run time),
    ``label`` (a few words, for errors) and ``doc`` (its meaning, one line)."""
    __slots__ = ("name", "env", "kind", "default", "shown", "choices", "runtime", "label",
                 "doc")

    def __init__(self, name, env, kind, default, label, doc, *, choices=(), runtime=True,
                 shown=None):
        self.name, self.env, self.kind, self.default = name, env, kind, default
        self.label, self.doc = label, doc
        self.choices, self.runtime = choices, runtime
        self.shown = text(self, default) if shown is None else shown

    @property
    def allowed(self):
        """The values allowed, in words."""
        return {"bool": "0 or 1", "int": "an integer", "path": "a path",
                "address": "host:port", "ints": "integers separated by commas"}.get(
            self.kind) or " or ".join(self.choices)


def text(setting, value):
    """A value as the environment spells it (booleans ``1``/``0``)."""
    if value is None:
        return ""
    if setting.kind == "ints":
        return ",".join(map(str, value))
    if setting.kind == "bool":
        return "1" if value else "0"
    return str(value)


def _default_cache_dir():
    return os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                        "tnp", "jax")


SETTINGS = (
    Setting("lazy", "TNP_LAZY", "bool", True,
            "lazy fusion",
            "lazy fusion: device operations recorded and run as one compiled computation "
            "(0: eager, one dispatch per operation); `lazy.enable` at run time"),
    Setting("lazy_limit", "TNP_LAZY_LIMIT", "int", 512,
            "lazy graph operations",
            "operations in a pending graph past which it is flushed (at the next statement; "
            "at once at twice as many)"),
    Setting("lazy_bytes", "TNP_LAZY_BYTES", "int", 2**30,
            "lazy graph bytes",
            "bytes a pending graph keeps alive (its live results and the arrays it reads) past "
            "which it is flushed at once"),
    Setting("lazy_early", "TNP_LAZY_EARLY", "int", 64,
            "early flush operations",
            "operations at which the first pending graph after a wait is flushed early (the "
            "device computes it while the program records more)"),
    Setting("fp_warnings", "TNP_FP_WARNINGS", "bool", True,
            "device floating-point warnings",
            "NumPy's floating-point warnings ('warn', 'print', 'log', 'call') on the device "
            "tier: a flag per fused graph, read at the next sync point (off: silent, as "
            "errstate(all='ignore'); 'raise' is checked either way)"),
    Setting("cold", "TNP_COLD", "choice", "auto",
            "cold tier",
            "the NumPy tier for cold graphs and kernels on a CPU backend: auto (a structure "
            "and shapes seen once run on NumPy unless compiling, or loading from the "
            "persistent cache, is estimated to cost less; compiled in the background when "
            "seen again), off (always compiled) or force (always NumPy, where it has a rule)",
            choices=("auto", "off", "force")),
    Setting("cold_compiles", "TNP_COLD_COMPILES", "int", 1,
            "background compiles",
            "compiles of hot graphs and kernels running in the background at most (0: a hot "
            "one compiles on the program's path)"),
    Setting("placement", "TNP_PLACEMENT", "choice", "auto",
            "placement mode",
            "the placement mode: auto (small arrays made from host data on the host tier), "
            "device (every numeric array on the device) or sharded (as auto, and device arrays "
            "of at least TNP_SHARD_THRESHOLD elements per device split over every device); "
            "`tnp_ext.placement` at run time",
            choices=("device", "auto", "sharded")),
    Setting("host_threshold", "TNP_HOST_THRESHOLD", "int", 65536,
            "host threshold",
            "in mode auto, arrays of fewer elements made from host data live on the host"),
    Setting("host_warmup_ms", "TNP_HOST_WARMUP_MS", "int", 1000,
            "host warm-up",
            "in mode auto, arrays at or over the host threshold also stay on the host until "
            "this many milliseconds have passed since the program made its first one (a short "
            "program never pays for JAX's start and XLA's compiles); 0: placed by size alone"),
    Setting("host_threads", "TNP_HOST_THREADS", "int", 0,
            "host threads",
            "threads that run NumPy's elementwise loops over large host-tier arrays in pieces "
            "(tnp._core.dispatch.host_threads); 0: the cores this process may use; 1: one"),
    Setting("shard_threshold", "TNP_SHARD_THRESHOLD", "int", 16384,
            "shard threshold",
            "in mode sharded, device arrays of at least this many elements per device are split "
            "along an axis over every device (smaller ones replicated)"),
    Setting("kernel_cache_size", "TNP_KERNEL_CACHE_SIZE", "int", 128,
            "kernel cache size",
            "the bound of the compiled-kernel caches (tnp._core.engine.caches); 0 or less: "
            "unbounded", runtime=False),
    Setting("malloc_tuning", "TNP_MALLOC_TUNING", "bool", True,
            "malloc tuning",
            "on glibc, malloc set to reuse freed memory (tnp._core.engine.jaxconfig)",
            runtime=False),
    Setting("compilation_cache", "TNP_COMPILATION_CACHE", "bool", True,
            "compilation cache",
            "the persistent compilation cache: every executable XLA builds kept on disk, so a "
            "second run of a program compiles nothing it compiled before "
            "(tnp._core.engine.compilecache; `python -m tnp cache`)",
            runtime=False),
    Setting("compilation_cache_dir", "TNP_COMPILATION_CACHE_DIR", "path", _default_cache_dir,
            "compilation cache directory",
            "the persistent compilation cache's directory", runtime=False,
            shown="$XDG_CACHE_HOME/tnp/jax or ~/.cache/tnp/jax"),
    Setting("compilation_cache_mb", "TNP_COMPILATION_CACHE_MB", "int", 512,
            "compilation cache bound",
            "the persistent compilation cache's bound on disk in MB (checked at most hourly; "
            "past it, the least recently used entries are deleted down to 3/4); 0 or less: "
            "unbounded", runtime=False),
    Setting("distributed", "TNP_DISTRIBUTED", "bool", False,
            "distributed start",
            "start JAX's distributed runtime as JAX loads, before the first device use "
            "(tnp._core.engine.distributed): the coordinator, process count and index from "
            "TNP_COORDINATOR, TNP_PROCESSES and TNP_PROCESS_ID when set, else from the cluster's "
            "launcher (SLURM, Open MPI, ...); `python -m tnp run --processes N` sets it",
            runtime=False),
    Setting("coordinator", "TNP_COORDINATOR", "address", None,
            "coordinator address",
            "with TNP_DISTRIBUTED, the coordinator's host:port (process 0 serves it)",
            runtime=False, shown="unset"),
    Setting("processes", "TNP_PROCESSES", "int", None,
            "process count",
            "with TNP_DISTRIBUTED, the number of processes running the program",
            runtime=False, shown="unset"),
    Setting("process_id", "TNP_PROCESS_ID", "int", None,
            "process index",
            "with TNP_DISTRIBUTED, this process's index (0 to TNP_PROCESSES - 1)",
            runtime=False, shown="unset"),
    Setting("local_devices", "TNP_LOCAL_DEVICES", "ints", None,
            "local device ids",
            "with TNP_DISTRIBUTED, the GPU ids of this machine this process uses (unset: all it "
            "sees)", runtime=False, shown="unset"),
    Setting("distributed_timeout", "TNP_DISTRIBUTED_TIMEOUT", "int", 60,
            "distributed timeout",
            "with TNP_DISTRIBUTED, seconds to wait for every process to reach the coordinator, "
            "and without a heartbeat before a process counts as dead", runtime=False),
    Setting("run_report", "TNP_RUN_REPORT", "path", None,
            "run report file",
            "internal: the report file `python -m tnp run --compare` has its tnp run write",
            runtime=False, shown="unset"),
)
BY_NAME = {s.name: s for s in SETTINGS}
SOURCES = ("default", "environment", "run time")

_values = {}
_sources = {}
_watchers = {}  # name -> functions called with (name, value) on a change
_lock = threading.RLock()


def _bad(s, value):
    return ValueError(f"{s.env} ({s.label}) must be {s.allowed}, got {value!r}")


def _parse(s, raw):
    """The value of the variable's text ``raw`` (validated)."""
    if s.kind == "bool":
        if raw not in ("0", "1"):
            raise _bad(s, raw)
        return raw == "1"
    if s.kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise _bad(s, raw) from None
    if s.kind == "choice" and raw not in s.choices:
        raise _bad(s, raw)
    if s.kind == "address" and not re.fullmatch(r"[^:\s]+:\d+", raw):
        raise _bad(s, raw)
    if s.kind == "ints":
        if not re.fullmatch(r"\d+(,\d+)*", raw):
            raise _bad(s, raw)
        return tuple(int(i) for i in raw.split(","))
    return raw


def _coerce(s, value):
    """A value given at run time, checked and converted as the setting's kind requires."""
    if s.kind == "bool":
        return bool(value)
    if s.kind == "int":
        try:
            return int(value)
        except (TypeError, ValueError):
            raise _bad(s, value) from None
    if s.kind == "choice" and value not in s.choices:
        raise _bad(s, value)
    return value


def _load():
    for s in SETTINGS:
        raw = os.environ.get(s.env, "")
        if raw:
            _values[s.name], _sources[s.name] = _parse(s, raw), "environment"
        else:
            _values[s.name] = s.default() if callable(s.default) else s.default
            _sources[s.name] = "default"


_load()


def get(name):
    """A setting's value."""
    return _values[name]


def source(name):
    """Where a setting's value came from: ``"default"``, ``"environment"`` or ``"run time"``."""
    return _sources[name]


def update(**values):
    """Set settings at run time (a value None leaves its setting as it is). Every value is
    checked before any is set; watchers are told of each change. Returns the previous state,
    for ``restore``."""
    with _lock:
        new = {}
        for name, value in values.items():
            s = BY_NAME[name]
            if value is None:
                continue
            if not s.runtime:
                raise ValueError(f"{s.env} is read at import only (set it in the environment)")
            new[name] = _coerce(s, value)
        previous = {name: (_values[name], _sources[name]) for name in new}
        for name, value in new.items():
            _values[name], _sources[name] = value, "run time"
            for fn in _watchers.get(name, ()):
                fn(name, value)
        return previous


def set(name, value):  # noqa: A001 (the module's API: ``settings.set``)
    """Set one setting at run time; returns its previous value."""
    old = _values[name]
    update(**{name: value})
    return old


def restore(previous):
    """Put back the values and sources ``update`` returned."""
    with _lock:
        for name, (value, src) in previous.items():
            _values[name], _sources[name] = value, src
            for fn in _watchers.get(name, ()):
                fn(name, value)


def watch(fn, *names):
    """Call ``fn(name, value)`` now for each of ``names`` and on every change of them."""
    with _lock:
        for name in names:
            _watchers.setdefault(name, []).append(fn)
            fn(name, _values[name])
    return fn


def report():
    """Each setting, its value and its source, as ``python -m tnp config`` prints them."""
    rows = [(s.env, text(s, _values[s.name]), _sources[s.name], s.doc)
            for s in SETTINGS]
    w = [max(len(r[i]) for r in rows + [("variable", "value", "source")]) for i in range(3)]
    lines = [f"{'variable':<{w[0]}}  {'value':<{w[1]}}  {'source':<{w[2]}}  meaning"]
    lines += [f"{a:<{w[0]}}  {b:<{w[1]}}  {c:<{w[2]}}  {d}" for a, b, c, d in rows]
    return "\n".join(lines)


def markdown():
    """The README's settings table."""
    lines = ["| Variable | Default | Values | At run time | Meaning |",
             "|---|---|---|---|---|"]
    for s in SETTINGS:
        lines.append(f"| `{s.env}` | `{s.shown}` | {s.allowed} | "
                     f"{'yes' if s.runtime else 'no (at import)'} | {s.doc} |")
    return "\n".join(lines)
