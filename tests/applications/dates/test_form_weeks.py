"""A weekday of a named week (form_weeks.py): `week K DOW` is grounded by
the weekday's name and a text of that week; a weekday form of a text that
names another week is refused, and the pass `week` makes it that week's
weekday."""

import pytest

from attention_zoo.applications.dates.form_answers import form_checks
from tests.applications.dates.settling import WORDS, reason, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, form",
    [
        ("下周五", "week +1 FRI"),  # 下周 and 周五 share 周
        ("上周一", "week -1 MON"),
        ("来週の金曜日", "week +1 FRI"),
        ("Friday next week", "week +1 FRI"),
        ("next week on Friday at 3pm", "week +1 FRI at 15:00"),
        ("nächste Woche Freitag", "week +1 FRI"),
        ("volgende week vrijdag", "week +1 FRI"),
        ("Thứ Sáu tuần sau", "week +1 FRI"),  # Friday, not "sixth"
        ("fredag nästa vecka", "week +1 FRI"),  # "fredag" is also this Friday
        ("Monday to Friday next week", "week +1 MON / week +1 FRI"),
    ],
)  # fmt: skip
def test_a_weekday_of_a_named_week_is_grounded(text, form):
    assert reason(text, form) == ""


@pytest.mark.parametrize(
    "text, form, named",
    [
        ("Friday next week", "week -1 FRI", "week -1"),  # the other week
        ("Friday next week", "week +1 THU", "weekday 'THU'"),
        ("next Friday", "week +1 FRI", "week +1"),  # no week named
        ("Friday", "week +1 FRI", "week +1"),
        # A weekday form of a text naming another week: the week unsaid.
        ("Friday next week", "weekday +1 FRI", "(`week +1 FRI`)"),
        ("下周五", "weekday FRI", "(`week +1 FRI`)"),
    ],
)  # fmt: skip
def test_a_week_or_weekday_the_text_does_not_write_is_refused(text, form, named):
    assert named in reason(text, form)


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("Friday next week", "weekday +1 FRI", "week +1 FRI"),
        ("下周五", "weekday FRI", "week +1 FRI"),
        ("last week Friday", "weekday +1 FRI", "week -1 FRI"),  # the text's week
        ("volgende week maandag om 10:00", "weekday MON at 10:00", "week +1 MON at 10:00"),
        ("Monday to Friday next week", "weekday MON / weekday FRI",
         "week +1 MON / week +1 FRI"),
    ],
)  # fmt: skip
def test_the_pass_makes_a_weekday_that_weeks(text, written, expected):
    assert settled(text, written) == (expected, ("week",))
    assert form_checks(text, expected, *WORDS)


@pytest.mark.parametrize(
    "text, written",
    [
        ("next Friday", "weekday +1 FRI"),  # no week named: grounded, alone
        ("this week Friday", "weekday 0 FRI"),  # this week's is `weekday 0`
        ("in 2 Fridays next week", "weekday +2 FRI"),  # a count, not "next"
    ],
)
def test_the_pass_leaves_alone_a_text_naming_no_other_week(text, written):
    assert "week" not in settled(text, written)[1]


def test_the_weekday_read_wrong_stays_refused():
    # The model's weekday is kept: the grounding then asks the text for it.
    form, names = settled("下周三", "weekday MON")
    assert (form, names) == ("week +1 MON", ("week",))
    assert not form_checks("下周三", form, *WORDS)
