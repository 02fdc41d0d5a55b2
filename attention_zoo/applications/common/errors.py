"""The command line's one error boundary, and malformed-file errors.

Every expected failure of a task (a bad argument, a missing, unreadable or
malformed file, a full or read-only disk, a missing optional package, a
diverged training) ends the command with one line on stderr naming the
file or argument, and exit status 2. Anything else is a bug: one line that
says so and where to report it, exit status 1. Neither prints a traceback
unless the environment sets `ATTENTION_ZOO_DEBUG=1`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from pathlib import Path

DEBUG_VARIABLE = "ATTENTION_ZOO_DEBUG"
# An error message longer than this is cut in the middle (a 100,000-character
# path would otherwise fill the terminal).
MAX_MESSAGE = 600
# TensorFlow's errors that come from files and memory, not from a bug: a
# read-only or full disk, a missing file, an allocation that failed.
TF_FILE_ERRORS = (
    "AlreadyExistsError",
    "DataLossError",
    "FailedPreconditionError",
    "NotFoundError",
    "PermissionDeniedError",
    "ResourceExhaustedError",
)
REPORT = (
    "this is a bug in attention-zoo; please report it on the project's issue "
    f"tracker with the command line and the traceback that {DEBUG_VARIABLE}=1 "
    "prints"
)


class MalformedFileError(ValueError):
    """A file that exists and parses, but not as what it must hold."""


READ_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


@contextlib.contextmanager
def reading(path, what: str = "a file of this run", errors=READ_ERRORS):
    """Turn a failure to interpret `path`'s content into `MalformedFileError`.

    The code inside reads or interprets the file (`json.loads`, a
    vocabulary's constructor, `config["units"]`); a KeyError, TypeError,
    ValueError, IndexError or AttributeError there means the file does not
    hold what it must, and is reported naming it. `errors` replaces that
    list of exception types.
    """
    try:
        yield
    except MalformedFileError:
        raise
    except errors as error:
        raise MalformedFileError(
            f"{path} is not {what} ({type(error).__name__}: {one_line(error)}); "
            "train the "
            "run again or restore the file"
        ) from error


def read_json(path, kind=dict, what: str = "a file of this run"):
    """The JSON content of `path`, which must be a `kind` (dict or list)."""
    with reading(path, what):
        content = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(content, kind):
            raise TypeError(
                f"a JSON {kind.__name__} is expected, not {type(content).__name__}"
            )
    return content


def read_examples(path, load) -> list:
    """`load(path)`: the examples of a run's test file, at least one.

    Raises:
        MalformedFileError: naming `path` when `load` cannot interpret it,
            or it holds no example (`evaluate` would divide by zero).
    """
    what = "a test set of this run"
    with reading(path, what):
        examples = load(path)
    if not examples:
        raise MalformedFileError(
            f"{path} is not {what} (it holds no example); train the run again "
            "or restore the file"
        )
    return examples


def _tf_file_errors() -> tuple:
    # Only when TensorFlow is loaded already: a task that never imported it
    # cannot raise its errors, and importing it here would cost seconds.
    tf = sys.modules.get("tensorflow")
    errors = getattr(tf, "errors", None)
    return tuple(getattr(errors, name) for name in TF_FILE_ERRORS if errors)


def one_line(message: str) -> str:
    """`message` on one line, cut in the middle beyond `MAX_MESSAGE`."""
    line = " ".join(str(message).split())
    if len(line) > MAX_MESSAGE:
        half = MAX_MESSAGE // 2
        line = (
            f"{line[:half]} [... {len(line) - 2 * half} characters ...] "
            + (line[-half:])
        )
    return line


# Characters of a user's input that a message quotes, at most.
MAX_QUOTED = 80


def quoted(text: str, limit: int = MAX_QUOTED) -> str:
    """`repr(text)` of at most `limit` characters of `text`, an ellipsis and
    the count standing for the rest: a reason names its input without
    repeating 5,000 characters of it.

    >>> quoted("3 May 1979")
    "'3 May 1979'"
    >>> quoted("x" * 200, limit=5)
    "'xxxxx'... (200 characters)"
    """
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def quoted_path(path, limit: int = MAX_QUOTED) -> str:
    """`quoted` for a path: its end kept (the file name is what tells one
    file from another), an ellipsis and the count standing for the start.

    >>> quoted_path("/tmp/a/b.png")
    "'/tmp/a/b.png'"
    >>> quoted_path("/" + "d" * 100 + "/b.png", limit=8)
    "...'dd/b.png'... (107 characters)"
    """
    text = str(path)
    if len(text) <= limit:
        return repr(text)
    return f"...{text[-limit:]!r}... ({len(text):,} characters)"


def describe(error: BaseException) -> str:
    """The one line that reports an expected `error`."""
    if isinstance(error, ImportError) and error.name:
        return (
            f"the optional package {error.name!r} is not installed ({error}); "
            "install it, or the extra of attention-zoo that provides it"
        )
    return one_line(error)


def run_guarded(label: str, job, errors=()) -> int:
    """`job()` inside the error boundary; the exit status of the command.

    Args:
        label: the command, as in `attention-zoo dates train`.
        job: a function of no argument.
        errors: more exception types that are expected failures.

    Returns:
        0 when `job` returns; 2 for an expected failure (`ValueError`,
        `OSError`, `ImportError`, TensorFlow's file errors, `errors`); 1
        for any other exception; 130 when interrupted; 141, quietly, when
        standard output is a pipe its reader closed (`closed_stdout`).
    """
    expected = (ValueError, OSError, ImportError, *_tf_file_errors(), *errors)
    try:
        job()
    except BrokenPipeError:
        # The reader of standard output went away (`| head -1`): the
        # command ends quietly, as Unix tools do.
        return closed_stdout()
    except KeyboardInterrupt:
        print(f"{label}: interrupted", file=sys.stderr)
        return 130
    except expected as error:
        _debug_traceback()
        print(f"{label}: error: {describe(error)}", file=sys.stderr)
        return 2
    except Exception as error:
        # TensorFlow may be imported by the job itself: look again.
        if isinstance(error, _tf_file_errors()):
            _debug_traceback()
            print(f"{label}: error: {describe(error)}", file=sys.stderr)
            return 2
        _debug_traceback()
        print(
            f"{label}: internal error: {type(error).__name__}: {one_line(error)} "
            f"({REPORT})",
            file=sys.stderr,
        )
        return 1
    return 0


# The status of a command that a closed pipe ended: 128 + SIGPIPE, what a
# shell reports for a tool that the signal ended.
BROKEN_PIPE_STATUS = 141


def closed_stdout() -> int:
    """`BROKEN_PIPE_STATUS`, standard output pointed at `/dev/null` first:
    Python's final flush of what it still buffers would fail on the closed
    pipe again and print `Exception ignored ... BrokenPipeError`."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return BROKEN_PIPE_STATUS


def _debug_traceback() -> None:
    if os.environ.get(DEBUG_VARIABLE) == "1":
        traceback.print_exc()
