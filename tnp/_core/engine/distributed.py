"""JAX's distributed runtime: one program over many processes.

``start`` is the one way tnp starts it (``tnp_ext.distributed.initialize`` calls it too): on a
CPU it first selects gloo for the cross-process collectives, then calls
``jax.distributed.initialize`` with bounded timeouts, so a process that cannot reach the
coordinator, or a peer that dies, ends the run with JAX's error instead of a hang. With the
setting ``distributed`` (``TNP_DISTRIBUTED=1``, which ``python -m tnp run --processes N`` sets
for each process it starts), tnp starts it by itself as JAX loads, before the first device use
(``jaxconfig``): an unmodified program then sees every process's devices in ``jax.devices()``,
and the placement mode ``sharded`` lays its arrays out over all of them.

Every process runs the same program, so every process takes the same decisions: in a
distributed run the placement decisions that depend on a clock (the host tier's warm-up, the
cold tier's compile estimates) are made by their deterministic rules unless the environment
set them (``_DETERMINISTIC``); a process deciding otherwise than its peers would wait on a
collective forever; a random stream the program did not seed takes process 0's entropy
(``shared_entropy``). Values that leave the array world gather from every process
(``devices.to_host``); files are written once, by process 0 (``writes_files``). The program's
stdout is Python's alone: C code's (gloo's) goes to stderr (``_c_stdout_to_stderr``).
"""
import contextlib
import functools
import os
import sys
import time

import numpy as np

from .. import settings
from . import jaxload

# settings whose defaults depend on a clock, and their deterministic values in a distributed run
_DETERMINISTIC = {"host_warmup_ms": 0, "cold": "off"}


def start(coordinator=None, processes=None, process_id=None, local_devices=None,
          timeout=None, **kwargs):
    """Start JAX's distributed runtime (before any device is used): ``coordinator`` (host:port),
    ``processes`` and ``process_id`` None for the cluster's launcher to give them (SLURM, Open
    MPI, ...); ``local_devices``: this process's GPU ids; ``timeout``: seconds to wait for every
    process at the coordinator, and without a heartbeat before a process counts as dead (the
    setting ``distributed_timeout`` when None)."""
    timeout = settings.get("distributed_timeout") if timeout is None else timeout
    if coordinator and process_id:
        _reach(coordinator, process_id, processes, timeout)
    jax = jaxload.jax
    if jax.config.jax_cpu_collectives_implementation in (None, "none"):
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    kwargs.setdefault("initialization_timeout", timeout)
    kwargs.setdefault("heartbeat_timeout_seconds", timeout)
    kwargs.setdefault("shutdown_timeout_seconds", timeout)
    jax.distributed.initialize(coordinator_address=coordinator, num_processes=processes,
                               process_id=process_id, local_device_ids=local_devices, **kwargs)
    decide_by_rules()
    sys.excepthook = functools.partial(_end_on_exception, sys.excepthook)


def end_failed(code):
    """End this process at once with the non-zero status ``code`` when it is one of several:
    JAX's exit handler would wait at its shutdown barrier for every process (a peer waiting on
    this one in a collective never arrives) and then abort the process."""
    if code and running():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _end_on_exception(hook, *exc_info):
    hook(*exc_info)  # (the traceback printed)
    end_failed(1)


def _reach(coordinator, process_id, processes, timeout):
    """Wait until the coordinator accepts connections; after ``timeout`` seconds raise
    ``ConnectionError`` naming this process and the address (JAX's client would abort the
    process with a C++ stack trace instead)."""
    import socket  # (here: 2 ms of ``import tnp`` that a program of one process saves)
    host, _, port = coordinator.rpartition(":")
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError as exc:
            if time.monotonic() >= deadline:
                of = f" of {processes}" if processes else ""
                raise ConnectionError(
                    f"tnp: process {process_id}{of} could not reach the coordinator at "
                    f"{coordinator} within {timeout} s ({exc.strerror or exc}); is process 0 "
                    f"running? (TNP_COORDINATOR, TNP_DISTRIBUTED_TIMEOUT)") from None
            time.sleep(0.1)


def decide_by_rules():
    """Make the clock-dependent settings left at their defaults deterministic."""
    defaults = {name: value for name, value in _DETERMINISTIC.items()
                if settings.source(name) == "default"}
    if defaults:
        settings.update(**defaults)


def start_from_settings():
    """``start`` with the settings' values, when the setting ``distributed`` is on (called as
    JAX loads)."""
    if settings.get("distributed"):
        start(settings.get("coordinator"), settings.get("processes"),
              settings.get("process_id"), settings.get("local_devices"))


def running():
    """Whether this process is one of several running the program."""
    return (jaxload.loaded() and jaxload.jax.distributed.is_initialized()
            and jaxload.jax.process_count() > 1)


def shared_entropy():
    """Fresh entropy for a random stream the program did not seed (an int of 128 bits), the same
    in every process of a distributed run: process 0's, broadcast to the others (a collective:
    the processes run one program, so they draw the same numbers and take the same branches).
    None where this process runs alone: NumPy's own OS entropy then."""
    if settings.get("distributed"):
        jaxload.load()
    if not running():
        return None
    from jax.experimental import multihost_utils  # (JAX is loaded: the runtime runs)
    words = np.frombuffer(os.urandom(16), np.uint32)
    words = np.asarray(multihost_utils.broadcast_one_to_all(words), np.uint32)
    return int.from_bytes(words.tobytes(), "little")


def writes_files():
    """Whether this process writes the program's files: process 0 of a distributed run, or the
    only process. (With ``TNP_DISTRIBUTED`` set, JAX is loaded to know.)"""
    if settings.get("distributed"):
        jaxload.load()
    return not running() or jaxload.jax.process_index() == 0


@contextlib.contextmanager
def file_for_writer(file):
    """The file a NumPy writer called by the program writes: ``file`` where this process
    ``writes_files``, else a throwaway sink (``os.devnull``), so that each file is written once
    (every process still gathers the arrays: the gather is collective)."""
    if writes_files():
        yield file
    else:
        with open(os.devnull, "wb") as sink:
            yield sink


def _c_stdout_to_stderr():
    """Give the C level's stdout (file descriptor 1) to stderr, and Python's ``sys.stdout`` a
    descriptor of its own for the process's stdout: gloo's threads print a line on stdout per
    device as they connect, in fragments interleaved with each other and with the program's
    output. (Done as tnp is imported: before the program holds ``sys.stdout``.)"""
    out = sys.stdout
    if out is None or out is not sys.__stdout__:
        return
    try:
        if out.fileno() != 1:
            return
    except (AttributeError, OSError, ValueError):
        return
    out.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.__stdout__ = os.fdopen(fd, "w", encoding=out.encoding, errors=out.errors,
                                            newline=None)
    sys.stdout.reconfigure(line_buffering=out.line_buffering)


if settings.get("distributed"):
    decide_by_rules()  # from the start: the host tier's warm-up begins before JAX loads
    _c_stdout_to_stderr()
