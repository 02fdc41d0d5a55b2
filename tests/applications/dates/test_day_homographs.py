"""A named day's word inside a phrase of the morning names no day
(`expression_words.json` `day_homographs`): Spanish "por la mañana" and
German "am Morgen" are the morning, not tomorrow (the shipped preset
answered "por la mañana", "am Morgen" and "am Morgen um 9 Uhr" as
tomorrow, valid); "mañana" and "morgen" alone, or beside such a phrase,
are tomorrow as before."""

import pytest

from attention_zoo.applications.dates import lexicon
from attention_zoo.applications.dates.form_grounding import form_disagreement

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


@pytest.mark.parametrize(
    "text, form",
    [
        ("por la mañana", "shift day +1"),
        ("la mañana", "shift day +1"),
        ("toda la mañana", "shift day +1"),
        ("a las 9 de la mañana", "shift day +1 at 09:00"),
        ("am Morgen", "shift day +1"),
        ("am Morgen um 9 Uhr", "shift day +1 at 09:00"),
        ("um 9 Uhr am Morgen", "shift day +1 at 09:00"),
        ("jeden Morgen", "shift day +1"),
    ],
)
def test_the_morning_is_no_tomorrow(text, form):
    assert "the form's 'day +1' is not written" in form_disagreement(text, form, *WORDS)


@pytest.mark.parametrize(
    "text, form",
    [
        ("mañana", "shift day +1"),
        ("mañana a las 9 de la mañana", "shift day +1 at 09:00"),
        ("a las 9 de la mañana", "time 09:00"),
        ("morgen", "shift day +1"),
        ("morgen um 9 Uhr", "shift day +1 at 09:00"),
        ("pasado mañana", "shift day +2"),
    ],
)
def test_tomorrow_beside_or_without_the_morning_is_read(text, form):
    assert form_disagreement(text, form, *WORDS) == ""
