"""A part of a month or a year is no month, day or year: "end of May" is no May.

The grammar writes a day, a month, a year or a span of them, but no part
of one: "end of May", "Anfang 2020", "mediados de junio", 月底, 上旬 name
days the text leaves to the reader. The text holds the month's name, so
the preset answered "fin mai" as `month --05`, the whole of May, valid: a
value wider than the one meant, given as if meant. So a text writing a
word of a part of a month or a year (`expression_words.json`
`month_parts`: "end of", "early", "Ende", "finales de", 月底, 上旬) makes
no answer (`part_disagreement`, asked of every answer as the choice rule
is: `form_answers`), naming the word.

The words are chosen to be no other word of the 27 languages where they
stand alone: Italian "fine" is English's, Dutch "begin" English's verb,
French "mi" Spanish's "my", each left out. A holiday name holding one is
a name (`form_repeats.marked_table`). No generated text writes one
(tests/applications/dates/test_form_parts.py).
"""

from __future__ import annotations

from attention_zoo.applications.dates import phrase_spans
from attention_zoo.applications.dates.form_repeats import marked_table
from attention_zoo.applications.dates.formats import LANGUAGES


def part_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why `text` makes no answer: a word of a part of a month or a year
    it writes; "" when it writes none."""
    word = phrase_spans.first_marked(
        text, marked_table("month_parts", tuple(languages))
    )
    if word is None:
        return ""
    return (
        f"the text writes {word!r}, a part of a month or a year, which no "
        "form writes (the answer would be the whole of it)"
    )
