"""Half past the hour in words after its digits (`expression_words.json`
`half_hours`): "a las 3 y media", "às 3 e meia", "à 3 heures et demie",
"alle 3 e mezza" are 3:30, never 3:00 (the shipped preset answered
"a las 3 y media" as 03:00, valid); 点半 as before."""

import pytest

from attention_zoo.applications.dates import lexicon
from attention_zoo.applications.dates.form_grounding import form_disagreement

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()
HALF = "the form's minute is not the text's half past"


@pytest.mark.parametrize(
    "text, hour",
    [
        ("a las 3 y media", 3),
        ("mañana a las 9 y media", 9),
        ("às 3 e meia", 3),
        ("à 3 heures et demie", 3),
        ("alle 3 e mezza", 3),
        ("下午3点半", 15),
    ],
)
def test_the_half_hour_is_thirty_minutes(text, hour):
    day = "shift day +1 at" if "mañana" in text else "time"
    assert form_disagreement(text, f"{day} {hour:02d}:30", *WORDS) == ""
    assert HALF in form_disagreement(text, f"{day} {hour:02d}:00", *WORDS)


@pytest.mark.parametrize(
    "text, form",
    [
        ("a las 3", "time 03:00"),  # no half written
        ("a las 3 y 10", "time 03:10"),
        ("3 horas y media", "shift minute +210"),  # not right after the digits
    ],
)
def test_a_half_not_right_after_the_hour_is_not_its(text, form):
    assert HALF not in form_disagreement(text, form, *WORDS)
