"""The date normalizer's own tasks on the command line: `evaluate`, `predict`.

`train`, `plot` and `export` are the skeleton's (`common.command`).
"""

from __future__ import annotations

from attention_zoo.applications.common import command
from attention_zoo.applications.common.application import Command
from attention_zoo.applications.common.run_folder import write_evaluation
from attention_zoo.applications.dates.listing import LISTING
from attention_zoo.applications.dates.resolver import PREFER


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
    command.add_answer_flags(tasks["predict"], app)
    predict = tasks["predict"]
    predict.add_argument(
        "--reference",
        metavar="ISO",
        help="the date-time a run of the forms target resolves relative "
        "expressions against: ISO 8601, with an offset or not (naive: UTC), "
        "e.g. 2026-01-15T09:00:00 (default: now, UTC, fixed when the "
        "command starts); a run of ISO dates reads absolute days only and "
        "answers alike whatever it is",
    )
    predict.add_argument(
        "--prefer",
        choices=PREFER,
        default="future",
        help="what a text leaves open (a year, a weekday's week, a time's "
        "day) means: its next occurrence on or after the reference (future, "
        "the default), its last on or before it (past), or the reference's "
        "year, week or day (current); docs/dates.md",
    )


def show(text, item) -> str:
    """An argument's answer: `'TEXT' -> ISO`, or `not a date: REASON` in
    place of the date (its notes, and with `--scores` its score, follow:
    `lines.shown`)."""
    answer = item["text"] if item["valid"] else f"not a date: {item['reason']}"
    return f"{text!r} -> {answer}"


def jobs(args, parser, app) -> dict:
    # The model's modules (and Keras) only for a task that runs: the flags
    # above answer `--help` and errors without them.
    from attention_zoo.applications.dates.evaluation import evaluate, format_metrics
    from attention_zoo.applications.dates.predictor import Normalizer
    from attention_zoo.applications.dates.reference import parse_reference

    def evaluate_job():
        metrics = evaluate(args.run)
        print(format_metrics(metrics, per_format=args.per_format))
        write_evaluation(args.run, metrics)

    def predict_job():
        # Read once, before the model loads: a bad value is refused first,
        # and every line of a file is answered against the same moment.
        reference = parse_reference(args.reference).isoformat()
        return command.answer_job(
            args, parser, app, Normalizer, show, reference=reference, prefer=args.prefer
        )()

    return {"evaluate": evaluate_job, "predict": predict_job}


COMMAND = Command(
    help=LISTING.help,
    description=LISTING.description,
    tasks=LISTING.tasks,
    default_preset="dates_multilingual",
    add_arguments=add_arguments,
    jobs=jobs,
)
