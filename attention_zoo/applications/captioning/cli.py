"""The captioner's own tasks on the command line: `evaluate`, `predict`.

`train`, `plot` and `export` are the skeleton's (`common.command`).
"""

from __future__ import annotations

from attention_zoo.applications.captioning.listing import LISTING
from attention_zoo.applications.common import InputError, command
from attention_zoo.applications.common.application import Command
from attention_zoo.applications.common.config import MAX_BEAM_WIDTH
from attention_zoo.applications.common.run_folder import write_evaluation


def add_sources(train) -> None:
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


def source_fields(args) -> dict:
    """The config's `dataset`, `images_dir` and `captions_file`."""
    dataset, images_dir, captions_file = "scenes", None, None
    if args.flickr8k:
        dataset, (images_dir, captions_file) = "flickr8k", args.flickr8k
    elif args.coco:
        dataset, (images_dir, captions_file) = "coco", args.coco
    elif args.tfds:
        dataset = "tfds"
    return dict(dataset=dataset, images_dir=images_dir, captions_file=captions_file)


def add_arguments(tasks, app) -> None:
    tasks["evaluate"].add_argument(
        "--run",
        default="runs/captioning",
        help="folder written by train (default runs/captioning)",
    )
    tasks["evaluate"].add_argument(
        "--beam-width",
        type=int,
        default=None,
        help=f"beams of the search scored beside greedy, from 1 to {MAX_BEAM_WIDTH} "
        "(default: the run's beam width)",
    )
    command.add_answer_flags(tasks["predict"], app)


def show(path, item) -> str:
    """An argument's answer: `PATH: CAPTION`, or `PATH: not valid: REASON`
    for an image not captioned (one unlike the training images, or one
    that could not be read, which the command's error line names too:
    `predict_job`); the best guess a caption that is not valid holds is
    in `--format jsonl`'s `output`."""
    if not item["valid"]:
        return f"{path}: not valid: {item['reason']}"
    return f"{path}: {item['text']}"


def unreadable_message(counts) -> str:
    """The error line of a `predict` some of whose images could not be
    read: the reason of the only one (which names its file), or the count
    and the first reasons; lines of a file were named above already."""
    if counts["from_file"]:
        return (
            f"{counts['unreadable']} of {counts['inputs']} image(s) could not be "
            "read (named above); their captions are empty"
        )
    if counts["unreadable"] == 1:
        return counts["reasons"][0]
    more = counts["unreadable"] - len(counts["reasons"])
    return (
        f"{counts['unreadable']} of {counts['inputs']} image(s) could not be read "
        f"(each shown not valid above): {'; '.join(counts['reasons'])}"
        + (f"; and {more} more" if more > 0 else "")
    )


def jobs(args, parser, app) -> dict:
    from attention_zoo.applications.captioning.evaluation import (
        evaluate,
        format_metrics,
    )
    from attention_zoo.applications.captioning.predictor import Captioner

    def evaluate_job():
        metrics = evaluate(args.run, beam_width=args.beam_width)
        write_evaluation(args.run, metrics)
        print(format_metrics(metrics))

    def predict_job():
        captioner = command.answer_job(
            args,
            parser,
            app,
            lambda run: Captioner(run, beam_width=args.beam_width),
            show,
            check_arguments=False,
        )
        counts = captioner()
        if counts["unreadable"]:
            # Every image has its output line above; the status says that
            # some could not be read, in one line.
            raise InputError(unreadable_message(counts))

    return {"evaluate": evaluate_job, "predict": predict_job}


# RuntimeError: a tfds download that failed; ImportError: a backbone's
# optional package that is not installed.
COMMAND = Command(
    help=LISTING.help,
    description=LISTING.description,
    tasks=LISTING.tasks,
    default_preset="shapes",
    errors=(RuntimeError, ImportError),
    add_arguments=add_arguments,
    train_arguments=add_sources,
    config_fields=source_fields,
    jobs=jobs,
)
