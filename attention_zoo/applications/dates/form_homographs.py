"""A month abbreviation that is another language's word names no month alone.

CLDR's abbreviated month names are month words of the grounding
(`form_words.month_phrases`), and a few are words of another language as
often: Czech "pro" (December) is English's "pro" and Czech's "for",
Spanish "ago" (August) English's "ago", Portuguese "out" and "set",
Polish "lip" and "sie" (German's "they"). So forms55 answered "iPhone 15
Pro" as 15 December, valid. A day and month with no year whose month
only such a word names (`expression_words.json` `month_homographs`),
written with a capital as a name is ("Pro", where CLDR writes "pro"), is
not grounded (`homograph_disagreement`); in lower case ("17 lip", "31
sie o 20:27") or as an abbreviation, a dot after it ("3 de Out."), it is
the month's as before; beside a year ("15 pro 2015") the year says
it is a date, and a word naming the month besides ("15. prosince")
grounds it as before.
"""

from __future__ import annotations

import functools
import re

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.expression_pairs import words
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.text_words import words as text_words


@functools.lru_cache(maxsize=8)
def homographs(languages=LANGUAGES) -> frozenset[str]:
    """The `month_homographs` of `languages`, as phrases."""
    return frozenset(
        phrase_spans.phrase(w)
        for language in languages
        for w in words(language).get("month_homographs", ())
    )


def homograph_disagreement(t, month: int) -> str:
    """Why `month` of a date with no year is not named in `t` (a
    `FormText`): every word of the text naming it is a homograph, written
    with a capital and no dot after it; "" when another names it or none
    does (the month's digits)."""
    table = form_words.month_phrases(t.languages)
    naming = {p for p in t.found(table) if month in table[p]}
    naming |= {w for w in text_words(t.text) if month in (t.lexicon.get(w) or ())}
    found = naming & homographs(t.languages)
    if not naming or naming - found:
        return ""
    # Written as the languages write it, in lower case ("17 lip", "31 sie
    # o 20:27"), or as an abbreviation ("3 de Out."), it is the month's; a
    # capital is a name's ("iPhone 15 Pro", "Windows 11 Pro").
    written = [
        m
        for w in found
        for m in re.finditer(rf"(?<![^\W\d_]){re.escape(w)}(?![^\W\d_])", t.written, re.I)
    ]
    if not any(m[0][0].isupper() and not t.written.startswith(".", m.end()) for m in written):
        return ""
    return (
        f"the text names the month {month:02d} only by {sorted(found)[0]!r}, "
        "written with a capital as a name (a word of another language as "
        "often): with no year, no date"
    )
