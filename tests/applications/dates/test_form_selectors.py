"""form_selectors.py: a "next" or "last" the form does not use makes no answer."""

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_selectors import unused_direction
from attention_zoo.applications.dates.form_text import FormText

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


def _reason(text, form):
    return unused_direction(FormText(text, *WORDS), parse_form(form))


@pytest.mark.parametrize(
    "text, form, word",
    [
        ("last March", "month --03", "'last'"),  # answered as next March
        ("next Christmas", "date --12-25", "'next'"),
        ("last Friday", "weekday FRI", "'last'"),
        ("last March 3 at 5pm", "date --03-03 at 17:00", "'last'"),
        ("mars dernier", "month --03", "'dernier'"),
        ("lo scorso marzo", "month --03", "'scorso'"),
        ("letzten März", "month --03", "'letzten'"),
        ("from last March to June", "month --03 / month --06", "'last'"),
    ],
)  # fmt: skip
def test_an_unused_selector_is_named(text, form, word):
    assert f"the text writes {word}" in _reason(text, form)
    # and the whole grounding refuses the answer
    assert form_answers.grounding_reason(text, form, *WORDS)


@pytest.mark.parametrize(
    "text, form",
    [
        ("last March", "month -1 --03"),
        ("March", "month --03"),
        ("the last Sunday of March", "nth -1 SUN --03"),  # an ordinal
        ("Last updated: 3 May 2015", "date 2015-05-03"),  # nothing left open
        ("this March", "month --03"),  # "this" is a word of sentences
        ("next week", "cycle week +1"),
    ],
)  # fmt: skip
def test_a_used_or_closed_selector_is_no_reason(text, form):
    assert _reason(text, form) == ""


def test_no_generated_pair_is_refused_by_it(generated_pairs):
    refused = [
        (p.text, p.form)
        for pairs in generated_pairs.values()
        for p in pairs
        if unused_direction(FormText(p.text, *WORDS), parse_form(p.form))
    ]
    assert refused == []
