"""The dates application's shipped preset and the test slice it carries."""

from __future__ import annotations

from attention_zoo.applications.common.application import PresetRecipe, TestSlice
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates.evaluation import evaluate_examples

CARD = {
    "intended_use": (
        "Normalising dates written by people in 27 languages (English, "
        "French, German, Spanish, Italian, Portuguese, Dutch, Polish, Czech, "
        "Swedish, Danish, Norwegian, Finnish, Turkish, Hungarian, Romanian, "
        "Indonesian, Vietnamese, Russian, Ukrainian, Greek, Chinese, "
        "Japanese, Korean, Arabic, Hindi, Hebrew) to ISO 8601 (YYYY-MM-DD), "
        "with a validity flag and a reason for answers it cannot ground: no "
        "real calendar date, an ambiguous all-numeric date, a month named in "
        "a language it was not taught, a day or a year the input does not "
        "write. A teaching and reference model for attention; check its "
        "answers where a wrong date costs something."
    ),
    "data_and_licence": (
        "Trained only on dates generated offline with Faker and Babel "
        "(`attention_zoo/applications/dates/data.py`), seeded; no personal "
        "data. Code and weights: Apache-2.0."
    ),
    "limitations": (
        "It has seen only the formats and languages of the generator "
        "(docs/dates.md lists them); other forms are refused or, rarely, "
        "misread; an answer whose month, day or year the input does not "
        "write is refused. Chinese numerals (二〇〇八年), Japanese era "
        "years (平成7年) and Roman-numeral months between a day and a "
        "four-digit year (11 XI 1918) are read by the normalization, which "
        "also drops a label it was not taught before a date (Data de "
        "nascimento: ); other calendars are not read. Dates are drawn from "
        "1900 to 2099."
    ),
}

PRESETS = (
    PresetRecipe(
        name="dates_multilingual",
        description="Multilingual date normalizer: human-written dates to ISO 8601",
        train=("dates", "train", "--seed", "0"),
        seed=0,
        fixed_inputs=(
            "3rd of May 1979",
            "Sept. 14, 2001",
            "jeudi 3 mai 1979",
            "23.09.1987",
            "14 de septiembre de 2001",
            "03/04/05",
        ),
        card=CARD,
        headline_metric="exact_match",
    ),
)


def write_slice(run_dir, path, size: int) -> None:
    """The run's first `size` test examples, `{"text", "iso", ...}` each."""
    examples = data.load_examples(run_dir / "data" / "test.json")
    data.save_examples(path, examples[:size])


def score_slice(predictor, path) -> dict:
    """Exact match of the predictor on the slice."""
    metrics = evaluate_examples(predictor, data.load_examples(path))
    return {"n": metrics["n"], "exact_match": metrics["exact_match"]}


def slice_inputs(path) -> list[str]:
    """The slice's dates as written."""
    return [e.text for e in data.load_examples(path)]


TEST_SLICE = TestSlice(
    size=300, write=write_slice, score=score_slice, inputs=slice_inputs
)
