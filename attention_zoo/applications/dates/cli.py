"""`attention-zoo dates train|evaluate|predict|plot|export`."""

from __future__ import annotations

import json
from pathlib import Path

from attention_zoo.applications.common.cli import (
    add_config_arguments,
    config_from_args,
    run_task,
)
from attention_zoo.applications.common.preset_flags import (
    add_model_arguments,
    is_preset,
    model_folder,
)
from attention_zoo.applications.common.run_folder import plot_folder, write_plots
from attention_zoo.applications.dates.config import TrainConfig

DEFAULT_PRESET = "dates_multilingual"


def add_parser(commands) -> None:
    dates = commands.add_parser(
        "dates",
        help="date normalization: '3rd of May 1979' -> 1979-05-03",
        description="Normalize human-written dates (English, French, German, "
        "Spanish, Italian, Portuguese, Dutch) to ISO 8601 with an attention "
        "model that says 'not a date' when it does not know.",
    )
    tasks = dates.add_subparsers(dest="task", metavar="TASK", required=True)

    train = tasks.add_parser("train", help="generate dates offline and train a model")
    train.add_argument(
        "--output", default="runs/dates", help="run folder (default runs/dates)"
    )
    add_config_arguments(train, TrainConfig)

    evaluate = tasks.add_parser("evaluate", help="exact match on the run's test dates")
    evaluate.add_argument("--run", default="runs/dates", help="folder written by train")
    evaluate.add_argument(
        "--per-format", action="store_true", help="also print every format"
    )

    predict = tasks.add_parser("predict", help="normalize the given dates")
    predict.add_argument("texts", nargs="+", metavar="TEXT")
    add_model_arguments(predict, "dates", DEFAULT_PRESET)

    plot = tasks.add_parser("plot", help="attention heatmap PNGs for the given dates")
    plot.add_argument("texts", nargs="+", metavar="TEXT")
    add_model_arguments(plot, "dates", DEFAULT_PRESET)
    plot.add_argument(
        "--output",
        default=None,
        help="folder for the PNGs (default: a new RUN/plots/predict-N; "
        "required with a preset)",
    )

    export = tasks.add_parser(
        "export", help="write a SavedModel that serves raw strings"
    )
    add_model_arguments(export, "dates", DEFAULT_PRESET)
    export.add_argument("--output", required=True, help="SavedModel folder")


def run(args, parser) -> int:
    from attention_zoo.applications.dates import tasks

    def train():
        config = config_from_args(TrainConfig, args, parser)
        metrics = tasks.train(args.output, config)
        print(f"\nrun folder: {args.output}")
        print(tasks.format_metrics(metrics, per_format=False))

    def evaluate():
        metrics = tasks.evaluate(args.run)
        print(tasks.format_metrics(metrics, per_format=args.per_format))
        (Path(args.run) / "metrics_evaluate.json").write_text(
            json.dumps(metrics, indent=1)
        )

    def model():
        return model_folder(args, "dates", args.task, DEFAULT_PRESET)

    def predict():
        for p in tasks.predict(model(), args.texts):
            answer = p.iso if p.valid else f"not a date: {p.reason}"
            notes = [f"score {p.score:.2f}"]
            if p.unknown:
                notes.append(
                    f"unknown characters read as <unk>: {''.join(p.unknown)!r}"
                )
            print(f"{p.text!r} -> {answer}   [{'; '.join(notes)}]")

    def plot():
        run = model()
        if is_preset(run) and args.output is None:
            raise ValueError(
                "plot needs --output with a preset (its folder is part of the "
                f"installed package). Received: {run}"
            )
        output = plot_folder(run, args.output, "dates")
        for path in write_plots(
            output, lambda folder: tasks.plot(run, args.texts, folder)
        ):
            print(path)

    def export():
        path = tasks.export(model(), args.output)
        print(f"SavedModel written to {path}")

    jobs = {"train": train, "evaluate": evaluate, "predict": predict}
    jobs.update(plot=plot, export=export)
    return run_task("dates", args.task, jobs[args.task])
