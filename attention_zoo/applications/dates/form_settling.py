"""What code sets in a form the grounding refuses: the parts that are the calendar's or a format's.

The model reads which kind of expression a text writes and which of its
numbers and words are which part; some parts it writes are then not
language but a table or arithmetic: the half of the day a period puts an
hour in, the zone a text writes, the day a holiday name means, the digits
of an hour the text writes, the month a text writes once for both ends
of an interval (`form_clocks`, `form_holidays`, `months`), the week a
text names for its weekday (`form_weeks`: "Friday next week"), the day a
text names for its time (`form_days`: "noon tomorrow") and the time a
text names by a word for its day ("tomorrow noon"), and the grain
the text writes: a day, a month or "today" it writes nowhere is dropped
(`form_grains`: "March 2015" read `date 2015-03-08`). So a form
the grounding refuses is passed through `PASSES`, in order, each setting
only its part from the text, and checked again as any form
(`Normalizer.settled`); a form the grounding accepts is one no pass
changes (tested over every generated form:
tests/applications/dates/test_generated_grounding.py), so passing only
the refused ones changes no answer and costs nothing on the rest. A pass
never writes a form where the model wrote none, nor changes a form's
kind beyond what its part needs (an Easter day with a time is `at`; an
interval whose two ends are one point is that point, `points`; a form
less its unwritten part is the coarser form, `form_grains`).

The answer's `notes` name the passes that set a part and the form the
model wrote (`Normalizer.predict_items`). Python only.
"""

from __future__ import annotations

import dataclasses

from attention_zoo.applications.dates.form_clocks import hours, minutes, periods, zones
from attention_zoo.applications.dates.form_days import days, named_times
from attention_zoo.applications.dates.form_grains import grains
from attention_zoo.applications.dates.form_holidays import holidays
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.form_weeks import weeks
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import Date, DateTime, FormError, Interval


def points(t: FormText, parsed):
    """An interval whose two ends are the same point is that point: both
    ends are inclusive, so `time 06:30 / time 06:30` means what `time 06:30`
    does, and the grounding then asks the text to write its numbers once,
    not once per end ("um 6:30 Uhr" read so). Ends that differ in any part
    are left alone."""
    if isinstance(parsed, Interval) and parsed.start == parsed.end:
        return parsed.start
    return parsed


def _day(point):
    return point.date if isinstance(point, DateTime) else point


def months(t: FormText, parsed):
    """An interval of days whose one end takes a month the text names and
    whose other end a month it names nowhere: the latter set to the month
    the text names that the first end does not take, or, where the text
    names one month, to it. A text writes the month once for two days
    ("van 1 tot en met 5 mei 2023", "من ١ إلى ٥ مايو ٢٠٢٢") or once per
    end ("December 20, 2021 - January 3, 2022"), and which one is the
    start's is where it stands, not a reading of language; the model's
    month there (01, 07, 11) is a number the text never names. Left alone:
    a text naming its months by number only (`1.–6. 7. 2008`), both ends
    named or both unnamed, and more than one month left."""
    if not isinstance(parsed, Interval):
        return parsed
    ends = [_day(parsed.start), _day(parsed.end)]
    if not all(isinstance(d, Date) for d in ends):
        return parsed
    named = [d.month in t.months for d in ends]
    if named.count(True) != 1:
        return parsed
    other = ends[named.index(True)].month
    left = t.months - {other} or t.months
    if len(left) != 1:
        return parsed
    month = left.pop()

    def change(point):
        day = _day(point)
        if day.month in t.months:
            return point
        day = dataclasses.replace(day, month=month)
        if isinstance(point, DateTime):
            return dataclasses.replace(point, date=day)
        return day

    return Interval(change(parsed.start), change(parsed.end))


# One point first, so the passes after it set the point's parts. The day
# next (an Easter day with a time becomes `at`), then the grain (after the
# holiday pass has set a holiday's day, so no named day is dropped, and
# before the clock's passes, which then set the time it leaves); a period before
# the written hour, so an hour whose number is written with the other
# period moves to its half of the day (`सुबह 10 बजे` read as 22:00) and
# only an hour written nowhere takes another number; the minute after its
# hour is known.
PASSES = (
    ("point", points),
    ("holiday", holidays),
    ("week", weeks),
    ("day", days),
    ("named_time", named_times),
    ("grain", grains),
    ("month", months),
    ("period", periods),
    ("hour", hours),
    ("minute", minutes),
    ("zone", zones),
)


def settle(text: str, form: str, lexicon, days, languages=LANGUAGES):
    """`(form, set)`: `form` (the model's) through `PASSES` (module
    docstring), and the names of the passes that changed it; `form` itself
    when none did or when it is no form of the grammar (refused later, by
    name). `lexicon`, `days` and `languages` as
    `form_grounding.form_disagreement`'s."""
    try:
        parsed = parse_form(form)
    except FormError:
        return form, ()
    changed = []
    t = FormText(text, lexicon, days, languages)  # the passes only read it
    for name, step in PASSES:
        after = step(t, parsed)
        if after != parsed:
            changed.append(name)
            parsed = after
    return (str(parsed), tuple(changed)) if changed else (form, ())
