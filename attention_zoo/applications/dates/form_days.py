"""The settling pass `day`: a time whose text names its day relative to today.

A run reads "noon tomorrow" and "غداً ١٠:٠٠" as a time alone (`time
12:00`, the next noon), the day word unread; the grounding refuses it (a
relative word the form does not use: `FormText.unused_relative`). Which
day "tomorrow", "غداً", "明天" name is a table's (`form_words.relative_phrases`,
CLDR's named days and the hand-written ones), not a reading of language,
so a time alone whose text names exactly one such day, by a text of no
count ("in 3 days" is the model's to read) and beside no other relative
text, is that day at its time: `time 12:00` for "noon tomorrow" is `shift
day +1 at 12:00`. Its clock is the model's and is grounded as any.
Python only.
"""

from __future__ import annotations

from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.forms import At, Shift, Time


def days(t: FormText, parsed):
    """`parsed` as the day its text names at its time (module docstring),
    or `parsed` itself."""
    if not isinstance(parsed, Time):
        return parsed
    table = t.table("relative_phrases")
    named = {f for p in t.relative_words() for f in table[p]}
    if len(named) != 1:
        return parsed
    (form,) = named  # a counted pattern's is a tuple, a named text's a form
    day = parse_form(form) if isinstance(form, str) else None
    if not isinstance(day, Shift) or [u for u, _ in day.steps] != ["day"]:
        return parsed
    return At(day, parsed.clock)
