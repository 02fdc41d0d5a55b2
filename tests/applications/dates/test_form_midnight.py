"""A day's midnight by name is refused (form_midnight.py); midnight alone
and a day's 00:00 written as a clock are not."""

import pytest

from attention_zoo.applications.dates.form_answers import answer
from attention_zoo.applications.dates.form_midnight import midnight_disagreement
from attention_zoo.applications.dates.reference import parse_reference

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, form",
    [
        ("today at midnight", "shift day 0 at 00:00"),
        ("midnight tonight", "shift day 0 at 00:00"),
        ("heute um Mitternacht", "shift day 0 at 00:00"),
        ("demain à minuit", "shift day +1 at 00:00"),
        ("Friday at midnight", "weekday FRI at 00:00"),
        ("3 May 2015 at midnight", "datetime 2015-05-03T00:00"),
        ("from noon to midnight tomorrow", "time 12:00 / shift day +1 at 00:00"),
    ],
)
def test_a_days_midnight_by_name_is_refused(text, form):
    assert "midnight" in midnight_disagreement(text, form)


@pytest.mark.parametrize(
    "text, form",
    [
        ("midnight", "time 00:00"),  # the next one
        ("um Mitternacht", "time 00:00"),
        ("tomorrow at 00:00", "shift day +1 at 00:00"),  # written as a clock
        ("2015-05-03 00:00", "datetime 2015-05-03T00:00"),
        ("today at noon", "shift day 0 at 12:00"),
        ("today at midnight", "shift day 0"),  # not the form's clock
        ("today at midnight", "shift day 0 at"),  # no form
    ],
)
def test_midnight_alone_and_a_written_clock_stand(text, form):
    assert midnight_disagreement(text, form) == ""


def test_the_answer_says_so():
    item = {"input": "today at midnight", "score": 0.0, "valid": True}
    moment = parse_reference("2026-01-15T09:00:00")
    out = answer(item, "shift day 0 at 00:00", moment, "future", -1.0, None)
    assert (out["valid"], out["text"]) == (False, "")
    assert "midnight" in out["reason"]
