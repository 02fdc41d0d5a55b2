"""A text offering a choice of times makes no answer (form_choices.py)."""

import pytest

from attention_zoo.applications.dates.form_choices import (
    OTHER_WORDS,
    choice_disagreement,
    choice_words,
)
from attention_zoo.applications.dates.formats import LOCALES

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, word",
    [
        ("May or June", "'or'"),  # forms56: May, valid
        ("3 or 4 May 2015", "'or'"),
        ("Montag oder Dienstag", "'oder'"),
        ("mardi ou mercredi", "'ou'"),
        ("в понедельник или вторник", "'или'"),
        ("5月或6月", "'或'"),
    ],
)  # fmt: skip
def test_a_word_for_or_is_named(text, word):
    assert word in choice_disagreement(text)


@pytest.mark.parametrize(
    "text",
    ["1st of March", "o dia 3 de maio", "sau 3 ngày", "lunes o martes", "3 May 2015"],
)
def test_another_languages_word_is_no_choice(text):
    # Dutch "of", Spanish "o" and Romanian "sau" are other languages' words
    # (English's, Portuguese's article, Vietnamese's "after"): left out.
    assert choice_disagreement(text) == ""


def test_the_words_are_cldrs():
    assert choice_words("en") == "or" and choice_words("de") == "oder"
    assert {choice_words(language) for language in LOCALES} >= OTHER_WORDS


def test_no_generated_text_offers_one(generated_pairs):
    every = [p.text for pairs in generated_pairs.values() for p in pairs]
    assert [t for t in every if choice_disagreement(t)] == []
    # and each left-out word is one the generator writes (why it is left out)
    written = {w for t in every for w in t.casefold().split()}
    assert OTHER_WORDS <= written
