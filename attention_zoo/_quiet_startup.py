"""The start of the `attention-zoo` command, and only of it: one line, no traceback.

Before anything imports Keras, the command checks the backend Keras will
load (`backend_check`): one that is not installed, not a Keras backend, or
that cannot train (numpy, openvino), and a `keras.json` Keras cannot read,
end the command in one line with exit status 2 instead of a traceback from
inside `import keras` or minutes later. The check imports neither Keras nor
TensorFlow: the command imports them (`start_keras`) only once it knows it
needs a model, so `--help`, `--version` and an argument error answer at
once (docs/reliability.md, "The command answers at once").

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
import io
import json
import os
import sys
import traceback

# The interpreter's options that take the next argument as their value.
_OPTIONS_WITH_VALUE = ("-X", "-W", "--check-hash-based-pycs")


def running_as_command() -> bool:
    """Whether this process is `attention-zoo ...` or `python -m attention_zoo ...`.

    Interpreter options may come before `-m` (`python -X importtime -m
    attention_zoo --version`).
    """
    argv = getattr(sys, "orig_argv", sys.argv)
    index = 1
    while index < len(argv):
        option = argv[index]
        if option.startswith("-m"):
            module = option[2:] or (argv[index + 1] if index + 1 < len(argv) else "")
            return module == "attention_zoo"
        if option in _OPTIONS_WITH_VALUE:
            index += 2
        elif option.startswith("-") and option not in ("-", "-c", "--"):
            index += 1
        else:  # a script, `-c`, or standard input: not the command's module
            break
    return bool(sys.argv) and os.path.basename(sys.argv[0]) == "attention-zoo"


# The backends the command's models train and run on (its tests run on all
# three): the module each imports, and the extra that installs it.
_BACKENDS = {
    "tensorflow": ("tensorflow", "."),
    "jax": ("jax", ".[jax]"),
    "torch": ("torch", ".[torch]"),
}
# Keras backends that import but cannot run the command: both run inference
# only (`model.fit` raises NotImplementedError, and neither takes gradients),
# so `demo` and every `train` task would fail after preparing their data.
_INFERENCE_ONLY = ("numpy", "openvino")
_USE = "use tensorflow, jax or torch"


def keras_config_path() -> str:
    """The `keras.json` that `import keras` reads, found as Keras finds it.

    `$KERAS_HOME/keras.json`, else `~/.keras/keras.json`, or
    `/tmp/.keras/keras.json` when the home folder is not writable
    (`keras/src/backend/config.py`).
    """
    if "KERAS_HOME" in os.environ:
        folder = os.environ["KERAS_HOME"]
    else:
        home = os.path.expanduser("~")
        folder = os.path.join(home if os.access(home, os.W_OK) else "/tmp", ".keras")
    return os.path.expanduser(os.path.join(folder, "keras.json"))


def _shown(value) -> str:
    # A received value on one line and short, whatever the file held.
    return " ".join(str(value).split())[:100]


def _keras_config() -> tuple[dict, str | None, str | None]:
    """`(settings, error, warning)` of the `keras.json` Keras will read.

    Keras ignores a file that is not JSON (it catches ValueError) and fails
    with a traceback on one it cannot open or that holds no JSON object.
    """
    path = keras_config_path()
    if not os.path.exists(path):
        return {}, None, None
    try:
        # In the encoding of a bare `open()` (the locale's, or UTF-8 in
        # Python's UTF-8 mode), as Keras opens it: the same file must give
        # the same settings, or the same failure, here and in Keras.
        with open(path, encoding=io.text_encoding(None)) as file:
            settings = json.load(file)
    except OSError as error:
        return {}, f"cannot read {path} ({error.strerror or error})", None
    except RecursionError:
        return {}, f"{path} is nested too deeply to be a Keras configuration", None
    except ValueError as error:
        return {}, None, f"{path} is not JSON ({_shown(error)}); Keras ignores it"
    if not isinstance(settings, dict):
        return (
            {},
            f"{path} must hold a JSON object of Keras settings. "
            f"Received: {type(settings).__name__}",
            None,
        )
    return settings, None, None


def backend_check() -> tuple[str, str | None, str | None]:
    """The backend `import keras` will load, and what the command says of it.

    Keras takes `KERAS_BACKEND` when it is set and not empty, else the
    `"backend"` of `keras.json` (`keras_config_path`), else TensorFlow. A
    backend that is not installed, not a Keras backend, or one that cannot
    train fails inside `import keras` or minutes later, with a traceback;
    the command asks first.

    Returns:
        `(backend, error, warning)`: `error` is the line that ends the
        command (exit status 2), `warning` one it prints and goes on after
        (a `keras.json` that is not JSON); each is None when there is none.
    """
    settings, error, warning = _keras_config()
    if error:
        return "", f"attention-zoo: error: {error}", None
    path = keras_config_path()
    if os.environ.get("KERAS_BACKEND"):
        backend = os.environ["KERAS_BACKEND"]
        named = f"KERAS_BACKEND={_shown(backend)}"
    elif "backend" in settings:
        backend = settings["backend"]
        named = f"backend={_shown(backend)} in {path}"
    else:
        backend, named = "tensorflow", "backend=tensorflow (Keras's default)"
        if warning:
            warning += " and uses the tensorflow backend"
    if warning:
        warning = f"attention-zoo: warning: {warning}"
    if not isinstance(backend, str):  # a number or list in keras.json
        backend = _shown(backend)
    if backend in _INFERENCE_ONLY:
        error = (
            f"{named} cannot run attention-zoo's models (Keras's {backend} "
            f"backend runs inference only: no model.fit, no gradients); {_USE}"
        )
    elif backend not in _BACKENDS:
        where = "KERAS_BACKEND" if named.startswith("KERAS") else "the backend"
        error = f"{where} must be one of {', '.join(_BACKENDS)}. Received: {named}"
    elif importlib.util.find_spec(_BACKENDS[backend][0]) is None:
        module, extra = _BACKENDS[backend]
        error = (
            f'{named} but {module} is not installed; pip install "{extra}" in a '
            f"clone of the repository, or {_USE}"
        )
    if error:
        return backend, f"attention-zoo: error: {error}", warning
    return backend, None, warning


def check_backend() -> None:
    """The command's first step, before it parses its arguments: the
    backend check (`backend_check`), without importing Keras.

    Prints the check's warning; after its error prints one line and exits
    with status 2.
    """
    _checked.append(True)
    _, error, warning = backend_check()
    if warning:
        print(warning, file=sys.stderr)
    if error:
        print(error, file=sys.stderr)
        raise SystemExit(2)


# Whether `check_backend` ran: the process started as the command, as the
# package's import saw it (`runpy` later sets `sys.argv[0]` to the path of
# `__main__.py`, where `running_as_command` would no longer see it).
_checked = []
_started = []


def started_as_command() -> bool:
    """Whether the package's import found this process to be the command."""
    return bool(_checked)


def start_keras() -> None:
    """Imports Keras (and TensorFlow, silenced) for a command that needs a model.

    After a failure to import TensorFlow or Keras (an invalid `floatx` in
    `keras.json`, a broken installation), prints one line and exits with
    status 2, as the command's error boundary does (`ATTENTION_ZOO_DEBUG=1`
    adds the traceback). Does its work once per process.
    """
    if _started:
        return
    backend, _, _ = backend_check()
    try:
        start_tensorflow_quietly()
        import keras  # noqa: F401
    except Exception as failure:
        if os.environ.get("ATTENTION_ZOO_DEBUG") == "1":
            traceback.print_exc()
        print(
            f"attention-zoo: error: Keras cannot start on the {backend} backend "
            f"({type(failure).__name__}: {' '.join(str(failure).split())[:600]})",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    _started.append(backend)


# Where `attention-zoo serve` keeps compiled searches between starts (the
# backend's persistent compilation cache), unless this variable names
# another folder, or is empty: none.
CACHE_VARIABLE = "ATTENTION_ZOO_COMPILATION_CACHE"


def compilation_cache_folder() -> str | None:
    """The folder of the persistent compilation cache, None for none."""
    default = os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "attention-zoo",
        "compiled",
    )
    return os.environ.get(CACHE_VARIABLE, default) or None


def turn_on_compilation_cache() -> None:
    """Turns on the backends' persistent compilation caches for this
    process, so that a second `serve` reads each compiled search from disk
    instead of compiling it again (docs/benchmarks.md, "Serving: time to
    ready"): XLA's, which TensorFlow reads from `TF_XLA_FLAGS` at its first
    device query (hence here, before TensorFlow starts), and JAX's. The
    command alone turns it on: a library must not write a user's disk
    unasked. A cache the user set already is kept."""
    folder = compilation_cache_folder()
    if folder is None:
        return
    flags = os.environ.get("TF_XLA_FLAGS", "")
    if "tf_xla_persistent_cache_directory" not in flags:
        os.environ["TF_XLA_FLAGS"] = (
            f"{flags} --tf_xla_persistent_cache_directory={folder}"
        ).strip()
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", folder)


def start_tensorflow_quietly() -> None:
    """Imports Keras and TensorFlow, and lists TensorFlow's devices, silenced.

    On every backend: Keras imports TensorFlow where it is installed (its
    serialization asks `tf.available`), so a JAX or PyTorch run printed the
    same start-up lines later, outside any silence. Does nothing without
    TensorFlow or when the user asks to see TensorFlow's lines
    (`ATTENTION_ZOO_VERBOSE=1` or `ATTENTION_ZOO_DEBUG=1`, `_quiet.verbose`).
    An exception raised while importing still propagates, after standard
    error is restored, to be reported.
    """
    from attention_zoo import _quiet

    if _quiet.verbose():
        return
    if importlib.util.find_spec("tensorflow") is None:
        return
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        # Keras first: it says what is wrong with a keras.json setting
        # (`floatx`), where TensorFlow's own older Keras, which reads the
        # same file, fails on an assert without a message.
        import keras  # noqa: F401
        import tensorflow as tf

        tf.config.list_physical_devices()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
