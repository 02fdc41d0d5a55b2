"""The summarizer's own tasks on the command line: `evaluate`, `predict`.

`train`, `plot` and `export` are the skeleton's (`common.command`).
"""

from __future__ import annotations

from attention_zoo.applications.common import command
from attention_zoo.applications.common.application import Command
from attention_zoo.applications.common.run_folder import write_evaluation
from attention_zoo.applications.summarization.listing import LISTING


def corpus_field(args) -> dict:
    """The config's `corpus`: the source the flags name."""
    return {"corpus": "tsv" if args.pairs else "tfds" if args.tfds else "debian"}


def add_arguments(tasks, app) -> None:
    evaluate = tasks["evaluate"]
    evaluate.add_argument(
        "--run",
        default="runs/summarization",
        help="folder written by train (default runs/summarization)",
    )
    evaluate.add_argument(
        "--beam-width",
        type=int,
        default=None,
        help="1 = greedy (default: greedy and the run's beam)",
    )
    evaluate.add_argument(
        "--test-pairs",
        default=None,
        help="TSV file of text<TAB>summary pairs (default: the run's data/test.tsv)",
    )
    predict = tasks["predict"]
    command.add_answer_flags(predict, app)


def jobs(args, parser, app) -> dict:
    from attention_zoo.applications.summarization.evaluation import (
        evaluate,
        format_metrics,
    )
    from attention_zoo.applications.summarization.predictor import Summarizer

    def evaluate_job():
        metrics = evaluate(args.run, args.beam_width, args.test_pairs)
        write_evaluation(args.run, metrics)
        print(format_metrics(metrics))

    predict_job = command.answer_job(
        args,
        parser,
        app,
        lambda run: Summarizer(run, beam_width=args.beam_width),
        beam_width=args.beam_width,
    )

    return {"evaluate": evaluate_job, "predict": predict_job}


COMMAND = Command(
    help=LISTING.help,
    description=LISTING.description,
    tasks=LISTING.tasks,
    default_preset="debian_synopsis",
    errors=(RuntimeError,),
    add_arguments=add_arguments,
    config_fields=corpus_field,
    jobs=jobs,
)
