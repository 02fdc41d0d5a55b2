"""A count of days or weeks the form does not use: "two days after Christmas" is no Christmas.

A text may count days or weeks from a day the grammar writes no form for
("two days after Christmas", "dos días después de Navidad", "three days
before 3 May 2015"). A count in digits is a number the form must use, so
such a text was refused; a count in words is no number, and forms56
answered the first as Christmas and the last as the 3rd of May, valid.
So a form that moves nothing relative to now (no shift, cycle or
selector: `forms.relative_part`) is no reading of a text that writes a
word of a count of days or weeks (`count_disagreement`, asked of every
answer, an absolute day's too, as the street rule is: `form_answers`),
beside no other reading of the word: a holiday's, a weekday's or a day
period's name holding it ("Christmas Day", Hebrew's weekdays "יום שישי",
"Tag der Arbeit") is a name.

The words are CLDR's own (`unit_words`): those that both an "in N days"
and an "N days ago" pattern of one language write, apart from the
number, for counts of two or more (a singular's word is other words too:
French "mis à jour le 27/12/1999", German "Tag der Einheit"; so "a day
before Christmas" is not read), less the words the other unit's patterns
write too (Romanian's "de" of "20 de zile") and the day's word a language
writes before a date's day (`DATE_WORDS`: "el día 7"). A language whose
two patterns share no word for a unit ("päivän päästä", "päivää
sitten") gives none, and the rule does not read it.
"""

from __future__ import annotations

import functools
import re

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.formats import LANGUAGES, LOCALES
from attention_zoo.applications.dates.forms import relative_part

UNITS = ("day", "week")
# The day's word that a language writes before a date's day or weekday
# ("el día 7 de noviembre", "no dia 2", "hari Selasa", "ngày 3 tháng 5",
# "يوم الجمعة"): a date's, no count's (the generator writes them so:
# tests/applications/dates/test_form_counts.py).
DATE_WORDS = {"es": {"día"}, "pt": {"dia"}, "id": {"hari"}, "vi": {"ngày"}, "ar": {"يوم"}}


def _count(text: str) -> int:
    """The number a CLDR pattern's text writes (0 for none)."""
    found = re.search(r"\d+", text)
    return int(found[0]) if found else 0


def _words(text: str) -> set[str]:
    return {w for w in text.casefold().split() if not re.search(r"\d", w)}


@functools.cache
def unit_words(language: str) -> dict[str, frozenset[str]]:
    """`{unit: words}` of `UNITS` in `language` (module docstring)."""
    from attention_zoo.applications.dates.expressions import _candidates

    found = _candidates(language)
    shared = {}
    for unit in UNITS:
        ways = [
            [_words(e.text) for e in found if e.kind == f"{unit} {how}" and _count(e.text) >= 2]
            for how in ("future", "past")
        ]
        shared[unit] = {w for f in ways[0] for p in ways[1] for w in f & p}
    left = DATE_WORDS.get(language, set())
    return {
        unit: frozenset(
            shared[unit] - left - set().union(*(shared[u] for u in UNITS if u != unit))
        )
        for unit in UNITS
    }


@functools.lru_cache(maxsize=8)
def _table(languages=LANGUAGES) -> dict[str, str]:
    """`{phrase: unit}`: the unit words of `languages`; "" for the names
    that may hold one (holidays, weekdays, day periods)."""
    table = {
        p: ""
        for name in ("holiday_phrases", "weekday_phrases", "period_phrases")
        for p in getattr(form_words, name)(languages)
    }
    for language in languages:
        if language in LOCALES:
            for unit, found in unit_words(language).items():
                for word in found:
                    table.setdefault(phrase_spans.phrase(word, ends=" "), unit)
    return table


def count_disagreement(text: str, form: str, languages=LANGUAGES) -> str:
    """Why `form` (of the grammar), which moves nothing relative to now, is
    no reading of `text`: a word of a count of days or weeks it writes;
    "" when it writes none or the form moves by a word."""
    if relative_part(parse_form(form)):
        return ""
    table = _table(tuple(languages))
    word = phrase_spans.first_marked(text, table)
    if word is None:
        return ""
    return f"the text writes {word!r}, a count of {table[word]}s, which the form does not use"
