"""The shared command skeleton, driven by a fourth, made-up application."""

from __future__ import annotations

import types
from dataclasses import dataclass, field

import pytest

from attention_zoo.applications.common import model_tasks
from attention_zoo.applications.common.cli import OneLineParser, positive


@dataclass
class Config:
    epochs: int = field(default=2, metadata={"check": positive})


class Refused(Exception):
    """The made-up application's own user error."""


TASKS = {"train": "train it", "evaluate": "", "plot": "", "export": ""}


def command(beam_width=True):
    return model_tasks.AppCommand(
        "toy", Config, None, "images", (Refused,), beam_width, tasks=TASKS
    )


def parser_for(app):
    parser = OneLineParser(prog="attention-zoo")
    model_tasks.add_application(parser.add_subparsers(dest="command"), app)
    return parser


def fake_tasks(calls):
    def train(output, config):
        calls.append(("train", str(output), config.epochs))
        return {"test": {"score": 1}}

    def plot(run, images, folder, **beam):
        calls.append(("plot", str(run), images, beam))
        return []

    def export(run, output, **beam):
        calls.append(("export", str(run), output, beam))
        if output == "refused":
            raise Refused("cannot export there")
        return output

    return types.SimpleNamespace(
        train=train, plot=plot, export=export, format_metrics=str
    )


def run(app, argv, calls, jobs=None):
    parser = parser_for(app)
    args = parser.parse_args(argv)
    return model_tasks.run_command(app, fake_tasks(calls), args, parser, jobs or {})


def test_train_plot_and_export_run_through_the_shared_jobs(tmp_path, capsys):
    calls = []
    app = command()
    output = str(tmp_path / "run")
    assert run(app, ["toy", "train", "--output", output, "--epochs", "3"], calls) == 0
    assert calls[-1] == ("train", output, 3)
    assert f"run folder: {output}" in capsys.readouterr().out
    argv = ["toy", "export", "--run", "r", "--output", "saved", "--beam-width", "2"]
    assert run(app, argv, calls) == 0
    assert calls[-1] == ("export", "r", "saved", {"beam_width": 2})
    argv = ["toy", "plot", "a.png", "b.png", "--run", "r", "--output", str(tmp_path)]
    assert run(app, argv, calls) == 0
    assert calls[-1] == ("plot", "r", ["a.png", "b.png"], {"beam_width": None})


def test_the_apps_own_jobs_errors_and_flag_checks(capsys):
    calls = []
    app = command()
    assert (
        run(app, ["toy", "evaluate"], calls, {"evaluate": lambda: calls.append(1)}) == 0
    )
    assert calls == [1]
    # The application's own error type is the user's error: one line, 2.
    argv = ["toy", "export", "--run", "r", "--output", "refused"]
    assert run(app, argv, calls) == 2
    assert (
        "attention-zoo toy export: error: cannot export there"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as exit_:
        run(
            app,
            ["toy", "export", "--run", "r", "--output", "o", "--beam-width", "0"],
            calls,
        )
    assert exit_.value.code == 2
    assert "--beam-width must be an integer from 1 to" in capsys.readouterr().err


def test_plot_inputs_metavar_and_an_app_without_beam_search(capsys):
    with pytest.raises(SystemExit):
        parser_for(command(beam_width=False)).parse_args(["toy", "plot", "--help"])
    help_text = capsys.readouterr().out
    assert "IMAGE [IMAGE ...]" in help_text
    assert "--beam-width" not in help_text and "--preset PRESET" in help_text


def test_the_command_lists_its_tasks_with_their_help_lines(capsys):
    with pytest.raises(SystemExit):
        parser_for(command()).parse_args(["toy", "--help"])
    help_text = capsys.readouterr().out
    listed = [line.split()[0] for line in help_text.splitlines()[4:8]]
    assert listed == ["train", "evaluate", "plot", "export"]
    assert "train     train it" in help_text


def test_a_command_without_a_shared_task_is_refused():
    with pytest.raises(ValueError, match="shared tasks.*Received: tasks with keys"):
        model_tasks.AppCommand("toy", Config, tasks={"train": "train it"})
