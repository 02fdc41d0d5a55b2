"""The settling pass `grain`: a part the text writes nowhere, dropped.

A model taught both "3 March 2015" -> `date 2015-03-03` and "March 2015"
-> `month 2015-03` sometimes writes the finer form for a text that writes
the coarser one: a day for "March 2015" (`date 2015-03-08`), a month for
"सन १९४७" (`month 1947-08`), "today" for "at 8:30 am" (`shift day 0 at
08:30`). The grounding refuses the part the text gives no ground for;
the rest of the form is the text's reading, and which grain the text
writes is what it writes, not a reading of language. So the part is
dropped, one step, and only where nothing in the text could be it:

- `date Y-M-D` (its year written or open) in a text whose numbers are
  all the year's or the month's, that writes no day in words and no
  holiday name: `month Y-M`;
- `month Y-M` in a text whose numbers are all the year's and that names
  no month: `year Y`;
- `shift day 0 at T` in a text no relative word of which names today:
  `time T`;

and, for a month or a time, only in a text whose every word but its month
words is one the generator writes in a text of that kind (`grain_words`):
a word the model misread (Portuguese "sexta", Friday without its `-feira`, read
as today) is no part unwritten. A year alone has that check of its own
(`form_years`).

The coarser form is then checked as any form (`Normalizer.settled`): its
year, month and clock must be written, a time's text must write no
relative word ("tomorrow at 8:30" read `shift day 0 at 08:30` stays
refused). Python only.
"""

from __future__ import annotations

import functools

from attention_zoo.applications.dates import expr_days, expr_spoken, expr_times
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.form_years import words_of
from attention_zoo.applications.dates.forms import (
    At,
    Date,
    Month,
    Shift,
    Time,
    YearForm,
)

_TODAY = Shift((("day", 0),))
# The generator's makers of the texts of months and of times alone.
_MAKERS = (expr_days.partial, expr_times.times, expr_spoken.spoken)


@functools.lru_cache(maxsize=16)
def grain_words(head: str, languages: tuple) -> frozenset[str]:
    """The words the generator writes in `languages`' texts whose form
    starts with `head` ("month", "time"), intervals left out."""
    out = set()
    for language in languages:
        for make in _MAKERS:
            for pair in make(language):
                if pair.form.split()[0] == head and "/" not in pair.form:
                    out |= words_of(pair.text)
    return frozenset(out)


def _only_words_of(t: FormText, head: str) -> bool:
    return t.other_words <= grain_words(head, t.languages)


def _numbers_only(t: FormText, year, month: int | None = None) -> bool:
    """Whether every number of the text is the year's (as the form writes
    it: `'79` is 79) or the month's: a number left over could be the part."""
    return t.numbers <= {month, None if year is None else year.value}


def _day_unwritten(t: FormText, date: Date) -> bool:
    if date.day in t.numbers or t.day_words:  # "3 March" is the 3rd, not March
        return False
    if not _numbers_only(t, date.year, date.month):
        return False
    if t.spans(t.table("holiday_phrases")):  # a holiday's day is its name's
        return False
    return _only_words_of(t, "month")


def grains(t: FormText, parsed):
    """`parsed` with the part the text writes nowhere dropped (module
    docstring), or `parsed` itself."""
    if isinstance(parsed, Date) and _day_unwritten(t, parsed):
        return Month(parsed.month, parsed.year, parsed.select)
    if isinstance(parsed, Month) and parsed.year is not None:
        if not t.months and _numbers_only(t, parsed.year):
            return YearForm(parsed.year)
    if isinstance(parsed, At) and parsed.day == _TODAY:
        named = t.named(t.table("relative_phrases"))
        if str(_TODAY) not in named and _only_words_of(t, "time"):
            return Time(parsed.clock)
    return parsed
