"""Half a unit is no whole one: "half an hour ago" is no `shift hour -1`.

A shift counts whole units, and half of one has no form (half an hour is
a shift in minutes, grounded only where the text writes the minutes).
But the relative texts the grounding reads hold the whole unit's words:
"an hour ago" is CLDR's `shift hour -1`, and is inside "half an hour
ago"; so the preset answered "half an hour ago" as 08:00 at 09:00, and
"half a day ago" as yesterday, valid. So a relative text
(`form_words.relative_phrases`) written right after a word that halves
its unit (`expression_words.json` `halves`: "half an", "einer halben",
"media", "une demi-") grounds no relative form (`half_disagreement`):
the text is refused, naming the half, as a reading the grammar cannot
write. A half of a clock ("3点半", "half past") is no relative text's and
is not concerned. Half an hour written as people write it ("half an hour
ago", "через полчаса") is a hand-written `relative` text of its own
(`shift minute -30`), which holds the hour's text inside it, so no
relative text follows its half there.
"""

from __future__ import annotations

import functools

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.expression_pairs import words
from attention_zoo.applications.dates.formats import LANGUAGES


@functools.lru_cache(maxsize=8)
def half_words(languages=LANGUAGES) -> tuple[str, ...]:
    """The `halves` of `languages`, normalized as the model's input, longest first."""
    found = {
        phrase_spans.phrase(w, ends=" ")
        for language in languages
        for w in words(language).get("halves", ())
    }
    return tuple(sorted(found, key=lambda w: (-len(w), w)))


def half_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why `text` grounds no relative form: the half word written right
    before one of its relative texts; "" when it writes none."""
    languages = tuple(languages)
    normalized = phrase_spans.normalized(text)
    table = form_words.relative_phrases(languages)
    for start, _, p, _ in phrase_spans.spans(normalized, table):
        before = normalized[:start].rstrip()
        for half in half_words(languages):
            # A whole word: "behalf" ends in no half.
            if before.endswith(half) and not before[: -len(half)][-1:].isalpha():
                return (
                    f"the text writes {half!r} before {p!r}: half a unit, "
                    "which no relative form writes"
                )
    return ""
