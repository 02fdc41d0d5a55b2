"""The tasks every application's command shares: `train` (`common.cli`),
`plot` and `export`, which read a run folder (`--run`), a preset
(`--preset`) or the application's default preset (`preset_flags`) and call
the application's `tasks.plot` and `tasks.export`, and the error boundary
they all run in. An application describes itself once in an `AppCommand`."""

from __future__ import annotations

import dataclasses

from attention_zoo.applications.common.cli import (
    add_application,
    run_task,
    train_job,
)
from attention_zoo.applications.common.decoding_flags import check_beam_width_flag
from attention_zoo.applications.common.preset_flags import (
    add_model_arguments,
    model_folder,
    preset_plot_folder,
)
from attention_zoo.applications.common.run_folder import write_plots

__all__ = [
    "AppCommand",
    "add_application",
    "add_model_flags",
    "add_plot_and_export",
    "model_run",
    "plot_and_export_jobs",
    "run_command",
]


@dataclasses.dataclass(frozen=True)
class AppCommand:
    """One application's values for the tasks its command shares.

    Attributes:
        name: the command's name (`attention-zoo NAME`).
        config_class: the `TrainConfig` dataclass of its `train` task.
        default_preset: the shipped preset read without `--run`/`--preset`
            (`preset_flags`), or None.
        inputs: the name of `plot`'s positional inputs (`texts`, `images`);
            their metavar is the singular in capitals (`TEXT`, `IMAGE`).
        errors: the application's own exception types that are the user's
            errors (one line, exit 2, in `run_task`).
        beam_width: whether the tasks that read a model take `--beam-width`.
    """

    name: str
    config_class: type
    default_preset: str | None = None
    inputs: str = "texts"
    errors: tuple = ()
    beam_width: bool = True


def add_model_flags(parser, command: AppCommand) -> None:
    """The flags of a task that reads a model: `--run` or `--preset`
    (`preset_flags`), and `--beam-width` where the application has it."""
    add_model_arguments(parser, command.name, command.default_preset)
    if command.beam_width:
        parser.add_argument("--beam-width", type=int, default=None, help="1 = greedy")


def model_run(args, command: AppCommand):
    """The run or preset folder the task `args.task` reads."""
    return model_folder(args, command.name, args.task, command.default_preset)


def add_plot_and_export(plot, export, command: AppCommand) -> None:
    """The flags of `command`'s `plot` and `export` tasks, whose parsers
    the application adds with their help lines."""
    plot.add_argument(
        command.inputs, nargs="+", metavar=command.inputs.removesuffix("s").upper()
    )
    add_model_flags(plot, command)
    plot.add_argument(
        "--output",
        default=None,
        help="folder for the PNGs (default: a new RUN/plots/predict-N; "
        "required with a preset)",
    )
    add_model_flags(export, command)
    export.add_argument("--output", required=True, help="SavedModel folder")


def plot_and_export_jobs(tasks, args, command: AppCommand) -> dict:
    """The `plot` and `export` jobs of `command` for `run_task`, on the
    application's `tasks.plot(run, inputs, folder[, beam_width])` and
    `tasks.export(run, output[, beam_width])` (`beam_width` where the
    parser has the flag)."""
    beam = {"beam_width": args.beam_width} if hasattr(args, "beam_width") else {}

    def plot():
        run = model_run(args, command)
        output = preset_plot_folder(run, args.output, command.name)
        for path in write_plots(
            output,
            lambda folder: tasks.plot(
                run, getattr(args, command.inputs), folder, **beam
            ),
        ):
            print(path)

    def export():
        run = model_run(args, command)
        path = tasks.export(run, args.output, **beam)
        print(f"SavedModel written to {path}")

    return {"plot": plot, "export": export}


def run_command(
    command: AppCommand, tasks, args, parser, jobs: dict, report=None, fields=None
) -> int:
    """Runs the task `args.task` of `command` inside `run_task`, after the
    check of `--beam-width` where the task has it.

    Args:
        command: the application.
        tasks: its `tasks` module (`train`, `plot`, `export`).
        args: the parsed arguments.
        parser: the parser, for flag errors.
        jobs: the application's own jobs by task name (`evaluate`, ...).
        report: a function of `tasks.train`'s metrics to the text `train`
            prints (`common.cli.train_job`); by default
            `tasks.format_metrics(metrics["test"])`.
        fields: a function of `args` to the config fields the application
            computes from several flags, or None.

    Returns:
        The command's exit status.
    """
    check_beam_width_flag(parser, args)
    if report is None:

        def report(metrics):
            return tasks.format_metrics(metrics["test"])

    train = train_job(tasks, command.config_class, args, parser, report, fields)
    jobs = {"train": train, **jobs, **plot_and_export_jobs(tasks, args, command)}
    return run_task(command.name, args.task, jobs[args.task], command.errors)
