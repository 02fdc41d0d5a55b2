"""What code sets in a form's day from a holiday name: the day the name means.

Which day "Wigilia" or "Cumhuriyet Bayramı" is, is the calendar's (a fixed
date, or days from Easter: `expr_computed.HOLIDAY_MEANINGS`), the same
table the grounding grounds a holiday form by (`form_words.holiday_phrases`).
So where the model read a holiday's kind of form and wrote another day
(`date --10-25` for Cumhuriyet Bayramı, `easter +49 2021` for Wigilia
2021), `holidays`, a pass of `form_settling.PASSES`, sets the day part to
the one day the text's holiday names mean:

- the form is one day (`date`, `easter`, or either with a time: `datetime`,
  `at`), not an interval, and its day part is written nowhere in the text
  (an `easter` offset is no number of it; a date's day is not among the
  text's numbers: "24.12.2021, Wigilia" is the numbers' date);
- the text's holiday names mean exactly one day (a name inside a longer one
  found does not count, `phrase_spans`: "Easter" in "Easter Monday");
- the year and, for a date, the selector (`date +1 --12-25`) stay the
  model's; an `easter` meaning takes a selected date's place only where
  the date has no selector, which `easter` cannot write.

The grounding then checks the whole form again. A form it accepts is one
this pass leaves alone: its day is a holiday name's meaning, and the one
named, or a day its text writes. Python only.
"""

from __future__ import annotations

import dataclasses

from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.forms import At, Date, Easter


def _meaning(day) -> tuple | None:
    if isinstance(day, Date):
        return ("date", day.month, day.day)
    if isinstance(day, Easter):
        return ("orthodox-easter" if day.orthodox else "easter", day.days)
    return None


def _as_meaning(meaning: tuple, day):
    """The day of holiday `meaning` in the year (and selector) of `day`."""
    if meaning[0] == "date":
        select = day.select if isinstance(day, Date) else None
        return Date(meaning[1], meaning[2], day.year, select)
    if isinstance(day, Date) and day.select is not None:
        return None
    return Easter(meaning[1], day.year, orthodox=meaning[0] == "orthodox-easter")


def holidays(t: FormText, parsed):
    """`parsed` with its day the one the text's holiday names mean, where
    the model wrote a day the text writes nowhere (module docstring)."""
    day = parsed.day if isinstance(parsed, At) else getattr(parsed, "date", parsed)
    meanings = t.named(t.table("holiday_phrases"))
    if _meaning(day) is None or len(meanings) != 1:
        return parsed
    meaning = meanings.pop()
    if meaning == _meaning(day) or (isinstance(day, Date) and day.day in t.numbers):
        return parsed
    new = _as_meaning(meaning, day)
    if new is None:
        return parsed
    if isinstance(parsed, (Date, Easter)):
        return new
    if isinstance(parsed, At):
        return dataclasses.replace(parsed, day=new)
    # A date with a time holds a date; an Easter day with one is `at`.
    if isinstance(new, Date):
        return dataclasses.replace(parsed, date=new)
    return At(new, parsed.clock)
