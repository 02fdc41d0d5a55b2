"""A day with its part of the day is no whole day (form_day_parts.py):
"last night", "tonight", "esta tarde", 今晚 alone make no answer; with
the time of that day they keep theirs."""

import pytest

from attention_zoo.applications.dates.form_answers import answer
from attention_zoo.applications.dates.form_day_parts import (
    clock_numbers,
    part_of_day_disagreement,
)
from attention_zoo.applications.dates.reference import parse_reference
from attention_zoo.applications.dates.resolver import resolve

pytestmark = pytest.mark.backend_free

MOMENT = parse_reference("2026-01-15T09:00:00")


@pytest.mark.parametrize(
    "text, form, part",
    [
        ("last night", "shift day -1", "last night"),
        ("Last night", "shift day -1", "last night"),
        ("tonight", "shift day 0", "tonight"),
        ("this morning", "shift day 0", "this morning"),
        ("tomorrow evening", "shift day +1", "tomorrow evening"),
        ("anoche", "shift day -1", "anoche"),
        ("esta tarde", "shift day 0", "esta tarde"),
        ("hier soir", "shift day -1", "hier soir"),
        ("heute Abend", "shift day 0", "heute abend"),
        ("вчера вечером", "shift day -1", "вчера вечером"),
        ("今晚", "shift day 0", "今晚"),
        ("昨夜", "shift day -1", "昨夜"),
        # A coarser grain is no better: a week of "last night" is not it.
        ("last night", "cycle week 0", "last night"),
    ],
)
def test_a_day_part_alone_makes_no_answer(text, form, part):
    out = answer(
        {"input": text, "score": 0.0, "valid": True}, form, MOMENT, "future", -1.0, None
    )
    assert (out["valid"], out["text"]) == (False, ""), out
    assert f"the text writes {part!r}, a part of a day" in out["reason"]


@pytest.mark.parametrize(
    "text, form",
    [
        # "midi" (noon) inside "après-midi" (afternoon) is no time of it.
        ("demain après-midi", "shift day +1 at 12:00"),
        ("hier après-midi", "shift day -1 at 12:00"),
        ("tonight", "shift day 0 at 20:00"),
    ],
)
def test_a_time_written_only_inside_the_parts_name_makes_no_answer(text, form):
    out = answer(
        {"input": text, "score": 0.0, "valid": True}, form, MOMENT, "future", -1.0, None
    )
    assert (out["valid"], out["text"]) == (False, ""), out
    assert (
        "a part of a day, and not the answer's hour outside its name" in out["reason"]
    )


@pytest.mark.parametrize(
    "text, form, value",
    [
        ("last night at 11", "shift day -1 at 23:00", "2026-01-14T23:00"),
        ("tonight at 8", "shift day 0 at 20:00", "2026-01-15T20:00"),
        ("tomorrow morning at 9:30", "shift day +1 at 09:30", "2026-01-16T09:30"),
        ("今晚8点", "shift day 0 at 20:00", "2026-01-15T20:00"),
        ("今晚八点", "shift day 0 at 20:00", "2026-01-15T20:00"),
        ("demain après-midi à 15h", "shift day +1 at 15:00", "2026-01-16T15:00"),
        ("yesterday", "shift day -1", "2026-01-14"),  # no part of the day
        ("tomorrow", "shift day +1", "2026-01-16"),
        ("night of 3 May 2015", "date 2015-05-03", "2015-05-03"),  # "night" alone
    ],
)
def test_a_time_of_that_day_or_no_part_keeps_the_answer(text, form, value):
    out = answer(
        {"input": text, "score": 0.0, "valid": True}, form, MOMENT, "future", -1.0, None
    )
    assert (out["valid"], out["text"], out["reason"]) == (True, value, ""), out


def test_every_grain_with_a_time_is_kept_and_every_other_refused():
    for grain in ("hour", "minute", "second"):
        value = "2026-01-14T23:00" + (":00" if grain == "second" else "")
        assert part_of_day_disagreement("last night at 11", grain, value) == ""
        assert part_of_day_disagreement("last night", grain, value)
    # A word of noon or midnight outside the part's name is its time (the
    # midnight of a day by name is refused elsewhere: form_midnight).
    assert (
        part_of_day_disagreement("tonight at midnight", "minute", "2026-01-16T00:00")
        == ""
    )
    assert (
        part_of_day_disagreement(
            "tomorrow morning at noon", "minute", "2026-01-16T12:00"
        )
        == ""
    )


@pytest.mark.parametrize(
    "text, value, kept",
    [
        ("tonight at 8", "2026-01-15T20:00", True),  # the 12-hour clock's 8
        ("tonight at 20:30", "2026-01-15T20:30", True),
        ("ce soir à 20h", "2026-01-15T20:00", True),
        ("tonight at 12", "2026-01-16T00:00", True),  # 0 is 12 on a 12-hour clock
        ("tonight from 8 to 10", "2026-01-15T20:00/2026-01-15T22:00", True),
        # A number outside the name that is not the answer's hour.
        ("demain après-midi pour 2 personnes", "2026-01-16T12:00", False),
        ("tomorrow night, room 4", "2026-01-16T20:00", False),
        ("tonight at 9", "2026-01-15T20:00", False),
    ],
)
def test_the_answers_hour_must_be_written_outside_the_parts_name(text, value, kept):
    reason = part_of_day_disagreement(text, "minute", value)
    assert (reason == "") is kept, reason


def test_an_hour_out_of_the_clock_is_refused_by_name():
    with pytest.raises(ValueError, match="hour must be in 0-23. Received: hour=24"):
        clock_numbers(24)
    for grain in ("day", "week", "month", "year"):
        assert part_of_day_disagreement("last night", grain)


def resolved(pair) -> tuple[str, str]:
    value = resolve(pair.form, pair.reference)
    return value.grain, value.text


def test_no_generated_pair_is_refused(generated_pairs):
    refused = [
        (p.text, p.form)
        for pairs in generated_pairs.values()
        for p in pairs
        if part_of_day_disagreement(p.text, *resolved(p))
    ]
    assert refused == []
