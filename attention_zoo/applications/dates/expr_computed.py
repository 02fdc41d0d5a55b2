"""Generated computed days: the nth or last weekday of a month, and holidays by name.

The words are hand-written (`expression_words.json`): the ordinal words
by the gender of each weekday (`nth`: Portuguese "a terceira terça-feira",
"o primeiro sábado"), the templates with and without a year, and the names
of the holidays (`holidays`). What each holiday name means is here
(`HOLIDAY_MEANINGS`), since it is the calendar's, not the language's:
Christmas is `date --12-25`, Easter Monday `easter +1`; Russian names
the Orthodox feasts (Рождество is 7 January, Пасха `orthodox-easter 0`).
The weekday and month names are CLDR's (Babel), in the format context
(Russian genitive "сентября").

The value is computed here from the calendar (the days of the month in
order; `dateutil.easter` for Easter), not by the resolver's functions.
"""

from __future__ import annotations

import calendar
import datetime as dt

from babel.dates import get_day_names, get_month_names
from dateutil import easter as dateutil_easter

from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    before,
    locale,
    rng,
    with_native,
    words,
    ymd,
)
from attention_zoo.applications.dates.forms import WEEKDAYS

# name: ("date", month, day) or (easter keyword, days from Easter Sunday)
HOLIDAY_MEANINGS = {
    "christmas": ("date", 12, 25),
    "new_year": ("date", 1, 1),
    "orthodox_christmas": ("date", 1, 7),
    "easter_sunday": ("easter", 0),
    "easter_monday": ("easter", 1),
    "good_friday": ("easter", -2),
    "orthodox_easter": ("orthodox-easter", 0),
    "orthodox_good_friday": ("orthodox-easter", -2),
}
RANKS = (1, 2, 3, 4, 5, -1)
PER_TEMPLATE = 6
PER_NAME = 2


def nth_day(year: int, month: int, n: int, weekday: int) -> dt.date | None:
    """The nth (or, n = -1, last) `weekday` of the month, from its days in order."""
    days = [
        dt.date(year, month, d)
        for d in range(1, calendar.monthrange(year, month)[1] + 1)
        if dt.date(year, month, d).weekday() == weekday
    ]
    if n == -1:
        return days[-1]
    return days[n - 1] if n <= len(days) else None


def _fix(text: str, language: str) -> str:
    for old, new in words(language).get("replace", ()):
        text = text.replace(old, new)
    return text


def nth_text(
    language: str, template: str, n: int, weekday: int, month: int, year=None
) -> str:
    """The text of the nth weekday of a month, by the language's template."""
    data = words(language)["nth"]
    where = locale(language)
    gender = data["genders"][weekday]
    ordinal = data["last"][gender] if n == -1 else data["ordinals"][gender][n - 1]
    text = template.format(
        ordinal=ordinal,
        weekday=get_day_names("wide", "format", where)[weekday],
        month=get_month_names("wide", "format", where)[month],
        m=month,
        year="" if year is None else f"{year:04d}",
    )
    return _fix(text, language)


def nth(language: str) -> list[Pair]:
    data = words(language).get("nth")
    if data is None:
        return []
    r = rng("nth", language)
    out = []
    for key in ("with_year", "open"):
        for template in data[key]:
            for _ in range(PER_TEMPLATE):
                n, weekday = r.choice(RANKS), r.randrange(7)
                year, month = r.randint(1900, 2099), r.randint(1, 12)
                day = nth_day(year, month, n, weekday)
                if day is None:
                    continue
                dow = WEEKDAYS[weekday]
                if key == "with_year":
                    text = nth_text(language, template, n, weekday, month, year)
                    form = f"nth {n} {dow} {year:04d}-{month:02d}"
                    reference = REFERENCE.isoformat()
                else:
                    text = nth_text(language, template, n, weekday, month)
                    form = f"nth {n} {dow} --{month:02d}"
                    reference = before(day, r)
                out.append(Pair(text, form, language, "nth", reference, ymd(day)))
    return with_native(out)


def holiday_day(name: str, year: int) -> dt.date:
    meaning = HOLIDAY_MEANINGS[name]
    if meaning[0] == "date":
        return dt.date(year, meaning[1], meaning[2])
    method = (
        dateutil_easter.EASTER_ORTHODOX
        if meaning[0] == "orthodox-easter"
        else dateutil_easter.EASTER_WESTERN
    )
    return dateutil_easter.easter(year, method) + dt.timedelta(days=meaning[1])


def holiday_form(name: str, year: int | None) -> str:
    meaning = HOLIDAY_MEANINGS[name]
    if meaning[0] == "date":
        head = "--" if year is None else f"{year:04d}-"
        return f"date {head}{meaning[1]:02d}-{meaning[2]:02d}"
    days = "0" if meaning[1] == 0 else f"{meaning[1]:+d}"
    return f"{meaning[0]} {days}" + ("" if year is None else f" {year:04d}")


def holidays(language: str) -> list[Pair]:
    data = words(language).get("holidays")
    if data is None:
        return []
    r = rng("holidays", language)
    out = []
    for name, spellings in data["names"].items():
        for spelling in spellings:
            for _ in range(PER_NAME):
                year = r.randint(1900, 2099)
                day = holiday_day(name, year)
                template = r.choice(data["with_year"])
                text = _fix(
                    template.format(name=spelling, year=f"{year:04d}"), language
                )
                out.append(
                    Pair(text, holiday_form(name, year), language, "holiday",
                         REFERENCE.isoformat(), ymd(day))
                )  # fmt: skip
            year = r.randint(1901, 2099)
            day = holiday_day(name, year)
            out.append(
                Pair(spelling, holiday_form(name, None), language, "holiday",
                     before(day, r, 150), ymd(day))
            )  # fmt: skip
    return with_native(out)
