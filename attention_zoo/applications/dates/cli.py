"""`attention-zoo dates train|evaluate|predict|plot|export`."""

from __future__ import annotations

import json
from pathlib import Path

from attention_zoo.applications.common import model_tasks
from attention_zoo.applications.dates.config import TrainConfig

DEFAULT_PRESET = "dates_multilingual"
COMMAND = model_tasks.AppCommand(
    "dates",
    TrainConfig,
    DEFAULT_PRESET,
    beam_width=False,
    help="date normalization: '3rd of May 1979' -> 1979-05-03",
    description="Normalize human-written dates (English, French, German, "
    "Spanish, Italian, Portuguese, Dutch) to ISO 8601 with an attention "
    "model that says 'not a date' when it does not know.",
    tasks={
        "train": "generate dates offline and train a model",
        "evaluate": "exact match on the run's test dates",
        "predict": "normalize the given dates",
        "plot": "attention heatmap PNGs for the given dates",
        "export": "write a SavedModel that serves raw strings",
    },
)


def add_parser(commands) -> None:
    tasks = model_tasks.add_application(commands, COMMAND)
    evaluate = tasks["evaluate"]
    evaluate.add_argument("--run", default="runs/dates", help="folder written by train")
    evaluate.add_argument(
        "--per-format", action="store_true", help="also print every format"
    )
    tasks["predict"].add_argument("texts", nargs="+", metavar="TEXT")
    model_tasks.add_model_flags(tasks["predict"], COMMAND)


def run(args, parser) -> int:
    from attention_zoo.applications.dates import tasks

    def evaluate():
        metrics = tasks.evaluate(args.run)
        print(tasks.format_metrics(metrics, per_format=args.per_format))
        (Path(args.run) / "metrics_evaluate.json").write_text(
            json.dumps(metrics, indent=1), encoding="utf-8"
        )

    def predict():
        for p in tasks.predict(model_tasks.model_run(args, COMMAND), args.texts):
            answer = p.iso if p.valid else f"not a date: {p.reason}"
            notes = [f"score {p.score:.2f}"]
            if p.unknown:
                notes.append(
                    f"unknown characters read as <unk>: {''.join(p.unknown)!r}"
                )
            print(f"{p.text!r} -> {answer}   [{'; '.join(notes)}]")

    return model_tasks.run_command(
        COMMAND,
        tasks,
        args,
        parser,
        {"evaluate": evaluate, "predict": predict},
        lambda metrics: tasks.format_metrics(metrics, per_format=False),
    )
