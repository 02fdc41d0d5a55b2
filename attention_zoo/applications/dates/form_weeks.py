"""A weekday of a named week: `week +1 FRI` ("Friday next week", 下周五).

"Friday next week", "nächste Woche Freitag", "volgende week vrijdag",
"下周五" and "来週の金曜日" name the Friday of the ISO week after the
reference's (Monday to Sunday), which "the next Friday" (`weekday +1 FRI`)
is not from a Thursday on: the form `week K DOW` says it, K weeks from the
reference's week (K not 0: this week's Friday is `weekday 0 FRI`). The
generator writes these texts (`expr_weeks.py`) since 2026-12-04; a run
taught before reads them as a weekday, its "next" a selector (`weekday +1
FRI`). Which week the text names is a phrase of a table
(`form_weekdays.named_week`: CLDR's "next week", "下周"), not a reading of
language, so:

- the grounding (`week_form_disagreement`) asks `week K DOW` for its
  weekday's name and a text naming the week K, and refuses a weekday form
  of a text that names a week other than this one: its day is that
  week's, which the form does not say;
- the settling pass `weeks` makes such a form that week's weekday, the
  weekday the model read (which the grounding then asks the text to name),
  its selector (the model's reading of "next") dropped: `weekday +1 FRI`
  for "Friday next week" is `week +1 FRI`, `weekday MON at 10:00` for
  "volgende week maandag om 10:00" `week +1 MON at 10:00`, each end of an
  interval ("Monday to Friday next week") so.

The answer is then checked as any: its day must fall in the week the text
names (`form_weekdays.week_disagreement`) on the weekday it names.
Python only.
"""

from __future__ import annotations

from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.form_weekdays import named_week
from attention_zoo.applications.dates.forms import WEEKDAYS, At, Interval, Weekday


def week_form_disagreement(t: FormText, form: Weekday) -> str:
    """Why the text does not write the week of `form`, or writes a week a
    weekday form without one leaves unsaid; "" otherwise (the weekday's
    name is `form_grounding`'s check)."""
    week = named_week(t.written, t.languages)
    if form.week is not None and week != form.week:
        return (
            f"the form's week {form.week:+d} is not written in the text: no word "
            "of a taught language names that week with a weekday (next week, 下周)"
        )
    if form.week is None and week not in (None, 0):
        return (
            f"the text names a weekday of the week {week:+d} from the reference's, "
            f"which the form does not say (`week {week:+d} {WEEKDAYS[form.weekday]}`)"
        )
    return ""


def weeks(t: FormText, parsed):
    """`parsed` with each weekday form of a text naming a week other than
    this one made that week's weekday (module docstring), or `parsed`."""
    if isinstance(parsed, Interval):
        start, end = weeks(t, parsed.start), weeks(t, parsed.end)
        return Interval(start, end)
    if isinstance(parsed, At):
        return At(weeks(t, parsed.day), parsed.clock)
    if not isinstance(parsed, Weekday) or parsed.week is not None:
        return parsed
    if parsed.select not in (None, -1, 0, 1):  # a count ("in 2 Fridays")
        return parsed
    week = named_week(t.written, t.languages)  # the weekday's name: grounded after
    return parsed if week in (None, 0) else Weekday(parsed.weekday, week=week)
