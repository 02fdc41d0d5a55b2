"""The settling passes `day` and `named_time`: the day or the time a text names by a word and the model left unread.

`day`: a run reads "noon tomorrow" and "غداً ١٠:٠٠" as a time alone
(`time 12:00`, the next noon), the day word unread; the grounding
refuses it (a relative word the form does not use:
`FormText.unused_relative`). Which day "tomorrow", "غداً", "明天" name is a
table's (`form_words.relative_phrases`, CLDR's named days and the
hand-written ones), not a reading of language, so a time alone whose
text names exactly one such day, by a text of no count ("in 3 days" is
the model's to read) and beside no other relative text, is that day at
its time: `time 12:00` for "noon tomorrow" is `shift day +1 at 12:00`.
Its clock is the model's and is grounded as any.

`named_time`: the other way round, a run reads "tomorrow noon" and
"Friday noon" as the day alone (`shift day +1`), the time word unread;
the grounding refuses a form with no clock in a text naming a time by a
word. Which time "noon", "mediodía", "正午" name is a table's
(`form_words.named_time_phrases`), so a form of one day with no clock
whose text names exactly one such time is that day at that time, where
the grammar writes one (`shift day +1 at 12:00`; not a shift by hours,
a month or an interval). The form is then grounded as any (a number the
model left unread is still refused), and a day's midnight so set is
refused by its own rule (`form_midnight`). Python only.
"""

from __future__ import annotations

from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.forms import (
    At,
    Date,
    Easter,
    FormError,
    Nth,
    Shift,
    Time,
    Weekday,
)

# The forms of one day that take ` at HH:MM` (the grammar refuses the rest).
_DAYS = (Date, Weekday, Nth, Easter, Shift)


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


def named_times(t: FormText, parsed):
    """`parsed`, a day, at the time its text names by a word (module
    docstring), or `parsed` itself."""
    if not isinstance(parsed, _DAYS):
        return parsed
    named = t.named(t.table("named_time_phrases"))
    if len(named) != 1:
        return parsed
    ((hour, minute),) = named
    try:
        return parse_form(f"{parsed} at {hour:02d}:{minute:02d}")
    except FormError:  # a shift by hours or minutes names no day
        return parsed
