"""Subprocess helpers of the `--distribute` tests: bounded, always cleaned up.

Each distributed training runs in a fresh Python process, because the
device layout (logical CPUs, XLA host devices) and a multi-worker cluster
must be set before TensorFlow or JAX initialises, and would leak into the
test process otherwise.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# Prepended to a script: two logical CPU devices for tf.distribute.
TWO_LOGICAL_CPUS = """
import tensorflow as tf
_cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    _cpu, [tf.config.LogicalDeviceConfiguration()] * 2
)
"""


def script_env(**extra) -> dict:
    """The environment of a script: this checkout first on the path."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {
        **os.environ,
        "PYTHONPATH": path,
        "TF_CPP_MIN_LOG_LEVEL": "2",
        "KERAS_BACKEND": "tensorflow",
        **extra,
    }


def start_script(folder, source, *args, env=None, log=None) -> subprocess.Popen:
    """Start `source` as a Python script in `folder` (stderr into `log`)."""
    folder = Path(folder)
    script = folder / f"script-{abs(hash(source)) % 10**8}.py"
    script.write_text(source)
    return subprocess.Popen(
        [sys.executable, str(script), *map(str, args)],
        cwd=folder,
        env=env or script_env(),
        stdout=subprocess.PIPE,
        stderr=log if log is not None else subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen) -> None:
    """Kill `process` if it still runs, and reap it."""
    if process.poll() is None:
        process.kill()
    try:
        process.communicate(timeout=30)
    except (subprocess.TimeoutExpired, ValueError):
        pass


def last_json(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


def run_script(folder, source, *args, env=None, timeout=420) -> dict:
    """Run `source` in a fresh process; the JSON of its last output line.

    The process is killed after `timeout` seconds (the test then fails).
    """
    process = start_script(folder, source, *args, env=env)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(process)
        raise AssertionError(f"script ran over {timeout} s") from None
    finally:
        stop(process)
    assert process.returncode == 0, stderr[-3000:]
    return last_json(stdout)


def free_ports(n: int) -> list[int]:
    """`n` TCP ports of 127.0.0.1 that were free a moment ago."""
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()
