"""`attention-zoo translation train|evaluate|translate|plot|export`."""

from __future__ import annotations

import json
import sys
from pathlib import Path


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
    corpus = train.add_mutually_exclusive_group()
    corpus.add_argument(
        "--corpus",
        choices=("bible", "numbers"),
        default=None,
        help="offline corpus (default bible; numbers: num2words pairs)",
    )
    corpus.add_argument("--pairs", help="tab-separated pairs file (source, target)")
    corpus.add_argument(
        "--tfds", help="tensorflow_datasets name, e.g. ted_hrlr_translate/pt_to_en"
    )
    train.add_argument("--tfds-data-dir", default=None)
    train.add_argument(
        "--download",
        action="store_true",
        help="let tensorflow_datasets download and prepare --tfds (network)",
    )
    train.add_argument(
        "--attention", choices=("bahdanau", "luong", "none"), default="bahdanau"
    )
    train.add_argument(
        "--decoder",
        choices=("parallel", "recurrent"),
        default="parallel",
        help="parallel: attention after the cell, all steps at once; recurrent: "
        "attention inside the recurrence (Bahdanau's placement for --attention "
        "bahdanau, Luong's with input feeding for --attention luong)",
    )
    train.add_argument(
        "--units", type=int, default=96, help="encoder units per direction"
    )
    train.add_argument("--embedding-dim", type=int, default=128)
    train.add_argument(
        "--output-units",
        type=int,
        default=128,
        help="size of the attentional state before the softmax (Luong forms)",
    )
    train.add_argument("--dropout", type=float, default=0.2)
    train.add_argument("--source-vocab-size", type=int, default=5000)
    train.add_argument("--target-vocab-size", type=int, default=5000)
    train.add_argument("--batch-size", type=int, default=64)
    train.add_argument("--epochs", type=int, default=10)
    train.add_argument(
        "--max-minutes", type=float, default=None, help="wall-clock budget of fit"
    )
    train.add_argument("--learning-rate", type=float, default=2e-3)
    train.add_argument("--patience", type=int, default=3, help="early stopping")
    train.add_argument("--beam-width", type=int, default=4)
    train.add_argument("--length-penalty", type=float, default=0.6, help="GNMT alpha")
    train.add_argument("--seed", type=int, default=0)

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
    plot.add_argument("--output", default=None, help="folder (default RUN/plots)")

    export = tasks.add_parser(
        "export", help="write a SavedModel that translates raw strings"
    )
    export.add_argument("--run", default="runs/translation")
    export.add_argument("--output", required=True, help="SavedModel folder")
    export.add_argument("--beam-width", type=int, default=None)


def _check_positive(parser, **values):
    for flag, value in values.items():
        if value is not None and value < 1:
            parser.error(
                f"--{flag} must be a positive integer. Received: --{flag} {value}"
            )


def run(args, parser) -> int:
    from attention_zoo.applications.translation import tasks

    _check_positive(parser, **{"beam-width": getattr(args, "beam_width", None)})
    try:
        if args.task == "train":
            _check_positive(
                parser,
                epochs=args.epochs,
                units=args.units,
                **{"batch-size": args.batch_size, "embedding-dim": args.embedding_dim},
            )
            corpus = (
                "tsv" if args.pairs else "tfds" if args.tfds else args.corpus or "bible"
            )
            config = tasks.TrainConfig(
                corpus=corpus,
                pairs=args.pairs,
                tfds_name=args.tfds,
                tfds_data_dir=args.tfds_data_dir,
                download=args.download,
                attention=args.attention,
                decoder=args.decoder,
                units=args.units,
                embedding_dim=args.embedding_dim,
                output_units=args.output_units,
                dropout=args.dropout,
                source_vocab_size=args.source_vocab_size,
                target_vocab_size=args.target_vocab_size,
                batch_size=args.batch_size,
                epochs=args.epochs,
                max_minutes=args.max_minutes,
                learning_rate=args.learning_rate,
                patience=args.patience,
                beam_width=args.beam_width,
                alpha=args.length_penalty,
                seed=args.seed,
            )
            metrics = tasks.train(args.output, config)
            print(f"\nrun folder: {args.output}")
            print(tasks.format_metrics(metrics["test"]))
        elif args.task == "evaluate":
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
        elif args.task == "translate":
            for text, translation, unknown in tasks.translate(
                args.run, args.texts, args.beam_width
            ):
                suffix = (
                    f"   [unknown words read as <unk>: {unknown}]" if unknown else ""
                )
                print(f"{text!r} -> {translation!r}{suffix}")
        elif args.task == "plot":
            output = args.output or Path(args.run) / "plots"
            for path in tasks.plot(args.run, args.texts, output, args.beam_width):
                print(path)
        elif args.task == "export":
            path = tasks.export(args.run, args.output, args.beam_width)
            print(f"SavedModel written to {path}")
    except (ValueError, FileNotFoundError, RuntimeError) as error:
        print(f"attention-zoo translation {args.task}: error: {error}", file=sys.stderr)
        return 2
    return 0
