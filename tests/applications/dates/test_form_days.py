"""A time alone whose text names its day relative to today is that day at
its time (form_settling's pass `day`, form_days.py): "noon tomorrow" read
as `time 12:00` is `shift day +1 at 12:00`. A count, two relative texts
or none leave the form the model's."""

import pytest

from attention_zoo.applications.dates.form_answers import form_checks
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
