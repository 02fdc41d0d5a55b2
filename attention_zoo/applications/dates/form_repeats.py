"""A repetition is no point of time: "every Monday" is no `weekday MON`.

The grammar writes one point or one span of time, not a set of them, as
the peers' answers are one value too. But a repeated day holds the words
of one ("Monday" in "every Monday", 周一 in 每周一), so forms52 answered
"every Monday" as the next Monday, valid. So a text that writes a word of
repetition (`expression_words.json` `repeats`: "every", "cada", "jeden",
每, كل) grounds no form (`repeat_disagreement`): the text is refused,
naming the word, as a reading the grammar cannot write.

The words are chosen to be no other word of the 27 languages where they
stand alone: Turkish "her" is English's too, so Turkish's are phrases
("her gün"); Italian's "alle" (at the) is German's "alle" (every), left
out. A holiday name holding one ("Día de Todos los Santos") is a name,
not a repetition: a word inside a longer phrase found does not count
(`phrase_spans.spans`).
"""

from __future__ import annotations

import functools

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.expression_pairs import words
from attention_zoo.applications.dates.formats import LANGUAGES


@functools.lru_cache(maxsize=16)
def marked_table(key: str, languages=LANGUAGES) -> dict[str, bool]:
    """`{phrase: marks}`: the hand-written words `key` of `languages`
    (`repeats`; `month_parts`, `form_parts`), and the holiday names, in
    which such a word is a name's (no mark: `phrase_spans.first_marked`)."""
    table = {p: False for p in form_words.holiday_phrases(languages)}
    for language in languages:
        for word in words(language).get(key, ()):
            table[phrase_spans.phrase(word, ends=" ")] = True
    return table


def repeat_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why `text` grounds no form: a word of repetition it writes; "" when
    it writes none."""
    word = phrase_spans.first_marked(text, marked_table("repeats", tuple(languages)))
    if word is None:
        return ""
    return f"the text writes {word!r}, a repetition: a set of times, which no form writes"
