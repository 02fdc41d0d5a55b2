"""A day with its part of the day is no whole day: "last night" is not yesterday.

The hand-written days with a part of the day (`expression_words.json`
`day_periods`: "tonight", "last night", "esta tarde", "heute Abend",
今晚) name a span of hours, which no form of the grammar has; the
generator writes them only with a time ("last night at 11",
`expr_day_periods`), and the grounding reads each as its day
(`form_words.relative_phrases`) so that the time's day is grounded. Read
alone, that made "last night" `shift day -1` valid, the whole of
yesterday, and "tonight" today: an answer of the wrong span, however
confident. So a text writing one makes no answer without a time of the
day (`part_of_day_disagreement`, asked of every answer as the street
and part rules are: `form_answers`), and none whose hour the text
writes only inside the part's name ("demain après-midi" read as noon by
its "midi"): outside the name it must write the answer's hour as a
number, on a 24- or 12-hour clock ("tonight at 8" for 20:00; "demain
après-midi pour 2 personnes" writes no 12), or a word of noon or
midnight. "tonight at 8" (`shift day 0 at 20:00`) stays; an hour in
words ("tonight at eight") is refused, as the generator writes none.
Python only: the graph reads no form.
"""

from __future__ import annotations

import functools
import re

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.expression_pairs import words
from attention_zoo.applications.dates.formats import LANGUAGES

# The grains of an answer that gives a time of its day (the resolver's).
TIMED = frozenset({"hour", "minute", "second"})


@functools.lru_cache(maxsize=8)
def part_of_day_phrases(languages=LANGUAGES) -> dict[str, None]:
    """The `day_periods` texts of `languages`, as phrases."""
    return {
        phrase_spans.phrase(text): None
        for language in languages
        for text in words(language).get("day_periods", {}).get("texts", {})
    }


def part_of_day_disagreement(
    text: str, grain: str, value: str = "", languages=LANGUAGES
) -> str:
    """Why an answer of `grain` and ISO `value` (the resolver's) is no
    reading of `text`, which writes a day with its part of the day and not
    the answer's time; "" when it writes none, or writes the first hour of
    `value` outside the part's name."""
    written = phrase_spans.normalized(text)
    found = phrase_spans.spans(written, part_of_day_phrases(tuple(languages)))
    if not found:
        return ""
    part = found[0][2]
    if grain not in TIMED:
        return (
            f"the text writes {part!r}, a part of a day, which only a time "
            "of that day reads"
        )
    rest = written
    for start, end, _, _ in sorted(found, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    hour = re.search(r"T([0-9]{2})", value)
    numbers = {int(n) for n in re.findall("[0-9]+", rest)}
    if hour and numbers & clock_numbers(int(hour[1])):
        return ""
    named = form_words.named_time_phrases(tuple(languages))
    if phrase_spans.spans(rest, named):
        return ""
    return (
        f"the text writes {part!r}, a part of a day, and not the answer's "
        "hour outside its name"
    )


def clock_numbers(hour: int) -> set[int]:
    """The numbers that write `hour` (0-23): on a 24-hour clock, and on a
    12-hour one (20 is 8, 0 is 12)."""
    if not 0 <= hour <= 23:
        raise ValueError(f"hour must be in 0-23. Received: hour={hour!r}")
    return {hour, hour % 12 or 12}
