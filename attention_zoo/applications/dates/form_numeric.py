"""A day and a month both read from digits: a numeric date of the text,
read one way (`apart`), for the grounding of a date form (`form_grounding`).

The numbers of a date form ground one by one (`FormText.claim`), so a day
and a month written apart ("chapitre 12, verset 4") or a numeric date that
reads two ways (`03/04/2005`, the ambiguity rule of `readings`) would be
read as a day. With a year, the readings are `readings.written_readings`'.
Without one, `1/2` is the 1st of February or the 2nd of January: written
with a slash or a dash, a day and a month of 12 or less that differ are
ambiguous, and with dots only the day-first reading is written (`4.10.`,
Finnish; `7. 9.`, Czech: dots are day first, as `readings` reads them).
So two runs of digits with a dot after each (`12.04.`, `3.5.`) are that
day and month, no clock (`dotted_day`), unless a word of the clock stands
right before them (`klo 12.04.`, `um 12.04.`: `day_order.hour_words`).
And a minute written with one digit after a clock's separator is no
clock's (`one_digit_minute`: "3:2 ratio", "chapter 4.5"): every clock
writes its minutes with two, `3:02`, `21h05`; 3点5分 writes no separator.
"""

from __future__ import annotations

import re

from attention_zoo.applications.dates import day_order, readings
from attention_zoo.applications.dates.data import is_calendar_date

# One to three signs between a day and a month, no comma: `8,5` is a
# decimal ("nota 8,5"), no 8 May.
_SEPARATOR = r"[^\w,]{1,3}"
# A day and a month of no year, a dot after each (`12.04.`, `3. 5.`); not
# inside a longer run of dotted numbers (`1.12.04.`, `12.04.2015`).
_DOTTED = re.compile(r"(?<![0-9.])([0-9]{1,2}) ?\. ?([0-9]{1,2})\.(?![0-9])")
# The word right before a run, its abbreviation's dot allowed (`kl. 12.04.`).
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\.? ?$")
# An hour and a minute after a clock's separator (`:`, `.`), the minute's
# digits all there is of its run.
_SEPARATED = re.compile(r"(?<![0-9])([0-9]{1,2}) ?[:.：] ?([0-9]+)(?![0-9])")


def yearless_readings(written: str) -> set[str]:
    """The readings `--MM-DD` of two runs of digits side by side with no year
    (`written`: `1/2`, `4.10`, `12. 4.`): day-first and month-first, or, with
    a dot between, day-first only; those a leap year has."""
    first, between, second = re.fullmatch(r"0*([0-9]+)(\D+?)0*([0-9]+)", written).groups()
    orders = [(first, second)] if "." in between else [(first, second), (second, first)]
    return {
        f"--{int(m):02d}-{int(d):02d}"
        for d, m in orders
        if is_calendar_date(f"2000-{int(m):02d}-{int(d):02d}")
    }


def apart(t, day: int, month: int, year: int | None = None) -> str:
    """Why a day and a month both read from digits of `t` (a `FormText`)
    are no numeric date: no runs of them side by side, only a sign between
    and no comma ("chapitre 12, verset 4" is no 12 April, nor "nota 8,5" 8
    May; `12/4`, `12. 4.` are), or a numeric date that reads two ways
    (`12/09/2018` beside a time: the ambiguity rule of `readings`, as for a
    date alone; `1/2` with no year) or not the form's way (`2.1` is the
    2nd of January), unless the word joining the time is of a language that
    writes the day first and the form reads it so (`12/09/2018 à 20:00`:
    `form_words.day_first_joiners`). Not checked in an interval, whose
    ends may share the month (`1.–6. 7. 2008`), nor where a month word
    names the month."""
    if t.months or t.interval or not {day, month} <= t.numbers:
        return ""
    a, b = (rf"(?<![0-9])0*{n}(?![0-9])" for n in (day, month))
    day_first = re.search(rf"{a}{_SEPARATOR}{b}", t.text)
    month_first = re.search(rf"{b}{_SEPARATOR}{a}", t.text)
    if not day_first and not month_first:
        return f"the text writes the day {day} and the month {month} apart (no numeric date)"
    if year is None:
        date = f"--{month:02d}-{day:02d}"
        written = [yearless_readings((day_first or month_first)[0].strip())]
    else:
        date = f"{year:04d}-{month:02d}-{day:02d}"
        written = readings.written_readings(t.text)
    for found in written:
        if date in found and len(found) > 1 or year is None and date not in found:
            if day_first and t.found(t.table("day_first_joiners")):
                return ""
            return readings.disagreement(found, date)  # "ambiguous: ..."
    return ""


def no_clock(t, hour: int, minute: int) -> str:
    """Why a clock of `hour`:`minute` is no reading of `t`'s digits
    (`dotted_day`, `one_digit_minute`), or ""."""
    return dotted_day(t, hour, minute) or one_digit_minute(t, hour, minute)


def one_digit_minute(t, hour: int, minute: int) -> str:
    """Why `t` (a `FormText`) writes no clock of `hour`:`minute`: each time
    it writes the hour, a separator and the minute, the minute is one digit
    ("3:2" is no 03:02); "" where one writes two or none is written so."""
    hours = {hour, hour % 12, hour % 12 or 12}
    found = [
        m[2] for m in _SEPARATED.finditer(t.text)
        if int(m[1]) in hours and int(m[2]) == minute
    ]  # fmt: skip
    if found and all(len(digits) == 1 for digits in found):
        return f"the text writes the minute {found[0]!r} with one digit, as no clock does"
    return ""


def dotted_day(t, hour: int, minute: int) -> str:
    """Why a clock of `hour`:`minute` is no reading of `t` (a `FormText`)
    that writes them as a day and a month, a dot after each (`12.04.` is
    12 April, no 12:04; `am 12.04.`, German's "on the", no 00:04 either),
    "" where it does not or a word of the clock comes first (`klo 12.04.`)."""
    hours = {hour, hour % 12, hour % 12 or 12}
    clock = day_order.hour_words(t.languages)
    for m in _DOTTED.finditer(t.text):
        day, month = int(m[1]), int(m[2])
        word = _WORD_BEFORE.search(t.text, 0, m.start())
        if day in hours and month == minute and not (word and word[1] in clock):
            if is_calendar_date(f"2000-{month:02d}-{day:02d}"):
                return (
                    f"the text writes {m[0]!r} as a day and a month "
                    f"(--{month:02d}-{day:02d}), no clock"
                )
    return ""
