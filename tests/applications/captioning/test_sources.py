"""Real captioned images: Flickr8k and COCO folders, image splits, tfds' COCO."""

import json
import time

import numpy as np
import pytest

from attention_zoo.applications.captioning.sources import (
    FLICKR8K_SPLIT_FILES,
    CaptionedImage,
    flickr8k_splits,
    read_coco_json,
    read_flickr8k,
    split_images,
    tfds_coco_captions,
)
from attention_zoo.image_codec import encode_png


def _write_images(folder, names):
    folder.mkdir()
    for i, name in enumerate(names):
        (folder / name).write_bytes(encode_png(np.full((4, 4, 3), i, np.uint8)))


def test_read_flickr8k_groups_captions_and_skips_missing_images(tmp_path):
    images = tmp_path / "Images"
    _write_images(images, ["b.jpg", "a.jpg"])
    captions = tmp_path / "Flickr8k.token.txt"
    captions.write_text(
        "b.jpg#0\tA dog runs .\n"
        "a.jpg#0\tA child in a pink dress .\n"
        "missing.jpg#0\tNothing here .\n"
        "\n"
        "b.jpg#1\tThe dog is running\n"
        "missing.jpg#1\tStill nothing .\n",
        encoding="utf-8",
    )
    with pytest.warns(UserWarning, match="skipped 2 captions of 1 images"):
        items = read_flickr8k(images, captions)
    assert items == [
        CaptionedImage(str(images / "a.jpg"), ["A child in a pink dress ."]),
        CaptionedImage(str(images / "b.jpg"), ["A dog runs .", "The dog is running"]),
    ]
    # The CSV layout of the Kaggle copy.
    kaggle = tmp_path / "captions.txt"
    kaggle.write_text('image,caption\na.jpg,"A child, in pink ."\nb.jpg,A dog, a cat\n')
    assert [i.captions for i in read_flickr8k(images, kaggle)] == [
        ["A child, in pink ."],
        ["A dog, a cat"],
    ]
    kaggle.write_text("image,caption\na.jpg,A dog\nb.jpg\n")
    with pytest.raises(ValueError, match="line 3: expected 'image,caption'"):
        read_flickr8k(images, kaggle)


def test_read_flickr8k_errors(tmp_path):
    images = tmp_path / "Images"
    _write_images(images, ["a.jpg"])
    with pytest.raises(FileNotFoundError, match="captions file not found"):
        read_flickr8k(images, tmp_path / "none.txt")
    captions = tmp_path / "captions.token"
    captions.write_text("a.jpg#0\tfine\na.jpg#1\tfine\na.jpg#2 no tab here\n")
    with pytest.raises(
        ValueError, match=r"line 3: expected .*Received: 'a.jpg#2 no tab here'"
    ):
        read_flickr8k(images, captions)
    captions.write_text("a.jpg#0\t  \n")
    with pytest.raises(ValueError, match="line 1: empty caption"):
        read_flickr8k(images, captions)
    captions.write_text("a.jpg#0\tfine\n")
    with pytest.raises(FileNotFoundError, match="images directory not found"):
        read_flickr8k(tmp_path / "nowhere", captions)
    captions.write_text("other.jpg#0\tfine\n")
    with pytest.raises(ValueError, match="none of the 1 images"):
        read_flickr8k(images, captions)


def test_flickr8k_splits_follow_the_list_files(tmp_path):
    images = tmp_path / "Images"
    names = [f"{i}.jpg" for i in range(6)]
    _write_images(images, names)
    text = tmp_path / "text"
    text.mkdir()
    captions = text / "Flickr8k.token.txt"
    captions.write_text(
        "".join(f"{n}#{k}\tcaption {k}\n" for n in names for k in range(2))
    )
    for list_name, members in zip(
        FLICKR8K_SPLIT_FILES, (names[:3], names[3:4], names[4:5])
    ):
        (text / list_name).write_text("\n".join(members) + "\n")
    train, validation, test = flickr8k_splits(images, captions)
    assert [len(split) for split in (train, validation, test)] == [
        3,
        1,
        1,
    ]  # 5.jpg: none
    assert validation[0].path.endswith("3.jpg") and len(validation[0].captions) == 2
    (text / FLICKR8K_SPLIT_FILES[2]).write_text("0.jpg\n")
    with pytest.raises(ValueError, match="both the train and the test list"):
        flickr8k_splits(images, captions)
    with pytest.raises(FileNotFoundError, match="split_images"):
        flickr8k_splits(images, captions, train_list=tmp_path / "none.txt")


def test_read_coco_json(tmp_path):
    images = tmp_path / "val2014"
    _write_images(images, ["COCO_1.jpg", "COCO_2.jpg"])
    annotations = {
        "info": {},
        "images": [
            {"id": 2, "file_name": "COCO_2.jpg", "width": 4, "height": 4},
            {"id": 1, "file_name": "COCO_1.jpg"},
            {"id": 3, "file_name": "COCO_3.jpg"},  # not on disk
            {"id": 4, "file_name": "COCO_2.jpg"},  # no caption: left out
        ],
        "annotations": [
            {"id": 10, "image_id": 2, "caption": "A cat on a mat. "},
            {"id": 11, "image_id": 1, "caption": "Two dogs"},
            {"id": 12, "image_id": 3, "caption": "lost"},
            {"id": 13, "image_id": 2, "caption": "a cat"},
        ],
    }
    path = tmp_path / "captions_val2014.json"
    path.write_text(json.dumps(annotations))
    with pytest.warns(UserWarning, match="skipped 1 captions of 1 images"):
        items = read_coco_json(images, path)
    assert items == [
        CaptionedImage(str(images / "COCO_1.jpg"), ["Two dogs"]),
        CaptionedImage(str(images / "COCO_2.jpg"), ["A cat on a mat.", "a cat"]),
    ]
    annotations["annotations"].append({"id": 14, "image_id": 9, "caption": "x"})
    path.write_text(json.dumps(annotations))
    with pytest.raises(ValueError, match=r"annotations\[4\] refers .*image_id=9"):
        read_coco_json(images, path)
    annotations["annotations"][1] = {"id": 11, "image_id": 1}
    path.write_text(json.dumps(annotations))
    with pytest.raises(ValueError, match=r"annotations\[1\] has no 'caption'"):
        read_coco_json(images, path)
    path.write_text('{"images": [}')
    with pytest.raises(ValueError, match="is not valid JSON"):
        read_coco_json(images, path)
    path.write_text('{"categories": []}')
    with pytest.raises(ValueError, match=r"Received: \['categories'\]"):
        read_coco_json(images, path)


def test_split_images_keeps_each_image_in_one_split():
    items = [CaptionedImage(f"{i % 20}.jpg", [str(i)]) for i in range(40)]
    train, validation, test = split_images(items, 0.1, 0.2, seed=1)
    assert (train, validation, test) == split_images(items, 0.1, 0.2, seed=1)
    paths = [{i.path for i in split} for split in (train, validation, test)]
    assert [len(p) for p in paths] == [14, 2, 4]
    assert not (paths[0] & paths[1] or paths[0] & paths[2] or paths[1] & paths[2])
    assert len(train) + len(validation) + len(test) == 40
    with pytest.raises(ValueError, match="validation_fraction=0.6, test_fraction=0.5"):
        split_images(items, 0.6, 0.5)


def test_tfds_coco_captions_offline_with_mock_data():
    tfds = pytest.importorskip("tensorflow_datasets")
    with tfds.testing.mock_data(num_examples=4):
        examples = list(tfds_coco_captions(split="validation", max_examples=3))
    assert len(examples) == 3
    for image, captions in examples:
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[-1] == 3
        assert captions and all(isinstance(c, str) for c in captions)


def test_tfds_coco_captions_not_prepared_fails_fast(tmp_path):
    pytest.importorskip("tensorflow_datasets")
    start = time.perf_counter()
    with pytest.raises(FileNotFoundError, match="download=True"):
        tfds_coco_captions(data_dir=str(tmp_path))
    assert time.perf_counter() - start < 30
    with pytest.raises(ValueError, match="Received: max_examples=-1"):
        tfds_coco_captions(max_examples=-1)


def test_tfds_coco_captions_failed_download_names_the_cause(tmp_path, monkeypatch):
    tfds = pytest.importorskip("tensorflow_datasets")

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tfds.core.DatasetBuilder, "download_and_prepare", full_disk)
    with pytest.raises(RuntimeError, match=r"coco_captions into .*No space left"):
        tfds_coco_captions(data_dir=str(tmp_path), download=True)
