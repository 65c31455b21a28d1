"""The persistent compilation cache: every executable XLA builds is kept on disk, so a second
process running the same program loads it instead of compiling it.

JAX's own cache (``jax_compilation_cache_dir``), switched on when JAX is imported (an ``on_load``
function of ``tnp._core.engine.jaxconfig``) unless ``TNP_COMPILATION_CACHE=0`` or the process
configured a directory itself. Every executable is written, however fast its compile
(``jax_persistent_cache_min_compile_time_secs=0``) and however small (size threshold off): a
NumPy program's many small kernels each cost XLA 20-500 ms, a load from disk about 2 ms.
Directory: ``TNP_COMPILATION_CACHE_DIR`` (default ``~/.cache/tnp/jax``).

The bound (``TNP_COMPILATION_CACHE_MB``, default 512; 0: none) is kept by tnp, not by JAX (whose
bound locks and lists the directory at every write): at most once an hour (a stamp file's
time), a background thread started when JAX is imported adds up the entries' sizes and, past
the bound, deletes the least recently used (their access or write time, whichever is later)
down to 3/4 of it. Nothing on a program's path waits for it.

The index (``INDEX``, a file in the cache's directory): the stable keys
(``tiercost.stable_key``) of the computations tnp's tiers compiled, one a line, appended after
each compile. A process reads it once (``known``): a cold computation whose key is there has
its executable in the cache (``tiering`` may load it at its first sighting instead of running
it on NumPy). Keys are only added; a trim that deletes entries, and ``clear``, delete the index
too (a key missing is a NumPy-tier run, one present but stale a compile on the program's path).

``counts()``: executables XLA built in this process and how many of them were loaded from the
cache (JAX's ``/jax/compilation_cache/cache_hits`` event; its backend-compile event, which
``tnp._core.engine.caches`` counts, fires for loads too). ``python -m tnp cache [--clear]``
shows (or empties) the cache (``describe``, ``clear``).
"""
import os
import threading
import time

from .. import settings
from . import caches
from .jaxload import jax, on_load

ENTRY_SUFFIXES = ("-cache", "-atime")  # JAX's files: an executable, and its access time
INDEX = "tnp-compiled.idx"  # the stable keys of what tnp's tiers compiled, one a line
STAMP = ".tnp-checked"  # its modification time: when the bound was last checked
CHECK_INTERVAL_S = 3600
TRIM_TO = 0.75  # past the bound, entries are deleted down to this fraction of it
_CACHE_HITS = "/jax/compilation_cache/cache_hits"

_loaded = 0
_lock = threading.Lock()
_index = []  # [the set of keys in the index] once read; [] before
_enabled = [False]  # whether this process uses tnp's cache (``enable``)


def directory():
    """The cache's directory (whether or not the cache is on)."""
    return settings.get("compilation_cache_dir")


def bound_bytes():
    """The bound on the cache's size on disk, or None."""
    mb = settings.get("compilation_cache_mb")
    return mb << 20 if mb > 0 else None


def enable(jax):
    """Point JAX's persistent cache at ``directory()`` and start the bound's check; returns
    whether this process uses tnp's cache (off by setting, or a directory the process chose)."""
    if not settings.get("compilation_cache") or jax.config.jax_compilation_cache_dir:
        return False
    path = directory()
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    jax.config.update("jax_compilation_cache_dir", path)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    if _check_due(path):
        threading.Thread(target=trim, args=(path,), name="tnp-cache-trim", daemon=True).start()
    _enabled[0] = True
    return True


def _keys():
    """The index's keys (read once per process; an empty set when the cache is off)."""
    try:
        return _index[0]
    except IndexError:
        pass
    keys = set()
    if _enabled[0]:
        try:
            with open(os.path.join(directory(), INDEX)) as f:
                keys = set(f.read().split())
        except OSError:
            pass
    with _lock:
        if not _index:
            _index.append(keys)
        return _index[0]


def known(key):
    """Whether the executable of the computation ``key`` (``tiercost.stable_key``) was
    compiled by an earlier process (or this one) into the cache: it is in the index."""
    return key in _keys()


def remember(key):
    """Add ``key`` to the index: its executable was just compiled into the cache."""
    keys = _keys()
    if not _enabled[0] or key in keys:
        return
    keys.add(key)
    try:
        with open(os.path.join(directory(), INDEX), "a") as f:
            f.write(key + "\n")  # (one short append: whole, with other processes')
    except OSError:
        pass


def _check_due(path):
    try:
        return time.time() - os.stat(os.path.join(path, STAMP)).st_mtime >= CHECK_INTERVAL_S
    except OSError:
        return True


def _entries(path):
    """(last use, size, path) of each of JAX's files in ``path``."""
    out = []
    try:
        with os.scandir(path) as it:
            for e in it:
                if e.name.endswith(ENTRY_SUFFIXES) and e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    out.append((max(st.st_atime, st.st_mtime), st.st_size, e.path))
    except OSError:
        pass
    return out


def trim(path=None, bound=None):
    """Delete the least recently used entries of the cache in ``path`` down to 3/4 of ``bound``
    bytes (default: the setting's) if it holds more; mark the check done. Returns the bytes
    deleted."""
    path = directory() if path is None else path
    bound = bound_bytes() if bound is None else bound
    deleted = 0
    entries = _entries(path)
    total = sum(size for _, size, _ in entries)
    if bound is not None and total > bound:
        for _, size, file in sorted(entries):
            if total - deleted <= bound * TRIM_TO:
                break
            try:
                os.remove(file)
                deleted += size
            except OSError:  # removed by another process meanwhile
                pass
        _drop_index(path)
    try:
        with open(os.path.join(path, STAMP), "w"):
            pass
    except OSError:
        pass
    return deleted


def clear(path=None):
    """Delete every entry of the cache in ``path`` (default: ``directory()``); returns how
    many files were deleted."""
    path = directory() if path is None else path
    n = 0
    for _, _, file in _entries(path):
        try:
            os.remove(file)
            n += 1
        except OSError:
            pass
    _drop_index(path)
    return n


def _drop_index(path):
    with _lock:
        _index.clear()
    try:
        os.remove(os.path.join(path, INDEX))
    except OSError:
        pass


def describe(path=None):
    """The cache's state in words: directory, on/off, entries and size against the bound."""
    path = directory() if path is None else path
    entries = _entries(path)
    executables = sum(1 for _, _, f in entries if f.endswith("-cache"))
    size = sum(s for _, s, _ in entries)
    bound = bound_bytes()
    on = settings.get("compilation_cache")
    try:
        with open(os.path.join(path, INDEX)) as f:
            indexed = len(set(f.read().split()))
    except OSError:
        indexed = 0
    return "\n".join([
        f"directory:   {path}",
        f"enabled:     {'yes' if on else 'no (TNP_COMPILATION_CACHE=0)'}",
        f"entries:     {executables} executables ({indexed} computations in tnp's index)",
        f"size:        {size / 2**20:.1f} MB"
        + (f" of {bound >> 20} MB (trimmed to 3/4 when over)" if bound else " (no bound)")])


def counts():
    """``{"compiles": ..., "loaded": ...}``: executables XLA built in this process, and those of
    them that were loaded from the persistent cache (``compiles`` counts only the others)."""
    loaded = _loaded
    return {"compiles": caches.executables_built() - loaded, "loaded": loaded}


def _on_event(event, **kwargs):
    global _loaded
    if event == _CACHE_HITS:
        with _lock:
            _loaded += 1


on_load(lambda: jax.monitoring.register_event_listener(_on_event))
