"""The words a form's grounding looks for in a text (`form_grounding`), by
what they name, built from what the generator writes in the 27 languages.

Every table is a list of phrases, each normalized as the model's input is
(`data.normalize`: lower case, native digits and CJK numerals read), with
what it names:

- `relative_phrases()`: CLDR's relative fields as `expressions` reads them
  (Babel) and the hand-written named days and days with a part of the
  day (`expression_words.json` `day_periods`: "tonight"): a named
  text names its form ("ayer": `shift day -1`, "next week": `cycle week
  +1`), a counted pattern names its unit or weekday and direction with its
  number left to the text ("hace {0} días": `("day", -1)`); the
  hand-written `relative` texts likewise ("hace un año": `shift year -1`,
  "بعد {0} أيام": `("day", 1)`). The texts CLDR writes for two forms in a
  language (Hindi कल) and `day_homographs` ("por la mañana") name none;
- `direction_phrases()`: for -1, 0 and +1, the words of CLDR's "last week",
  "this week", "next week" (and month, year) that the language's other two
  texts of the unit do not write ("last", "pasada", "próxima", "this"),
  and the hand-written `directions` (Hindi अगले, the oblique case);
- `weekday_phrases()`: CLDR's weekday names (wide, abbreviated; format and
  stand-alone) of the 27 languages and the hand-written ones in a case
  (`weekdays` `cases`: "в пятницу"), but a name of two weekdays;
- `holiday_phrases()`: the hand-written holiday names with their meaning
  (`expr_computed.HOLIDAY_MEANINGS`: `("date", 12, 25)`, `("easter", 1)`);
- `rank_phrases()`: the hand-written ordinal words of the nth weekday of a
  month (`-1`: "the last"), and `nth_weekday_phrases()` the weekday names
  read beside them (CLDR's and the nth words' own: Arabic "أول اثنين");
- `period_phrases()`: the a.m./p.m. and day periods CLDR writes with a
  12-hour clock ("pm", "in the evening", "下午"), and the hand-written
  spellings and days with a part of the day ("tonight": 18-23), each
  with the hours it is written with;
- `named_time_phrases()`: the words of noon and midnight the generator
  writes (`expr_spoken.named_time_words`: "noon", "à minuit", "正午"), each
  with the `(hour, minute)` it names; `half_hour_phrases()`: the clock
  words that write half past the hour (点半);
- `ZONE_ABBREVIATIONS` (`zone_abbreviations.py`): the zone abbreviations
  a text may write for an offset (`EST`: `-05:00`), and `zone_phrases()`
  the hand-written names of zones in words ("по московскому времени":
  Europe/Moscow).

Each phrase is written by `phrase_spans.phrase` and found in a text by
`phrase_spans.spans`.
"""

from __future__ import annotations

import datetime as dt
import functools
import re

from attention_zoo.applications.dates.data import normalize
from attention_zoo.applications.dates.formats import LANGUAGES, LOCALES
from attention_zoo.applications.dates.phrase_spans import apostrophes, phrase, spans
from attention_zoo.applications.dates.zone_abbreviations import (  # noqa: F401
    ZONE_ABBREVIATIONS,  # read by the grounding as form_words'
)


def _words():
    from attention_zoo.applications.dates.expression_pairs import words

    return words


def _add(table: dict, key: str, value) -> None:
    if key:
        table.setdefault(key, set()).add(value)


@functools.lru_cache(maxsize=8)
def relative_phrases(languages=LANGUAGES) -> dict[str, frozenset]:
    """`{phrase: names}`: a form (str) for a named text (or a counted one
    that writes its number in words: Arabic خلال يومين, in two days; a
    hand-written counted text with each count its language spells, "d’ici
    trois jours"; two by its unit's gender, "две недели назад"),
    `(field, sign)` for a counted pattern (`field` a unit of
    `expressions.UNITS` or a weekday of `forms.WEEKDAYS`)."""
    from attention_zoo.applications.dates.expression_pairs import word_form
    from attention_zoo.applications.dates.expressions import (
        TWO_BY_UNIT,
        WEEKDAY_FIELDS,
        _candidates,
        hand_written_counts,
    )
    from attention_zoo.applications.dates.forms import WEEKDAYS

    table: dict[str, set] = {}
    for language in languages:
        found = _candidates(language)
        forms: dict[str, set[str]] = {}
        for e in found:  # as `expressions.ambiguous`
            forms.setdefault(e.text.casefold(), set()).add(e.form)
        for e in found:
            if len(forms[e.text.casefold()]) > 1:
                continue
            field, how = e.kind.split(" ")[:2]
            if how == "relative" or not re.search(r"\d", e.text):
                _add(table, phrase(e.text), e.form)
                continue
            if field in WEEKDAY_FIELDS:
                field = WEEKDAYS[WEEKDAY_FIELDS.index(field)]
            sign = 1 if how == "future" else -1
            # One pattern, whatever its number: one phrase to normalize.
            pattern = re.sub(r"\d+(?:[.,\u066c\u00a0\u202f ]\d+)*", "0", e.text)
            _add(table, phrase(pattern, slot=True), (field, sign))
            # Two by the unit's gender ("две недели назад", `TWO_BY_UNIT`).
            two = TWO_BY_UNIT.get(language, {}).get(field)
            if two and e.kind == f"{field} {how}" and re.fullmatch(r"\D*2\D*", e.text):
                _add(table, phrase(e.text.replace("2", two)), e.form)
        named = _words()(language).get("named_days", {}).items()
        parts = _words()(language).get("day_periods", {}).get("texts", {}).items()
        for text, days in [*named, *((text, days) for text, (days, *_) in parts)]:
            _add(table, phrase(text), "shift day " + (f"{days:+d}" if days else "0"))
        for text, unit, amount, *bounds in _words()(language).get("relative", ()):
            if "{0}" in text:
                _add(table, phrase(text.format(0), slot=True), (unit, amount))
                for n, word in hand_written_counts(language, *bounds):
                    _add(table, phrase(text.format(word)), word_form(unit, amount * n))
            else:
                _add(table, phrase(text), word_form(unit, amount))
        for text in _words()(language).get("day_homographs", ()):  # no day: "la mañana"
            table.setdefault(phrase(text), set())
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def named_time_phrases(languages=LANGUAGES) -> dict[str, frozenset[tuple[int, int]]]:
    """`{phrase: {(hour, minute)}}`: the words of noon and midnight."""
    from attention_zoo.applications.dates.expr_spoken import (
        NAMED_HOURS,
        named_time_words,
    )

    table: dict[str, set] = {}
    for language in languages:
        for name, texts in named_time_words(language).items():
            for text in texts:
                _add(table, phrase(text), (NAMED_HOURS[name], 0))
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def half_hour_phrases(languages=LANGUAGES) -> frozenset[str]:
    """The hand-written clock words that write half past the hour (点半)."""
    out = set()
    for language in languages:
        out |= {phrase(w) for w in _words()(language).get("half_hours", ())}
    return frozenset(out)


@functools.lru_cache(maxsize=8)
def direction_phrases(languages=LANGUAGES) -> dict[int, frozenset[str]]:
    """`{-1: words, 0: words, +1: words}` (module docstring)."""
    from attention_zoo.applications.dates.expressions import _candidates

    out: dict[int, set[str]] = {-1: set(), 0: set(), 1: set()}
    for language in languages:
        texts: dict[str, dict[int, set[str]]] = {}
        for e in _candidates(language):
            field, how, *offset = e.kind.split(" ")
            if how == "relative" and field in ("week", "month", "year"):
                words = set(phrase(e.text).split(" "))
                texts.setdefault(field, {})[int(offset[0])] = words
        for by_offset in texts.values():
            for offset, words in by_offset.items():
                if offset not in out:
                    continue
                others = set().union(*(w for o, w in by_offset.items() if o != offset))
                out[offset] |= {w for w in words - others if w}
        for offset, written in _words()(language).get("directions", {}).items():
            out[int(offset)] |= {phrase(w) for w in written}
    return {k: frozenset(v) for k, v in out.items()}


@functools.lru_cache(maxsize=8)
def weekday_phrases(
    languages=LANGUAGES, widths=("wide", "abbreviated")
) -> dict[str, int]:
    """`{phrase: weekday}` (Monday 0): CLDR's names of one weekday only, of
    `widths` (`wide`, `abbreviated`), and with `wide` the hand-written
    words of a weekday in a case (`weekdays` `cases`: Russian "в пятницу",
    where CLDR writes пятница)."""
    from babel import Locale

    table: dict[str, set[int]] = {}
    for language in languages:
        days = Locale.parse(LOCALES[language]).days
        for context in ("format", "stand-alone"):
            for width in widths:
                for weekday, name in days[context][width].items():
                    if len(name) > 1:
                        _add(table, phrase(name), weekday)
        if "wide" in widths:
            for texts in _words()(language).get("weekdays", {}).get("cases", ()):
                for weekday, text in enumerate(texts):
                    _add(table, phrase(text), weekday)
    return {p: next(iter(d)) for p, d in table.items() if len(d) == 1}


@functools.lru_cache(maxsize=8)
def nth_weekday_phrases(languages=LANGUAGES) -> dict[str, int]:
    """`weekday_phrases` and the weekday spellings of the nth variants that
    write their own (`expr_computed.nth_weekdays`: Arabic "اثنين", Turkish
    "pazarı"), read beside an ordinal only: alone, Arabic "أحد" is also "one"."""
    from attention_zoo.applications.dates.expr_computed import nth_weekdays, variants

    table = {p: {d} for p, d in weekday_phrases(languages).items()}
    for language in languages:
        for data in variants(language):
            for weekday, spellings in enumerate(nth_weekdays(data) or ()):
                for spelling in spellings:
                    _add(table, phrase(spelling), weekday)
    return {p: next(iter(d)) for p, d in table.items() if len(d) == 1}


@functools.lru_cache(maxsize=8)
def zone_phrases(languages=LANGUAGES) -> dict[str, str]:
    """`{phrase: zone}`: the hand-written names of zones in words
    (`zone_names`: "по московскому времени", Europe/Moscow; "北京时间",
    Asia/Shanghai), each a zone of the grammar (`forms.ZONES`, or `Z`)."""
    table: dict[str, set[str]] = {}
    for language in languages:
        for name, zone in _words()(language).get("zone_names", {}).items():
            _add(table, phrase(name), zone)
    return {p: next(iter(z)) for p, z in table.items() if len(z) == 1}


@functools.lru_cache(maxsize=8)
def holiday_phrases(languages=LANGUAGES) -> dict[str, frozenset[tuple]]:
    """`{phrase: meanings}` of the hand-written holiday names, and the
    names of other days that hold one (`other_days`: "Easter Saturday"),
    which mean none: a name inside a longer one found does not count
    (`spans`), so "Easter Saturday" grounds no `easter 0`."""
    from attention_zoo.applications.dates.expr_computed import HOLIDAY_MEANINGS

    table: dict[str, set] = {}
    for language in languages:
        holidays = _words()(language).get("holidays", {})
        for name, spellings in holidays.get("names", {}).items():
            for spelling in spellings:
                _add(table, phrase(spelling), HOLIDAY_MEANINGS[name])
        for spelling in holidays.get("other_days", ()):
            if phrase(spelling):
                table.setdefault(phrase(spelling), set())
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def rank_phrases(languages=LANGUAGES) -> dict[str, frozenset[int]]:
    """`{phrase: ranks}` of the hand-written ordinal words (1-5, -1 the last)."""
    table: dict[str, set[int]] = {}
    from attention_zoo.applications.dates.expr_computed import variants

    for language in languages:
        for data in variants(language):
            for ordinals in data["ordinals"].values():
                for rank, text in enumerate(ordinals, 1):
                    _add(table, phrase(text), rank)
            for text in data["last"].values():
                _add(table, phrase(text), -1)
    # The ordinal without its article ("third" of "the third"), where it is
    # one rank's only.
    bare: dict[str, set[int]] = {}
    for p, ranks in table.items():
        if " " in p:
            for rank in ranks:
                _add(bare, p.rsplit(" ", 1)[1], rank)
    for word, ranks in bare.items():
        if len(ranks) == 1:
            table.setdefault(word, set()).update(ranks)
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def period_phrases(languages=LANGUAGES) -> dict[str, frozenset[int]]:
    """`{phrase: hours}`: each a.m./p.m. or day period, with the hours
    (0-23) it is written with; CLDR's wide and abbreviated names of a.m. and
    p.m. in either context with their half of the day (Arabic's stand-alone
    p.m. is مساءً, which its clocks write for 18-23 only: `٥ مساءً` is 17:00),
    and the hand-written `periods` and `period_hours` of `expression_words.json`.
    Narrow names are left out: "a", "p", "m." are words and letters too."""
    from babel import Locale
    from babel.dates import format_time

    table: dict[str, set[int]] = {}
    for language in languages:
        code = LOCALES[language]
        for hour in range(24):
            for minute in (0, 30):
                at = dt.time(hour, minute)
                for pattern in ("a", "B", "BBBB"):
                    written = format_time(at, pattern, locale=code)
                    _add(table, phrase(written, " "), hour)
        cldr = Locale.parse(code).day_periods
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                names = cldr[context][width]
                for half, hours in (("am", range(12)), ("pm", range(12, 24))):
                    for hour in hours if half in names else ():
                        _add(table, phrase(names[half], " "), hour)
        periods = _words()(language).get("periods", {})
        for half, spellings in periods.items():
            hours = range(12) if half == "am" else range(12, 24)
            for spelling in spellings:
                for hour in hours:
                    _add(table, phrase(spelling, " "), hour)
        # Hours people write a day period with beyond CLDR's (Arabic ظهرًا,
        # "at noon", is CLDR's for 12 alone, and written for 1-3 p.m. too).
        for spelling, hours in _words()(language).get("period_hours", {}).items():
            for hour in hours:
                _add(table, phrase(spelling, " "), hour)
        # A day with its part of the day ("tonight", "ce soir"), its hours.
        parts = _words()(language).get("day_periods", {}).get("texts", {})
        for spelling, (_, first, last) in parts.items():
            for hour in range(first, last + 1):
                _add(table, phrase(spelling, " "), hour)
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def month_phrases(languages=LANGUAGES) -> dict[str, frozenset[int]]:
    """`{phrase: months}`: CLDR's month names (wide, abbreviated; format and
    stand-alone: Polish `marzec` beside `marca`), which the generated months
    and intervals write beside the lexicon's words, and the hand-written
    cases CLDR lacks (`month_cases`: Russian "в марте"), so that a text in
    such a case names its month too ("в марте 2015" is no `year 2015`); a
    name written with digits (`3月`) is the lexicon's month marker's."""
    from babel import Locale

    from attention_zoo.applications.dates.expression_pairs import words

    table: dict[str, set[int]] = {}
    for language in languages:
        months = Locale.parse(LOCALES[language]).months
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for month, name in months[context][width].items():
                    written = phrase(name)
                    if len(written) > 1 and not re.search("[0-9]", written):
                        _add(table, written, month)
        for names in words(language).get("month_cases", ()):
            for month, name in enumerate(names, 1):
                _add(table, phrase(name), month)
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def day_first_joiners(languages=LANGUAGES) -> dict[str, bool]:
    """`{phrase: True}`: the words that join a time to a day (`at`: "à",
    "a las", "um") in the languages whose numeric dates put the day first
    (CLDR's short date pattern starts with it), less those of the others
    (English "at"): beside one, a numeric date of two readings is read day
    first, as that language writes it (`12/09/2018 à 20:00` is 12 September)."""
    from babel import Locale

    first, other = set(), set()
    for language in languages:
        pattern = Locale.parse(LOCALES[language]).date_formats["short"].pattern
        found = first if pattern.lstrip("\u200f").startswith("d") else other
        for joiner in _words()(language).get("at", ()):
            word = phrase(joiner.replace("{day}", " ").replace("{time}", " "))
            if word:
                found.add(word)
    return {p: True for p in first - other}


@functools.lru_cache(maxsize=8)
def clock_words(languages=LANGUAGES) -> frozenset[str]:
    """The words CLDR's clocks write beside the hour that are no period
    (`uhr` in `4 Uhr nachm.`, `時`, `点`): a period may stand past them."""
    from babel.dates import format_skeleton

    from attention_zoo.applications.dates.text_words import words

    periods = period_phrases(languages)
    out = set()
    for language in languages:
        for skeleton in ("h", "hm", "H", "Hm", "Bh", "Bhm"):
            for hour in (5, 17):
                # Spaces and apostrophes as a text's are read (`FormText`):
                # CLDR writes `5\u202fa.\u202fm.` and `’s middags`, whose
                # periods the table writes `a. m.` and `'s middags`; a period
                # unfound would make clock words of `a`, `m` and `s`.
                text = format_skeleton(
                    skeleton, dt.time(hour, 30), locale=LOCALES[language]
                )
                written = apostrophes(re.sub(r"\s+", " ", normalize(text)))
                for start, end, _, _ in spans(written, periods):
                    written = written[:start] + " " * (end - start) + written[end:]
                out |= set(words(written))
        # The hand-written hours' words after the hour, up to its period
        # where one is written (`um 5 Uhr nachm.`, `om 5 uur 's middags`)
        # or not: French writes "à 8 heures" and, in a sentence, "à 8 heures
        # du soir", which the generator does not.
        for pattern in _words()(language).get("hours", ()):
            after = re.search(r"\{[Hh]\}(.*?)(?:\{[Ba]\}|$)", pattern)
            if after:
                out |= set(words(normalize(after[1]) or ""))
    return frozenset(out)
