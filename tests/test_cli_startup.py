"""`attention-zoo --help`, `--version`, each command's and each task's
`--help` and an argument error answer without Keras (issue 59, "At once").

Each case runs the real command in a subprocess, `python -m attention_zoo`
and the installed console script, with a `sitecustomize` of the test's on
its path that writes, when the process exits, which of TensorFlow, Keras,
JAX and PyTorch are in `sys.modules` (Python's import profile cannot tell:
the command silences standard error while Keras imports). Its output and
exit status must be those of the whole parser built from the loaded
`Application`s, Keras and all, as before the command learnt to start
without Keras. What the timing is, is measured
by `benchmarks/cli_startup.py`, not here.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from attention_zoo import _quiet_startup
from attention_zoo.applications import registry
from attention_zoo.applications.common.application import CommandListing, CommandParts
from attention_zoo.cli import build_parser
from tests.applications.common.test_command import toy  # noqa: F401 (a fixture)

# The process starts its own interpreter; the session's backend changes
# nothing in what is checked.
pytestmark = pytest.mark.backend_free

FRAMEWORKS = ("tensorflow", "keras", "jax", "torch")
SCRIPT = Path(sys.executable).parent / "attention-zoo"

HELP_PAGES = [
    ["--help"],
    ["demo", "--help"],
    *[[listing.name, "--help"] for listing in registry.listings()],
    ["serve", "--help"],
    ["presets", "--help"],
    ["presets", "list", "--help"],
    ["presets", "build", "--help"],
]
# Every task's page of every application.
TASK_PAGES = [
    [listing.name, task, "--help"]
    for listing in registry.listings()
    for task in listing.tasks
]
ARGUMENT_ERRORS = [
    ["nosuch"],  # a mistyped command
    ["--nope"],  # an unknown option
    ["dates", "nosuch"],  # a mistyped task
    ["dates"],  # no task
    ["presets", "nosuch"],
    ["serve", "--port", "abc"],  # a value of the wrong type
    ["serve", "--max-wait-ms", "x"],
    ["demo", "--epochs", "x"],
    ["demo", "--nope"],
    # A task's flags: a value of the wrong type, a choice that is none, an
    # unknown option, a flag another application's task has.
    ["translation", "translate", "--beam-width", "x"],
    ["summarization", "train", "--epochs", "x"],
    ["dates", "train", "--attention", "nosuch"],
    ["captioning", "export", "--format", "nosuch"],
    ["captioning", "predict", "--nope"],
    ["dates", "predict", "--beam-width", "x"],
    ["translation", "export"],  # a required flag missing (--output)
]
# Errors the command's own checks find after argparse, still without Keras.
FLAG_ERRORS = [
    ["serve"],
    ["serve", "--port", "0", "--preset", "dates_multilingual"],
    ["demo", "--epochs", "0"],
    ["translation", "translate", "--beam-width", "0", "hello"],
    ["captioning", "plot", "--beam-width", "65", "image.png"],
    # A predict-like task's inputs: none, or arguments and --input both.
    ["dates", "predict"],
    ["captioning", "predict"],
    ["translation", "translate", "--input", "lines.txt", "hello"],
]


# Imported by every Python process started with its folder on PYTHONPATH:
# at exit, it writes what the process imported to the file the test names.
SITECUSTOMIZE = f"""
import atexit, json, os, sys


def _report():
    with open(os.environ["CLI_STARTUP_REPORT"], "w", encoding="utf-8") as file:
        json.dump(sorted(m for m in sys.modules if m in {FRAMEWORKS!r}
                         or "attention_zoo.cli" == m), file)


if "CLI_STARTUP_REPORT" in os.environ:
    atexit.register(_report)
"""


@pytest.fixture(scope="module")
def hook(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sitecustomize")
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    return folder


def run_command(hook, args, console_script=False):
    """`(exit status, stdout, stderr, imported modules)` of the command."""
    report = hook / "report.json"
    report.unlink(missing_ok=True)
    path = os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")]))
    env = {
        **os.environ,
        "COLUMNS": "80",
        "PYTHONPATH": path,
        "CLI_STARTUP_REPORT": str(report),
    }
    start = [str(SCRIPT)] if console_script else [sys.executable, "-m", "attention_zoo"]
    run = subprocess.run(
        [*start, *args], capture_output=True, text=True, check=False, env=env
    )
    modules = set(json.loads(report.read_text(encoding="utf-8")))
    assert "attention_zoo.cli" in modules  # the report is the command's
    return run.returncode, run.stdout, run.stderr, modules


def frameworks_in(modules) -> list[str]:
    return sorted(m for m in modules if m in FRAMEWORKS)


def whole_parser_answer(args):
    """`(exit status, stdout, stderr)` of the whole parser built from the
    loaded `Application`s, Keras and every model module with them: what the
    command answered before."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    applications = [CommandParts.of(app) for app in registry.applications()]
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch.object(registry, "command_parts", lambda: applications),
    ):
        try:
            build_parser().parse_args(args)
        except SystemExit as exit:
            code = exit.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _columns(monkeypatch):
    # argparse wraps help to the terminal's width, COLUMNS where it is set.
    monkeypatch.setenv("COLUMNS", "80")


@pytest.mark.parametrize(
    "args", HELP_PAGES + TASK_PAGES + ARGUMENT_ERRORS, ids=" ".join
)
def test_help_and_argument_errors_answer_without_keras(args, hook):
    code, out, err, modules = run_command(hook, args)
    assert frameworks_in(modules) == []
    assert (code, out, err) == whole_parser_answer(args)
    assert code == (0 if "--help" in args else 2)


def test_version_answers_without_keras(hook):
    import attention_zoo

    code, out, err, modules = run_command(hook, ["--version"])
    assert (code, out, err) == (0, f"attention-zoo {attention_zoo.__version__}\n", "")
    assert frameworks_in(modules) == []


def test_no_arguments_print_the_help_without_keras(hook):
    code, out, err, modules = run_command(hook, [])
    assert (code, out, err) == (0, build_parser().format_help(), "")
    assert frameworks_in(modules) == []


@pytest.mark.parametrize("args", FLAG_ERRORS, ids=" ".join)
def test_the_command_s_own_flag_checks_answer_without_keras(args, hook):
    code, out, err, modules = run_command(hook, args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "Received" in err or "give at least one model" in err
    assert frameworks_in(modules) == []


# The command run as `python -m` runs it, and what it imported read from
# `sys.modules` when it exits.
AT_EXIT = """
import runpy, sys
sys.argv = ["attention-zoo", *sys.argv[1:]]
try:
    runpy.run_module("attention_zoo", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
print(sorted(m for m in FRAMEWORKS if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["captioning", "--help"],
        ["dates", "nosuch"],
        ["dates", "predict", "--help"],
        ["translation", "translate", "--beam-width", "x"],
    ],
    ids=" ".join,
)
def test_no_framework_is_in_sys_modules_when_the_command_exits(args):
    code = AT_EXIT.replace("FRAMEWORKS", repr(FRAMEWORKS))
    run = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.stderr.splitlines()[-1] == "[]", run.stderr


@pytest.mark.skipif(not SCRIPT.exists(), reason="no installed console script")
@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["dates", "--help"],
        ["nosuch"],
        ["translation", "train", "--help"],
    ],
    ids=" ".join,
)
def test_the_console_script_answers_without_keras(args, hook):
    code, out, err, modules = run_command(hook, args, console_script=True)
    assert frameworks_in(modules) == []
    if args != ["--version"]:
        assert (code, out, err) == whole_parser_answer(args)


# The command's `main` in a process that starts as the command does (the
# package reads `sys.orig_argv` to tell), its status and what it imported
# on the last line: a task that fails ends the console script with
# `os._exit`, which runs no exit hook.
AS_COMMAND = """
import json, sys
sys.orig_argv = [sys.executable, "-m", "attention_zoo"]
from attention_zoo.cli import main
code = main(sys.argv[1:])
print(json.dumps([code, sorted(m for m in FRAMEWORKS if m in sys.modules)]),
      file=sys.stderr)
"""


def test_a_task_that_runs_still_loads_keras(tmp_path):
    """Only the task's work needs the model: a task that runs imports Keras
    (quietly: its one error line alone on stderr, for a run folder that
    is not there)."""
    args = ["dates", "evaluate", "--run", str(tmp_path / "nosuch")]
    code = AS_COMMAND.replace("FRAMEWORKS", repr(FRAMEWORKS))
    run = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    *lines, last = run.stderr.splitlines()
    status, modules = json.loads(last)
    assert status != 0 and run.stdout == "" and len(lines) == 1, run.stderr
    assert "nosuch" in lines[0]
    assert "keras" in modules


def test_the_parts_of_every_task_parser_are_its_application_s():
    """What the task parsers are built from without the model
    (`registry.command_parts`) is what each `Application` holds."""
    applications = registry.applications()
    parts = registry.command_parts()
    assert [p.name for p in parts] == [app.name for app in applications]
    for app, part in zip(applications, parts):
        assert part == CommandParts.of(app), app.name


def test_every_listing_is_its_application_s():
    """What the help pages show without importing an application
    (`listing.py`) is what its `Application` says."""
    applications = registry.applications()
    assert [listing.name for listing in registry.listings()] == [
        app.name for app in applications
    ]
    for app, listing in zip(applications, registry.listings()):
        assert listing == CommandListing.of(app), app.name


def test_a_registered_application_is_listed(toy):  # noqa: F811
    register, _ = toy
    app = register()
    assert registry.listings()[-1] == CommandListing.of(app)
    lines = {c.dest: c.help for c in _commands(build_parser(tasks=False))}
    assert lines["toy"] == "a made-up application"


def _commands(parser):
    (action,) = [
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ]
    return action._choices_actions


@pytest.mark.parametrize(
    "argv, command",
    [
        (["python", "-m", "attention_zoo", "--help"], True),
        (["python", "-X", "importtime", "-m", "attention_zoo", "--version"], True),
        (["python", "-I", "-Wignore", "-mattention_zoo"], True),
        (["python", "-m", "attention_zoo.cli"], False),
        (["python", "-c", "pass", "-m", "attention_zoo"], False),
        (["python", "script.py", "-m", "attention_zoo"], False),
    ],
    ids=["plain", "interpreter_options", "joined", "other_module", "code", "script"],
)
def test_the_command_is_recognised_after_interpreter_options(
    argv, command, monkeypatch
):
    monkeypatch.setattr(sys, "orig_argv", argv)
    monkeypatch.setattr(sys, "argv", [argv[-1]])
    assert _quiet_startup.running_as_command() is command
