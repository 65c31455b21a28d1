"""``python -m tnp run --processes N [--devices-per-process K] (SCRIPT.py | -m MODULE) [args]``:
one unmodified program run by N local processes as one program over all their devices.

The launcher starts N copies of ``python -m tnp run`` (the program, its arguments and the other
``run`` options unchanged) with the environment tnp's settings read (``tnp._core.settings``):
``TNP_DISTRIBUTED=1``, ``TNP_COORDINATOR`` (127.0.0.1 and a free port: process 0 serves it),
``TNP_PROCESSES``, ``TNP_PROCESS_ID``, ``TNP_LOCAL_DEVICES`` (process i's K GPU ids, on a
multi-GPU machine), K simulated CPU devices per process (``XLA_FLAGS``' host platform device
count, unless ``XLA_FLAGS`` names one) and the placement mode ``sharded`` unless
``TNP_PLACEMENT`` is set. Each process's tnp starts JAX's distributed runtime by itself as JAX
loads (``tnp._core.engine.distributed``), so the program sees N x K devices and its large arrays
are split over all of them.

One output: process 0's stdout and stderr pass through (less gloo's line per device as it
connects, which tnp sends to stderr); the others' are kept in temporary files and shown only when that process fails. The
launcher watches every process: when one exits with an error or is killed, it kills the others
and exits with that process's status (a signal N as 128 + N), saying which process failed; a
process that cannot reach the coordinator fails by itself within ``TNP_DISTRIBUTED_TIMEOUT``
seconds. The exit status is 0 when every process exits with 0.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

from tnp._core import settings

_POLL_S = 0.05  # how often the launcher looks at its processes
# gloo's line as it connects, which each device's thread prints (in the middle of another line,
# or of another thread's, whose newline then follows later)
_GLOO_CONNECTED = re.compile(rb"\[Gloo\] Rank \d+ is connected to \d+ peer ranks\. Expected "
                             rb"number of connected peer ranks is : \d+(\n?)")
_SHOWN_CHARS = 6000  # the tail of a failed process's captured output that is shown
_DEVICE_COUNT_FLAG = "--xla_force_host_platform_device_count"


def _env(name):
    return settings.BY_NAME[name].env


def free_port():
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_env(base, index, processes, devices, port):
    """The environment of process ``index`` of ``processes``, with ``devices`` devices each and
    the coordinator on ``port``."""
    env = dict(base)
    env.update({_env("distributed"): "1", _env("coordinator"): f"127.0.0.1:{port}",
                _env("processes"): str(processes), _env("process_id"): str(index),
                _env("local_devices"): ",".join(str(index * devices + d)
                                                for d in range(devices))})
    if not env.get(_env("placement")):
        env[_env("placement")] = "sharded"
    flags = env.get("XLA_FLAGS", "")
    if _DEVICE_COUNT_FLAG not in flags:
        env["XLA_FLAGS"] = " ".join(filter(None, [flags, f"{_DEVICE_COUNT_FLAG}={devices}"]))
    if index:
        env.pop(_env("run_report"), None)  # (--compare's report: process 0's)
    return env


def _status_words(code):
    return f"signal {-code}" if code < 0 else f"exit status {code}"


def _exit_code(code):
    """A child's status as this process's exit status (a signal N as a shell gives it)."""
    return 128 - code if code < 0 else code


def _stop(procs):
    """Kill every process still running (one whose peer failed would wait on it, or catch
    SIGTERM: JAX's preemption notifier does)."""
    for p in procs:
        if p.poll() is None:
            p.kill()
    for p in procs:
        p.wait()


def _pass_stderr(pipe):
    """Copy process 0's stderr to ours, without the line per device that gloo prints as it
    connects (on the C level's stdout, which tnp gives to stderr)."""
    owed = 0  # newlines of gloo's lines still to come
    for line in iter(pipe.readline, b""):
        owed += sum(not m.group(1) for m in _GLOO_CONNECTED.finditer(line))
        line = _GLOO_CONNECTED.sub(b"", line)
        if line == b"\n" and owed:
            owed -= 1
        elif line:
            sys.stderr.buffer.write(line)
            sys.stderr.buffer.flush()


def _show(index, log):
    log.seek(0)
    text = _GLOO_CONNECTED.sub(b"", log.read()).decode(errors="replace")
    if text.strip():
        cut = text[-_SHOWN_CHARS:]
        sys.stderr.write(f"---- output of process {index} "
                         f"{'(its end) ' if len(cut) < len(text) else ''}----\n{cut}")
        if not cut.endswith("\n"):
            sys.stderr.write("\n")


def launch(run_args, processes, devices):
    """Run ``python -m tnp run RUN_ARGS`` as ``processes`` processes of ``devices`` devices
    each; the exit status of the run."""
    if processes < 1 or devices < 1:
        print("tnp run --processes: the number of processes and of devices per process must "
              "be at least 1", file=sys.stderr)
        return 2
    port = free_port()
    cmd = [sys.executable, "-m", "tnp", "run"] + list(run_args)
    procs, logs, copier = [], [], None
    sys.stdout.flush()
    try:
        for i in range(processes):
            env = process_env(os.environ, i, processes, devices, port)
            if i == 0:
                procs.append(subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE))
                copier = threading.Thread(target=_pass_stderr, args=(procs[0].stderr,),
                                          daemon=True)
                copier.start()
                continue
            log = tempfile.TemporaryFile()
            logs.append(log)
            procs.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL))
        code = _watch(procs, logs)
    except KeyboardInterrupt:
        print("tnp run --processes: interrupted; stopped every process", file=sys.stderr)
        code = 130
    finally:
        _stop(procs)
        for log in logs:
            log.close()
    if copier:
        copier.join(timeout=5)  # (process 0's stderr to its end)
    return code


def _watch(procs, logs):
    """Wait for every process; at the first failure stop the others and say which failed."""
    n = len(procs)
    while True:
        codes = [p.poll() for p in procs]
        failed = [i for i, c in enumerate(codes) if c not in (None, 0)]
        if failed:
            i = failed[0]
            running = [j for j, c in enumerate(codes) if c is None]
            _stop(procs)
            if i:
                _show(i, logs[i - 1])
            what = "died" if codes[i] < 0 else "failed"
            print(f"tnp run --processes: process {i} of {n} {what} ({_status_words(codes[i])})"
                  + ("; stopped the others" if running else ""), file=sys.stderr)
            return _exit_code(codes[i])
        if all(c == 0 for c in codes):
            return 0
        time.sleep(_POLL_S)
