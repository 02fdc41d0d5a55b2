"""Which dates an all-numeric input can mean: the ambiguity rule.

An all-numeric date is three groups of digits with one separator (`-`, `/`,
`.`, a space, or a dot and a space as Czech, Hungarian and Korean write:
`23. 9. 1987`, `1987. 9. 23.`) repeated, or eight or six digits with none.
Its readings:

- four-digit year first (`1987-09-23`, `1987.09.23`, `19870923`): year,
  month, day. Nobody writes year, day, month in the seven languages.
- year last, four or two digits: day-month-year and month-day-year
  (British and American), except with dots, which only day-month-year uses
  (`23.09.87`, `03.04.2005`, `3. 4. 2005`).
- six digits (`230987`): day-month-year or month-day-year.
- a two-digit year first (`87-09-23`) is not read at all.

Two-digit years pivot at 69: 69-99 are 1969-1999, 00-68 are 2000-2068.
Only readings that are real dates in 1900-2099 count. An input with one
reading is that date; with two (`03/04/05`) or none (`31/02/2001`,
`3.14159`) it is not a date.

The rule is exact, so validity applies it rather than leave it to the
model: an answer to an all-numeric input is valid only if it is the one
reading (`agrees`). The model then only has to read the numbers, not to
judge ambiguity or month lengths, which is where it erred (docs/dates.md).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

# A run of exactly four digits, not part of a longer number.
_FOUR_DIGITS = re.compile(r"(?<![0-9])[0-9]{4}(?![0-9])")
_RUNS = re.compile(r"[0-9]+")
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

PIVOT = 69
MIN_DATE, MAX_DATE = dt.date(1900, 1, 1), dt.date(2099, 12, 31)
_NUMERIC = re.compile(r"[0-9 ./-]+")
_ENDS = re.compile(r"^[^0-9]+|[^0-9]+$")
_GROUPS = re.compile(r"(\d{1,4})(\. |[-/. ])(\d{1,2})\2(\d{1,4})\.?")
# The same groups inside a longer text (`sábado, 10/09/1932, 05:09`).
_INSIDE = re.compile(rf"(?<![0-9]){_GROUPS.pattern}(?![0-9])")


def expand_year(digits: str) -> int:
    year = int(digits)
    if len(digits) == 2:
        return year + (1900 if year >= PIVOT else 2000)
    return year


def _date(year: str, month: str, day: str):
    if len(year) not in (2, 4):
        return None
    try:
        date = dt.date(expand_year(year), int(month), int(day))
    except ValueError:
        return None
    return date if MIN_DATE <= date <= MAX_DATE else None


def numeric_view(text: str) -> str:
    """What the rule reads of `text`: the text itself, or, where it writes
    no letter, the text without the non-digits at its ends, so that a note
    of punctuation around a date changes nothing (`"10/04/1994"` and
    `(23/09/1987).` are read as `10/04/1994` and `23/09/1987`)."""
    if any(unicodedata.category(ch)[0] in "LM" for ch in text):
        return text
    return _ENDS.sub("", text)


def numeric_readings(text: str) -> set[str] | None:
    """ISO dates an all-numeric `text` (normalized; `numeric_view`) can
    mean; None if not all-numeric."""
    text = numeric_view(text)
    if not _NUMERIC.fullmatch(text):
        return None
    if re.fullmatch(r"\d{8}", text):
        candidates = [
            (text[:4], text[4:6], text[6:]),
            (text[4:], text[2:4], text[:2]),
            (text[4:], text[:2], text[2:4]),
        ]
    elif re.fullmatch(r"\d{6}", text):
        candidates = [(text[4:], text[2:4], text[:2]), (text[4:], text[:2], text[2:4])]
    else:
        match = _GROUPS.fullmatch(text)
        if not match:
            return set()
        a, sep, b, c = match.groups()
        if len(a) == 4:
            candidates = [(a, b, c)]
        elif len(a) <= 2 and len(c) in (2, 4):
            candidates = [(c, b, a)] + ([] if "." in sep else [(c, a, b)])
        else:
            candidates = []
    dates = (_date(*candidate) for candidate in candidates)
    return {d.isoformat() for d in dates if d is not None}


def written_readings(text: str) -> list[set[str]]:
    """The readings of each numeric date written inside `text` (normalized):
    `sábado, 10/09/1932, 05:09:19` writes one of two."""
    return [numeric_readings(m[0]) or set() for m in _INSIDE.finditer(text)]


def agrees(text: str, answer: str) -> bool:
    """The numeric rule: `text` (normalized) is not all-numeric, or its only
    reading is `answer`."""
    readings = numeric_readings(text)
    return readings is None or readings == {answer}


def disagreement(readings: set[str] | None, answer: str) -> str:
    """Why an input's `readings` (`numeric_readings`) do not make `answer` a
    valid date ("" when they do, or when the input is not all-numeric)."""
    if readings is None or readings == {answer}:
        return ""
    if not readings:
        return "its numbers make no date (of 1900-2099)"
    if len(readings) > 1:
        return "ambiguous: it reads as " + " or ".join(sorted(readings))
    (only,) = readings
    return f"its numbers read {only}, not {answer or 'no date'}"


def written_years(text: str) -> list[str]:
    """The four-digit numbers of `text`: the years it may write out."""
    return _FOUR_DIGITS.findall(text)


def year_disagreement(text: str, answer: str) -> str:
    """The written-year rule: an input that writes four-digit numbers is
    answered with one of them as the year; one that writes none, with a
    year whose last two digits it writes as a two-digit number, pivoted
    (`3 mai 87` is 1987). "" when it is, when the answer is not an ISO
    date, or when the input writes a number of five or more digits (a
    compact date, `19870923`: the numeric rule reads it). The model reads
    years 1900-2099 only; outside them it copied the last digits and made
    up the first (`14 July 1789` read as 1989-07-14, with a confident
    score), so the answer's year must be grounded in the input's digits,
    not in what the model saw in training; and a date without a year
    (`3 May`) must not get one made up."""
    if not ISO_DATE.fullmatch(answer):
        return ""
    years = written_years(text)
    if not years:
        runs = _RUNS.findall(text)
        if any(len(run) > 4 for run in runs):
            return ""
        two = answer[2:4]
        if two in runs and expand_year(two) == int(answer[:4]):
            return ""
        return f"it writes no year: neither {answer[:4]} nor {two}"
    if answer[:4] in years:
        return ""
    written = " or ".join(dict.fromkeys(years))
    outside = [y for y in years if not MIN_DATE.year <= int(y) <= MAX_DATE.year]
    if outside and len(outside) == len(years):
        return (
            f"its year {written} is outside the years the model reads "
            f"({MIN_DATE.year}-{MAX_DATE.year}); it answered {answer[:4]}"
        )
    return f"it writes the year {written}, not {answer[:4]}"
