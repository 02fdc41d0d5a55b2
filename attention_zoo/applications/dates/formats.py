"""The ways people write a date, as render functions `date -> str`.

Formats come in families, so that `benchmarks/dates.py` can train without
one family and test on it:

- `babel`: CLDR's named styles (full, long, medium) in eight locales.
- `pattern`: CLDR patterns written out (weekdays, "de", "am", "le").
- `ordinal`: English "23rd", French "1er", Italian "1°", Iberian "1º".
- `spelled`: the day in words ("the twenty-third of September", "le premier
  mai", "am dritten März"), from num2words, in the seven languages.
- `abbreviation`: dotted and undotted abbreviated months.
- `separated`: named months joined by `-`, `/`, `.` or nothing
  ("23-Sep-1987", "23sep1987", "1987-sep-23").
- `numeric`: all-numeric dates with a four-digit year, every separator.
- `short_year`: two-digit years ("23/09/87", "September 23, '87").
- `compact`: all-numeric without separators ("19870923", "23091987").
- `annotated`: a date of another family with a word, a note or punctuation
  around it ("Date: 23.09.1987", "3 May 1979 (UK)"; `annotations.py`).

The seven languages above have every family; the twenty of `world.py`
(Polish to Hebrew, nine of them in other scripts) have CLDR's styles, the
patterns people add to them, and their all-numeric orders.

All-numeric renderings are kept only when `numeric_readings` finds exactly
one reading (see there for the rule); the generator checks that, not the
formats.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from babel.dates import format_date
from num2words import num2words

from attention_zoo.applications.dates import annotations, world

LOCALES = {
    "en": "en_US",
    "fr": "fr_FR",
    "de": "de_DE",
    "es": "es_ES",
    "it": "it_IT",
    "pt": "pt_PT",
    "nl": "nl_NL",
    **world.LOCALES,
}
# The languages of every family; world.py's have CLDR's forms and their own.
EVERY_FAMILY = ("en", "fr", "de", "es", "it", "pt", "nl")
LANGUAGES = tuple(LOCALES)
# Two-digit years: 69-99 are 19xx, 00-68 are 20xx (POSIX strptime's %y).
PIVOT = 69
SHORT_YEAR_RANGE = (dt.date(1969, 1, 1), dt.date(2068, 12, 31))

_EN_DOTTED = "Jan. Feb. Mar. Apr. May June July Aug. Sept. Oct. Nov. Dec.".split()


@dataclass(frozen=True)
class DateFormat:
    name: str
    family: str
    language: str
    render: object  # date -> str
    short_year: bool = False  # only dates in SHORT_YEAR_RANGE


def _babel(pattern, locale):
    return lambda d: format_date(d, pattern, locale=locale)


def _month(d, language, width="MMMM"):
    return format_date(d, width, locale=LOCALES[language])


def _abbr(d, language):
    return _month(d, language, "MMM").rstrip(".")


def _weekday(d, language):
    return format_date(d, "EEEE", locale=LOCALES[language])


def ordinal_en(day: int) -> str:
    if 10 <= day % 100 <= 20:
        return f"{day}th"
    return str(day) + {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def spelled_day(day: int, language: str) -> str:
    """The day of the month in words, as each language says it in a date."""
    if language in ("en", "nl"):
        return num2words(day, lang=language, to="ordinal")
    if language == "de":  # dative after "am": "am dritten"
        return num2words(day, lang="de", to="ordinal") + "n"
    first = {"fr": "premier", "es": "primero", "it": "primo", "pt": "primeiro"}
    return first[language] if day == 1 else num2words(day, lang=language)


def _short(y: int) -> str:
    return f"{y % 100:02d}"


def _formats() -> list[DateFormat]:
    out = []

    def add(name, family, language, render, short_year=False):
        out.append(DateFormat(name, family, language, render, short_year))

    for locale in ("en_US", "en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "pt_PT"):
        for style in ("full", "long", "medium"):
            family = "numeric" if (locale, style) == ("pt_PT", "medium") else "babel"
            add(f"babel_{style}_{locale}", family, locale[:2], _babel(style, locale))
    for style in ("full", "long", "medium"):
        add(f"babel_{style}_nl_NL", "babel", "nl", _babel(style, "nl_NL"))
    for locale in ("en_GB", "fr_FR", "es_ES", "nl_NL"):
        add(
            f"babel_short_{locale}",
            "short_year" if locale == "es_ES" else "numeric",
            locale[:2],
            _babel("short", locale),
            short_year=locale == "es_ES",  # "30/12/24"
        )

    patterns = [
        ("en_US", "EEE, MMM d, y"),
        ("en_US", "EEEE MMMM d y"),
        ("en_US", "MMM d y"),
        ("en_GB", "EEE d MMM y"),
        ("en_GB", "d MMM, y"),
        ("en_GB", "EEEE d MMMM y"),
        ("fr_FR", "EEE d MMM y"),
        ("fr_FR", "'le' d MMMM y"),
        ("fr_FR", "dd MMMM y"),
        ("fr_FR", "EEEE d MMM y"),
        ("de_DE", "EEE, d. MMM y"),
        ("de_DE", "'am' d. MMMM y"),
        ("de_DE", "d. MMM y"),
        ("de_DE", "EEEE, d. MMM y"),
        ("de_DE", "EEEE, 'den' d. MMMM y"),
        ("es_ES", "d 'de' MMM 'de' y"),
        ("es_ES", "EEE, d MMM y"),
        ("es_ES", "d-MMM-y"),
        ("es_ES", "EEEE d 'de' MMMM 'de' y"),
        ("it_IT", "EEE d MMM y"),
        ("it_IT", "'il' d MMMM y"),
        ("it_IT", "EEEE, d MMMM y"),
        ("pt_PT", "d 'de' MMM 'de' y"),
        ("pt_PT", "EEE, d 'de' MMMM 'de' y"),
        ("pt_PT", "d MMM y"),
        ("nl_NL", "EEE d MMM y"),
        ("nl_NL", "EEEE, d MMMM y"),
        ("nl_NL", "'op' d MMMM y"),
    ]
    for locale, pattern in patterns:
        add(
            f"pattern[{pattern}]_{locale}",
            "pattern",
            locale[:2],
            _babel(pattern, locale),
        )

    ordinals = {
        "ordinal_d_month_y": (
            "en",
            lambda d: f"{ordinal_en(d.day)} {_month(d, 'en')} {d.year}",
        ),
        "ordinal_the_d_of_month_y": (
            "en",
            lambda d: f"the {ordinal_en(d.day)} of {_month(d, 'en')} {d.year}",
        ),
        "ordinal_month_d_y": (
            "en",
            lambda d: f"{_month(d, 'en')} {ordinal_en(d.day)}, {d.year}",
        ),
        "ordinal_d_of_mon_y": (
            "en",
            lambda d: f"{ordinal_en(d.day)} of {_month(d, 'en', 'MMM')} {d.year}",
        ),
        "ordinal_weekday_month_d_y": (
            "en",
            lambda d: (
                f"{_weekday(d, 'en')}, {_month(d, 'en')} {ordinal_en(d.day)}, {d.year}"
            ),
        ),
        "ordinal_weekday_the_d": (
            "en",
            lambda d: (
                f"{format_date(d, 'EEE', locale='en_US')} the {ordinal_en(d.day)} of "
                f"{_month(d, 'en', 'MMM')} {d.year}"
            ),
        ),
        "ordinal_fr_le_d": (
            "fr",
            lambda d: f"le {'1er' if d.day == 1 else d.day} {_month(d, 'fr')} {d.year}",
        ),
        "ordinal_it_d": (
            "it",
            lambda d: f"{'1°' if d.day == 1 else d.day} {_month(d, 'it')} {d.year}",
        ),
        "ordinal_es_d": (
            "es",
            lambda d: (
                f"{'1º' if d.day == 1 else d.day} de {_month(d, 'es')} de {d.year}"
            ),
        ),
        "ordinal_pt_d": (
            "pt",
            lambda d: (
                f"{'1º' if d.day == 1 else d.day} de {_month(d, 'pt')} de {d.year}"
            ),
        ),
    }
    for name, (language, fn) in ordinals.items():
        add(name, "ordinal", language, fn)

    spelled = {
        "en": [
            lambda d, s: f"the {s} of {_month(d, 'en')} {d.year}",
            lambda d, s: f"{_month(d, 'en')} {s}, {d.year}",
            lambda d, s: f"{_weekday(d, 'en')}, the {s} of {_month(d, 'en')} {d.year}",
        ],
        "fr": [
            lambda d, s: f"le {s} {_month(d, 'fr')} {d.year}",
            lambda d, s: f"{_weekday(d, 'fr')} {s} {_month(d, 'fr')} {d.year}",
        ],
        "de": [
            lambda d, s: f"am {s} {_month(d, 'de')} {d.year}",
            lambda d, s: f"{_weekday(d, 'de')}, den {s} {_month(d, 'de')} {d.year}",
        ],
        "es": [lambda d, s: f"{s} de {_month(d, 'es')} de {d.year}"],
        "it": [lambda d, s: f"{s} {_month(d, 'it')} {d.year}"],
        "pt": [lambda d, s: f"{s} de {_month(d, 'pt')} de {d.year}"],
        "nl": [lambda d, s: f"{s} {_month(d, 'nl')} {d.year}"],
    }
    for language, forms in spelled.items():
        for i, form in enumerate(forms):
            add(
                f"spelled_{language}_{i}",
                "spelled",
                language,
                lambda d, form=form, language=language: form(
                    d, spelled_day(d.day, language)
                ),
            )

    add(
        "abbr_dotted_mon_d_y",
        "abbreviation",
        "en",
        lambda d: f"{_EN_DOTTED[d.month - 1]} {d.day}, {d.year}",
    )
    add(
        "abbr_d_dotted_mon_y",
        "abbreviation",
        "en",
        lambda d: f"{d.day} {_EN_DOTTED[d.month - 1]} {d.year}",
    )
    add(
        "abbr_undotted_mon_d_y",
        "abbreviation",
        "en",
        lambda d: f"{_EN_DOTTED[d.month - 1].rstrip('.')} {d.day} {d.year}",
    )
    add("abbr_fr_dotted", "abbreviation", "fr", _babel("d MMM y", "fr_FR"))
    for language in ("de", "es", "it", "pt", "nl"):
        add(
            f"abbr_{language}_undotted",
            "abbreviation",
            language,
            lambda d, language=language: f"{d.day} {_abbr(d, language)} {d.year}",
        )

    for language in EVERY_FAMILY:
        for sep in ("-", "/", ".", ""):
            add(
                f"separated_d{sep}mon{sep}y_{language}",
                "separated",
                language,
                lambda d, sep=sep, language=language: (
                    f"{d.day:02d}{sep}{_abbr(d, language)}{sep}{d.year}"
                ),
            )
    add(
        "separated_mon-d-y_en",
        "separated",
        "en",
        lambda d: f"{_abbr(d, 'en')}-{d.day:02d}-{d.year}",
    )
    add(
        "separated_y-mon-d_en",
        "separated",
        "en",
        lambda d: f"{d.year}-{_abbr(d, 'en')}-{d.day:02d}",
    )
    add(
        "separated_y_month_d_en",
        "separated",
        "en",
        lambda d: f"{d.year} {_month(d, 'en')} {d.day}",
    )

    numeric = [
        ("iso", "any", "y-MM-dd"),
        ("ymd_slash", "any", "y/MM/dd"),
        ("ymd_dot", "any", "y.MM.dd"),
        ("ymd_space", "any", "y MM dd"),
        ("mdy_slash_us", "en", "MM/dd/y"),
        ("mdy_slash_us_short", "en", "M/d/y"),
        ("mdy_dash_us", "en", "MM-dd-y"),
        ("dmy_slash", "es", "dd/MM/y"),
        ("dmy_slash_short", "it", "d/M/y"),
        ("dmy_dot_de", "de", "dd.MM.y"),
        ("dmy_dot_de_short", "de", "d.M.y"),
        ("dmy_dash", "fr", "dd-MM-y"),
        ("dmy_space", "nl", "dd MM y"),
    ]
    for name, language, pattern in numeric:
        add(f"numeric_{name}", "numeric", language, _babel(pattern, "en_US"))

    short = [
        ("dmy_slash", "en", lambda d: f"{d.day:02d}/{d.month:02d}/{_short(d.year)}"),
        ("mdy_slash", "en", lambda d: f"{d.month}/{d.day}/{_short(d.year)}"),
        ("dmy_dot", "de", lambda d: f"{d.day:02d}.{d.month:02d}.{_short(d.year)}"),
        ("dmy_dot_short", "de", lambda d: f"{d.day}.{d.month}.{_short(d.year)}"),
        ("dmy_dash", "nl", lambda d: f"{d.day:02d}-{d.month:02d}-{_short(d.year)}"),
        (
            "month_d_apostrophe",
            "en",
            lambda d: f"{_month(d, 'en')} {d.day}, '{_short(d.year)}",
        ),
        (
            "d_mon_apostrophe",
            "en",
            lambda d: f"{d.day} {_abbr(d, 'en')} '{_short(d.year)}",
        ),
        (
            "d_mon_yy_dash",
            "en",
            lambda d: f"{d.day:02d}-{_abbr(d, 'en')}-{_short(d.year)}",
        ),
        (
            "de_d_mon_yy",
            "de",
            lambda d: f"{d.day}. {_month(d, 'de', 'MMM')} {_short(d.year)}",
        ),
        (
            "fr_d_mon_yy",
            "fr",
            lambda d: f"{d.day} {_month(d, 'fr', 'MMM')} {_short(d.year)}",
        ),
    ]
    for name, language, fn in short:
        add(f"short_year_{name}", "short_year", language, fn, short_year=True)

    add("compact_ymd", "compact", "any", lambda d: f"{d.year}{d.month:02d}{d.day:02d}")
    add("compact_dmy", "compact", "de", lambda d: f"{d.day:02d}{d.month:02d}{d.year}")
    add("compact_mdy", "compact", "en", lambda d: f"{d.month:02d}{d.day:02d}{d.year}")
    add(
        "compact_dmy_short",
        "compact",
        "fr",
        lambda d: f"{d.day:02d}{d.month:02d}{_short(d.year)}",
        short_year=True,
    )
    world.formats(add)
    annotations.formats(out, add)
    return out


FORMATS = _formats()
FAMILIES = tuple(sorted({f.family for f in FORMATS}))
