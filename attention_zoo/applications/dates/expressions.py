"""Relative time expressions and their forms, from CLDR, in the 27 languages.

`relative_expressions(language)` gives (text, form) pairs that CLDR's
date fields write (through Babel): the named days ("ayer" -> `shift day
-1`, "pasado mañana" -> `shift day +2`), this, last and next week, month
and year ("el mes pasado" -> `cycle month -1`), this week's weekday ("este
viernes" -> `weekday 0 FRI`), "now" (`shift second 0`), and "in N units"
/ "N units ago" for seconds to years and for weekdays ("hace 3 días" ->
`shift day -3`, "dentro de 2 viernes" -> `weekday +2 FRI`). Every form is
checked by `form_parser.parse_form`.

CLDR's "last Friday" and "next Friday" are read as the first Friday
before or after the reference (`weekday -1 FRI`, `weekday +1 FRI`: the
policy of docs/dates.md), but where the text writes the language's "last
week" or "next week" (Chinese 上周五, Japanese 来週の金曜日, Dutch
"volgende week vrijdag"): those name the Friday of that week, the form
`week +1 FRI` (`names_a_week`), which `expr_weeks.py` writes. Left out
here, each for its reason
(`LEFT_OUT`): those texts; "this hour" and "this minute", which no form
writes; quarters. Counts are written in digits and, in the languages
num2words spells (`formats.EVERY_FAMILY`), in words from two to ten
("vor zwei Wochen"), and in the languages whose cardinal stands as it is
before the unit in both directions' patterns (`SPELLED_ELSEWHERE`: "три
дня назад", "om tre dagar", "üç gün önce"). A text CLDR
writes for two meanings in one language (Hindi कल is both yesterday and
tomorrow) is left out of both (`ambiguous`): the model cannot read it
without context, and the pair would teach it to guess.

Babel has no public accessor for CLDR's relative fields, so they are read
from `Locale._data["date_fields"]`, Babel's own parsed CLDR data.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import defaultdict

import babel
from babel.numbers import format_decimal
from num2words import num2words

from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.formats import EVERY_FAMILY, LOCALES
from attention_zoo.applications.dates.forms import NOW, WEEKDAYS

UNITS = ("second", "minute", "hour", "day", "week", "month", "year")
# CLDR's weekday fields, in `forms.WEEKDAYS`'s order.
WEEKDAY_FIELDS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# The numbers "in N days" and "N days ago" are written with: each plural
# category of most languages (1, 2, 3-4, 5-20, 21, 22, 100).
NUMBERS = (1, 2, 3, 5, 11, 21, 22, 100)
# Counts also written in words, where num2words spells the language (its
# cardinals; "one" is left out: its word agrees with the unit, "vor einer
# Woche", not "vor eins"), and in digits like `NUMBERS`.
SPELLED = range(2, 11)
# Counts in words in more languages, where the cardinal num2words writes
# stands unchanged before the unit of both directions' CLDR patterns:
# from three where two agrees with the unit (Russian два дня / две
# недели, Romanian doi ani / două zile) or takes another form before a
# noun (Hungarian két); not Finnish and Czech, whose patterns put the
# count in a case ("kolmen päivän päästä", "před třemi dny"), Japanese
# (三 before 日 is also the third of a month) nor Vietnamese five and
# Hungarian seven (năm is also the year, hét the week).
SPELLED_ELSEWHERE = {
    **dict.fromkeys(("ru", "uk", "pl", "ro"), range(3, 11)),
    **dict.fromkeys(("sv", "da", "nb", "tr", "id"), range(2, 11)),
    "hu": (3, 4, 5, 6, 8, 9, 10),
    "vi": (2, 3, 4, 6, 7, 8, 9, 10),
}
# Two where it agrees with the unit: its word by unit, each checked
# against the unit's gender and the plural CLDR writes after two ("две
# недели", "два дня", "дві години", "dwie godziny", "doi ani", "două
# zile"). The grounding reads them (`form_words.relative_phrases`); the
# generator does not write them, so no shipped run was taught them.
TWO_BY_UNIT = {
    "ru": dict(day="два", week="две", month="два", year="два", hour="два",
               minute="две", second="две"),
    "uk": dict(day="два", week="два", month="два", year="два", hour="дві",
               minute="дві", second="дві"),
    "pl": dict(day="dwa", week="dwa", month="dwa", year="dwa", hour="dwie",
               minute="dwie", second="dwie"),
    "ro": dict(day="două", week="două", month="două", year="doi", hour="două",
               minute="două", second="două"),
}  # fmt: skip
NUM2WORDS_LANGUAGES = {"nb": "no"}  # where num2words names a language otherwise


def spelled_counts(language: str) -> tuple[int, ...]:
    """The counts `language` writes in words too (none for most)."""
    if language in EVERY_FAMILY:
        return tuple(SPELLED)
    return tuple(SPELLED_ELSEWHERE.get(language, ()))


def count_word(n: int, language: str) -> str:
    """num2words' cardinal of `n` in `language` ("three", "три")."""
    return num2words(n, lang=NUM2WORDS_LANGUAGES.get(language, language))


def hand_written_counts(language: str, low: int = 2, high: int = 20):
    """`(n, word)` of each count in `low`-`high` that `language` writes in
    words (`spelled_counts`), for a hand-written counted text ("{0} days
    from now", "en {0} días"): its unit stands after the count as CLDR's
    does, so a word that agrees with it is the one CLDR's patterns take."""
    return [
        (n, count_word(n, language))
        for n in spelled_counts(language)
        if low <= n <= high
    ]


_UNDOTTED = re.compile(r"(?<=[^\W\d_])\.")  # an abbreviation's dot
ABBREVIATED = (1, 3, 5, 22)  # one, few, many and other of most languages
SIGNS = ("+", "-", "\u2212")  # a narrow pattern's direction (French "-{0} h")
LEFT_OUT = {
    (
        "weekday",
        -1,
    ): "where it writes 'last week': the Friday of last week (上周五)",
    (
        "weekday",
        1,
    ): "where it writes 'next week': the Friday of next week (来週の金曜日)",
    ("hour", 0): "no form writes this hour",
    ("minute", 0): "no form writes this minute",
}


@dataclasses.dataclass(frozen=True)
class Expression:
    """A text and the form it is read into; `kind` names what CLDR field wrote it."""

    text: str
    form: str
    language: str
    kind: str  # e.g. "day relative -1", "day past", "fri future", "hour past short"


def names_a_week(text: str, fields, offset: int) -> bool:
    """Whether a weekday's `offset` text writes the language's week text of
    that offset ("volgende week vrijdag" writes "volgende week")."""
    week = fields.get("week", {}).get("relative", {}).get(offset)
    return bool(week) and week.casefold() in text.casefold()


def _named(field: str, offset: int) -> str | None:
    """The form of a named relative (`day` -1: yesterday), or None if left out."""
    if field in WEEKDAY_FIELDS:
        if abs(offset) > 1:
            return None
        sign = "0" if offset == 0 else f"{offset:+d}"
        return f"weekday {sign} {WEEKDAYS[WEEKDAY_FIELDS.index(field)]}"
    sign = "0" if offset == 0 else f"{offset:+d}"
    if field == "day":
        return f"shift day {sign}"
    if field in ("week", "month", "year"):
        return f"cycle {field} {sign}"
    if field == "second" and offset == 0:
        return NOW
    return None


def _counted(field: str, amount: int) -> str:
    if field in WEEKDAY_FIELDS:
        return f"weekday {amount:+d} {WEEKDAYS[WEEKDAY_FIELDS.index(field)]}"
    return f"shift {field} {amount:+d}"


def _one_letter(pattern: str) -> bool:
    """Whether `pattern` writes a word of one letter (Polish "za {0} g.",
    English "{0}h ago"): beside the slot, which holds a number's word too,
    it is the end of a word ("za{0}g" in "zaterdag"), so no width's text
    writing one is taught or read. It asks every word, not only the slot's
    neighbours, so French "il y a {0} min" is left out too (docs/dates.md)."""
    words_ = _UNDOTTED.sub("", pattern).replace("{0}", " ").split()
    return any(len(w) == 1 and w.isalpha() for w in words_)


def _widths(fields):
    """(field, width, data) of each of CLDR's date fields of `fields`: the
    units' wide, short and narrow widths ("hours ago", "hr. ago", "h ago";
    the same field for each), the weekdays' wide only ("last Fri." and
    "last F" write no name the grounding reads)."""
    for field in UNITS + WEEKDAY_FIELDS:
        widths = ("", "-short", "-narrow") if field in UNITS else ("",)
        for width in widths:
            if field + width in fields:
                yield field, width, fields[field + width]


def _candidates(language: str) -> list[Expression]:
    locale = babel.Locale.parse(LOCALES[language])
    fields = locale._data["date_fields"]
    found = []
    for field, width, data in _widths(fields):
        relatives = {} if width else data.get("relative", {})  # one text each
        for offset, text in sorted(relatives.items()):
            form = _named(field, offset)
            if (
                field in WEEKDAY_FIELDS
                and offset
                and names_a_week(text, fields, offset)
            ):
                form = None
            if form is not None:
                found.append(
                    Expression(text, form, language, f"{field} relative {offset}")
                )
        for direction, sign in (("future", 1), ("past", -1)):
            patterns = data.get(direction)
            if not patterns:
                continue
            other = data.get("past" if sign > 0 else "future") or {}
            if width and (
                any(p.lstrip().startswith(SIGNS) for p in patterns.values())
                or set(patterns.values()) & set(other.values())
                or any(map(_one_letter, patterns.values()))
            ):
                continue  # "-3 h" (a sign), both directions, "za {0} g."
            # An abbreviation's numbers in digits, fewer: "in three hr." is
            # no one's writing, and the units' wide texts are most of the pairs.
            numbers = sorted({*NUMBERS, *SPELLED}) if not width else ABBREVIATED
            for n in numbers:
                if field in WEEKDAY_FIELDS and n > 99:
                    continue  # a weekday's selector has two digits
                pattern = patterns.get(locale.plural_form(n), patterns.get("other"))
                if pattern is None:
                    continue
                written = [format_decimal(n, locale=locale)]
                if n in spelled_counts(language) and not width:
                    written.append(count_word(n, language))
                # An abbreviation as often without its dots: "3 hr ago".
                spelled = {pattern, _UNDOTTED.sub("", pattern) if width else pattern}
                for number in written:
                    for text in sorted(spelled):
                        found.append(
                            Expression(
                                text.replace("{0}", number),
                                _counted(field, sign * n),
                                language,
                                # "hour past short": a width's text, which
                                # form_counts' unit words leave out (pt "sem.")
                                f"{field} {direction}{width.replace('-', ' ')}",
                            )
                        )
    return found


def ambiguous(language: str) -> dict[str, set[str]]:
    """The texts CLDR writes for more than one form in `language`, with those forms."""
    forms = defaultdict(set)
    for expression in _candidates(language):
        forms[expression.text.casefold()].add(expression.form)
    return {text: meant for text, meant in forms.items() if len(meant) > 1}


def relative_expressions(language: str) -> list[Expression]:
    """Every (text, form) pair of `language` (one of `formats.LOCALES`), ambiguous texts left out."""
    if language not in LOCALES:
        raise ValueError(
            f"language must be one of {', '.join(LOCALES)}. Received: language={language!r:.80}"
        )
    unclear = ambiguous(language)
    seen, pairs = set(), []
    for expression in _candidates(language):
        key = (expression.text, expression.form)
        if expression.text.casefold() in unclear or key in seen:
            continue
        parse_form(expression.form)  # a form outside the grammar is a bug here
        seen.add(key)
        pairs.append(expression)
    return pairs


@functools.lru_cache(maxsize=32)
def unit_lookahead(word: str, language: str) -> str:
    """A regex lookahead that keeps `word`, a clock word written right after
    an hour (Japanese 時 of "10時"), from starting the unit of a count CLDR
    writes after its number in `language` (時間 of "{0} 時間後"): "10時間"
    is ten hours, no 10:00. "" where no unit starts with `word`."""
    fields = babel.Locale.parse(LOCALES[language])._data["date_fields"]
    after = set()
    for unit in UNITS:
        for direction in ("future", "past"):
            for pattern in fields.get(unit, {}).get(direction, {}).values():
                tail = pattern.partition("{0}")[2].strip().casefold()
                if tail.startswith(word) and len(tail) > len(word):
                    after.add(tail[len(word)])
    return f"(?![{re.escape(''.join(sorted(after)))}])" if after else ""
