"""A relative word of two opposite meanings grounds no form (form_two_way.py)."""

import pytest

from attention_zoo.applications.dates.form_two_way import two_way_disagreement

from .settling import reason

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, form, meanings",
    [
        ("कल सुबह 10 बजे", "time 10:00", "shift day +1 or shift day -1"),
        ("कल", "shift day +1", "shift day +1 or shift day -1"),
        ("कल", "shift day -1", "shift day +1 or shift day -1"),
        ("परसों शाम 5 बजे", "time 17:00", "shift day +2 or shift day -2"),
    ],
)  # fmt: skip
def test_a_word_of_yesterday_and_tomorrow_grounds_no_form(text, form, meanings):
    # Refused whatever the form: a time alone (today's, forms56's answer to
    # the first) or either day.
    assert reason(text, form)
    assert meanings in two_way_disagreement(text)
    assert two_way_disagreement(text).startswith(f"the text writes {text.split()[0]!r}")


@pytest.mark.parametrize(
    "text, form",
    [
        ("कलकत्ता में 10 बजे", "time 10:00"),  # a word holding it: no word of it
        ("på fredag", "weekday FRI"),  # Danish: two readings of one direction
        ("अगले सोमवार", "weekday +1 MON"),
    ],
)
def test_a_longer_word_or_one_direction_is_left(text, form):
    assert two_way_disagreement(text) == ""


def test_no_generated_text_writes_one(generated_pairs):
    every = [p.text for pairs in generated_pairs.values() for p in pairs]
    assert [t for t in every if two_way_disagreement(t)] == []
