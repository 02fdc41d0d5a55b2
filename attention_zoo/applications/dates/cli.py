"""The date normalizer's own tasks on the command line: `evaluate`, `predict`.

`train`, `plot` and `export` are the skeleton's (`common.command`).
"""

from __future__ import annotations

from attention_zoo.applications.common import command
from attention_zoo.applications.common.application import Command
from attention_zoo.applications.common.run_folder import write_evaluation
from attention_zoo.applications.dates.evaluation import evaluate, format_metrics
from attention_zoo.applications.dates.predictor import Normalizer


def add_arguments(tasks, app) -> None:
    evaluate = tasks["evaluate"]
    evaluate.add_argument(
        "--run",
        default="runs/dates",
        help="folder written by train (default runs/dates)",
    )
    evaluate.add_argument(
        "--per-format", action="store_true", help="also print every format"
    )
    tasks["predict"].add_argument(
        "texts", nargs="+", metavar="TEXT", help="dates to normalize"
    )
    command.add_model_flags(tasks["predict"], app)


def jobs(args, parser, app) -> dict:
    def evaluate_job():
        metrics = evaluate(args.run)
        print(format_metrics(metrics, per_format=args.per_format))
        write_evaluation(args.run, metrics)

    def predict_job():
        normalizer = Normalizer(command.model_run(args, app))
        normalizer.check_all(args.texts)
        for item in normalizer(args.texts):
            reason = item["reason"]
            answer = item["text"] if item["valid"] else f"not a date: {reason}"
            notes = [f"score {item['score']:.2f}"]
            unknown = normalizer.vocabulary.unknown(item["input"])
            if unknown:
                notes.append(f"unknown characters read as <unk>: {''.join(unknown)!r}")
            print(f"{item['input']!r} -> {answer}   [{'; '.join(notes)}]")

    return {"evaluate": evaluate_job, "predict": predict_job}


COMMAND = Command(
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
    default_preset="dates_multilingual",
    beam_width=False,
    add_arguments=add_arguments,
    jobs=jobs,
)
