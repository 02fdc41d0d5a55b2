"""The shared command skeleton, driven by a fourth, made-up application that
the test registers and reaches through the real `attention-zoo` command."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from attention_zoo.applications import registry
from attention_zoo.applications.common.application import Application, Command
from attention_zoo.applications.common.config import positive
from attention_zoo.applications.common.predictor import RunPredictor
from attention_zoo.cli import main


@dataclass
class Config:
    epochs: int = field(default=2, metadata={"check": positive})


class Refused(Exception):
    """The made-up application's own user error."""


class ToyPredictor(RunPredictor):
    app = "toy"


TASKS = {"train": "train it", "evaluate": "", "plot": "", "export": ""}


@pytest.fixture
def toy():
    """Registers the made-up application `toy`; yields `(register, calls)`."""
    calls = []

    def train(output, config):
        calls.append(("train", str(output), config.epochs))
        return {"training": {}, "test": {"score": 1}}

    def plot(run, images, folder, **beam):
        calls.append(("plot", str(run), images, beam))
        return []

    def export(run, output, **beam):
        calls.append(("export", str(run), output, beam))
        if output == "refused":
            raise Refused("cannot export there")
        return output

    def register(beam_width=True, tasks=TASKS):
        command = Command(
            help="a made-up application",
            description="",
            tasks=tasks,
            errors=(Refused,),
            jobs=lambda args, parser, app: {"evaluate": lambda: calls.append(1)},
        )
        return registry.register(
            Application(
                name="toy",
                title="Toy",
                predictor=ToyPredictor,
                config_class=Config,
                train=train,
                format_metrics=str,
                plot=plot,
                export=export,
                command=command,
                input_kind="image",
                beam_search=beam_width,
            )
        )

    yield register, calls
    registry.unregister("toy")


def test_train_plot_and_export_run_through_the_shared_jobs(toy, tmp_path, capsys):
    register, calls = toy
    register()
    output = str(tmp_path / "run")
    assert main(["toy", "train", "--output", output, "--epochs", "3"]) == 0
    assert calls[-1] == ("train", output, 3)
    assert f"run folder: {output}" in capsys.readouterr().out
    argv = ["toy", "export", "--run", "r", "--output", "saved", "--beam-width", "2"]
    assert main(argv) == 0
    assert calls[-1] == ("export", "r", "saved", {"beam_width": 2})
    argv = ["toy", "plot", "a.png", "b.png", "--run", "r", "--output", str(tmp_path)]
    assert main(argv) == 0
    assert calls[-1] == ("plot", "r", ["a.png", "b.png"], {"beam_width": None})


def test_the_apps_own_jobs_errors_and_flag_checks(toy, capsys):
    register, calls = toy
    register()
    assert main(["toy", "evaluate"]) == 0
    assert calls == [1]
    # The application's own error type is the user's error: one line, 2.
    assert main(["toy", "export", "--run", "r", "--output", "refused"]) == 2
    assert (
        "attention-zoo toy export: error: cannot export there"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as exit_:
        main(["toy", "export", "--run", "r", "--output", "o", "--beam-width", "0"])
    assert exit_.value.code == 2
    assert "--beam-width must be an integer from 1 to" in capsys.readouterr().err


def test_plot_inputs_metavar_and_an_app_without_beam_search(toy, capsys):
    register, _ = toy
    register(beam_width=False)
    with pytest.raises(SystemExit):
        main(["toy", "plot", "--help"])
    help_text = capsys.readouterr().out
    assert "IMAGE [IMAGE ...]" in help_text
    assert "--beam-width" not in help_text and "--preset PRESET" in help_text


def test_the_command_lists_its_tasks_with_their_help_lines(toy, capsys):
    register, _ = toy
    register()
    with pytest.raises(SystemExit):
        main(["toy", "--help"])
    help_text = capsys.readouterr().out
    listed = [line.split()[0] for line in help_text.splitlines()[4:8]]
    assert listed == ["train", "evaluate", "plot", "export"]
    assert "train     train it" in help_text
    # The top-level command lists it after the package's own applications.
    with pytest.raises(SystemExit):
        main(["--help"])
    commands = [
        line.split()[0] for line in capsys.readouterr().out.splitlines() if line.strip()
    ]
    assert commands.index("toy") > commands.index("captioning")


def test_a_command_without_a_shared_task_is_refused(toy):
    register, _ = toy
    with pytest.raises(ValueError, match="shared tasks.*Received: tasks with keys"):
        register(tasks={"train": "train it"})


def test_a_new_config_check_is_applied_without_argparse():
    """`positive` refuses a bool, as `check_positive_integers` did and the
    flag check did not: one rule for both."""
    from attention_zoo.applications.common.config import check_config

    with pytest.raises(ValueError, match=r"`epochs` must be a positive integer"):
        check_config(Config(epochs=True))


def test_only_applications_are_registered_and_unregistering_removes_them(toy):
    register, _ = toy
    with pytest.raises(TypeError, match="must be an attention_zoo.applications"):
        registry.register("attention_zoo.applications.toy")
    register()
    assert registry.names()[-1] == "toy" and registry.get("toy").title == "Toy"
    registry.unregister("toy")
    with pytest.raises(ValueError, match="no application is called 'toy'"):
        registry.get("toy")
