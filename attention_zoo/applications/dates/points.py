"""One point form resolved against a reference: the calendar arithmetic.

`PointResolver(reference, prefer).point(form)` gives a `Value` for every
form but an interval (`resolver.py` joins two ends and states the rules);
it raises `Refused` with the reason when the form has no answer against
this reference (a fifth Tuesday, a year past 9999).
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
import zoneinfo
from collections.abc import Callable

from attention_zoo.applications.dates import holidays
from attention_zoo.applications.dates.forms import (
    WEEKDAYS,
    At,
    Clock,
    Cycle,
    Date,
    DateTime,
    Easter,
    Month,
    Nth,
    Shift,
    Time,
    Weekday,
    Year,
    YearForm,
    full_year,
)

OUT_OF_RANGE = "the answer falls outside the years 1-9999"


class Refused(Exception):
    """A form that has no answer against this reference; the reason says why."""


@dataclasses.dataclass(frozen=True)
class Value:
    kind: str
    value: object  # date, (year, month), year, datetime (aware iff zone written)
    grain: str
    parts: dict
    text: str


def _zone_of(clock: Clock) -> dt.tzinfo | None:
    if clock.zone is None:
        return None
    if clock.zone == "Z":
        return dt.timezone.utc
    if clock.zone[0] in "+-":
        sign = -1 if clock.zone[0] == "-" else 1
        hours, minutes = int(clock.zone[1:3]), int(clock.zone[4:6])
        return dt.timezone(sign * dt.timedelta(hours=hours, minutes=minutes))
    try:
        return zoneinfo.ZoneInfo(clock.zone)
    except (zoneinfo.ZoneInfoNotFoundError, OSError):
        raise Refused(
            f"the time zone {clock.zone} is not in this machine's tz database"
        ) from None


def _offset_text(offset: dt.timedelta) -> str:
    """`+01:00` (`+00:09:21` for a local mean time of before 1900, as isoformat writes it)."""
    sign, seconds = ("-", -offset) if offset < dt.timedelta(0) else ("+", offset)
    hours, rest = divmod(int(seconds.total_seconds()), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if secs else "")


def _datetime_value(moment: dt.datetime, clock: Clock, parts: dict) -> Value:
    """A date-time at the clock's grain, with the offset only when the clock writes a zone."""
    spec = "minutes" if clock.second is None else "seconds"
    text = moment.replace(tzinfo=None).isoformat(timespec=spec)
    if clock.zone == "Z":
        text += "Z"
    elif clock.zone is not None:
        text += _offset_text(moment.utcoffset())
    grain = "minute" if clock.second is None else "second"
    return Value("datetime", moment, grain, parts, text)


def _date_value(day: dt.date, parts: dict) -> Value:
    return Value("date", day, "day", parts, day.isoformat())


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    if not 1 <= year <= 9999:
        raise Refused(OUT_OF_RANGE)
    return dt.date(
        year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1])
    )


def _pick(
    candidate: Callable[[int], object],
    anchor,
    ref_year: int,
    select,
    prefer: str,
    what: str,
    reach: int = 0,
):
    """The occurrence of a yearly thing that `select` or `prefer` picks.

    `candidate(year)` is the thing of that year (None if it has none, a
    fifth Tuesday or 29 February); candidates grow with the year, and are
    compared with `anchor` (the reference's day or month). `reach` is how
    many years a candidate can lie from its own year (Easter + 544 days
    of 9998 is in 9999), so the search starts that many years back."""
    if select == 0 or (select is None and prefer == "current"):
        found = candidate(ref_year)
        if found is None:
            raise Refused(f"{ref_year:04d} has no {what}")
        return found
    if select is None:
        after = prefer == "future"
        step, count, strict = (1 if after else -1), 1, False
    else:
        step, count, strict = (1 if select > 0 else -1), abs(select), True
    year = min(max(ref_year - step * reach, 1), 9999)
    while 1 <= year <= 9999:
        found = candidate(year)
        if found is not None:
            if step > 0:
                hit = found > anchor if strict else found >= anchor
            else:
                hit = found < anchor if strict else found <= anchor
            if hit:
                count -= 1
                if count == 0:
                    return found
        year += step
    raise Refused(
        f"no {what} in the years 1-9999 {'after' if step > 0 else 'before'} the reference"
    )


def _in_year(make: Callable[[int], dt.date | None]) -> Callable[[int], dt.date | None]:
    def candidate(year: int):
        try:
            return make(year)
        except (ValueError, OverflowError):
            return None  # Feb 29 of a common year; Easter + days past 9999

    return candidate


def _year_parts(year: Year | None) -> dict:
    if year is None:
        return {"year": "reference"}
    return {"century": "window"} if year.short else {}


class PointResolver:
    def __init__(self, reference: dt.datetime, prefer: str):
        self.reference, self.prefer = reference, prefer
        self.local = reference.replace(tzinfo=None)  # the reference's wall clock
        self.today = self.local.date()

    # -- days -------------------------------------------------------------

    def day(self, form) -> Value:
        """A form that names a day, as a date."""
        if isinstance(form, Date):
            return self.date(form)
        if isinstance(form, Weekday):
            return self.weekday(form)
        if isinstance(form, Nth):
            return self.nth(form)
        if isinstance(form, Easter):
            return self.easter(form)
        return self.shift(form)

    def date(self, form: Date) -> Value:
        if form.year is not None:
            return _date_value(
                dt.date(full_year(form.year), form.month, form.day),
                _year_parts(form.year),
            )
        make = _in_year(lambda y: dt.date(y, form.month, form.day))
        found = _pick(
            make,
            self.today,
            self.today.year,
            form.select,
            self.prefer,
            f"{form.month:02d}-{form.day:02d}",
        )
        return _date_value(found, {"year": "reference"})

    def weekday(self, form: Weekday) -> Value:
        now, want, select = self.today.weekday(), form.weekday, form.select
        if form.week is not None:  # that ISO week's, Monday to Sunday
            days = want - now + 7 * form.week
        elif select is None and self.prefer == "future":
            days = (want - now) % 7  # on or after the reference's day
        elif select is None and self.prefer == "past":
            days = -((now - want) % 7)  # on or before it
        elif select is None or select == 0:
            days = want - now  # the reference's ISO week, Monday to Sunday
        elif select > 0:
            days = (want - now - 1) % 7 + 1 + 7 * (select - 1)  # strictly after
        else:
            days = -((now - want - 1) % 7 + 1) - 7 * (-select - 1)  # strictly before
        try:
            found = self.today + dt.timedelta(days=days)
        except OverflowError:
            raise Refused(OUT_OF_RANGE) from None
        return _date_value(
            found, {"year": "reference", "month": "reference", "day": "reference"}
        )

    def nth(self, form: Nth) -> Value:
        def make(year: int):
            return holidays.nth_weekday(year, form.month, form.n, form.weekday)

        rank = "last" if form.n == -1 else f"{form.n:+d}".lstrip("+")
        what = f"{rank} {WEEKDAYS[form.weekday]}"
        if form.year is not None:
            year = full_year(form.year)
            found = make(year)
            if found is None:
                raise Refused(
                    f"{year:04d}-{form.month:02d} has no {what} (nth {form.n})"
                )
            return _date_value(found, _year_parts(form.year))
        found = _pick(
            make,
            self.today,
            self.today.year,
            None,
            self.prefer,
            f"{what} in month {form.month:02d}",
        )
        return _date_value(found, {"year": "reference"})

    def easter(self, form: Easter) -> Value:
        def make(year: int):
            return holidays.easter(year, orthodox=form.orthodox) + dt.timedelta(
                days=form.days
            )

        if form.year is not None:
            try:
                return _date_value(make(full_year(form.year)), _year_parts(form.year))
            except OverflowError:
                raise Refused(OUT_OF_RANGE) from None
        name = "Orthodox Easter" if form.orthodox else "Easter"
        what = f"{name} {form.days:+d} days" if form.days else name
        reach = abs(form.days) // 365 + 1
        found = _pick(
            _in_year(make), self.today, self.today.year, None, self.prefer, what, reach
        )
        return _date_value(found, {"year": "reference"})

    def shift(self, form: Shift) -> Value:
        steps = dict(form.steps)
        parts = {name: "reference" for name in ("year", "month", "day")}
        try:
            day = _add_months(
                self.today, 12 * steps.get("year", 0) + steps.get("month", 0)
            )
            day += dt.timedelta(days=steps.get("day", 0) + 7 * steps.get("week", 0))
            timed = {u: steps[u] for u in ("hour", "minute", "second") if u in steps}
            if not timed:
                return _date_value(day, parts)
            # Hours, minutes and seconds are elapsed time: added in UTC, so that
            # "in 3 hours" across a change of daylight saving time is 3 hours.
            wall = dt.datetime.combine(day, self.local.time()).replace(
                tzinfo=self.reference.tzinfo
            )
            moment = wall.astimezone(dt.timezone.utc) + dt.timedelta(
                **{u + "s": n for u, n in timed.items()}
            )
            moment = moment.astimezone(self.reference.tzinfo)
        except (OverflowError, ValueError):
            raise Refused(OUT_OF_RANGE) from None
        clock = Clock(0, 0, 0 if "second" in timed else None)
        parts.update({"hour": "reference", "minute": "reference"})
        if "second" in timed:
            parts["second"] = "reference"
        return _datetime_value(moment, clock, parts)

    # -- other points ---------------------------------------------------------

    def time(self, form: Time) -> Value:
        clock, zone = form.clock, _zone_of(form.clock)
        try:
            now = (
                self.reference.astimezone(zone) if zone is not None else self.reference
            )
        except (OverflowError, ValueError):
            raise Refused(OUT_OF_RANGE) from None
        wall = now.replace(tzinfo=None)
        if clock.second is None:
            wall = wall.replace(second=0, microsecond=0)
        else:
            wall = wall.replace(microsecond=0)
        at = dt.time(clock.hour, clock.minute, clock.second or 0)
        day = wall.date()
        candidate = dt.datetime.combine(day, at)
        try:
            if self.prefer == "future" and candidate < wall:
                day += dt.timedelta(days=1)
            elif self.prefer == "past" and candidate > wall:
                day -= dt.timedelta(days=1)
        except OverflowError:
            raise Refused(OUT_OF_RANGE) from None
        parts = {"year": "reference", "month": "reference", "day": "reference"}
        return self.at_clock(day, clock, parts)

    def at_clock(self, day: dt.date, clock: Clock, parts: dict) -> Value:
        zone = _zone_of(clock)
        moment = dt.datetime.combine(
            day, dt.time(clock.hour, clock.minute, clock.second or 0)
        )
        return _datetime_value(moment.replace(tzinfo=zone), clock, parts)

    def month(self, form: Month) -> Value:
        if form.year is not None:
            year = full_year(form.year)
            return Value(
                "month",
                (year, form.month),
                "month",
                _year_parts(form.year),
                f"{year:04d}-{form.month:02d}",
            )
        anchor = (self.today.year, self.today.month)
        year, month = _pick(
            lambda y: (y, form.month),
            anchor,
            self.today.year,
            form.select,
            self.prefer,
            f"month {form.month:02d}",
        )
        return Value(
            "month",
            (year, month),
            "month",
            {"year": "reference"},
            f"{year:04d}-{month:02d}",
        )

    def cycle(self, form: Cycle) -> Value:
        parts = {"year": "reference"}
        if form.unit == "year":
            year = self.today.year + form.select
            if not 1 <= year <= 9999:
                raise Refused(OUT_OF_RANGE)
            return Value("year", year, "year", parts, f"{year:04d}")
        if form.unit == "month":
            first = _add_months(self.today.replace(day=1), form.select)
            parts["month"] = "reference"
            return Value(
                "month",
                (first.year, first.month),
                "month",
                parts,
                first.isoformat()[:7],
            )
        try:
            monday = (
                self.today
                - dt.timedelta(days=self.today.weekday())
                + dt.timedelta(weeks=form.select)
            )
            sunday = monday + dt.timedelta(days=6)
        except OverflowError:
            raise Refused(OUT_OF_RANGE) from None
        parts.update(month="reference", day="reference")
        return Value("interval", (monday, sunday), "week", parts, f"{monday}/{sunday}")

    def point(self, form) -> Value:
        if isinstance(form, (Date, Weekday, Nth, Easter, Shift)):
            return self.day(form)
        if isinstance(form, At):
            day = self.day(form.day)
            return self.at_clock(day.value, form.clock, day.parts)
        if isinstance(form, Time):
            return self.time(form)
        if isinstance(form, DateTime):
            day = self.date(form.date)
            return self.at_clock(day.value, form.clock, day.parts)
        if isinstance(form, Month):
            return self.month(form)
        if isinstance(form, YearForm):
            year = full_year(form.year)
            return Value("year", year, "year", _year_parts(form.year), f"{year:04d}")
        return self.cycle(form)
