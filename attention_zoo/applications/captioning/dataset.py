"""The images and captions of a training run, split, and the held-out ones."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from attention_zoo.applications.captioning import scene_generator, sources
from attention_zoo.applications.captioning.config import DATASETS, TrainConfig
from attention_zoo.applications.captioning.scenes import Scene


@dataclass
class Item:
    """One image (an array, or a file path) and its captions."""

    image: object
    captions: list[str]
    scene: Scene | None = None


def _scene_items(scenes):
    return [Item(s.image, [s.caption], s) for s in scenes]


def _file_items(items):
    return [Item(i.path, list(i.captions)) for i in items]


def load_dataset(config: TrainConfig):
    """`(train, validation, test)` lists of `Item` for the config's dataset."""
    if config.dataset not in DATASETS:
        raise ValueError(
            f"`dataset` must be one of {DATASETS}. Received: dataset={config.dataset!r}"
        )
    if config.dataset == "scenes":
        size = config.image_size or 224
        splits = scene_generator.scene_splits(
            config.n_train, config.n_validation, config.n_test, config.seed, size
        )
        return tuple(_scene_items(s) for s in splits)
    if config.dataset == "tfds":
        splits = []
        for split, n in (
            ("train", config.n_train),
            ("val", config.n_validation),
            ("test", config.n_test),
        ):
            examples = sources.tfds_coco_captions(
                split, config.tfds_data_dir, config.download and split == "train", n
            )
            splits.append([Item(image, captions) for image, captions in examples])
        return tuple(splits)
    if not config.images_dir or not config.captions_file:
        raise ValueError(
            f"dataset {config.dataset!r} needs `images_dir` and `captions_file`"
        )
    read = (
        sources.read_flickr8k
        if config.dataset == "flickr8k"
        else sources.read_coco_json
    )
    items = read(config.images_dir, config.captions_file)
    train, validation, test = sources.split_images(items, 0.05, 0.1, config.seed)
    return tuple(_file_items(s) for s in (train, validation, test))


def write_items(path, items):
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        # Resolved: a path typed relative to the training directory would
        # not be found by `evaluate` run from anywhere else.
        {"image": str(Path(i.image).resolve()), "captions": i.captions}
        for i in items
        if isinstance(i.image, (str, Path))
    ]
    path.write_text(json.dumps(rows, indent=0), encoding="utf-8")


def test_items(run_dir) -> list[Item]:
    """The run's test images: regenerated scenes, tfds' test split, or the
    saved list of files."""
    run = Path(run_dir)
    config = json.loads((run / "config.json").read_text(encoding="utf-8"))
    if config["dataset"] == "scenes":
        # Layouts seen in train/validation are dropped from the test split,
        # so regenerate with the sizes training used.
        _, _, test = scene_generator.scene_splits(
            config["n_train"],
            config["n_validation"],
            config["n_test"],
            config["seed"],
            config["resolved_image_size"],
        )
        return _scene_items(test)
    if config["dataset"] == "tfds":
        examples = sources.tfds_coco_captions(
            "test", config["tfds_data_dir"], max_examples=config["n_test"]
        )
        return [Item(image, captions) for image, captions in examples]
    path = run / "data" / "test.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: this run kept no test images")
    return [
        Item(r["image"], r["captions"])
        for r in json.loads(path.read_text(encoding="utf-8"))
    ]
