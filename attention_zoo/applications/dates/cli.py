"""`attention-zoo dates train|evaluate|predict|plot|export`."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def add_parser(commands) -> None:
    dates = commands.add_parser(
        "dates",
        help="date normalization: '3rd of May 1979' -> 1979-05-03",
        description="Normalize human-written dates (English, French, German, "
        "Spanish) to ISO 8601 with an attention model.",
    )
    tasks = dates.add_subparsers(dest="task", metavar="TASK", required=True)

    train = tasks.add_parser("train", help="generate dates offline and train a model")
    train.add_argument(
        "--output", default="runs/dates", help="run folder (default runs/dates)"
    )
    train.add_argument("--model", choices=("default", "classic"), default="default")
    train.add_argument(
        "--attention",
        default="bahdanau",
        help="attention mechanism of the default model: bahdanau (default) or "
        "another name of attention_zoo.applications.dates.model.ATTENTIONS (see "
        "docs/layers.md)",
    )
    train.add_argument("--epochs", type=int, default=6)
    train.add_argument("--batch-size", type=int, default=128)
    train.add_argument("--train-size", type=int, default=30000)
    train.add_argument("--validation-size", type=int, default=2000)
    train.add_argument("--test-size", type=int, default=5000)
    train.add_argument(
        "--learning-rate",
        type=float,
        default=None,
        help="Adam's initial rate (default: 5e-3 for classic; for default "
        "3e-3, or 1e-2 with --attention monotonic or mocha)",
    )
    train.add_argument("--seed", type=int, default=0)
    train.add_argument(
        "--distribute",
        choices=("mirrored",),
        default=None,
        help="train under tf.distribute.MirroredStrategy (TensorFlow backend)",
    )

    evaluate = tasks.add_parser("evaluate", help="exact match on the run's test dates")
    evaluate.add_argument("--run", default="runs/dates", help="folder written by train")
    evaluate.add_argument(
        "--per-format", action="store_true", help="also print every format"
    )

    predict = tasks.add_parser("predict", help="normalize the given dates")
    predict.add_argument("texts", nargs="+", metavar="TEXT")
    predict.add_argument("--run", default="runs/dates")

    plot = tasks.add_parser("plot", help="attention heatmap PNGs for the given dates")
    plot.add_argument("texts", nargs="+", metavar="TEXT")
    plot.add_argument("--run", default="runs/dates")
    plot.add_argument(
        "--output", default=None, help="folder for the PNGs (default RUN/plots)"
    )

    export = tasks.add_parser(
        "export", help="write a SavedModel that serves raw strings"
    )
    export.add_argument("--run", default="runs/dates")
    export.add_argument("--output", required=True, help="SavedModel folder")


def _positive(parser, **values):
    for flag, value in values.items():
        if value < 1:
            parser.error(
                f"--{flag} must be a positive integer. Received: --{flag} {value}"
            )


def run(args, parser) -> int:
    from attention_zoo.applications.dates import tasks

    try:
        if args.task == "train":
            _positive(
                parser,
                epochs=args.epochs,
                **{
                    "batch-size": args.batch_size,
                    "train-size": args.train_size,
                    "validation-size": args.validation_size,
                    "test-size": args.test_size,
                },
            )
            config = tasks.TrainConfig(
                model=args.model,
                attention=args.attention,
                epochs=args.epochs,
                batch_size=args.batch_size,
                n_train=args.train_size,
                n_validation=args.validation_size,
                n_test=args.test_size,
                seed=args.seed,
                learning_rate=args.learning_rate,
                distribute=args.distribute,
            )
            metrics = tasks.train(args.output, config)
            print(f"\nrun folder: {args.output}")
            print(tasks.format_metrics(metrics, per_format=False))
        elif args.task == "evaluate":
            metrics = tasks.evaluate(args.run)
            print(tasks.format_metrics(metrics, per_format=args.per_format))
            (Path(args.run) / "metrics_evaluate.json").write_text(
                json.dumps(metrics, indent=1)
            )
        elif args.task == "predict":
            for text, iso, valid, unknown in tasks.predict(args.run, args.texts):
                notes = []
                if not valid:
                    notes.append("not a real calendar date")
                if unknown:
                    notes.append(
                        f"unknown characters read as <unk>: {''.join(unknown)!r}"
                    )
                suffix = f"   [{'; '.join(notes)}]" if notes else ""
                print(f"{text!r} -> {iso}{suffix}")
        elif args.task == "plot":
            output = args.output or Path(args.run) / "plots"
            for path in tasks.plot(args.run, args.texts, output):
                print(path)
        elif args.task == "export":
            path = tasks.export(args.run, args.output)
            print(f"SavedModel written to {path}")
    except (ValueError, FileNotFoundError) as error:  # InputError is a ValueError
        print(f"attention-zoo dates {args.task}: error: {error}", file=sys.stderr)
        return 2
    return 0
