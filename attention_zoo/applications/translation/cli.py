"""`attention-zoo translation train|evaluate|translate|plot|export`."""

from __future__ import annotations

import json
from pathlib import Path

from attention_zoo.applications.common.cli import (
    MAX_BEAM_WIDTH,
    add_config_arguments,
    check_flags,
    config_from_args,
    integer_range,
    run_task,
)
from attention_zoo.applications.common.run_folder import plot_folder, write_plots
from attention_zoo.applications.translation.config import TrainConfig


def add_parser(commands) -> None:
    translation = commands.add_parser(
        "translation",
        help="neural machine translation (offline: English-Spanish Bible verses)",
        description="Train and use an encoder-decoder translation model with "
        "attention. The offline corpus is English-Spanish Bible verses from the "
        "Debian packages sword-text-web and sword-text-sparv.",
    )
    tasks = translation.add_subparsers(dest="task", metavar="TASK", required=True)

    train = tasks.add_parser("train", help="train a model on a corpus")
    train.add_argument("--output", default="runs/translation", help="run folder")
    add_config_arguments(train, TrainConfig)

    evaluate = tasks.add_parser(
        "evaluate", help="sacreBLEU BLEU and chrF on the run's test pairs"
    )
    evaluate.add_argument(
        "--run",
        action="append",
        help="run folder (repeat to compare runs by source length)",
    )
    evaluate.add_argument("--beam-width", type=int, default=None)
    evaluate.add_argument(
        "--plot", default=None, help="PNG of BLEU by source length, one line per run"
    )

    translate = tasks.add_parser("translate", help="translate the given sentences")
    translate.add_argument("texts", nargs="+", metavar="TEXT")
    translate.add_argument("--run", default="runs/translation")
    translate.add_argument("--beam-width", type=int, default=None, help="1 = greedy")

    plot = tasks.add_parser(
        "plot", help="attention heatmap PNGs for the given sentences"
    )
    plot.add_argument("texts", nargs="+", metavar="TEXT")
    plot.add_argument("--run", default="runs/translation")
    plot.add_argument("--beam-width", type=int, default=None)
    plot.add_argument(
        "--output", default=None, help="folder (default: a new RUN/plots/predict-N)"
    )

    export = tasks.add_parser(
        "export", help="write a SavedModel that translates raw strings"
    )
    export.add_argument("--run", default="runs/translation")
    export.add_argument("--output", required=True, help="SavedModel folder")
    export.add_argument("--beam-width", type=int, default=None)


def run(args, parser) -> int:
    from attention_zoo.applications.translation import tasks

    beam_width = getattr(args, "beam_width", None)
    check_flags(
        parser, [("--beam-width", beam_width, integer_range(1, MAX_BEAM_WIDTH))]
    )

    def train():
        corpus = (
            "tsv" if args.pairs else "tfds" if args.tfds else args.corpus or "bible"
        )
        config = config_from_args(TrainConfig, args, parser, corpus=corpus)
        metrics = tasks.train(args.output, config)
        print(f"\nrun folder: {args.output}")
        print(tasks.format_metrics(metrics["test"]))

    def evaluate():
        runs = args.run or ["runs/translation"]
        named = {}
        for run_dir, label in zip(runs, tasks.run_labels(runs)):
            metrics = tasks.evaluate(run_dir, beam_width=args.beam_width)
            (Path(run_dir) / "metrics_evaluate.json").write_text(
                json.dumps(metrics, indent=1)
            )
            print(f"## {run_dir}\n")
            print(tasks.format_metrics(metrics) + "\n")
            named[label] = metrics
        print(tasks.compare_runs(named))
        if args.plot:
            print(tasks.plot_lengths(named, args.plot))

    def translate():
        for text, translation, unknown in tasks.translate(
            args.run, args.texts, args.beam_width
        ):
            suffix = f"   [unknown words read as <unk>: {unknown}]" if unknown else ""
            print(f"{text!r} -> {translation!r}{suffix}")

    def plot():
        output = plot_folder(args.run, args.output, "translation")
        for path in write_plots(
            output,
            lambda folder: tasks.plot(args.run, args.texts, folder, args.beam_width),
        ):
            print(path)

    def export():
        path = tasks.export(args.run, args.output, args.beam_width)
        print(f"SavedModel written to {path}")

    jobs = {"train": train, "evaluate": evaluate, "translate": translate}
    jobs.update(plot=plot, export=export)
    # RuntimeError: a tensorflow_datasets download that failed.
    return run_task("translation", args.task, jobs[args.task], (RuntimeError,))
