"""Bounded kernel caches: one policy for every compiled-kernel cache in tnp and tnp_ext.

Compiled code is what a long program accumulates: every tnp kernel (a ``jax.jit``) gets one XLA
executable per shape and dtype it meets, a few MB of host memory each on the CPU. A loop making
arrays of a new size each time would grow without bound. The limit ``LIMIT`` (environment
variable ``TNP_KERNEL_CACHE_SIZE``, read at import by ``tnp._core.settings``; default 128; ``0``
turns every bound off)
applies at three levels:

- ``kernel_cache``/``KernelTable``: every table of kernels keeps at most ``LIMIT`` entries, the
  least recently used (``KernelTable``: the oldest) dropped first. A dropped kernel's
  executables go with it (JAX keys them by the function, weakly).
- Executables of a kernel: the kernels in these tables are tracked (weakly). tnp counts the
  executables XLA builds (a ``jax.monitoring`` listener on backend compiles, which also sees
  loads from the persistent compilation cache); every ``PER_KERNEL = LIMIT // 8`` of them
  (16), each tracked kernel holding more than ``PER_KERNEL`` executables drops them (its
  ``clear_cache()``; the shapes it still meets recompile). The others keep theirs: a program
  with any number of live kernels, each used at a few shapes, never recompiles them.
- Everything else JAX compiles (tnp's module-level kernels, ``jax.numpy`` called eagerly, the
  program's own ``jax.jit`` functions): once ``OTHERS = LIMIT // 2`` executables (64) were
  built outside the tracked kernels since the last clearing, ``jax.clear_caches()`` drops all
  of JAX's in-memory executables. Kernels still in use recompile on their next call; with the
  persistent compilation cache on (``tnp._core.engine.jaxconfig``), the costly ones are a disk read.

So resident memory stays within about ``PER_KERNEL`` executables per kernel that meets ever-new
shapes plus ``OTHERS``, whatever the number of shapes a program goes through. What still
recompiles in a loop: one tracked kernel used at more than ``PER_KERNEL`` shapes in turn, or
more than ``OTHERS`` executables busy outside the tracked kernels; raise the limit for such a
program (``TNP_KERNEL_CACHE_SIZE=2048``). ``stats()`` counts the clearings.
"""
import functools
import threading
import weakref

from .. import settings
from .jaxload import jax, on_load

LIMIT = settings.get("kernel_cache_size")
LIMIT = None if LIMIT <= 0 else LIMIT  # None: unbounded
PER_KERNEL = None if LIMIT is None else max(1, LIMIT // 8)  # executables a tracked kernel keeps
OTHERS = None if LIMIT is None else max(1, LIMIT // 2)  # executables built elsewhere, at most

_KERNELS = weakref.WeakSet()  # the jitted kernels of the tables below
_kernels_lock = threading.Lock()


def _track(kernel):
    """Track a kernel (a ``jax.jit`` function; anything else is left alone); returns it."""
    if LIMIT is not None and hasattr(kernel, "_cache_size"):
        with _kernels_lock:
            _KERNELS.add(kernel)
    return kernel


def kernel_cache(fn=None, *, maxsize=None):
    """``functools.lru_cache`` bounded by the shared limit (``maxsize`` caps it lower); the
    kernels it returns are tracked."""
    if fn is None:
        return functools.partial(kernel_cache, maxsize=maxsize)
    size = LIMIT if maxsize is None else (maxsize if LIMIT is None else min(maxsize, LIMIT))

    @functools.wraps(fn)
    def make(*args, **kwargs):
        return _track(fn(*args, **kwargs))
    return functools.lru_cache(maxsize=size)(make)


class KernelTable(dict):
    """A dict of kernels bounded by the shared limit: past it, the oldest entries go. The
    kernels stored are tracked."""

    def __setitem__(self, key, value):
        if LIMIT is not None and len(self) >= LIMIT:
            try:
                for k in list(self)[:max(1, LIMIT // 4)]:
                    self.pop(k, None)
            except RuntimeError:  # changed by another thread while listing: drop all
                self.clear()
        super().__setitem__(key, _track(value))


# ---- executables ----------------------------------------------------------------------------
_built = 0  # compiles since the last pruning
_total = 0
_untracked = 0  # compiles outside the tracked kernels since the last jax.clear_caches()
_tracked = 0  # executables the tracked kernels held after the last pruning
_STATS = {"kernels cleared": 0, "all cleared": 0}
_lock = threading.Lock()
_prune_lock = threading.Lock()
_BACKEND_COMPILE = "/jax/core/compile/backend_compile_duration"


def executables_built():
    """Executables XLA built since tnp was imported (compiles and persistent-cache loads)."""
    return _total


def stats():
    """How often the bound acted: kernels whose executables were dropped, and
    ``jax.clear_caches()`` calls."""
    return dict(_STATS)


def _on_event(event, duration, **kwargs):
    global _built, _total
    if event != _BACKEND_COMPILE:
        return
    with _lock:
        _built += 1
        _total += 1
        due = LIMIT is not None and _built >= PER_KERNEL
        if due:
            _built = 0
    if due:
        _prune()


def _prune():
    """Every ``PER_KERNEL`` compiles: drop the executables of each tracked kernel holding more
    than ``PER_KERNEL``; clear all of JAX's once ``OTHERS`` were built outside them."""
    global _untracked, _tracked
    with _prune_lock:
        with _kernels_lock:
            kernels = list(_KERNELS)
        sizes = [(k._cache_size(), k) for k in kernels]
        now = sum(n for n, _ in sizes)
        # compiles in this window that no tracked kernel holds (an upper bound: a kernel that
        # died since took its count with it)
        _untracked += max(0, PER_KERNEL - max(0, now - _tracked))
        if _untracked > OTHERS:
            clear()
            return
        for n, k in sizes:
            if n > PER_KERNEL:
                k.clear_cache()
                now -= n
                _STATS["kernels cleared"] += 1
        _tracked = now


def clear():
    """Drop every in-memory compiled executable (JAX's caches); kernels recompile on use."""
    global _untracked, _tracked
    jax.clear_caches()
    _untracked = _tracked = 0
    _STATS["all cleared"] += 1


on_load(lambda: jax.monitoring.register_event_duration_secs_listener(_on_event))
