"""Runs tests/multidevice in a subprocess with 8 simulated CPU devices (the rest of the suite
keeps one device)."""
import os
import subprocess
import sys


def test_parallel_suite_on_8_simulated_devices():
    here = os.path.dirname(__file__)
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8",
               JAX_PLATFORMS="cpu", TNP_MULTIDEVICE="1")  # 8 CPU devices, also beside a GPU
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        os.path.join(here, "multidevice")], capture_output=True, text=True,
                       env=env, timeout=900)
    assert p.returncode == 0, p.stdout[-6000:] + p.stderr[-3000:]
    assert " passed" in p.stdout and "failed" not in p.stdout
