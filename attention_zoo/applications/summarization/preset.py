"""The summarization application's shipped preset and its test slice."""

from __future__ import annotations

import json

from attention_zoo.applications.common.application import PresetRecipe, TestSlice
from attention_zoo.applications.summarization import data
from attention_zoo.applications.summarization.evaluation import evaluate_examples

CARD = {
    "intended_use": (
        "Writing the one-line synopsis of a Debian package from its long "
        "description, and showing copy attention at work: which words are "
        "written from the vocabulary and which are copied from the text "
        "(p_gen). A teaching and reference model of the pointer-generator, "
        "not a general-purpose summarizer."
    ),
    "data_and_licence": (
        "Trained on the English descriptions of the Debian bookworm packages "
        "(apt's Translation-en and Packages files), split by source package "
        "so that the binary packages of one source never straddle splits. The "
        "descriptions are their packages' authors' (free software licences "
        "of the Debian archive). Code and weights: Apache-2.0."
    ),
    "limitations": (
        "It knows package descriptions: other text (news, mail, stories) is "
        "out of its domain, and most of it is flagged not valid (unknown "
        "words, the score, or too little evidence of a package description "
        "against Bible English; a text of a few words seldom holds enough). "
        "Its vocabulary holds 8,000 words; "
        "names outside it are copied as the text writes them. A synopsis "
        "can miss the package's point or repeat a word."
    ),
}

PRESETS = (
    PresetRecipe(
        name="debian_synopsis",
        description="Debian package synopsis writer (copy attention)",
        train=("summarization", "train", "--seed", "0", "--epochs", "5"),
        seed=0,
        fixed_inputs=(
            "Scala is a Java-compatible programming language with many modern "
            "language features. It is a general purpose programming language "
            "designed to express common programming patterns in a concise, "
            "elegant, and type-safe way.",
            "GNU Emacs is the extensible self-documenting text editor. This "
            "package contains the editor with the GTK+ toolkit.",
            "This package contains the header files and static library needed "
            "to compile applications that use libzork.",
        ),
        card=CARD,
        float16=True,
        headline_metric="beam4 rougeL",
    ),
)


def write_slice(run_dir, path, size: int) -> None:
    """The run's first `size` test pairs, `{"text", "summary"}` each."""
    rows = [
        {"text": e.text, "summary": e.summary}
        for e in data.read_pairs(run_dir / "data" / "test.tsv")[:size]
    ]
    path.write_text(
        json.dumps(rows, indent=0, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def read_slice(path) -> list:
    """The examples `write_slice` wrote.

    Raises:
        ValueError: naming the file when it is not a list of text/summary
            pairs (a preset folder is data from anywhere).
    """
    rows = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(rows, list) or not all(
        isinstance(r, dict)
        and isinstance(r.get("text"), str)
        and isinstance(r.get("summary"), str)
        for r in rows
    ):
        raise ValueError(f"{path}: expected a JSON list of {{text, summary}} objects")
    return [data.Example(r["text"], r["summary"]) for r in rows]


def score_slice(predictor, path) -> dict:
    """ROUGE of the predictor's default search on the slice."""
    examples = read_slice(path)
    metrics = evaluate_examples(predictor, examples, [predictor.beam_width])
    scores = metrics[next(k for k in metrics if k != "n")]
    return {
        "n": len(examples),
        "rouge1": scores["rouge1"],
        "rouge2": scores["rouge2"],
        "rougeL": scores["rougeL"],
    }


def slice_inputs(path) -> list[str]:
    """The slice's texts."""
    return [e.text for e in read_slice(path)]


TEST_SLICE = TestSlice(
    size=100, write=write_slice, score=score_slice, inputs=slice_inputs
)
