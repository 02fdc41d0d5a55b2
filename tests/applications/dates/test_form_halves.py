"""form_halves.py: half a unit grounds no relative form.

The preset answered "half an hour ago" as `shift hour -1` and "half a day
ago" as yesterday, valid: the whole unit's relative text is inside them.
Half an hour is taught since 2026-12-04 as a phrase of its own (`shift
minute -30`), which holds the hour's text inside it."""

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_halves import half_disagreement, half_words

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


@pytest.mark.parametrize(
    "text, half",
    [
        ("half a day ago", "half"),
        ("Half a year ago", "half"),
        ("half a week ago", "half"),
    ],
)
def test_a_half_before_a_relative_text_is_named(text, half):
    assert f"the text writes {half!r} before" in half_disagreement(text)


@pytest.mark.parametrize(
    "text",
    [
        "an hour ago",
        "a day ago",
        "yesterday",
        "behalf of yesterday",  # a word that ends in "half" is no half
        "tomorrow at half past 3",  # no relative text after the half
        "明天下午3点半",  # a clock's half
        "à meia-noite de amanhã",
    ],
)
def test_no_half_before_a_relative_text_is_no_reason(text):
    assert half_disagreement(text) == ""


def test_the_grounding_refuses_the_half_reading():
    reason = form_answers.grounding_reason("half a day ago", "shift day -1", *WORDS)
    assert "half a unit" in reason
    assert form_answers.grounding_reason("a day ago", "shift day -1", *WORDS) == ""


@pytest.mark.parametrize(
    "text, form",
    [
        ("half an hour ago", "shift minute -30"),
        ("in half an hour", "shift minute +30"),
        ("mezz'ora fa", "shift minute -30"),  # the ASCII apostrophe too
        ("через полчаса", "shift minute +30"),
        ("vor einer halben Stunde", "shift minute -30"),
    ],
)
def test_a_half_hour_written_as_such_grounds_its_minutes(text, form):
    # The hand-written `relative` texts of half an hour are whole phrases:
    # the hour's text inside is no relative text of its own there.
    assert half_disagreement(text) == ""
    assert form_answers.grounding_reason(text, form, *WORDS) == ""
    hour = form.replace("minute", "hour").replace("30", "1")
    assert form_answers.grounding_reason(text, hour, *WORDS) != ""


def test_the_words_are_normalized_longest_first():
    words = half_words()
    assert "half an" in words and words.index("half an") < words.index("half")
    assert all(w == w.casefold() for w in words)


def test_no_generated_text_writes_a_half(generated_pairs):
    # The rule refuses no text the generator writes, so a run that reads
    # one right keeps its answer.
    every = [p for pairs in generated_pairs.values() for p in pairs]
    assert len(every) > 40_000
    assert [p.text for p in every if half_disagreement(p.text)] == []
