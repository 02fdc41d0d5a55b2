"""Generated days, months and years: absolute days and partial dates.

- `absolute(language)`: every format of `formats.FORMATS` in the language
  (rendered by it, native digits included where `world.py` has them) as
  `date 1979-05-03`, or `date '79-05-03` for a two-digit year;
- `partial(language)`: CLDR's skeletons through Babel's `format_skeleton`:
  month and year (`yMMMM`, `yMMM`: "March 2015" -> `month 2015-03`), the
  year alone (`y`: "1987", "1987年" -> `year 1987`, four digits, years
  1000-9999) and day and month without a year (`MMMMd`, `MMMd`: "3 May"
  -> `date --05-03`); and the month alone, CLDR's stand-alone wide name
  (`LLLL`: "May", "январь", "五月" -> `month --05`).

Half the years drawn are of 1900-2099, where most written years are; the
rest spread over the years a form writes, so that neither is new to a run.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date, format_skeleton

from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    before,
    draw_day,
    draw_yearless_day,
    locale,
    rng,
    with_native,
    ymd,
)
from attention_zoo.applications.dates.formats import FORMATS, SHORT_YEAR_RANGE
from attention_zoo.applications.dates.passes import normalize
from attention_zoo.applications.dates.readings import numeric_readings

PER_FORMAT = 3  # days rendered by each format
MONTH_SKELETONS = ("yMMMM", "yMMM")
DAY_MONTH_SKELETONS = ("MMMMd", "MMMd")
PER_SKELETON = 12
# A day and month with no year is the partial date people write most
# ("3 March", "el 10 de enero"): three times the others, so that a month's
# template ("january #") holds more than the one day it held at 12, and
# days of one digit ("March 3", `draw_yearless_day`) are not rare in it;
# the months in turn (`yearless_day_of`), three days each.
DAY_MONTH_PER_SKELETON = 3 * PER_SKELETON
MODERN = (1900, 2099)


def draw_year_span(r, high: int = 2999) -> tuple[int, int]:
    """`MODERN` or 1000-`high`, by a coin (`r`)."""
    return r.choice((MODERN, (1000, high)))


def absolute(language: str) -> list[Pair]:
    """Each format of the language, `PER_FORMAT` days each, as `date` forms."""
    r = rng("absolute", language)
    reference = REFERENCE.isoformat()
    out = []
    for fmt in FORMATS:
        if fmt.language != language:
            continue
        for _ in range(PER_FORMAT):
            if fmt.short_year:
                low, high = (d.year for d in SHORT_YEAR_RANGE)
            else:
                low, high = r.choice(((1900, 2099), (1000, 2999)))
            day = draw_day(r, low, high)
            text = fmt.render(day)
            # All-numeric renderings only with the one reading the generator
            # of training dates keeps (data.generate's rule).
            readings = numeric_readings(normalize(text))
            if readings is not None and readings != {day.isoformat()}:
                continue
            year = f"'{day.year % 100:02d}" if fmt.short_year else f"{day.year:04d}"
            form = f"date {year}-{day.month:02d}-{day.day:02d}"
            out.append(Pair(text, form, language, "date", reference, ymd(day)))
    return out


def partial(language: str) -> list[Pair]:
    """Month and year, year alone, day and month (native digits added)."""
    r = rng("partial", language)
    where = locale(language)
    reference = REFERENCE.isoformat()
    out = []
    for skeleton in MONTH_SKELETONS:
        for _ in range(PER_SKELETON):
            day = draw_day(r, *draw_year_span(r))
            text = format_skeleton(skeleton, day, locale=where)
            value = f"{day.year:04d}-{day.month:02d}"
            out.append(
                Pair(text, f"month {value}", language, "month", reference, value)
            )
    for _ in range(PER_SKELETON):
        day = draw_day(r, *draw_year_span(r, 9999))
        text = format_skeleton("y", day, locale=where)
        value = f"{day.year:04d}"
        out.append(Pair(text, f"year {value}", language, "year", reference, value))
    for skeleton in DAY_MONTH_SKELETONS:
        for i in range(DAY_MONTH_PER_SKELETON):
            day = yearless_day_of(r, month=i % 12 + 1)
            text = format_skeleton(skeleton, day, locale=where)
            form = f"date --{day.month:02d}-{day.day:02d}"
            out.append(
                Pair(text, form, language, "day_month", before(day, r), ymd(day))
            )
    for month in range(1, 13):
        day = any_day_of(month, r)
        out.append(
            month_alone(format_date(day, "LLLL", locale=where), day, language, r)
        )
    return with_native(out)


def yearless_day_of(r, month: int | None = None, number: int | None = None) -> dt.date:
    """`draw_yearless_day` with its month set to `month` or its day of the
    month to `number` (drawn again until the day exists, never 29
    February): the months taken in turn, as drawn months left a month's
    abbreviation ("Dec #") to two or three texts of a language, and "Dec
    31" unread; each day of the month once ("March first")."""
    while True:
        day = draw_yearless_day(r)
        fields = {"month": month or day.month, "day": number or day.day}
        if (fields["month"], fields["day"]) != (2, 29):
            try:
                return day.replace(**fields)
            except ValueError:  # the 31st of a month of 30 days
                continue


def any_day_of(month: int, r) -> dt.date:
    """A day of `month` in a year of `MODERN` (never 29 February, as `draw_day`)."""
    return dt.date(r.randint(*MODERN), month, r.randint(1, 28))


def month_alone(text: str, day, language: str, r) -> Pair:
    """`text`, naming `day`'s month alone, as `month --MM` at a reference
    before `day` (`before`), so that the policy picks `day`'s month."""
    value = f"{day.year:04d}-{day.month:02d}"
    return Pair(
        text, f"month --{day.month:02d}", language, "month", before(day, r), value
    )
