"""The tasks every application's command shares: `train` (`common.cli`),
`plot` and `export`, which read a run folder (`--run`), a preset
(`--preset`) or the application's default preset (`preset_flags`) and call
the application's `tasks.plot` and `tasks.export`, and the error boundary
they all run in. An application describes itself once in an `AppCommand`,
its help lines included, and adds only the flags of its own tasks."""

from __future__ import annotations

import dataclasses

from attention_zoo.applications.common.cli import (
    add_config_arguments,
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
    "model_run",
    "plot_and_export_jobs",
    "run_command",
]

# The tasks `add_application` gives their flags and `run_command` their jobs.
SHARED_TASKS = ("train", "plot", "export")


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
        help: the command's line in `attention-zoo --help`.
        description: the command's description in `attention-zoo NAME --help`.
        tasks: the help line of each task by name, in the order `--help`
            lists them: the shared `train`, `plot` and `export` and the
            application's own (`evaluate`, `predict`, ...).
    """

    name: str
    config_class: type
    default_preset: str | None = None
    inputs: str = "texts"
    errors: tuple = ()
    beam_width: bool = True
    help: str | None = None
    description: str | None = None
    tasks: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        missing = [t for t in SHARED_TASKS if t not in self.tasks]
        if missing:
            raise ValueError(
                f"`tasks` needs a help line for the shared tasks {SHARED_TASKS}. "
                f"Received: tasks with keys {sorted(self.tasks)}"
            )


def add_application(commands, command: AppCommand, train_arguments=None) -> dict:
    """Adds `command` and a parser for each of its tasks to `commands`.

    `train` takes `--output` (default `runs/NAME`), the flags
    `train_arguments(train)` adds, if given (e.g. a group of data sources),
    then a flag for every field of the config (`add_config_arguments`);
    `plot` and `export` take theirs (`add_plot_and_export`). The parsers of
    the application's own tasks come back bare, for it to add their flags.

    Args:
        commands: the subparsers of the `attention-zoo` command.
        command: the application.
        train_arguments: a function of the `train` parser that adds the
            app's own flags before those of the config, or None.

    Returns:
        The parser of each task, by name.
    """
    parser = commands.add_parser(
        command.name, help=command.help, description=command.description
    )
    subparsers = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    tasks = {
        name: subparsers.add_parser(name, help=line)
        for name, line in command.tasks.items()
    }
    train = tasks["train"]
    train.add_argument(
        "--output",
        default=f"runs/{command.name}",
        help=f"run folder (default runs/{command.name})",
    )
    if train_arguments is not None:
        train_arguments(train)
    add_config_arguments(train, command.config_class)
    add_plot_and_export(tasks["plot"], tasks["export"], command)
    return tasks


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
    """The flags of `command`'s `plot` and `export` tasks."""
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
            command.name,
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
