"""Bounded kernel caches: one policy for every compiled-kernel cache in tnp and tnp_ext.

Compiled code is what a long program accumulates: every tnp kernel (a ``jax.jit``) gets one XLA
executable per shape and dtype it meets, a few MB of host memory each on the CPU. A loop making
arrays of a new size each time would grow without bound. The limit ``LIMIT`` (environment
variable ``TNP_KERNEL_CACHE_SIZE``, read at import; default 128; ``0`` turns every bound off)
applies twice:

- ``kernel_cache``: every table of kernels (``functools.lru_cache`` style) keeps at most
  ``LIMIT`` entries, the least recently used dropped first. A dropped kernel's executables go
  with it (JAX keys them by the function, weakly).
- Executables: JAX keeps the executables of a live kernel in its own caches. tnp counts the
  executables XLA builds (a ``jax.monitoring`` listener on backend compiles, which also sees
  loads from the persistent compilation cache); once ``LIMIT`` were built since the last
  clearing, ``jax.clear_caches()`` drops all of JAX's in-memory executables (JAX's own
  ``jax.jit`` functions' too). Kernels still in use recompile on their next call; with the
  persistent compilation cache on (``tnp._core.config``), the costly ones are a disk read.

So resident memory stays within about ``LIMIT`` executables, whatever the number of shapes a
program goes through. A program that keeps more than ``LIMIT`` kernel-shape pairs busy at once
recompiles; raise the limit for it (``TNP_KERNEL_CACHE_SIZE=2048``).
"""
import functools
import os
import threading

import jax


def _limit():
    raw = os.environ.get("TNP_KERNEL_CACHE_SIZE", "128")
    try:
        n = int(raw)
    except ValueError:
        raise ValueError(f"TNP_KERNEL_CACHE_SIZE must be an integer, got {raw!r}") from None
    return None if n <= 0 else n


LIMIT = _limit()  # None: unbounded


def kernel_cache(fn=None, *, maxsize=None):
    """``functools.lru_cache`` bounded by the shared limit (``maxsize`` caps it lower)."""
    if fn is None:
        return functools.partial(kernel_cache, maxsize=maxsize)
    size = LIMIT if maxsize is None else (maxsize if LIMIT is None else min(maxsize, LIMIT))
    return functools.lru_cache(maxsize=size)(fn)


class KernelTable(dict):
    """A dict of kernels bounded by the shared limit: past it, the oldest entries go."""

    def __setitem__(self, key, value):
        if LIMIT is not None and len(self) >= LIMIT:
            try:
                for k in list(self)[:max(1, LIMIT // 4)]:
                    self.pop(k, None)
            except RuntimeError:  # changed by another thread while listing: drop all
                self.clear()
        super().__setitem__(key, value)


# ---- executables ----------------------------------------------------------------------------
_built = 0
_lock = threading.Lock()
_BACKEND_COMPILE = "/jax/core/compile/backend_compile_duration"


def executables_built():
    """Executables XLA built since tnp was imported (compiles and persistent-cache loads)."""
    return _total


_total = 0


def _on_event(event, duration, **kwargs):
    global _built, _total
    if event != _BACKEND_COMPILE:
        return
    with _lock:
        _built += 1
        _total += 1
        full = LIMIT is not None and _built > LIMIT
        if full:
            _built = 0
    if full:
        clear()


def clear():
    """Drop every in-memory compiled executable (JAX's caches); kernels recompile on use."""
    jax.clear_caches()


jax.monitoring.register_event_duration_secs_listener(_on_event)
