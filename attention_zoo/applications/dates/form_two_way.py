"""A relative word of two opposite meanings is no reading: Hindi कल is yesterday and tomorrow.

CLDR writes Hindi's कल for both "yesterday" and "tomorrow" and परसों for
both "the day before yesterday" and "the day after tomorrow"; which one a
speaker means is the tense of the sentence around it, which a date's
text seldom holds. The generator leaves such texts out
(`expressions.ambiguous`), so no form is grounded by them, and the
grounding's relative words (`form_words.relative_phrases`) leave them out
too; but then a form that uses no relative word was not asked about
them, and forms56 answered "कल सुबह 10 बजे" (yesterday's or tomorrow's 10
a.m.) as `time 10:00`, today's, valid. So a text that writes such a word
grounds no form (`two_way_disagreement`), naming the word and its two
meanings.

A text CLDR writes for two forms of one direction (Danish "på fredag",
this Friday and next Friday: `weekday 0 FRI`, `weekday +1 FRI`) is
left alone: its two readings name one day in all but the week of a
Friday itself, and the selector rule reads it as the model writes it.
"""

from __future__ import annotations

import functools

from attention_zoo.applications.dates import phrase_spans
from attention_zoo.applications.dates.formats import LANGUAGES


def _signs(forms) -> set[int]:
    """The directions of `forms`' shifts (`shift day -1`: -1)."""
    out = set()
    for form in forms:
        head, *rest = form.split()
        if head == "shift" and rest[-1] != "0":
            out.add(1 if rest[-1].startswith("+") else -1)
    return out


@functools.lru_cache(maxsize=8)
def _table(languages=LANGUAGES) -> dict[str, tuple[str, ...]]:
    """`{phrase: its forms}`: the texts CLDR writes for shifts of both
    directions in one of `languages`."""
    from attention_zoo.applications.dates.expressions import ambiguous
    from attention_zoo.applications.dates.formats import LOCALES

    table = {}
    for language in languages:
        if language not in LOCALES:
            continue
        for text, forms in ambiguous(language).items():
            if _signs(forms) == {-1, 1}:
                table[phrase_spans.phrase(text, ends=" ")] = tuple(sorted(forms))
    return table


def two_way_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why `text` grounds no form: a relative word it writes that means a
    day before and a day after now; "" when it writes none."""
    table = _table(tuple(languages))
    word = phrase_spans.first_marked(text, table)
    if word is None:
        return ""
    meanings = " or ".join(table[word])
    return f"the text writes {word!r}, which means {meanings}: which one, the text does not say"
