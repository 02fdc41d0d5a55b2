"""A day with its part of the day and a time (expr_day_periods.py):
"tonight at 8", "ce soir à 20h", "今晚8点" -> `shift day 0 at 20:00`. The
part sets the half of the day of a 12-hour hour, in the grounding and in
settling (form_clocks.py), also with an `at` word between; after any
other period, not."""

import re

import pytest

from attention_zoo.applications.dates import expr_day_periods, lexicon
from attention_zoo.applications.dates.expression_pairs import words
from attention_zoo.applications.dates.form_grounding import form_disagreement
from tests.applications.dates.settling import settled

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()
LANGUAGES = ("en", "es", "fr", "de", "pt", "it", "nl", "ru", "zh", "ja")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_part_of_the_day_is_written_with_an_hour_it_holds(language):
    texts = words(language)["day_periods"]["texts"]
    pairs = expr_day_periods.day_periods(language)
    assert {p.text for p in pairs} & set(texts) == set()  # never alone
    for pair in pairs:
        part = next(t for t in texts if t in pair.text)
        days, first, last = texts[part]
        at = re.fullmatch(r"shift day (0|[+-]\d) at (\d\d):(\d\d)", pair.form)
        assert at and int(at[1]) == days and first <= int(at[2]) <= last, pair


@pytest.mark.parametrize(
    "text, form",
    [
        ("tonight at 8", "shift day 0 at 20:00"),
        ("at 8 tonight", "shift day 0 at 20:00"),
        ("tomorrow morning at 9", "shift day +1 at 09:00"),
        ("last night at 11", "shift day -1 at 23:00"),
        ("ce soir à 20h", "shift day 0 at 20:00"),
        ("heute Abend um 8 Uhr", "shift day 0 at 20:00"),
        ("mañana por la tarde a las 4", "shift day +1 at 16:00"),
        ("сегодня вечером в 8", "shift day 0 at 20:00"),
        ("今晚8点", "shift day 0 at 20:00"),
        # an `at` word after another period is no gap: "r." (rok) is one
        ("24 września 2064 r. o 11", "datetime 2064-09-24T11:00"),
    ],
)
def test_a_day_with_its_part_is_grounded(text, form):
    assert form_disagreement(text, form, *WORDS) == ""


@pytest.mark.parametrize(
    "text, form, named",
    [
        ("tonight at 8", "shift day 0 at 08:00", "hour 08"),
        ("tonight at 8", "shift day +1 at 20:00", "'day +1'"),
        ("tomorrow morning at 9", "shift day +1 at 21:00", "hour 21"),
        ("last night at 11", "shift day 0 at 23:00", "'day 0'"),
    ],
)
def test_a_day_or_hour_off_the_part_is_refused(text, form, named):
    assert named in form_disagreement(text, form, *WORDS)


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("tonight at 8", "shift day 0 at 08:00", "shift day 0 at 20:00"),
        ("heute Abend um 8", "shift day 0 at 08:00", "shift day 0 at 20:00"),
        ("今晚8点", "shift day 0 at 08:00", "shift day 0 at 20:00"),
    ],
)
def test_the_part_of_the_day_settles_the_hour(text, written, expected):
    assert settled(text, written)[0] == expected
