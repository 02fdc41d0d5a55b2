"""A "next" or "last" the form does not use: "last March" is no `month --03`.

A form that leaves its day, month or year to the policy (`month --03`,
`weekday FRI`, `date --12-25`) means the next one on or after the
reference; the text "last March" means the one before it, and holds the
month's name, so a model that dropped the selector would be answered a
year off, valid. So a form with no relative part (`forms.relative_part`:
no shift, cycle, selector or named week) reading a text that writes a
word of CLDR's "last ..." or "next ..." (`form_words.direction_phrases`
of -1 and +1) makes no answer, naming the word.

Asked only of a form with such an open part (a day, month, weekday or
Easter without a year: "Last updated: 3 May 2015" writes its year); not
of an nth weekday, whose "last" is its ordinal ("the last Sunday of
March", `nth -1 SUN --03`), nor of a time alone. Left out: the words of
"this" (`0`), which are common words of sentences ("this is 3 May"), as
`expr_selected_months` writes them only with a month. A word of a relative phrase ("last
night") is `FormText.unused_relative`'s, asked first.
"""

from __future__ import annotations

from attention_zoo.applications.dates.forms import (
    At,
    Interval,
    Nth,
    Time,
    relative_part,
)
from attention_zoo.applications.dates.resolver import leaves_open


def _open(form) -> bool:
    """Whether the policy picks `form`'s year (or its weekday's week), as
    the resolver says (`resolver.leaves_open`), bar an nth weekday and a
    time alone."""
    day = form.day if isinstance(form, At) else form
    return not isinstance(day, (Nth, Time)) and leaves_open(day)


def unused_direction(t, form) -> str:
    """Why `form` (parsed) does not read `t` (a `FormText`) whole: the first
    word of "next" or "last" the text writes, when the form leaves a part
    to the policy (`_open`) and uses no selector; "" otherwise."""
    ends = (form.start, form.end) if isinstance(form, Interval) else (form,)
    if relative_part(form) or not any(_open(end) for end in ends):
        return ""
    directions = t.table("direction_phrases")
    for sign, meaning in ((-1, "last"), (1, "next")):
        written = sorted(t.found(directions[sign]))
        if written:
            return (
                f"the text writes {written[0]!r} ({meaning!r}), a selector "
                "the form does not use"
            )
    return ""
