"""A part of a month or a year makes no answer (form_parts.py)."""

import pytest

from attention_zoo.applications.dates.form_parts import part_disagreement

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, word",
    [
        ("fin mai", "'fin'"),  # forms60: May, valid
        ("end of March", "'end of'"),
        ("early March 2015", "'early'"),
        ("mid-2015", "'mid'"),
        ("Anfang Mai", "'anfang'"),
        ("a finales de mayo", "'finales de'"),
        ("в конце мая", "'конце'"),
        ("3月上旬", "'上旬'"),
        ("5月底", "'月底'"),
    ],
)  # fmt: skip
def test_a_word_of_a_part_is_named(text, word):
    assert word in part_disagreement(text)


@pytest.mark.parametrize(
    "text",
    ["March 2015", "later today", "earlier today", "Wochenende", "fine, 3 May",
     "begin 3 May", "mi cumpleaños es el 3 de mayo", "5月5日"],
)  # fmt: skip
def test_other_words_are_no_part(text):
    # "later", "earlier", "Wochenende" hold a part's word inside a longer
    # one; Italian "fine", Dutch "begin", French "mi" are left out.
    assert part_disagreement(text) == ""


def test_no_generated_text_writes_one(generated_pairs):
    every = [p.text for pairs in generated_pairs.values() for p in pairs]
    assert [t for t in every if part_disagreement(t)] == []
