"""The translation application's shipped preset and the test slice it carries."""

from __future__ import annotations

import json

from attention_zoo.applications.common.application import PresetRecipe, TestSlice
from attention_zoo.applications.common.search import search_name
from attention_zoo.applications.translation.corpus import read_pairs
from attention_zoo.applications.translation.data import Pair
from attention_zoo.applications.translation.evaluation import evaluate_pairs

CARD = {
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
        "its domain and gets archaic or wrong wording, flagged not valid as "
        "a rule; a verse of two or three words is flagged too (too little "
        "evidence that it is a verse). Its vocabularies hold "
        "5,000 words per side; an unknown target word is replaced by the "
        "source word its attention points to, so names pass through in their "
        "English spelling. Greedy or beam output can repeat or drop clauses "
        "of long verses."
    ),
}

PRESETS = (
    PresetRecipe(
        name="bible_en_es",
        description="English to Spanish Bible translator (Bahdanau attention)",
        train=("translation", "train", "--seed", "0"),
        seed=0,
        fixed_inputs=(
            "Jesus wept.",
            "In the beginning God created the heavens and the earth.",
            "The Lord is my shepherd; I shall not want.",
            "Naomi said to Ruth, go in peace.",
        ),
        card=CARD,
        headline_metric="beam4 bleu",
    ),
)


def write_slice(run_dir, path, size: int) -> None:
    """The run's first `size` test pairs, `{"source", "reference"}` each."""
    rows = [
        {"source": p.source, "reference": p.target}
        for p in read_pairs(run_dir / "data" / "test.tsv")[:size]
    ]
    path.write_text(
        json.dumps(rows, indent=0, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def score_slice(predictor, path) -> dict:
    """sacreBLEU BLEU and chrF of the predictor's default decoding."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    pairs = [Pair(r["source"], r["reference"]) for r in rows]
    width = predictor.beam_width
    scores = evaluate_pairs(predictor, pairs, [width])[search_name(width)]
    return {"n": len(pairs), "bleu": scores["bleu"], "chrf": scores["chrf"]}


def slice_inputs(path) -> list[str]:
    """The slice's source texts."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [r["source"] for r in rows]


TEST_SLICE = TestSlice(
    size=100, write=write_slice, score=score_slice, inputs=slice_inputs
)
