"""`attention-zoo dates train|evaluate|predict|plot|export`."""

from __future__ import annotations

import json
from pathlib import Path

from attention_zoo.applications.common.cli import (
    add_application,
    run_task,
    train_job,
)
from attention_zoo.applications.common.model_tasks import (
    add_plot_and_export,
    plot_and_export_jobs,
)
from attention_zoo.applications.common.preset_flags import (
    add_model_arguments,
    model_folder,
)
from attention_zoo.applications.dates.config import TrainConfig

DEFAULT_PRESET = "dates_multilingual"


def add_parser(commands) -> None:
    tasks = add_application(
        commands,
        "dates",
        TrainConfig,
        help="date normalization: '3rd of May 1979' -> 1979-05-03",
        description="Normalize human-written dates (English, French, German, "
        "Spanish, Italian, Portuguese, Dutch) to ISO 8601 with an attention "
        "model that says 'not a date' when it does not know.",
        train_help="generate dates offline and train a model",
        output_help="run folder (default runs/dates)",
    )

    evaluate = tasks.add_parser("evaluate", help="exact match on the run's test dates")
    evaluate.add_argument("--run", default="runs/dates", help="folder written by train")
    evaluate.add_argument(
        "--per-format", action="store_true", help="also print every format"
    )

    predict = tasks.add_parser("predict", help="normalize the given dates")
    predict.add_argument("texts", nargs="+", metavar="TEXT")
    add_model_arguments(predict, "dates", DEFAULT_PRESET)

    add_plot_and_export(
        tasks,
        "dates",
        "texts",
        "TEXT",
        (
            "attention heatmap PNGs for the given dates",
            "write a SavedModel that serves raw strings",
        ),
        DEFAULT_PRESET,
        beam_width=False,
    )


def run(args, parser) -> int:
    from attention_zoo.applications.dates import tasks

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

    train = train_job(
        tasks,
        TrainConfig,
        args,
        parser,
        lambda metrics: tasks.format_metrics(metrics, per_format=False),
    )
    jobs = {"train": train, "evaluate": evaluate, "predict": predict}
    jobs.update(plot_and_export_jobs(tasks, args, "dates", "texts", DEFAULT_PRESET))
    return run_task("dates", args.task, jobs[args.task])
