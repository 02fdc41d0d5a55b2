"""A street named after a day is no date: "Rue du 4 septembre" is no 4 September.

Streets, squares and avenues are named after days across the languages
we read ("Place du 8 mai 1945", "Avenida 9 de Julio", "ул. 8 Марта",
"ulica 3 Maja", "19 Mayıs Caddesi", "12 April Road"), and the name holds
every word and number of the day, so forms52 answered them as that day,
valid. An answer is not valid where its text writes a street's word
(`expression_words.json` `streets`) right beside a day: `before` words
right before its digits or month name, with the article the names
write ("rue du 4", "plaza 2 de mayo", "ul. 3 maja"), `after` words right
after them ("12 April Road", "Október 6. utca"). Each language's words stand on the side its
names put them, which keeps common words out of the rule: English "took
place 3 May 2015" is a date (French "place" is a `before` word only with
its article, "place du"), and "via" is Italian's before its day only;
no word between (Spanish "reservar plaza el 3 de mayo" books a seat).
A street word elsewhere in the text ("Main Street on 3 May") leaves the
day alone. Python only, on the answer (`form_answers.answer`), as the
rules of `form_midnight`.
"""

from __future__ import annotations

import functools
import re

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.expression_pairs import words
from attention_zoo.applications.dates.formats import LANGUAGES

_DIGITS = re.compile(r"[0-9]")


@functools.lru_cache(maxsize=8)
def _tables(languages=LANGUAGES) -> tuple[dict, dict]:
    """The `before` and `after` street words of `languages`, as phrases."""
    sides: tuple[dict, dict] = ({}, {})
    for language in languages:
        streets = words(language).get("streets", {})
        for table, side in zip(sides, ("before", "after")):
            for word in streets.get(side, ()):
                table[phrase_spans.phrase(word, ends=" ")] = None
    return sides


def _starts_a_day(text: str, months) -> bool:
    """Whether `text` starts with digits or a month's name."""
    return bool(_DIGITS.match(text)) or any(
        text.startswith(m) and not text[len(m) : len(m) + 1].isalpha() for m in months
    )


def _ends_a_day(text: str, months) -> bool:
    """Whether `text` ends with digits (a dot after them allowed: `6.`) or
    a month's name."""
    text = text.removesuffix(".")
    return bool(_DIGITS.match(text[-1:])) or any(
        text.endswith(m) and not text[-len(m) - 1 : -len(m)].isalpha() for m in months
    )


def street_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why the day an answer reads in `text` is a street's name: the street
    word right beside the day (module docstring); "" when there is none."""
    languages = tuple(languages)
    normalized = phrase_spans.normalized(text)
    before, after = _tables(languages)
    months = form_words.month_phrases(languages)
    for _, end, p, _ in phrase_spans.spans(normalized, before):
        rest = normalized[end:].removeprefix(".").lstrip(" ")  # `ul. 3 maja`
        if _starts_a_day(rest, months):
            return f"the text writes {p!r} before the day: a street's name, no date"
    for start, _, p, _ in phrase_spans.spans(normalized, after):
        if _ends_a_day(normalized[:start].rstrip(), months):
            return f"the text writes {p!r} after the day: a street's name, no date"
    return ""
