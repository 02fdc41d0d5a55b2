"""The slice of test data a preset ships with, and its score.

A preset carries the first examples of its run's test split
(`test_slice.json`) and the metrics it reached on them at build time; the
preset tests re-score the slice on every backend and compare, so a preset
whose weights, assets or card disagree fails.

Each application stores its examples as plain JSON, readable without the
run they came from: dates as `{"text", "iso", ...}` examples, translation
as source/reference pairs, captioning as encoded images (base64; PNG for
generated scenes) with their reference captions. The score is the
application's own metric with the predictor's default decoding: exact match
for dates, sacreBLEU BLEU and chrF for translation, BLEU-4 for captioning.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

SLICE_FILE = "test_slice.json"
# Sized so that re-scoring a slice takes seconds on every backend's CPU
# decoding, while a wrong weight or asset still moves its score.
SLICE_SIZES = {"dates": 300, "translation": 100, "captioning": 40}


def write_slice(app: str, run_dir, path, size: int | None = None) -> None:
    """Copies the first `size` test examples of `run_dir` to `path`."""
    run_dir, path = Path(run_dir), Path(path)
    if app not in SLICE_SIZES:
        raise ValueError(f"no test slice is defined for the {app} application")
    size = size or SLICE_SIZES[app]
    if app == "dates":
        from attention_zoo.applications.dates import data

        examples = data.load_examples(run_dir / "data" / "test.json")
        data.save_examples(path, examples[:size])
        return
    if app == "translation":
        from attention_zoo.applications.translation.corpus import read_pairs

        rows = [
            {"source": p.source, "reference": p.target}
            for p in read_pairs(run_dir / "data" / "test.tsv")[:size]
        ]
    else:
        from attention_zoo.applications.captioning.dataset import test_items

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


def _image_bytes(image) -> bytes:
    """An encoded image: a user run's file as it is, generated pixels as PNG."""
    from attention_zoo.image_codec import encode_png

    if isinstance(image, (str, Path)):
        return Path(image).read_bytes()
    return encode_png(image)


def score_slice(predictor, folder) -> dict:
    """The metrics of `predictor` on the slice in `folder`."""
    path = Path(folder) / SLICE_FILE
    if predictor.app == "dates":
        from attention_zoo.applications.dates import data
        from attention_zoo.applications.dates.evaluation import evaluate_examples

        metrics = evaluate_examples(predictor, data.load_examples(path))
        return {"n": metrics["n"], "exact_match": metrics["exact_match"]}
    rows = json.loads(path.read_text(encoding="utf-8"))
    if predictor.app == "translation":
        from attention_zoo.applications.common.decodings import decoding_name
        from attention_zoo.applications.translation.data import Pair
        from attention_zoo.applications.translation.evaluation import evaluate_pairs

        pairs = [Pair(r["source"], r["reference"]) for r in rows]
        width = predictor.beam_width
        scores = evaluate_pairs(predictor, pairs, [width])[decoding_name(width)]
        return {"n": len(pairs), "bleu": scores["bleu"], "chrf": scores["chrf"]}
    if predictor.app == "captioning":
        from attention_zoo.applications.captioning.dataset import Item
        from attention_zoo.applications.captioning.evaluation import evaluate_items
        from attention_zoo.applications.common.decodings import decoding_name

        items = [
            Item(base64.b64decode(r["image_base64"]), r["references"]) for r in rows
        ]
        width = predictor.beam_width
        scores = evaluate_items(predictor, items, [width])[decoding_name(width)]
        return {"n": len(items), "bleu4": scores["bleu4"]}
    raise ValueError(f"no test slice is defined for the {predictor.app} application")
