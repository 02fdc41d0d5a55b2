"""A time alone whose text names its day relative to today is that day at
its time (form_settling's pass `day`, form_days.py): "noon tomorrow" read
as `time 12:00` is `shift day +1 at 12:00`. A count, two relative texts
or none leave the form the model's. And the other way (the pass
`named_time`): "tomorrow noon" read as `shift day +1` is `shift day +1 at
12:00`."""

import pytest

from attention_zoo.applications.dates.form_answers import form_checks
from attention_zoo.applications.dates.form_midnight import midnight_disagreement
from tests.applications.dates.settling import WORDS, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("noon tomorrow", "time 12:00", "shift day +1 at 12:00"),
        ("3pm tomorrow", "time 15:00", "shift day +1 at 15:00"),
        ("غداً ١٠:٠٠", "time 10:00", "shift day +1 at 10:00"),
        ("明天下午5点", "time 17:00", "shift day +1 at 17:00"),
        ("heute um 10 Uhr", "time 10:00", "shift day 0 at 10:00"),
        ("the day after tomorrow at 7 pm", "time 19:00", "shift day +2 at 19:00"),
    ],
)  # fmt: skip
def test_a_time_takes_the_day_its_text_names(text, written, expected):
    assert settled(text, written) == (expected, ("day",))
    assert form_checks(text, expected, *WORDS)
    assert not form_checks(text, written, *WORDS)


@pytest.mark.parametrize(
    "text, written",
    [
        ("in 3 days at 10:00", "time 10:00"),  # a count: the model's to read
        ("tomorrow and next week at 10", "time 10:00"),  # two relative texts
        ("10:00", "time 10:00"),  # none
        ("tomorrow at 10", "date --01-16"),  # not a time alone
    ],
)
def test_a_text_naming_no_one_day_leaves_the_form(text, written):
    assert "day" not in settled(text, written)[1]


def test_the_clock_stays_the_models_and_is_grounded():
    # The day is set; a clock the text does not write stays refused.
    form, names = settled("noon tomorrow", "time 13:00")
    assert (form, names) == ("shift day +1 at 13:00", ("day",))
    assert not form_checks("noon tomorrow", form, *WORDS)


# The pass `named_time`: a day whose text names its time by a word is that
# day at that time ("tomorrow noon" read as `shift day +1`).
@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("tomorrow noon", "shift day +1", "shift day +1 at 12:00"),
        ("Friday noon", "weekday FRI", "weekday FRI at 12:00"),
        ("next Friday at noon", "weekday +1 FRI", "weekday +1 FRI at 12:00"),
        ("mañana al mediodía", "shift day +1", "shift day +1 at 12:00"),
        ("morgen Mittag", "shift day +1", "shift day +1 at 12:00"),
        ("明天中午", "shift day +1", "shift day +1 at 12:00"),
        ("Christmas 2015 at noon", "date 2015-12-25", "date 2015-12-25 at 12:00"),
    ],
)  # fmt: skip
def test_a_day_takes_the_time_its_text_names_by_a_word(text, written, expected):
    assert settled(text, written) == (expected, ("named_time",))
    assert form_checks(text, expected, *WORDS)
    assert not form_checks(text, written, *WORDS)


@pytest.mark.parametrize(
    "text, written",
    [
        ("in 3 hours noon", "shift hour +3"),  # a shift by hours names no day
        ("next week noon", "cycle week +1"),  # a week is no day
        ("tomorrow", "shift day +1"),  # no time named
        ("tomorrow at noon or midnight", "shift day +1"),  # two
        ("tomorrow at noon", "shift day +1 at 13:00"),  # a clock already
    ],
)
def test_a_form_of_no_one_day_or_a_text_of_no_one_time_is_left(text, written):
    assert "named_time" not in settled(text, written)[1]


def test_a_number_left_unread_and_a_days_midnight_stay_refused():
    form, names = settled("tomorrow 5 noon", "shift day +1")
    assert names == ("named_time",) and not form_checks("tomorrow 5 noon", form, *WORDS)
    # Grounded, then refused by the answer's midnight rule (form_midnight).
    form = settled("tomorrow midnight", "shift day +1")[0]
    assert form == "shift day +1 at 00:00"
    assert midnight_disagreement("tomorrow midnight", form)
