"""The parser of the form grammar (`forms.py`): exactly the grammar, nothing else.

`parse_form(text)` returns the form `text` writes or raises `FormError`
with the reason and the offending token, so that a model's output outside
the grammar is refused with a reason (`resolver.resolve` turns it into an
answer that is not valid). It accepts only the one way to write each
form (one space between tokens, `0` or a signed number, two-digit fields),
so `str(parse_form(text)) == text` for every text it accepts.
"""

from __future__ import annotations

import calendar
import dataclasses
import re

from attention_zoo.applications.dates.forms import (
    CYCLE_UNITS,
    SHIFT_UNITS,
    WEEKDAYS,
    ZONES,
    At,
    Clock,
    Cycle,
    Date,
    DateTime,
    Easter,
    Form,
    FormError,
    Interval,
    Month,
    Nth,
    Point,
    Shift,
    Time,
    Weekday,
    Year,
    YearForm,
    full_year,
)

_ZONE_SET = frozenset(ZONES)


_SELECT = re.compile(r"0|[+-][1-9][0-9]?")
_AMOUNT = re.compile(r"0|[+-][1-9][0-9]{0,5}")
_EASTER_DAYS = re.compile(r"0|[+-][1-9][0-9]{0,2}")
_NTH = re.compile(r"-?[1-5]")
_YEAR = r"(?:[0-9]{4}|'[0-9]{2})"
_DATE = re.compile(rf"({_YEAR}|-)-([0-9]{{2}})-([0-9]{{2}})")
_MONTH = re.compile(rf"({_YEAR}|-)-([0-9]{{2}})")
_CLOCK = re.compile(
    r"([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?(Z|[+-][0-9]{2}:[0-9]{2}|\[[A-Za-z_/]+\])?"
)


def _year(text: str, token: str) -> Year | None:
    if text == "-":
        return None
    if text.startswith("'"):
        return Year(int(text[1:]), short=True)
    if text == "0000":
        raise FormError("year 0 is no year (years are 0001-9999)", token)
    return Year(int(text))


def _check_month(month: int, token: str) -> int:
    if not 1 <= month <= 12:
        raise FormError(f"month {month:02d} is no month (01-12)", token)
    return month


def _date(token: str, *, open_year: bool) -> Date:
    match = _DATE.fullmatch(token)
    if not match:
        raise FormError(
            "expected a date YYYY-MM-DD" + (" or --MM-DD" if open_year else ""), token
        )
    year = _year(match[1], token)
    if year is None and not open_year:
        raise FormError("a date-time writes its year", token)
    month, day = _check_month(int(match[2]), token), int(match[3])
    # With the year open, 02-29 is a day (of leap years); with a two-digit
    # year the window is fixed, so the calendar can be asked here too.
    full = 2000 if year is None else full_year(year)
    if not 1 <= day <= calendar.monthrange(full, month)[1]:
        where = "" if year is None else f" of {full:04d}"
        raise FormError(
            f"day {day:02d} is not a day of month {month:02d}{where}", token
        )
    return Date(month, day, year)


def _month(token: str) -> tuple[Year | None, int]:
    match = _MONTH.fullmatch(token)
    if not match:
        raise FormError("expected a month YYYY-MM or --MM", token)
    return _year(match[1], token), _check_month(int(match[2]), token)


def _clock(token: str) -> Clock:
    match = _CLOCK.fullmatch(token)
    if not match:
        raise FormError(
            "expected a time HH:MM or HH:MM:SS, then Z, +HH:MM or [Zone/Name]", token
        )
    hour, minute = int(match[1]), int(match[2])
    second = None if match[3] is None else int(match[3])
    if hour > 23 or minute > 59 or (second is not None and second > 59):
        raise FormError("no such time of day (00:00-23:59:59)", token)
    zone = match[4]
    if zone is not None and zone.startswith("["):
        zone = zone[1:-1]
        if zone not in _ZONE_SET:
            raise FormError(f"zone {zone!r} is not in forms.ZONES", token)
    elif zone not in (None, "Z"):
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 14 or minutes > 59 or (hours == 14 and minutes) or zone == "-00:00":
            raise FormError(
                "no such offset (-14:00 to +14:00; -00:00 is not one)", token
            )
    return Clock(hour, minute, second, zone)


def _number(pattern: re.Pattern, token: str, what: str) -> int:
    if not pattern.fullmatch(token):
        raise FormError(f"expected {what}", token)
    return int(token)


def _weekday(token: str) -> int:
    if token not in WEEKDAYS:
        raise FormError("expected a weekday " + "|".join(WEEKDAYS), token)
    return WEEKDAYS.index(token)


class _Tokens:
    """The tokens of one point, consumed left to right."""

    def __init__(self, tokens: list[str], keyword: str):
        self.items, self.at, self.keyword = tokens, 0, keyword

    def next(self, what: str) -> str:
        if self.at >= len(self.items):
            raise FormError(f"{self.keyword} is missing {what}", self.keyword)
        self.at += 1
        return self.items[self.at - 1]

    def peek(self) -> str | None:
        return self.items[self.at] if self.at < len(self.items) else None

    def optional_select(self) -> int | None:
        token = self.peek()
        if (
            token is not None
            and _SELECT.fullmatch(token)
            and self.at + 1 < len(self.items)
        ):
            self.at += 1
            return int(token)
        return None

    def done(self) -> None:
        if self.at < len(self.items):
            raise FormError(
                f"unexpected token after the {self.keyword} form", self.items[self.at]
            )


def _open_select(select: int | None, year: Year | None, token: str) -> None:
    if select is not None and year is not None:
        raise FormError(
            "a selector (-1, 0, +1) goes with an open year (--MM) only", token
        )


def _parse_date(t: _Tokens) -> Date:
    select = t.optional_select()
    token = t.next("a date")
    date = _date(token, open_year=True)
    _open_select(select, date.year, token)
    return dataclasses.replace(date, select=select)


def _parse_month(t: _Tokens) -> Month:
    select = t.optional_select()
    token = t.next("a month")
    year, month = _month(token)
    _open_select(select, year, token)
    return Month(month, year, select)


def _parse_year(t: _Tokens) -> YearForm:
    token = t.next("a year")
    if not re.fullmatch(_YEAR, token):
        raise FormError("expected a year YYYY or 'YY", token)
    return YearForm(_year(token, token))


def _parse_datetime(t: _Tokens) -> DateTime:
    token = t.next("a date-time")
    day, tee, clock = token.partition("T")
    # An empty side is named by the whole token: a reason names a token of
    # the text, never "".
    if not (tee and day and clock):
        raise FormError("expected a date-time YYYY-MM-DDTHH:MM", token)
    return DateTime(_date(day, open_year=False), _clock(clock))


def _parse_shift(t: _Tokens) -> Shift:
    steps, last = [], -1
    while True:
        unit = t.next("a unit " + "|".join(SHIFT_UNITS))
        if unit not in SHIFT_UNITS:
            raise FormError("expected a unit " + "|".join(SHIFT_UNITS), unit)
        if SHIFT_UNITS.index(unit) <= last:
            raise FormError("units go largest first, each once", unit)
        last = SHIFT_UNITS.index(unit)
        steps.append(
            (unit, _number(_AMOUNT, t.next("an amount"), "an amount 0, +N or -N"))
        )
        if t.peek() is None:
            return Shift(tuple(steps))


def _parse_cycle(t: _Tokens) -> Cycle:
    unit = t.next("a unit")
    if unit not in CYCLE_UNITS:
        raise FormError("expected a unit " + "|".join(CYCLE_UNITS), unit)
    return Cycle(unit, _number(_SELECT, t.next("a selector"), "a selector 0, +N or -N"))


def _parse_weekday(t: _Tokens) -> Weekday:
    select = t.optional_select()
    return Weekday(_weekday(t.next("a weekday")), select)


def _parse_week(t: _Tokens) -> Weekday:
    token = t.next("a week +N or -N")
    week = _number(_SELECT, token, "a week +N or -N")
    if week == 0:  # one way to write each form
        raise FormError("this week's weekday is `weekday 0 DOW`, not `week 0`", token)
    return Weekday(_weekday(t.next("a weekday")), week=week)


def _parse_nth(t: _Tokens) -> Nth:
    n = _number(_NTH, t.next("a rank"), "a rank 1..5 or -1..-5")
    weekday = _weekday(t.next("a weekday"))
    year, month = _month(t.next("a month"))
    return Nth(n, weekday, month, year)


def _parse_easter(t: _Tokens, orthodox: bool) -> Easter:
    days = _number(
        _EASTER_DAYS, t.next("days from Easter"), "days from Easter: 0, +N or -N"
    )
    token = t.peek()
    year = None
    if token is not None:
        if not re.fullmatch(_YEAR, token):
            raise FormError("expected a year YYYY or 'YY", token)
        year = _year(t.next("a year"), token)
    return Easter(days, year, orthodox)


_POINTS = {
    "date": _parse_date,
    "month": _parse_month,
    "year": _parse_year,
    "time": lambda t: Time(_clock(t.next("a time"))),
    "datetime": _parse_datetime,
    "shift": _parse_shift,
    "cycle": _parse_cycle,
    "weekday": _parse_weekday,
    "week": _parse_week,
    "nth": _parse_nth,
    "easter": lambda t: _parse_easter(t, False),
    "orthodox-easter": lambda t: _parse_easter(t, True),
}
# The forms that name a day, which ` at HH:MM` may follow.
_DAY_FORMS = (Date, Weekday, Nth, Easter)
_TIME_UNITS = frozenset(("hour", "minute", "second"))


def _parse_point(tokens: list[str]) -> Point:
    if not tokens:
        raise FormError("an interval end is empty", "/")
    keyword, rest = tokens[0], tokens[1:]
    if keyword not in _POINTS:
        raise FormError("expected a form keyword " + "|".join(_POINTS), keyword)
    clock = None
    if "at" in rest:
        where = rest.index("at")
        if where != len(rest) - 2:
            raise FormError("`at` is followed by one time and ends the form", "at")
        clock, rest = _clock(rest[-1]), rest[:where]
    t = _Tokens(rest, keyword)
    point = _POINTS[keyword](t)
    t.done()
    if clock is None:
        return point
    day_form = isinstance(point, _DAY_FORMS) or (
        isinstance(point, Shift)
        and not any(unit in _TIME_UNITS for unit, _ in point.steps)
    )
    if not day_form:
        raise FormError(
            f"`at` follows a day form (date, weekday, nth, easter, shift by days), not {keyword}",
            "at",
        )
    return At(point, clock)


def parse_form(text: str) -> Form:
    """The form `text` writes, or `FormError` naming the offending token.

    Example:

    >>> str(parse_form("shift day +1 at 17:00"))
    'shift day +1 at 17:00'
    >>> parse_form("weekday +1 FRIDAY")
    Traceback (most recent call last):
    ...
    attention_zoo.applications.dates.forms.FormError: expected a weekday MON|TUE|WED|THU|FRI|SAT|SUN: 'FRIDAY'
    """
    if not isinstance(text, str):
        raise FormError("a form is a string", repr(type(text).__name__))
    bad = next((c for c in text if not " " <= c <= "~"), None)
    if bad is not None:
        token = next(tok for tok in text.split(" ") if bad in tok)
        raise FormError(f"a form is printable ASCII, not {bad!r}", token)
    if not text:
        raise FormError("a form is not empty", text)
    tokens = text.split(" ")
    if "" in tokens:
        where = tokens.index("")
        at = sum(len(tok) + 1 for tok in tokens[:where])
        raise FormError(
            f"tokens are separated by one space, none at either end (an empty token at character {at})",
            text,
        )
    if tokens.count("/") > 1:
        raise FormError("an interval has one `/`", "/")
    if "/" in tokens:
        where = tokens.index("/")
        return Interval(_parse_point(tokens[:where]), _parse_point(tokens[where + 1 :]))
    return _parse_point(tokens)
