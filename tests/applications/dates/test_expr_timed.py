"""expr_timed.py and the days written with it: every joiner and hour pattern of a named day."""

import re

import pytest

from attention_zoo.applications.dates import expr_relative, expr_timed

pytestmark = pytest.mark.backend_free


@pytest.fixture(scope="module")
def english():
    return expr_relative.relative_at("en"), expr_relative.weekday_at("en")


def test_hour_patterns_follow_the_joiner():
    assert expr_timed.hour_patterns("en", "{time} {day}") == ["{h}{a}", "{h} {a}"]
    # after an `at` joiner, the patterns that write the word themselves too
    assert expr_timed.hour_patterns("en", "{day} at {time}") == [
        "{h}{a}", "{h} {a}", "at {h}{a}", "at {h} {a}",
    ]  # fmt: skip
    assert expr_timed.hour_patterns("de", "{day} um {time}")[-1].startswith("um ")


@pytest.mark.parametrize(
    "written",
    [
        r"\d{1,2}[ap]\.?m\.? tomorrow",  # "3pm tomorrow": {h}{a}, the time first
        r"\d{1,2} [ap]\.?m\.? tomorrow",  # "3 pm tomorrow"
        r"at \d{1,2} ?[ap]\.?m\.? tomorrow",  # "at 3pm tomorrow"
        r"tomorrow at \d{1,2} ?[ap]\.?m\.?",
        r"tomorrow \d{1,2} ?[ap]\.?m\.?",
        r"\d{1,2}:\d\d(?: [AP]M)? tomorrow",  # a CLDR time first
    ],
)
def test_a_named_day_is_written_by_every_joiner_and_hour_pattern(english, written):
    relative_at, _ = english
    texts = [p.text for p in relative_at if p.form.startswith("shift day +1 at ")]
    assert any(re.fullmatch(written, t) for t in texts), written


def test_the_time_written_is_the_forms(english):
    relative_at, weekday_at = english
    for pair in relative_at + weekday_at:
        hour, minute = map(int, pair.form.rsplit(" at ", 1)[1].split(":"))
        found = re.search(r"(\d{1,2})(?::(\d\d))? ?([ap])\.?m\b", pair.text, re.I)
        if found:  # a 12-hour time: its hour and half of the day are the form's
            h = int(found.group(1)) % 12 + (12 if found.group(3).lower() == "p" else 0)
            assert (h, int(found.group(2) or 0)) == (hour, minute), pair


def test_a_weekday_alone_takes_every_joiner(english):
    _, weekday_at = english
    friday = [p.text for p in weekday_at if p.form.startswith("weekday FRI at ")]
    joiners = expr_relative.weekday_joiners("en")
    assert len(friday) >= len(joiners)
    assert any(
        re.fullmatch(r"[\d:]+ ?(?:[AaPp]\.?[Mm]\.?)?,? Friday", t) for t in friday
    )
    assert any(t.startswith("Friday at ") for t in friday)
