"""An application's command: `attention-zoo NAME TASK ...`, built from its
`Application` record.

The skeleton gives every application its `train` (a flag per config field,
`common.cli`), `plot` and `export` tasks, the `--run`/`--preset` flags of
the tasks that read a model (`preset_flags`) and `--beam-width` where the
application decodes with beam search; the application adds the flags and
jobs of its own tasks (`Command.add_arguments`, `Command.jobs`). Every task
runs inside the one-line error boundary.
"""

from __future__ import annotations

import dataclasses
import sys

from attention_zoo.applications.common import lines
from attention_zoo.applications.common.application import CommandListing
from attention_zoo.applications.common.cli import (
    add_config_arguments,
    add_listing,
    check_flags,
    run_task,
    train_job,
)
from attention_zoo.applications.common.config import MAX_BEAM_WIDTH, integer_range
from attention_zoo.applications.common.exporting.portable import FORMAT_NAMES, FORMATS
from attention_zoo.applications.common.inputs import InputError
from attention_zoo.applications.common.preset_flags import (
    add_model_arguments,
    model_folder,
    preset_plot_folder,
)
from attention_zoo.applications.common.run_folder import write_plots

__all__ = [
    "add_application",
    "add_model_flags",
    "model_run",
    "run_application",
]


def add_application(commands, app) -> dict:
    """Adds the command of `app` (an `Application`) and a parser per task.

    `train` takes `--output` (default `runs/NAME`), the flags of
    `Command.train_arguments` (e.g. a group of data sources), then a flag
    for every field of the config (`add_config_arguments`); `plot` and
    `export` take theirs (`add_plot_and_export`); `Command.add_arguments`
    adds the flags of the application's own tasks.

    Args:
        commands: the subparsers of the `attention-zoo` command.
        app: the application, or its `CommandParts` (all this reads of it;
            the command's parser is built from those, without Keras).

    Returns:
        The parser of each task, by name.
    """
    command = app.command
    tasks = add_listing(commands, CommandListing.of(app))
    train = tasks["train"]
    train.add_argument(
        "--output",
        default=f"runs/{app.name}",
        help=f"run folder (default runs/{app.name})",
    )
    if command.train_arguments is not None:
        command.train_arguments(train)
    add_config_arguments(train, app.config_class)
    add_plot_and_export(tasks["plot"], tasks["export"], app)
    if command.add_arguments is not None:
        command.add_arguments(tasks, app)
    return tasks


def add_model_flags(parser, app) -> None:
    """The flags of a task that reads a model: `--run` or `--preset`
    (`preset_flags`), and `--beam-width` where the application has it."""
    add_model_arguments(parser, app.name, app.command.default_preset)
    if app.beam_search:
        parser.add_argument(
            "--beam-width", type=int, default=None, help=beam_width_help(app)
        )


def inputs_name(app) -> str:
    """The name of the positional inputs of `app`'s tasks (`texts`,
    `images`), after what its predictor reads (`Application.input_kind`);
    their metavar is the singular in capitals (`TEXT`, `IMAGE`)."""
    return f"{app.input_kind}s"


def beam_width_help(app) -> str:
    """The help of a task's `--beam-width`: its default is the run's own,
    which `train --beam-width` set (the config's default unless given)."""
    trained = {f.name: f.default for f in dataclasses.fields(app.config_class)}
    default = trained.get("beam_width")
    since = f"; train's --beam-width, {default} unless given" if default else ""
    return (
        f"beams searched, from 1 (greedy) to {MAX_BEAM_WIDTH} (default: the "
        f"run's or preset's beam width{since})"
    )


def add_answer_flags(parser, app) -> None:
    """The flags of a predict-like task: the inputs, `--input`, `--output`,
    `--format`, ... (`lines.add_line_arguments`) and the model's."""
    lines.add_line_arguments(parser, inputs_name(app))
    add_model_flags(parser, app)


def answer_job(
    args, parser, app, make_predictor, show=None, check_arguments=True, **options
):
    """The job of a predict-like task: one output line per input (`lines`).

    Arguments are checked first (`predictor.check_all`: a mistyped argument
    is refused, exit 2); a line of a file or of standard input that the
    predictor cannot read gets its own answer, not valid, and the others
    theirs.

    Args:
        make_predictor: a function of the run folder to the predictor.
        show: how an argument's answer is shown (`lines.write_answers`).
        check_arguments: False: an argument the predictor cannot read is
            answered like a line of a file (image paths).
        options: passed to each call of the predictor (`beam_width`).

    Returns:
        The job, a function of no arguments that returns the number of
        inputs, of answers not valid and of inputs the predictor could not
        read (`{"inputs", "refused", "unreadable"}`).
    """

    def job():
        inputs, from_file = lines.input_lines(args, parser, inputs_name(app))
        predictor = make_predictor(model_run(args, app))
        if not from_file and check_arguments:
            for text, _ in inputs:
                if lines.too_long_reason(text):
                    raise InputError(lines.too_long_reason(text))
            predictor.check_all([text for text, _ in inputs])
        answer = lines.checked(predictor, **options)
        count = [0]

        def counted(items):
            for item in items:
                count[0] += 1
                yield item

        total = len(inputs) if isinstance(inputs, list) else None
        named_file = args.input not in (None, "-")
        if named_file and (args.progress or sys.stderr.isatty()):
            total = lines.count_lines(args.input)  # the progress bar's end
        refused = lines.write_answers(
            answer, counted(inputs), args, from_file, show, total=total
        )
        if refused and from_file and args.format == "text":
            print(
                f"{refused} of {count[0]} line(s) not valid (named above)",
                file=sys.stderr,
            )
        return {
            "inputs": count[0],
            "refused": refused,
            "unreadable": answer.unreadable,
            "reasons": answer.reasons,
            "from_file": from_file,
        }

    return job


def model_run(args, app):
    """The run or preset folder the task `args.task` reads."""
    return model_folder(args, app.name, args.task, app.command.default_preset)


def add_plot_and_export(plot, export, app) -> None:
    """The flags of `app`'s `plot` and `export` tasks."""
    inputs = inputs_name(app)
    plot.add_argument(
        inputs,
        nargs="+",
        metavar=inputs.removesuffix("s").upper(),
        help=f"the {inputs} whose attention is drawn",
    )
    add_model_flags(plot, app)
    plot.add_argument(
        "--output",
        default=None,
        help="folder for the PNGs (default: a new RUN/plots/predict-N, or "
        "APP-plots-N in the current folder for a preset)",
    )
    add_model_flags(export, app)
    export.add_argument(
        "--output", required=True, help="the folder the export is written to"
    )
    export.add_argument(
        "--format",
        choices=FORMATS,
        default="saved_model",
        help="saved_model: raw inputs in, the whole predictor in TensorFlow; "
        "litert: model.tflite and model_int8.tflite, builtin ops only; onnx: "
        "model.onnx; litert and onnx hold the decode loop from ids to ids "
        "(with --beam-width, default the run's) beside the run's data files "
        "(default: saved_model)",
    )


def check_beam_width_flag(parser, args) -> None:
    """`--beam-width`, where the task has it, within 1..MAX_BEAM_WIDTH."""
    beam_width = getattr(args, "beam_width", None)
    check_flags(
        parser, [("--beam-width", beam_width, integer_range(1, MAX_BEAM_WIDTH))]
    )


def shared_jobs(app, args, parser) -> dict:
    """The `train`, `plot` and `export` jobs of `app` for `run_task`."""
    beam = {"beam_width": args.beam_width} if hasattr(args, "beam_width") else {}

    def report(metrics):
        return app.format_metrics(metrics["test"])

    def plot():
        run = model_run(args, app)
        output = preset_plot_folder(run, args.output, app.name)
        if args.output is None:
            # Said before the model loads: the folder is new.
            print(f"writing the plots to {output}", file=sys.stderr)
        inputs = getattr(args, inputs_name(app))
        for path in write_plots(
            output, lambda folder: app.plot(run, inputs, folder, **beam), app.name
        ):
            print(path)

    def export():
        from attention_zoo.applications.common.exporting.driver import (
            export_application,
        )

        run = model_run(args, app)
        path = export_application(app, run, args.output, args.format, **beam)
        print(f"{FORMAT_NAMES[args.format]} written to {path}")

    fields = app.command.config_fields
    train = train_job(app.train, app.config_class, args, parser, report, fields)
    return {"train": train, "plot": plot, "export": export}


def run_application(app, args, parser) -> int:
    """Runs the task `args.task` of `app` inside `run_task`, after the check
    of `--beam-width` where the task has it.

    Returns:
        The command's exit status.
    """
    check_beam_width_flag(parser, args)
    jobs = shared_jobs(app, args, parser)
    if app.command.jobs is not None:
        jobs.update(app.command.jobs(args, parser, app))
    return run_task(app.name, args.task, jobs[args.task], app.command.errors)
