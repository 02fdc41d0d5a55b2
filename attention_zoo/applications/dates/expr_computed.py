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
    fixed,
    locale,
    rng,
    with_native,
    words,
    ymd,
)
from attention_zoo.applications.dates.forms import WEEKDAYS

# name: ("date", month, day) or (easter keyword, days from Easter Sunday).
# The public and widely kept days of the countries of the hand-written
# languages whose day is fixed in the Gregorian calendar or by Easter (the
# days a lunar calendar or a weekday rule sets, Diwali, Eid or Spring
# Festival, Thanksgiving, are not here: their names stay untaught, so
# refused); a name that different countries keep on different days
# ("Independence Day") is left out of the words, as is a day that moved
# (Koningsdag).
HOLIDAY_MEANINGS = {
    "christmas": ("date", 12, 25),
    "christmas_eve": ("date", 12, 24),
    "boxing_day": ("date", 12, 26),
    "new_year": ("date", 1, 1),
    "new_years_eve": ("date", 12, 31),
    "epiphany": ("date", 1, 6),
    "orthodox_christmas": ("date", 1, 7),
    "valentines_day": ("date", 2, 14),
    "womens_day": ("date", 3, 8),
    "labour_day": ("date", 5, 1),
    "assumption": ("date", 8, 15),
    "halloween": ("date", 10, 31),
    "all_saints": ("date", 11, 1),
    "all_souls": ("date", 11, 2),
    "armistice_day": ("date", 11, 11),
    "immaculate_conception": ("date", 12, 8),
    "us_independence_day": ("date", 7, 4),
    "german_unity_day": ("date", 10, 3),
    "reformation_day": ("date", 10, 31),
    "hispanic_day": ("date", 10, 12),
    "italian_liberation_day": ("date", 4, 25),
    "italian_republic_day": ("date", 6, 2),
    "portuguese_freedom_day": ("date", 4, 25),
    "portugal_day": ("date", 6, 10),
    "brazilian_independence_day": ("date", 9, 7),
    "dutch_liberation_day": ("date", 5, 5),
    "defender_of_the_fatherland_day": ("date", 2, 23),
    "victory_day": ("date", 5, 9),
    "russia_day": ("date", 6, 12),
    "unity_day": ("date", 11, 4),
    "chinese_national_day": ("date", 10, 1),
    "chinese_youth_day": ("date", 5, 4),
    "childrens_day_june": ("date", 6, 1),
    "teachers_day_china": ("date", 9, 10),
    "japanese_foundation_day": ("date", 2, 11),
    "showa_day": ("date", 4, 29),
    "constitution_day_japan": ("date", 5, 3),
    "childrens_day_japan": ("date", 5, 5),
    "culture_day": ("date", 11, 3),
    "labour_thanksgiving_day": ("date", 11, 23),
    "arab_mothers_day": ("date", 3, 21),
    "indian_republic_day": ("date", 1, 26),
    "indian_independence_day": ("date", 8, 15),
    "gandhi_jayanti": ("date", 10, 2),
    "indian_childrens_day": ("date", 11, 14),
    "indian_teachers_day": ("date", 9, 5),
    "polish_constitution_day": ("date", 5, 3),
    "polish_armed_forces_day": ("date", 8, 15),
    "polish_independence_day": ("date", 11, 11),
    "czech_victory_day": ("date", 5, 8),
    "czech_cyril_methodius_day": ("date", 7, 5),
    "czech_jan_hus_day": ("date", 7, 6),
    "czech_statehood_day": ("date", 9, 28),
    "czechoslovak_independence_day": ("date", 10, 28),
    "czech_freedom_day": ("date", 11, 17),
    "ukrainian_constitution_day": ("date", 6, 28),
    "ukrainian_independence_day": ("date", 8, 24),
    "greek_independence_day": ("date", 3, 25),
    "greek_ochi_day": ("date", 10, 28),
    "orthodox_clean_monday": ("orthodox-easter", -48),
    "orthodox_holy_saturday": ("orthodox-easter", -1),
    "orthodox_easter_monday": ("orthodox-easter", 1),
    "orthodox_whit_monday": ("orthodox-easter", 50),
    "swedish_national_day": ("date", 6, 6),
    "danish_constitution_day": ("date", 6, 5),
    "danish_great_prayer_day": ("easter", 26),
    "norwegian_constitution_day": ("date", 5, 17),
    "finnish_independence_day": ("date", 12, 6),
    "hungarian_state_foundation_day": ("date", 8, 20),
    "turkish_national_sovereignty_day": ("date", 4, 23),
    "turkish_youth_day": ("date", 5, 19),
    "turkish_democracy_day": ("date", 7, 15),
    "turkish_victory_day": ("date", 8, 30),
    "turkish_republic_day": ("date", 10, 29),
    "romanian_union_day": ("date", 1, 24),
    "romanian_national_day": ("date", 12, 1),
    "indonesian_kartini_day": ("date", 4, 21),
    "indonesian_pancasila_day": ("date", 6, 1),
    "indonesian_independence_day": ("date", 8, 17),
    "indonesian_youth_pledge_day": ("date", 10, 28),
    "indonesian_heroes_day": ("date", 11, 10),
    "indonesian_mothers_day": ("date", 12, 22),
    "vietnamese_reunification_day": ("date", 4, 30),
    "vietnamese_national_day": ("date", 9, 2),
    "vietnamese_womens_day": ("date", 10, 20),
    "vietnamese_teachers_day": ("date", 11, 20),
    "korean_independence_movement_day": ("date", 3, 1),
    "korean_childrens_day": ("date", 5, 5),
    "korean_parents_day": ("date", 5, 8),
    "korean_teachers_day": ("date", 5, 15),
    "korean_memorial_day": ("date", 6, 6),
    "korean_constitution_day": ("date", 7, 17),
    "korean_liberation_day": ("date", 8, 15),
    "korean_foundation_day": ("date", 10, 3),
    "korean_hangul_day": ("date", 10, 9),
    "shrove_tuesday": ("easter", -47),
    "ash_wednesday": ("easter", -46),
    "palm_sunday": ("easter", -7),
    "maundy_thursday": ("easter", -3),
    "good_friday": ("easter", -2),
    "holy_saturday": ("easter", -1),
    "easter_sunday": ("easter", 0),
    "easter_monday": ("easter", 1),
    "ascension": ("easter", 39),
    "pentecost": ("easter", 49),
    "whit_monday": ("easter", 50),
    "corpus_christi": ("easter", 60),
    "orthodox_palm_sunday": ("orthodox-easter", -7),
    "orthodox_maundy_thursday": ("orthodox-easter", -3),
    "orthodox_good_friday": ("orthodox-easter", -2),
    "orthodox_easter": ("orthodox-easter", 0),
    "orthodox_ascension": ("orthodox-easter", 39),
    "orthodox_trinity": ("orthodox-easter", 49),
}
RANKS = (1, 2, 3, 4, 5, -1)
PER_TEMPLATE = 40
PER_NAME = 4


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


def variants(language: str) -> list[dict]:
    """The language's sets of nth words: `nth` is one set or a list of them
    (German's nominative "der erste Montag im" beside the dative "am ersten
    Montag im"), each with its genders, ordinals and templates."""
    data = words(language).get("nth")
    if data is None:
        return []
    return data if isinstance(data, list) else [data]


def nth_weekdays(data: dict) -> list[list[str]] | None:
    """The spellings of each weekday (Monday first) of a variant that writes
    its own (`weekdays`: Arabic "أول اثنين", the construct without the
    article; Turkish "ikinci pazarı"), None for CLDR's names."""
    names = data.get("weekdays")
    if names is None:
        return None
    return [[n] if isinstance(n, str) else list(n) for n in names]


def nth_text(
    data: dict, language: str, template: str, n: int, weekday: int, month: int,
    year=None, spelling: int = 0,
) -> str:  # fmt: skip
    """The text of the nth weekday of a month, by a template of `data` (one
    of the language's `variants`); `spelling` picks one of a variant's own
    spellings of the weekday (`nth_weekdays`), modulo their number."""
    where = locale(language)
    gender = data["genders"][weekday]
    ordinal = data["last"][gender] if n == -1 else data["ordinals"][gender][n - 1]
    own = nth_weekdays(data)
    text = template.format(
        ordinal=ordinal,
        weekday=(
            get_day_names("wide", "format", where)[weekday]
            if own is None
            else own[weekday][spelling % len(own[weekday])]
        ),
        month=get_month_names("wide", "format", where)[month],
        m=month,
        year="" if year is None else f"{year:04d}",
    )
    return fixed(text, language)


def nth(language: str) -> list[Pair]:
    r = rng("nth", language)
    out = []
    for data in variants(language):
        for key in ("with_year", "open"):
            for template in data[key]:
                for _ in range(PER_TEMPLATE):
                    out += _nth_pair(data, language, key, template, r)
    return with_native(out)


def _nth_pair(data, language, key, template, r) -> list[Pair]:
    n, weekday = r.choice(RANKS), r.randrange(7)
    year, month = r.randint(1900, 2099), r.randint(1, 12)
    day = nth_day(year, month, n, weekday)
    if day is None:
        return []
    dow = WEEKDAYS[weekday]
    spelling = r.randrange(2) if nth_weekdays(data) else 0  # CLDR's: one
    if key == "with_year":
        text = nth_text(data, language, template, n, weekday, month, year, spelling)
        form = f"nth {n} {dow} {year:04d}-{month:02d}"
        reference = REFERENCE.isoformat()
    else:
        text = nth_text(data, language, template, n, weekday, month, None, spelling)
        form = f"nth {n} {dow} --{month:02d}"
        reference = before(day, r)
    return [Pair(text, form, language, "nth", reference, ymd(day))]


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
                text = fixed(
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
