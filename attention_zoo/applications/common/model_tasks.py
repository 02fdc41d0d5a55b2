"""The `plot` and `export` tasks every application has: they read a run
folder (`--run`), a preset (`--preset`) or the application's default preset
(`preset_flags`), and call the application's `tasks.plot` and
`tasks.export`."""

from __future__ import annotations

from attention_zoo.applications.common.preset_flags import (
    add_model_arguments,
    model_folder,
    preset_plot_folder,
)
from attention_zoo.applications.common.run_folder import write_plots


def add_plot_and_export(
    tasks,
    app: str,
    inputs: str,
    metavar: str,
    helps,
    default_preset: str | None = None,
    beam_width: bool = True,
) -> None:
    """The `plot` and `export` subcommands of `app`.

    Args:
        tasks: the application's subparsers.
        app: its command name.
        inputs: the name of plot's positional inputs (`texts`, `images`).
        metavar: their metavar (`TEXT`, `IMAGE`).
        helps: `(plot help, export help)`.
        default_preset: the shipped preset read without `--run`/`--preset`
            (`preset_flags`).
        beam_width: whether the tasks take `--beam-width`.
    """
    plot = tasks.add_parser("plot", help=helps[0])
    plot.add_argument(inputs, nargs="+", metavar=metavar)
    add_model_arguments(plot, app, default_preset)
    plot.add_argument(
        "--output",
        default=None,
        help="folder for the PNGs (default: a new RUN/plots/predict-N; "
        "required with a preset)",
    )
    export = tasks.add_parser("export", help=helps[1])
    add_model_arguments(export, app, default_preset)
    export.add_argument("--output", required=True, help="SavedModel folder")
    if beam_width:
        for parser in (plot, export):
            parser.add_argument("--beam-width", type=int, default=None)


def plot_and_export_jobs(
    tasks, args, app: str, inputs: str, default_preset: str | None = None
) -> dict:
    """The `plot` and `export` jobs of `app` for `run_task`, on the
    application's `tasks.plot(run, inputs, folder[, beam_width])` and
    `tasks.export(run, output[, beam_width])` (`beam_width` where the
    parser has the flag)."""
    beam = {"beam_width": args.beam_width} if hasattr(args, "beam_width") else {}

    def plot():
        run = model_folder(args, app, args.task, default_preset)
        output = preset_plot_folder(run, args.output, app)
        for path in write_plots(
            output,
            lambda folder: tasks.plot(run, getattr(args, inputs), folder, **beam),
        ):
            print(path)

    def export():
        run = model_folder(args, app, args.task, default_preset)
        path = tasks.export(run, args.output, **beam)
        print(f"SavedModel written to {path}")

    return {"plot": plot, "export": export}
