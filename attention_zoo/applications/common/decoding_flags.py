"""What the applications that decode with beam search share on the command
line: the `beam_width` / `alpha` config fields and the `plot` and `export`
tasks' flags."""

from __future__ import annotations

from dataclasses import field

from attention_zoo.applications.common.cli import (
    MAX_BEAM_WIDTH,
    check_flags,
    integer_range,
    non_negative,
)
from attention_zoo.applications.common.run_folder import plot_folder, write_plots


def beam_width_field(default: int):
    """The `beam_width` field of a `TrainConfig` (`--beam-width`)."""
    return field(default=default, metadata={"check": integer_range(1, MAX_BEAM_WIDTH)})


def length_penalty_field(default: float):
    """The `alpha` field of a `TrainConfig` (`--length-penalty`, GNMT alpha)."""
    return field(
        default=default,
        metadata={
            "flag": "--length-penalty",
            "check": non_negative,
            "help": "GNMT alpha",
        },
    )


def add_plot_and_export(tasks, app: str, inputs: str, metavar: str, helps) -> None:
    """The `plot` and `export` subcommands of `app`.

    Args:
        tasks: the application's subparsers.
        app: its command name (`--run` defaults to `runs/APP`).
        inputs: the name of plot's positional inputs (`texts`, `images`).
        metavar: their metavar (`TEXT`, `IMAGE`).
        helps: `(plot help, export help)`.
    """
    plot = tasks.add_parser("plot", help=helps[0])
    plot.add_argument(inputs, nargs="+", metavar=metavar)
    plot.add_argument("--run", default=f"runs/{app}")
    plot.add_argument("--beam-width", type=int, default=None)
    plot.add_argument(
        "--output", default=None, help="folder (default: a new RUN/plots/predict-N)"
    )
    export = tasks.add_parser("export", help=helps[1])
    export.add_argument("--run", default=f"runs/{app}")
    export.add_argument("--output", required=True, help="SavedModel folder")
    export.add_argument("--beam-width", type=int, default=None)


def check_beam_width_flag(parser, args) -> None:
    """`--beam-width`, where the task has it, within 1..MAX_BEAM_WIDTH."""
    beam_width = getattr(args, "beam_width", None)
    check_flags(
        parser, [("--beam-width", beam_width, integer_range(1, MAX_BEAM_WIDTH))]
    )


def plot_and_export_jobs(tasks, args, app: str, inputs: str) -> dict:
    """The `plot` and `export` jobs of `app` for `run_task`, on the
    application's `tasks.plot(run, inputs, folder, beam_width)` and
    `tasks.export(run, output, beam_width)`."""

    def plot():
        output = plot_folder(args.run, args.output, app)
        for path in write_plots(
            output,
            lambda folder: tasks.plot(
                args.run, getattr(args, inputs), folder, args.beam_width
            ),
        ):
            print(path)

    def export():
        path = tasks.export(args.run, args.output, args.beam_width)
        print(f"SavedModel written to {path}")

    return {"plot": plot, "export": export}
