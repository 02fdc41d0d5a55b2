"""A quiet TensorFlow start-up for the `attention-zoo` command, and only for it.

TensorFlow writes C++ log lines to the process's standard error while it
imports and at its first device query (the oneDNN notice, "Could not find
cuda drivers", a failed cuInit), before absl logging is initialised, so
`TF_CPP_MIN_LOG_LEVEL` does not reach them. The command line swallows
standard error while TensorFlow starts; a library imported by a user's
program must never redirect that program's standard error, so nothing
happens unless the process is the command itself.
"""

from __future__ import annotations

import importlib.util
import os
import sys


def running_as_command() -> bool:
    """Whether this process is `attention-zoo ...` or `python -m attention_zoo ...`."""
    argv = getattr(sys, "orig_argv", sys.argv)
    if len(argv) >= 3 and argv[1] == "-m" and argv[2] == "attention_zoo":
        return True
    return bool(sys.argv) and os.path.basename(sys.argv[0]) == "attention-zoo"


# The module each Keras backend imports, and the extra that installs it.
_BACKENDS = {
    "tensorflow": ("tensorflow", "attention-zoo"),
    "jax": ("jax", "attention-zoo[jax]"),
    "torch": ("torch", "attention-zoo[torch]"),
    "numpy": ("numpy", "attention-zoo"),
    "openvino": ("openvino", "openvino"),
}


def missing_backend() -> str | None:
    """One line saying `KERAS_BACKEND` names a backend that is not installed.

    Keras fails inside `import keras` with a traceback in that case, before
    the command's error boundary exists, so the command asks first.
    """
    backend = os.environ.get("KERAS_BACKEND", "tensorflow")
    if backend not in _BACKENDS:
        return (
            f"attention-zoo: error: KERAS_BACKEND must be one of "
            f"{', '.join(_BACKENDS)}. Received: KERAS_BACKEND={backend[:100]}"
        )
    module, extra = _BACKENDS[backend]
    if importlib.util.find_spec(module) is not None:
        return None
    return (
        f"attention-zoo: error: KERAS_BACKEND={backend} but {module} is not "
        f'installed; pip install "{extra}", or choose another backend'
    )


def start_tensorflow_quietly() -> None:
    """Imports TensorFlow and lists its devices with standard error silenced.

    Does nothing on another Keras backend, without TensorFlow, or with
    `ATTENTION_ZOO_DEBUG` set. An exception raised while importing still
    propagates, after standard error is restored, to be reported.
    """
    if os.environ.get("ATTENTION_ZOO_DEBUG"):
        return
    if os.environ.get("KERAS_BACKEND", "tensorflow") != "tensorflow":
        return
    if importlib.util.find_spec("tensorflow") is None:
        return
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        import tensorflow as tf

        tf.config.list_physical_devices()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
