"""Real captioned images: image folders with captions files, and tfds' COCO.

- `read_flickr8k(images_dir, captions_file)` and
  `read_coco_json(images_dir, annotations_file)`: a folder of images plus a
  captions file in the Flickr8k or COCO layout, split with `flickr8k_splits`
  (the official lists) or `split_images` (seeded, whole images);
- `tfds_coco_captions(split)`: `tensorflow_datasets`' `coco_captions` for
  users online (tests run it offline with `tfds.testing.mock_data`).

Captions are kept as written; `captions.normalize_caption` puts them in the
form the vocabulary reads.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import random
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


@dataclass
class CaptionedImage:
    """An image file and its captions (as written in the captions file)."""

    path: str
    captions: list[str] = field(default_factory=list)


def _check_inputs(images_dir, captions_file) -> tuple[Path, Path]:
    images_dir, captions_file = Path(images_dir), Path(captions_file)
    if not captions_file.is_file():
        raise FileNotFoundError(f"captions file not found: {captions_file}")
    if not images_dir.is_dir():
        raise FileNotFoundError(f"images directory not found: {images_dir}")
    return images_dir, captions_file


def _collect(images_dir: Path, captions: dict, source: Path) -> list[CaptionedImage]:
    """Items for the images present; warns about captions of missing images."""
    items, missing, skipped = [], [], 0
    for name, texts in captions.items():
        path = images_dir / name
        if path.is_file():
            items.append(CaptionedImage(str(path), list(texts)))
        else:
            missing.append(name)
            skipped += len(texts)
    if not items:
        raise ValueError(
            f"none of the {len(captions)} images named in {source} is in "
            f"{images_dir} (e.g. {next(iter(captions), None)!r})"
        )
    if missing:
        warnings.warn(
            f"skipped {skipped} captions of {len(missing)} images not found in "
            f"{images_dir} (e.g. {missing[0]!r})",
            stacklevel=3,
        )
    return sorted(items, key=lambda item: item.path)


def _flickr_captions(captions_file: Path) -> dict[str, list[str]]:
    """{image name: captions} of a Flickr8k/30k token file or `image,caption` CSV."""
    captions: dict[str, list[str]] = {}
    with captions_file.open(encoding="utf-8-sig", newline="") as f:
        lines = f.read().splitlines()
    if lines and lines[0].strip().lower() == "image,caption":
        # The CSV layout of the Kaggle copy of Flickr8k (`captions.txt`); an
        # unquoted comma belongs to the caption.
        rows = (
            (n, row[:1] + [",".join(row[1:])] if len(row) > 2 else row)
            for n, row in enumerate(csv.reader(lines[1:]), start=2)
        )
        separator = ","
    else:
        rows = ((n, line.split("\t", 1)) for n, line in enumerate(lines, start=1))
        separator = "\t"
    for number, row in rows:
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2 or not row[0].strip():
            expected = "image,caption" if separator == "," else "image#N<TAB>caption"
            raise ValueError(
                f"{captions_file}, line {number}: expected '{expected}'. "
                f"Received: {separator.join(row)[:100]!r}"
            )
        name, text = row[0].strip(), row[1].strip()
        if "#" in name and name.rsplit("#", 1)[1].isdigit():
            name = name.rsplit("#", 1)[0]
        if not text:
            raise ValueError(
                f"{captions_file}, line {number}: empty caption. Received: {row!r}"
            )
        captions.setdefault(name, []).append(text)
    if not captions:
        raise ValueError(f"no captions in {captions_file}")
    return captions


def read_flickr8k(images_dir, captions_file) -> list[CaptionedImage]:
    """Images and captions in the Flickr8k layout, sorted by path.

    `captions_file` is `Flickr8k.token.txt` (lines `1000268201_693b08cb0e.jpg#0
    <TAB> A child in a pink dress ...`; Flickr30k's token file has the same
    layout) or the Kaggle `captions.txt` CSV with an `image,caption` header.
    Captions are kept as written (see `normalize_caption`). Captions of images
    missing from `images_dir` are skipped with a warning that counts them
    (Flickr8k's token file names `2258277193_586949ec62.jpg.1`, which does
    not exist).

    Raises:
        FileNotFoundError: a missing captions file or images directory.
        ValueError: a malformed line (the message gives its number), or no
            named image in `images_dir`.
    """
    images_dir, captions_file = _check_inputs(images_dir, captions_file)
    return _collect(images_dir, _flickr_captions(captions_file), captions_file)


def read_coco_json(images_dir, annotations_file) -> list[CaptionedImage]:
    """Images and captions in the COCO captions layout, sorted by path.

    `annotations_file` is like `captions_val2014.json`: `{"images": [{"id",
    "file_name", ...}], "annotations": [{"image_id", "caption", ...}]}`.
    Images without a caption are left out; captions of images missing from
    `images_dir` are skipped with a warning that counts them.

    Raises:
        FileNotFoundError: a missing annotations file or images directory.
        ValueError: invalid JSON, missing keys (the message names the entry),
            a caption whose `image_id` is not in "images", or no listed image
            in `images_dir`.
    """
    images_dir, annotations_file = _check_inputs(images_dir, annotations_file)
    try:
        with annotations_file.open(encoding="utf-8") as f:
            content = json.load(f)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{annotations_file} is not valid JSON: {error}") from error
    if (
        not isinstance(content, dict)
        or not isinstance(content.get("images"), list)
        or not isinstance(content.get("annotations"), list)
    ):
        keys = sorted(content) if isinstance(content, dict) else type(content).__name__
        raise ValueError(
            f"{annotations_file}: expected a COCO captions file with 'images' and "
            f"'annotations' lists. Received: {keys}"
        )

    def require(entry, index, list_name, keys):
        missing = [k for k in keys if not isinstance(entry, dict) or k not in entry]
        if missing:
            raise ValueError(
                f"{annotations_file}: {list_name}[{index}] has no {missing[0]!r}. "
                f"Received: {str(entry)[:100]}"
            )

    names = {}
    for index, entry in enumerate(content["images"]):
        require(entry, index, "images", ("id", "file_name"))
        names[entry["id"]] = entry["file_name"]
    captions: dict[str, list[str]] = {}
    for index, entry in enumerate(content["annotations"]):
        require(entry, index, "annotations", ("image_id", "caption"))
        if entry["image_id"] not in names:
            raise ValueError(
                f"{annotations_file}: annotations[{index}] refers to an image "
                f"missing from 'images'. Received: image_id={entry['image_id']}"
            )
        caption = str(entry["caption"]).strip()
        captions.setdefault(names[entry["image_id"]], []).append(caption)
    if not captions:
        raise ValueError(f"no captions in {annotations_file}")
    return _collect(images_dir, captions, annotations_file)


def split_images(
    items, validation_fraction: float = 0.1, test_fraction: float = 0.1, seed=0
) -> tuple[list, list, list]:
    """Seeded train, validation and test lists of whole images.

    Items sharing a `path` go to the same split, so no image has captions in
    two splits. Each list keeps the input order.
    """
    if (
        not 0 <= validation_fraction < 1
        or not 0 <= test_fraction < 1
        or validation_fraction + test_fraction >= 1
    ):
        raise ValueError(
            "fractions must be >= 0 and sum to less than 1. Received: "
            f"validation_fraction={validation_fraction}, test_fraction={test_fraction}"
        )
    paths = sorted({item.path for item in items})
    random.Random(seed).shuffle(paths)
    n_validation = round(validation_fraction * len(paths))
    n_test = round(test_fraction * len(paths))
    validation = set(paths[:n_validation])
    test = set(paths[n_validation : n_validation + n_test])
    return (
        [i for i in items if i.path not in validation and i.path not in test],
        [i for i in items if i.path in validation],
        [i for i in items if i.path in test],
    )


FLICKR8K_SPLIT_FILES = (
    "Flickr_8k.trainImages.txt",
    "Flickr_8k.devImages.txt",
    "Flickr_8k.testImages.txt",
)


def flickr8k_splits(
    images_dir, captions_file, train_list=None, validation_list=None, test_list=None
) -> tuple[list[CaptionedImage], list[CaptionedImage], list[CaptionedImage]]:
    """The official Flickr8k train (6,000), dev (1,000) and test (1,000) images.

    Each list file names one image per line; a list left as None is read from
    its standard name (`FLICKR8K_SPLIT_FILES`) beside `captions_file`. Images
    in no list are left out. Without the lists, use `split_images`.
    """
    items = read_flickr8k(images_dir, captions_file)
    given = (train_list, validation_list, test_list)
    lists = []
    for path, default in zip(given, FLICKR8K_SPLIT_FILES):
        path = Path(path) if path is not None else Path(captions_file).parent / default
        if not path.is_file():
            raise FileNotFoundError(
                f"split list not found: {path}. Pass train_list=, validation_list= "
                "and test_list=, or split the images with split_images()"
            )
        lines = path.read_text(encoding="utf-8-sig").splitlines()
        lists.append({line.strip() for line in lines if line.strip()})
    split_names = ("train", "validation", "test")
    for i, j in itertools.combinations(range(3), 2):
        common = lists[i] & lists[j]
        if common:
            raise ValueError(
                f"images in both the {split_names[i]} and the {split_names[j]} "
                f"list. Received: {sorted(common)[:3]}"
            )
    return tuple(
        [item for item in items if os.path.basename(item.path) in names]
        for names in lists
    )


def tfds_coco_captions(
    split: str = "train",
    data_dir=None,
    download: bool = False,
    max_examples: int | None = None,
):
    """`(image, captions)` pairs of `tensorflow_datasets`' `coco_captions`.

    COCO 2014 with Karpathy and Li's splits: "train", "val" (alias
    "validation"), "test" (5,000 images each for val and test) and "restval".
    `image` is `(H, W, 3)` uint8, `captions` the raw caption strings (about
    five). With `download=False` (the default) nothing is fetched: a dataset
    not prepared in `data_dir` fails at once with a FileNotFoundError saying
    how to download it (tfds would otherwise wait minutes on an offline
    network). The dataset is opened when this function is called; the
    returned iterator reads it.
    """
    import tensorflow_datasets as tfds

    from attention_zoo.applications.common import tfds_builder, tfds_split

    if max_examples is not None and (
        not isinstance(max_examples, (int, np.integer)) or max_examples < 0
    ):
        raise ValueError(
            "`max_examples` must be a non-negative integer or None. "
            f"Received: max_examples={max_examples}"
        )
    split = {"validation": "val"}.get(split, split)
    builder = tfds_builder("coco_captions", data_dir, download)
    dataset = tfds_split(
        builder,
        split,
        "Download it once (about 20 GB of COCO 2014 images) with "
        "tfds_coco_captions(..., download=True) or `tfds build coco_captions`",
        shuffle_files=False,
    )
    if max_examples is not None:
        dataset = dataset.take(int(max_examples))

    def examples():
        for example in tfds.as_numpy(dataset):
            texts = [text.decode("utf-8") for text in example["captions"]["text"]]
            yield example["image"], texts

    return examples()
