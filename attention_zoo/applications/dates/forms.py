"""The form a time expression is read into: a small grammar, checked.

The network reads language and writes one of these forms;
`form_parser.parse_form` checks it and `resolver.resolve` does the calendar
arithmetic against a reference date-time. A form is ASCII, its tokens separated by one space, with no
space at either end, so every accepted text is the one way to write its
form (`str(parse_form(text)) == text`):

    date 1979-05-03          a day                 ("3 May 1979")
    date '79-05-03           a two-digit year      ("3/5/79"; the resolver's window)
    date --05-03             a day, year left open ("3 May"; the policy picks it)
    date -1 --12-25          the latest before the reference ("last Christmas")
    month 2015-03            a month               ("March 2015")
    month --03               a month, year open    ("March")
    month -1 --03            ("last March"; +1 next, 0 this year's)
    year 1987                a year                ("1987"; `year '87`)
    time 17:30               a time                ("5:30 pm"; the policy picks the day)
    time 08:25:10Z           with seconds, a zone  (`Z`, `+01:00`, `[Europe/Paris]`)
    datetime 2014-12-12T08:25-05:00                ("8:25 a.m. EST Dec. 12, 2014")
    shift day -1             the reference moved   ("yesterday"; `shift day 0`: today)
    shift week -1 day -2     units largest first   ("a week and two days ago")
    cycle week +1            a week, month or year ("next week"; 0 this, -1 last)
    weekday FRI              a weekday             ("Friday"; the policy picks it)
    weekday +1 FRI           the first after the reference day ("next Friday")
    week +1 FRI              of the week after the reference's ("Friday next week")
    nth 3 TUE 2014-09        ("third Tuesday of September 2014"; -1: the last)
    nth -1 SUN --03          ("last Sunday of March"; the policy picks the year)
    easter +1 2021           days from Easter Sunday ("Easter Monday 2021")
    easter -2                ("Good Friday"; the policy picks the year)
    orthodox-easter 0 2021   Orthodox Easter (the Julian computus)
    shift day +1 at 17:00    a day form, then a time ("tomorrow at 5 pm")
    date 1979-05-03 / date 1979-05-07   an interval, both ends written in full

A zone is `Z`, an offset `+HH:MM` / `-HH:MM` (as ISO 8601 attaches it),
or a name of `ZONES` in brackets (as RFC 9557 attaches it:
`17:30[Europe/Paris]`); an abbreviation ("CET", "EST") is language the
model reads into its offset. Selectors (`-1`, `0`, `+1`) and amounts are
`0` or signed, without leading zeros. Everything a form writes without a
reference is checked here (`date 2001-02-29` is no form); what needs the
reference or arithmetic (a fifth Tuesday, a year past 9999) is the
resolver's. docs/dates.md states the grammar and the resolver's rules.
"""

from __future__ import annotations

import dataclasses

from attention_zoo.applications.dates.readings import expand_year

WEEKDAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
# "Now" ("jetzt", "сейчас"): the reference itself, moved by nothing.
NOW = "shift second 0"
SHIFT_UNITS = ("year", "month", "week", "day", "hour", "minute", "second")
CYCLE_UNITS = ("year", "month", "week")
# The zone names a form may write: the capitals and largest zones of the
# countries whose languages the dates application reads, and the main
# zones of North America and Oceania. Closed, so that a form's meaning does
# not depend on which tz database a machine has (tests load each).
ZONES = (
    "UTC",
    "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Madrid",
    "Europe/Paris", "Europe/Brussels", "Europe/Amsterdam", "Europe/Berlin",
    "Europe/Zurich", "Europe/Vienna", "Europe/Rome", "Europe/Copenhagen",
    "Europe/Oslo", "Europe/Stockholm", "Europe/Helsinki", "Europe/Warsaw",
    "Europe/Prague", "Europe/Budapest", "Europe/Bucharest", "Europe/Athens",
    "Europe/Istanbul", "Europe/Kyiv", "Europe/Moscow",
    "Asia/Jerusalem", "Asia/Riyadh", "Asia/Dubai", "Africa/Cairo",
    "Asia/Kolkata", "Asia/Jakarta", "Asia/Ho_Chi_Minh", "Asia/Shanghai",
    "Asia/Hong_Kong", "Asia/Taipei", "Asia/Seoul", "Asia/Tokyo",
    "America/New_York", "America/Chicago", "America/Denver",
    "America/Los_Angeles", "America/Anchorage", "Pacific/Honolulu",
    "America/Toronto", "America/Mexico_City", "America/Bogota",
    "America/Sao_Paulo", "America/Argentina/Buenos_Aires",
    "Australia/Sydney", "Pacific/Auckland",
)  # fmt: skip
_ZONE_SET = frozenset(ZONES)


class FormError(ValueError):
    """A text outside the grammar: `reason` says why, `token` names where."""

    def __init__(self, reason: str, token: str):
        self.reason, self.token = reason, token
        super().__init__(f"{reason}: {_quote(token)}")


def _quote(token: str) -> str:
    return repr(token if len(token) <= 80 else token[:77] + "...")


# --- the values a form writes -------------------------------------------


@dataclasses.dataclass(frozen=True)
class Year:
    """A written year: four digits (1-9999), or two (`short`) for the window."""

    value: int
    short: bool = False

    def __str__(self) -> str:
        return f"'{self.value:02d}" if self.short else f"{self.value:04d}"


@dataclasses.dataclass(frozen=True)
class Clock:
    """A time of day; `second` None when not written; `zone` as written."""

    hour: int
    minute: int
    second: int | None = None
    zone: str | None = None  # "Z", "+01:00", or a name of ZONES

    def __str__(self) -> str:
        text = f"{self.hour:02d}:{self.minute:02d}"
        if self.second is not None:
            text += f":{self.second:02d}"
        if self.zone is None:
            return text
        return text + (f"[{self.zone}]" if self.zone in _ZONE_SET else self.zone)


def full_year(year: Year) -> int:
    """The year a written year means: two digits by the window of `readings`."""
    return expand_year(f"{year.value:02d}") if year.short else year.value


def _signed(value: int) -> str:
    return "0" if value == 0 else f"{value:+d}"


def _open_or_year(year: Year | None, month: int, day: int | None = None) -> str:
    head = "--" if year is None else f"{year}-"
    return head + f"{month:02d}" + ("" if day is None else f"-{day:02d}")


# --- the forms ----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Date:
    """`date YYYY-MM-DD`, or `date [SELECT] --MM-DD` with the year open."""

    month: int
    day: int
    year: Year | None = None
    select: int | None = None  # only with the year open

    def __str__(self) -> str:
        sel = "" if self.select is None else _signed(self.select) + " "
        return f"date {sel}{_open_or_year(self.year, self.month, self.day)}"


@dataclasses.dataclass(frozen=True)
class Month:
    """`month YYYY-MM`, or `month [SELECT] --MM` with the year open."""

    month: int
    year: Year | None = None
    select: int | None = None

    def __str__(self) -> str:
        sel = "" if self.select is None else _signed(self.select) + " "
        return f"month {sel}{_open_or_year(self.year, self.month)}"


@dataclasses.dataclass(frozen=True)
class YearForm:
    """`year YYYY`."""

    year: Year

    def __str__(self) -> str:
        return f"year {self.year}"


@dataclasses.dataclass(frozen=True)
class Time:
    """`time HH:MM[:SS][ZONE]`: the policy picks the day."""

    clock: Clock

    def __str__(self) -> str:
        return f"time {self.clock}"


@dataclasses.dataclass(frozen=True)
class DateTime:
    """`datetime YYYY-MM-DDTHH:MM[:SS][ZONE]`."""

    date: Date
    clock: Clock

    def __str__(self) -> str:
        return f"datetime {_open_or_year(self.date.year, self.date.month, self.date.day)}T{self.clock}"


@dataclasses.dataclass(frozen=True)
class Shift:
    """`shift UNIT AMOUNT [UNIT AMOUNT ...]`: units largest first, once each."""

    steps: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return "shift " + " ".join(f"{unit} {_signed(n)}" for unit, n in self.steps)


@dataclasses.dataclass(frozen=True)
class Cycle:
    """`cycle UNIT SELECT`: the reference's week, month or year, or one near it."""

    unit: str
    select: int

    def __str__(self) -> str:
        return f"cycle {self.unit} {_signed(self.select)}"


@dataclasses.dataclass(frozen=True)
class Weekday:
    """`weekday [SELECT] DOW`, or `week K DOW`: that weekday of the ISO week
    `K` weeks from the reference's (K not 0: this week's is `weekday 0`)."""

    weekday: int  # 0 = Monday, as datetime.date.weekday
    select: int | None = None
    week: int | None = None  # with no selector

    def __str__(self) -> str:
        if self.week is not None:
            return f"week {_signed(self.week)} {WEEKDAYS[self.weekday]}"
        sel = "" if self.select is None else _signed(self.select) + " "
        return f"weekday {sel}{WEEKDAYS[self.weekday]}"


@dataclasses.dataclass(frozen=True)
class Nth:
    """`nth N DOW YYYY-MM` or `nth N DOW --MM`: N in 1..5, -1..-5 (from the end)."""

    n: int
    weekday: int
    month: int
    year: Year | None = None

    def __str__(self) -> str:
        return f"nth {self.n} {WEEKDAYS[self.weekday]} {_open_or_year(self.year, self.month)}"


@dataclasses.dataclass(frozen=True)
class Easter:
    """`easter DAYS [YYYY]` / `orthodox-easter DAYS [YYYY]`: days from Easter Sunday."""

    days: int
    year: Year | None = None
    orthodox: bool = False

    def __str__(self) -> str:
        head = "orthodox-easter" if self.orthodox else "easter"
        return f"{head} {_signed(self.days)}" + (
            "" if self.year is None else f" {self.year}"
        )


@dataclasses.dataclass(frozen=True)
class At:
    """`DAYFORM at HH:MM[:SS][ZONE]`: a day form, then a time on that day."""

    day: Date | Weekday | Nth | Easter | Shift
    clock: Clock

    def __str__(self) -> str:
        return f"{self.day} at {self.clock}"


@dataclasses.dataclass(frozen=True)
class Interval:
    """`START / END`: both ends written in full, both inclusive."""

    start: Point
    end: Point

    def __str__(self) -> str:
        return f"{self.start} / {self.end}"


Point = (
    Date
    | Month
    | YearForm
    | Time
    | DateTime
    | Shift
    | Cycle
    | Weekday
    | Nth
    | Easter
    | At
)
Form = Point | Interval


def relative_part(form) -> bool:
    """Whether `form` (or an end, or its day) is read against the reference
    by a word: a shift, a cycle, a selector (`weekday +1 FRI`, `date -1 --12-25`)."""
    if isinstance(form, Interval):
        return relative_part(form.start) or relative_part(form.end)
    if isinstance(form, At):
        return relative_part(form.day)
    if isinstance(form, Weekday) and form.week is not None:
        return True
    return isinstance(form, (Shift, Cycle)) or getattr(form, "select", None) is not None


def has_clock(form) -> bool:
    """Whether `form` (or an end) writes a time of day."""
    ends = (form.start, form.end) if isinstance(form, Interval) else (form,)
    return any(isinstance(end, (Time, DateTime, At)) for end in ends)
