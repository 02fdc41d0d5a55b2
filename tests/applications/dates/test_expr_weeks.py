"""The generated weekdays of a named week (`expr_weeks.py`)."""

import datetime as dt

from attention_zoo.applications.dates import expr_weeks
from attention_zoo.applications.dates.forms import WEEKDAYS


def test_the_weekday_of_a_week_is_counted_from_the_references_monday():
    thursday = dt.date(2026, 1, 15)
    assert expr_weeks.week_day(thursday, 1, 4) == dt.date(2026, 1, 23)  # Friday next week
    assert expr_weeks.week_day(thursday, -1, 0) == dt.date(2026, 1, 5)  # Monday last week
    sunday = dt.date(2026, 1, 18)  # the ISO week ends on Sunday
    assert expr_weeks.week_day(sunday, 1, 0) == dt.date(2026, 1, 19)


def _forms(language):
    return {p.text: p.form for p in expr_weeks.weeks(language) if p.kind == "week"}


def test_cldr_texts_and_both_orders_are_written():
    english = _forms("en")
    assert english["Friday next week"] == "week +1 FRI"
    assert english["next week Friday"] == "week +1 FRI"
    assert english["Monday of last week"] == "week -1 MON"  # hand-written `weeks`
    assert _forms("zh")["下周五"] == "week +1 FRI"
    assert _forms("ja")["来週の金曜日"] == "week +1 FRI"


def test_a_weekday_whose_name_holds_the_weeks_text_names_no_week():
    # Hungarian "előző hétfő" (last Monday) holds "előző hét" (last week).
    assert "előző hétfő" not in _forms("hu")
    assert "Minggu lalu" not in _forms("id")  # last Sunday, "minggu lalu" last week


def test_each_value_is_that_weekday_of_that_week():
    for pair in expr_weeks.weeks("de"):
        reference = dt.date.fromisoformat(pair.reference[:10])
        week, name = pair.form.split(" ")[1:3]
        day = dt.date.fromisoformat(pair.value[:10])
        assert day == expr_weeks.week_day(reference, int(week), day.weekday())
        assert WEEKDAYS[day.weekday()] == name
