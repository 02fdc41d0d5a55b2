"""`--run` / `--preset` for the tasks that read a trained model.

Without either, a task of an application that ships a default preset uses
that preset, and says so once on standard error, so the command line
answers right after `pip install`.
"""

from __future__ import annotations

import sys
from pathlib import Path


def add_model_arguments(parser, app: str, default_preset: str | None) -> None:
    """Adds the mutually exclusive `--run` and `--preset` flags to `parser`."""
    group = parser.add_mutually_exclusive_group()
    fallback = (
        f"the shipped preset {default_preset}" if default_preset else f"runs/{app}"
    )
    group.add_argument(
        "--run", default=None, help=f"folder written by train (default: {fallback})"
    )
    group.add_argument(
        "--preset",
        default=None,
        help="a shipped preset name (attention-zoo presets list) or a preset folder",
    )


def model_folder(args, app: str, task: str, default_preset: str | None) -> Path:
    """The run or preset folder the task reads (see the module docstring)."""
    if args.run is not None:
        return Path(args.run)
    from attention_zoo.presets import list_presets, preset_folder

    if args.preset is not None:
        return preset_folder(args.preset)
    if default_preset and default_preset in {p["name"] for p in list_presets()}:
        print(
            f"attention-zoo {app} {task}: no --run given; using the shipped "
            f"preset {default_preset}",
            file=sys.stderr,
        )
        return preset_folder(default_preset)
    return Path("runs") / app


def is_preset(folder) -> bool:
    """Whether `folder` is a preset (its `metadata.json` says so)."""
    return (Path(folder) / "metadata.json").is_file()


def preset_plot_folder(run, output, app: str) -> Path:
    """Where `plot` writes: `output`, or a new folder.

    Without `output`: a run's `RUN/plots/predict-N` (`run_folder.plot_folder`),
    a preset's `APP-plots-N` under the current directory (a shipped preset's
    folder is part of the installed package), N the first not taken.
    """
    from attention_zoo.applications.common.run_folder import plot_folder

    if output is None and is_preset(run):
        n = 1
        while Path(f"{app}-plots-{n}").exists():
            n += 1
        return Path(f"{app}-plots-{n}")
    return plot_folder(run, output, app)
