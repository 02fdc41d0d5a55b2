"""form_halves.py: half a unit grounds no relative form.

The preset answered "half an hour ago" as `shift hour -1` and "half a day
ago" as yesterday, valid: the whole unit's relative text is inside them."""

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_halves import half_disagreement, half_words

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


@pytest.mark.parametrize(
    "text, half",
    [
        ("half an hour ago", "half"),
        ("half a day ago", "half"),
        ("Half an hour ago", "half"),
        ("mezz'ora fa", "mezz'"),  # ora is Italian's now, a relative text
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
    reason = form_answers.grounding_reason("half an hour ago", "shift hour -1", *WORDS)
    assert "half a unit" in reason
    assert form_answers.grounding_reason("an hour ago", "shift hour -1", *WORDS) == ""


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
