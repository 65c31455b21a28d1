"""``python -m tnp run --processes 2 --devices-per-process 4``: one unmodified NumPy program run by
two local processes over 8 simulated CPU devices (JAX's distributed runtime, gloo collectives,
placement "sharded") prints NumPy's output once, writes each file once, and splits its large
arrays over all 8 devices; a process that dies, fails or cannot reach the coordinator ends the
run with an error naming it, within a bound. The default run takes a small program, the heat
equation example and the k-means workload; ``slow``: every example and every workload."""
import os
import subprocess
import sys
import time

import pytest

from tnp import _launch
from tnp._core import settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
WORKLOAD = os.path.join(ROOT, "tests", "processes_workload.py")
LAUNCH = ["--processes", "2", "--devices-per-process", "4"]
# the tests' arrays of a few thousand elements on the device and split (as tests/multidevice)
THRESHOLDS = {"TNP_HOST_THRESHOLD": "1024", "TNP_SHARD_THRESHOLD": "64"}
BOUND_S = 60  # a failed run ends within this


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TNP_") and k != "XLA_FLAGS"}
    env["TNP_COMPILATION_CACHE_DIR"] = os.environ.get("TNP_COMPILATION_CACHE_DIR", "")
    env.update(JAX_PLATFORMS="cpu", **THRESHOLDS, **extra)
    return env


def _tnp_run(*args, env=None, timeout=600):
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "tnp", "run", *args], capture_output=True,
                       text=True, env=env or _env(), timeout=timeout, cwd=ROOT)
    return p, time.monotonic() - t0


def _same_as_numpy(*program, rtol=1e-9):
    """``--compare`` of the program under NumPy and under ``--processes 2`` x 4 devices."""
    p, _ = _tnp_run("--compare", "--rtol", str(rtol), *LAUNCH, *program)
    assert "result: SAME" in p.stdout, p.stdout + p.stderr[-4000:]
    assert p.returncode == 0


SMALL = """\
import numpy as np
rng = np.random.default_rng(7)
x = rng.normal(size=(256, 48))
x[::5, 3] = -1.5
y = np.sin(x) * 2 + x @ np.ones((48, 48)) / 48
print(y.sum(), y.sum(axis=0)[:4], y.mean(axis=1)[-3:])
print(repr(y[:2, :3]), y[200:203, -2:].tolist())
print(float(y.max()), int(np.argmax(y)), y[np.asarray([3, 250, 7])][:, 0])
print(np.sort(y, axis=0)[0, :5], np.cumsum(y, axis=0)[-1, :3])
print(np.asarray(y).shape, np.linspace(0.0, 1.0, 4096)[::1000])
"""


def test_small_program_prints_numpy_output(tmp_path):
    (tmp_path / "small.py").write_text(SMALL)
    _same_as_numpy(str(tmp_path / "small.py"), rtol=1e-12)


WRITES = """\
import os, sys
import numpy as np
d = sys.argv[1]
x = np.linspace(0.0, 1.0, 24_000).reshape(600, 40)
with open(os.path.join(d, "a.npy"), "ab") as f:  # appended: a second writer would show
    np.save(f, x)
with open(os.path.join(d, "a.txt"), "ab") as f:
    np.savetxt(f, x[:3])
with open(os.path.join(d, "a.bin"), "ab") as f:
    x.tofile(f)
with open(os.path.join(d, "a.npz"), "ab") as f:
    np.savez(f, x=x, y=x[::2])
np.save(os.path.join(d, "b"), x * 2)
print("written", x.shape, x[-1, -3:])
if hasattr(x.data, "sharding"):  # tnp's arrays: the devices x and a result span
    print("devices", len(x.data.sharding.device_set), len((x * 2).data.sharding.device_set))
"""


def test_files_written_once_and_arrays_span_every_device(tmp_path):
    """Files written by the program hold what NumPy writes, once (process 0 writes them); its
    large arrays, and what is computed from them, span the 8 devices of the 2 processes."""
    (tmp_path / "writes.py").write_text(WRITES)
    (tmp_path / "numpy").mkdir()
    (tmp_path / "tnp").mkdir()
    ref = subprocess.run([sys.executable, str(tmp_path / "writes.py"), str(tmp_path / "numpy")],
                         capture_output=True, text=True, check=True)
    p, _ = _tnp_run(*LAUNCH, str(tmp_path / "writes.py"), str(tmp_path / "tnp"))
    assert p.returncode == 0, p.stderr[-4000:]
    assert p.stdout == ref.stdout + "devices 8 8\n"
    for name in ("a.npy", "a.txt", "a.bin", "a.npz", "b.npy"):
        assert (tmp_path / "tnp" / name).read_bytes() == (tmp_path / "numpy" / name).read_bytes()


UNSEEDED = """\
import numpy as np
draws = [np.random.default_rng().random(), np.random.rand(), np.random.RandomState().rand()]
np.random.seed()
draws.append(np.random.rand())
for d in draws:  # each process's own draw fills its blocks of the split array
    a = np.full(20_000, d)
    print(bool(a.max() == a.min()), a.shape)
"""


def test_unseeded_streams_draw_the_same_numbers_in_every_process(tmp_path):
    """A stream the program did not seed takes process 0's fresh entropy in every process (one
    program: the same numbers, the same branches); each process's own OS entropy would give the
    blocks of one array different values."""
    (tmp_path / "unseeded.py").write_text(UNSEEDED)
    _same_as_numpy(str(tmp_path / "unseeded.py"))


def test_example_prints_numpy_output():
    _same_as_numpy(os.path.join(EXAMPLES, "heat_equation.py"), rtol=1e-7)


WORKLOADS = ["kmeans", "nbody", "heat", "pairwise", "mandelbrot", "mlp"]
ALL_EXAMPLES = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py")
                      and "import tnp" not in open(os.path.join(EXAMPLES, f)).read())


@pytest.mark.parametrize("name", [
    pytest.param(w, marks=() if w == "kmeans" else pytest.mark.slow) for w in WORKLOADS])
def test_workload_prints_numpy_output(name):
    """The benchmark workloads, unmodified NumPy code, on split arrays: NumPy's results
    (reductions may reorder)."""
    _same_as_numpy(WORKLOAD, name, rtol=1e-7)


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_EXAMPLES)
def test_every_example_prints_numpy_output(name):
    _same_as_numpy(os.path.join(EXAMPLES, name), rtol=1e-7)


FAILS = """\
import os, signal, sys, time
import numpy as np
x = np.arange(400_000.0)
print("sum", x.sum(), flush=True)
if os.environ["TNP_PROCESS_ID"] == "1":
    {failure}
print("after", (x * 2).sum(), flush=True)  # process 0 waits for process 1 here
time.sleep(300)
"""


@pytest.mark.parametrize("failure, code, words", [
    ("os.kill(os.getpid(), signal.SIGKILL)", 128 + 9, "died (signal 9)"),
    ("raise ValueError('bad input in process 1')", 1, "failed (exit status 1)")],
    ids=["killed", "raises"])
def test_a_failing_process_ends_the_run(tmp_path, failure, code, words):
    """Process 1 killed (or raising) mid-run while process 0 waits on it in a collective: the
    run ends within the bound, with the failing process's status, naming it; a failed
    process's own output is shown."""
    (tmp_path / "fails.py").write_text(FAILS.format(failure=failure))
    p, took = _tnp_run(*LAUNCH, str(tmp_path / "fails.py"), timeout=4 * BOUND_S)
    assert took < BOUND_S, (took, p.stderr[-4000:])
    assert p.returncode == code, p.stderr[-4000:]
    assert f"tnp run --processes: process 1 of 2 {words}; stopped the others" in p.stderr
    assert "---- output of process 1 ----" in p.stderr
    assert p.stdout.startswith("sum 79999800000.0\n")
    if code == 1:
        assert "ValueError: bad input in process 1" in p.stderr


def test_unreachable_coordinator_ends_within_its_timeout(tmp_path):
    """A process whose coordinator never answers fails after TNP_DISTRIBUTED_TIMEOUT seconds
    with a ConnectionError naming the process and the address (not JAX's abort)."""
    (tmp_path / "one.py").write_text("import numpy as np\nprint(np.zeros(100_000).sum())\n")
    port = _launch.free_port()
    env = _env(TNP_DISTRIBUTED="1", TNP_COORDINATOR=f"127.0.0.1:{port}", TNP_PROCESSES="2",
               TNP_PROCESS_ID="1", TNP_DISTRIBUTED_TIMEOUT="3", TNP_PLACEMENT="sharded")
    p, took = _tnp_run(str(tmp_path / "one.py"), env=env, timeout=4 * BOUND_S)
    assert took < 3 + BOUND_S
    assert p.returncode == 1
    assert (f"ConnectionError: tnp: process 1 of 2 could not reach the coordinator at "
            f"127.0.0.1:{port} within 3 s") in p.stderr, p.stderr[-3000:]


def test_process_environment():
    """Each process's environment: tnp's distributed settings, K simulated devices, the
    placement "sharded" unless set, the --compare report file for process 0 only."""
    base = {"XLA_FLAGS": "--xla_cpu_foo=1", "TNP_RUN_REPORT": "/tmp/r.json"}
    env = _launch.process_env(base, 1, 3, 4, 5555)
    assert {k: env[k] for k in ("TNP_DISTRIBUTED", "TNP_COORDINATOR", "TNP_PROCESSES",
                                "TNP_PROCESS_ID", "TNP_LOCAL_DEVICES", "TNP_PLACEMENT")} == {
        "TNP_DISTRIBUTED": "1", "TNP_COORDINATOR": "127.0.0.1:5555", "TNP_PROCESSES": "3",
        "TNP_PROCESS_ID": "1", "TNP_LOCAL_DEVICES": "4,5,6,7", "TNP_PLACEMENT": "sharded"}
    assert env["XLA_FLAGS"] == "--xla_cpu_foo=1 --xla_force_host_platform_device_count=4"
    assert "TNP_RUN_REPORT" not in env
    env0 = _launch.process_env(dict(base, TNP_PLACEMENT="device"), 0, 3, 4, 5555)
    assert env0["TNP_PLACEMENT"] == "device" and env0["TNP_RUN_REPORT"] == "/tmp/r.json"
    for name, bad in (("coordinator", "nohostport"), ("local_devices", "1,x")):
        with pytest.raises(ValueError, match=settings.BY_NAME[name].env):
            settings._parse(settings.BY_NAME[name], bad)
    assert settings._parse(settings.BY_NAME["local_devices"], "0,2") == (0, 2)
