"""TensorFlow's log lines kept off standard error, unless the user asks for them.

TensorFlow (imported by `import keras` on the TensorFlow backend; on JAX and
PyTorch later, by what needs it: tf.data, TensorFlow Datasets, an export) writes
C++ log lines to standard error: at import, before absl logging is
initialised (`WARNING: All log messages before absl::InitializeLog() ...`,
"Could not find cuda drivers", from static initialisers of two shared
libraries, which no setting reaches), and later through its logging ("failed
call to cuInit", the XLA service and "Compiled cluster using XLA!", oneDNN's
"supports DT_BOOL only on platforms with AVX-512" while training, the LiteRT
converter's "NodeDef mentions attribute Truncate"). None says anything a
user of the package can act on.

`install()`, run by `attention_zoo/__init__.py` before anything imports
Keras, does two things, and neither imports TensorFlow (the package may
import it lazily, only when a model is needed):

- sets `TF_CPP_MIN_LOG_LEVEL=3` (log lines below FATAL off) unless the user
  set it: it is read once, when TensorFlow starts;
- puts a finder on `sys.meta_path` that runs the first `import tensorflow`,
  by whichever module asks for it, and TensorFlow's first device query,
  with file descriptor 2 pointed at a temporary file, and so each module
  TensorFlow imports later (its lazily loaded APIs load shared libraries
  that log as they load); when they end, what was written there goes back
  to standard error without TensorFlow's log lines (a Python warning
  printed meanwhile is kept, only delayed).

`ATTENTION_ZOO_VERBOSE=1` turns both off: every line TensorFlow writes is
shown, at the `TF_CPP_MIN_LOG_LEVEL` the user chose. `ATTENTION_ZOO_DEBUG=1`
(the command's tracebacks) shows them too.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import os
import re
import sys
import tempfile

VERBOSE_VARIABLE = "ATTENTION_ZOO_VERBOSE"

# An absl / TensorFlow C++ log line: severity, MMDD, time, thread, file:line]
# (`E0000 00:00:1795937655.089701   16840 cuda_platform.cc:52] ...`: before
# absl logging starts, the seconds count from 1970), absl's notice that
# logging has not started, and the second line of TensorFlow's
# CPU-instructions notice.
_LOG_LINE = re.compile(
    rb"^(?:[IWEF]\d{4} \d\d:\d\d:\d+\.\d+ +\d+ [^ \]]+:\d+\] "
    rb"|WARNING: All log messages before absl::InitializeLog\(\) "
    rb"|To enable the following instructions: .* rebuild TensorFlow )"
)


def verbose() -> bool:
    """Whether the user asked to see TensorFlow's log lines."""
    return any(
        os.environ.get(name, "") not in ("", "0")
        for name in (VERBOSE_VARIABLE, "ATTENTION_ZOO_DEBUG")
    )


def is_log_line(line: bytes) -> bool:
    """Whether one line of standard error is a TensorFlow / absl log line."""
    return _LOG_LINE.match(line) is not None


def install() -> None:
    """Quiets TensorFlow before it starts; imports nothing of it."""
    if verbose():
        return
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if "tensorflow" in sys.modules or any(
        isinstance(finder, _TensorFlowImports) for finder in sys.meta_path
    ):
        return  # too late (its start-up lines are written), or done already
    sys.meta_path.insert(0, _TensorFlowImports())


# How many holds are open: a nested one (an import inside the first import
# of TensorFlow) leaves the outer one to hold what it writes.
_holding = 0


@contextlib.contextmanager
def stderr_without_log_lines():
    """Holds what is written to file descriptor 2, then writes it back
    without TensorFlow's log lines.

    At the file descriptor, because the C++ code writes there and not through
    `sys.stderr`. A temporary file, not a pipe, so nothing blocks however
    much is written. Does nothing where descriptor 2 is not open, or inside
    another hold.
    """
    global _holding
    try:
        saved = os.dup(2) if not _holding else None
    except OSError:
        saved = None
    if saved is None:
        yield
        return
    with tempfile.TemporaryFile() as held:
        _flush_stderr()
        os.dup2(held.fileno(), 2)
        _holding += 1
        try:
            yield
        finally:
            _holding -= 1
            _flush_stderr()
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            kept = [
                line
                for line in held.read().splitlines(keepends=True)
                if not is_log_line(line)
            ]
            if kept:
                os.write(2, b"".join(kept))


def _flush_stderr() -> None:
    # Python's own buffered writes land on the side of the switch they were
    # made on (sys.stderr may be None, or a stream of the user's).
    with contextlib.suppress(Exception):
        sys.stderr.flush()


class _TensorFlowImports(importlib.abc.MetaPathFinder):
    """Finds `tensorflow` and its modules as the path finder does, and hands
    each a loader that runs with standard error held.

    The first `import tensorflow` holds everything it imports. Modules
    TensorFlow loads later, on first use of an API (`tf.profiler` loads a
    shared library of its own, which writes "Could not find cuda drivers"
    as it loads), are held one by one; once held, an import nested inside
    is left to the usual finders.
    """

    def find_spec(self, fullname, path, target=None):
        if fullname.partition(".")[0] != "tensorflow" or _holding:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return None  # the other finders have their turn
        spec.loader = _HeldLoader(spec.loader)
        return spec


class _HeldLoader(importlib.abc.Loader):
    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        # A compiled module's shared library is loaded here, and its static
        # initialisers write their log lines as it loads.
        with stderr_without_log_lines():
            return self._loader.create_module(spec)

    def exec_module(self, module):
        # The module keeps its own loader (importlib.resources, inspect and
        # reload read it).
        module.__loader__ = module.__spec__.loader = self._loader
        with stderr_without_log_lines():
            self._loader.exec_module(module)
            if module.__name__ == "tensorflow":
                # The CUDA lines of the first device query ("failed call to
                # cuInit") come at the first use, not at import. Listing the
                # physical devices leaves the user free to choose the
                # visible ones and their memory growth afterwards.
                module.config.list_physical_devices()
