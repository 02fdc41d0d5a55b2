"""form_weekdays.py: an answer falls on every weekday its text names, in
the week its text names.

"Monday 9am" read as `time 09:00` resolved to the reference's next 9:00,
a Thursday, and was answered valid; the rule refuses it, and refuses no
generated text (whose value is its own form's, resolved)."""

import datetime as dt

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_weekdays import (
    answer_days,
    named_week,
    named_weekdays,
    week_disagreement,
    weekday_disagreement,
)
from attention_zoo.applications.dates.reference import parse_reference
from attention_zoo.applications.dates.resolver import resolve

pytestmark = pytest.mark.backend_free

REFERENCE = "2026-01-15T09:00:00"  # a Thursday
WORDS = lexicon.load(), lexicon.load_days()
MON, TUE, FRI, SUN = 0, 1, 4, 6


@pytest.mark.parametrize(
    "text, named",
    [
        ("Monday 9am", {MON}),
        ("el lunes 3 de marzo", {MON}),
        ("周一上午9点", {MON}),  # an abbreviation in Han counts
        ("in 2 Wochen am Sonntag", {SUN}),
        ("Monday to Friday", {MON, FRI}),
        # Abbreviations in other scripts are other words too: minutes,
        # English "so", Spanish March.
        ("10 min ago", set()),
        ("so at 5", set()),
        ("15 mar 2015", set()),
        # Inside another table's phrase: a relative time (Indonesian's week
        # is its Sunday's name), a holiday, an ordinal (Vietnamese "thứ
        # hai", second and Monday).
        ("2 minggu lalu", set()),
        ("Easter Monday", set()),
        ("Chủ nhật thứ hai của tháng 5 năm 2023", {SUN}),
    ],
)
def test_the_weekdays_a_text_names(text, named):
    assert named_weekdays(text) == named


def test_the_days_an_answer_gives():
    assert answer_days("2026-01-15T09:00", "minute") == [dt.date(2026, 1, 15)]
    assert answer_days("2026-01-19/2026-01-23", "day") == [
        dt.date(2026, 1, 19),
        dt.date(2026, 1, 23),
    ]
    # A week, a month, a year give no day.
    assert answer_days("2026-01-19/2026-01-25", "week") == []
    assert answer_days("2015-03", "month") == answer_days("1987", "year") == []


def test_a_weekday_the_answer_does_not_fall_on_is_named_with_the_day():
    why = weekday_disagreement("Monday 9am", "2026-01-15T09:00", "minute")
    assert "MON" in why and "2026-01-15 a THU" in why
    assert weekday_disagreement("Monday 9am", "2026-01-19T09:00", "minute") == ""
    assert (
        weekday_disagreement("Monday to Friday", "2026-01-19/2026-01-23", "day") == ""
    )
    assert "TUE" in weekday_disagreement("Monday, Tuesday", "2026-01-19", "day")
    why = weekday_disagreement("Monday March 2015", "2015-03", "month")
    assert "MON" in why and "a month" in why
    assert weekday_disagreement("9am", "2026-01-15T09:00", "minute") == ""
    # A day of a year the policy picked: 3 March 2026 is a Tuesday.
    assert "MON" in weekday_disagreement("Monday, March 3", "2026-03-03", "day")


def _answer(text, form):
    ok = form_answers.form_checks(text, form, *WORDS)
    item = {"input": text, "text": form, "score": -0.1, "valid": ok, "reason": ""}
    moment = parse_reference(REFERENCE)
    return form_answers.answer(item, form, moment, "future", -1.0, lambda *a: "")


@pytest.mark.parametrize(
    "text, form, why",
    [
        ("Monday 9am", "time 09:00", "names a weekday ("),  # next 9:00, a Thursday
        ("Friday at 5pm", "shift day 0 at 17:00", "names a weekday ("),
        ("Montag um 9 Uhr", "shift day +1 at 09:00", "names a weekday ("),
        ("周一上午9点", "time 09:00", "names a weekday ("),
        ("Monday 12 December 2014", "date 2014-12-12", "names a weekday ("),  # a Friday
        # The week rule: the preset read these as this week's Friday and as
        # today's 10:00. (A weekday form of a text naming a week is refused
        # by the grounding too: its day is that week's, form_weeks.py.)
        ("下周五", "weekday FRI", "week 20"),
        ("下周二上午10点", "time 10:00", "week 20"),
        ("Friday next week", "weekday +1 FRI", "week 20"),  # the 16th, this week's
        ("上周一", "weekday -1 MON", "week 20"),  # the 12th, this week's Monday
        # The whole week drops the weekday (forms50 answered 下周五 so; a
        # weekday named apart from the week, "Friday next week", is
        # refused by the weekday rule first).
        ("下周五", "cycle week +1", "week 20"),
    ],
)
def test_an_answer_off_the_weekday_or_week_its_text_names_is_not_valid(text, form, why):
    got = _answer(text, form)
    assert not got["valid"] and got["text"] == ""
    assert "names a weekday" in got["reason"] and why in got["reason"], got["reason"]


@pytest.mark.parametrize(
    "text, form, value",
    [
        ("next Friday", "weekday +1 FRI", "2026-01-16"),
        ("Friday 12 December 2014", "date 2014-12-12", "2014-12-12"),
        ("Easter Monday 2021", "easter +1 2021", "2021-04-05"),
        ("Monday to Friday", "weekday MON / weekday FRI", "2026-01-19/2026-01-23"),
        # In the week the text names: that week's weekday (form_weeks.py).
        ("下周二", "week +1 TUE", "2026-01-20"),
        ("next week Monday", "week +1 MON", "2026-01-19"),
        ("来週の月曜日の午前9時", "week +1 MON at 09:00", "2026-01-19T09:00"),
        ("Friday last week", "week -1 FRI", "2026-01-09"),
    ],
)
def test_an_answer_on_the_weekdays_and_in_the_week_its_text_names_stays_valid(
    text, form, value
):
    got = _answer(text, form)
    assert got["valid"] and got["text"] == value, got["reason"]


def test_no_generated_text_is_refused(generated_pairs):
    # Every generated text that names a weekday (about 4,800 of 49,000),
    # its form resolved at its reference: the rule refuses none, so a run
    # that reads one right keeps its answer.
    # The week rule too, on the texts that name a weekday of one week.
    named = refused = 0
    for pairs in generated_pairs.values():
        for pair in pairs:
            if not named_weekdays(pair.text) and named_week(pair.text) is None:
                continue
            reference = dt.datetime.fromisoformat(pair.reference)
            resolution = resolve(pair.form, reference)
            assert resolution.valid, (pair.text, pair.form)
            named += 1
            why = weekday_disagreement(
                pair.text, resolution.text, resolution.grain
            ) or week_disagreement(
                pair.text, resolution.text, resolution.grain, reference.date()
            )
            refused += bool(why)
            assert not why, (pair.text, pair.form, resolution.text, why)
    assert named > 3000 and refused == 0


@pytest.mark.parametrize(
    "text, week",
    [
        ("下周五", 1),  # 下周 and 周五 share 周: the weekday counts
        ("下星期五", 1),
        ("上周一", -1),
        ("来週の金曜日", 1),
        ("다음 주 금요일", 1),
        ("Friday next week", 1),
        ("letzte Woche Montag", -1),
        ("Jumat minggu depan", 1),
        # No weekday, or one wholly inside the week's name (Indonesian's
        # week is its Sunday's name), or two weeks: no week.
        ("next week", None),
        ("minggu depan", None),
        ("Friday", None),
        ("this week's Monday to next week's Friday", None),
    ],
)
def test_the_week_whose_weekday_a_text_names(text, week):
    assert named_week(text) == week


def test_the_week_is_counted_from_the_references_own_day():
    # 23:30 UTC on Sunday the 18th is Monday the 19th in Tokyo: next week
    # is then the 26th's.
    why = week_disagreement("下周五", "2026-01-23", "day", dt.date(2026, 1, 19))
    assert "2026-01-26/2026-02-01" in why
    assert week_disagreement("下周五", "2026-01-23", "day", dt.date(2026, 1, 18)) == ""
