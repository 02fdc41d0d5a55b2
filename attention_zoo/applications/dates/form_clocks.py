"""What code sets in a form's clocks from its text: the hour by the day period, the zone written.

"शाम 7:00 बजे" is 19:00 and "सुबह 10 बजे" 10:00: which number is the hour
is language, and the model reads it; which half of the day a period word
puts that number in is a table (`form_words.period_phrases`: CLDR's
a.m./p.m. and day periods, with the hours each is written with) and
arithmetic. Likewise the zone of "22:00 по московскому времени" or
"08:25:00Z" is a format and a table (`FormText.written_zones`). So a form
the grounding refuses is passed through `PASSES` by `settle`, in order, and
checked again (`Normalizer.settled`); a form it accepts is one no pass
changes (its hour agrees with the period beside its number; a text that
writes a zone has it), so passing only the refused ones changes no answer
and costs nothing on the rest:

- `periods`: the hour `h` of a clock of the form, the text writing `h % 12`
  (or 12 for 0 and 12) with a period beside it (only clock words between:
  `7:00 बजे`, `4 Uhr nachm.`; in an interval whose ends share one period,
  `10:55 – 11:55 p.m.`, that period), and `h` not among the period's hours:
  where the period's hours hold exactly one of `h % 12` and `h % 12 + 12`,
  that hour is the clock's. Where they hold both or neither, or the text
  writes the hour as 13-23 itself (`17:00 Uhr`), the hour stays the model's.
- `zones`: a form whose clocks write no zone, of a text that writes exactly
  one (an abbreviation in capitals, `EST`; `Z` after a number; a zone
  named in words, `по московскому времени`, `北京时间`: the hand-written
  `zone_names`), gets that zone on every clock (`10:00-12:00 UTC`: both
  ends). A text writing two zones, or a form that writes one, is left alone.

Only those parts change; the numbers, the day and every other part are the
model's, and the grounding then checks the whole form against the text as
any other (`form_grounding`): a form whose hours are another number's
(`上午10点到下午2点` read as 10:00 to 22:00) stays refused, since its 2 is
unused. The answer's `notes` say what was set and what the model wrote
(`Normalizer.predict_items`). Python only.
"""

from __future__ import annotations

import dataclasses
import re

from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import (
    At,
    DateTime,
    FormError,
    Interval,
    Time,
)
from attention_zoo.applications.dates.text_words import words

# A number and the numbers a clock writes after it (`5`, `5:30`, `17h30`).
_TOKEN = re.compile(r"(?<![0-9])([0-9]+)((?:[:.h][0-9]+)*)")
_DIGIT = re.compile("[0-9]")
_CLOCK = re.compile(r"[0-9]{2}:[0-9]{2}")  # a form with a clock writes one


def periods_beside(t: FormText, values: set[int]) -> dict[str, frozenset[int]]:
    """The text's periods beside a number of `values` (`5:30 pm`, `4 Uhr nachm.`:
    only clock words between), a clock first (`через 3 дня в 03:30`: `03:30`)."""
    tokens = [m for m in _TOKEN.finditer(t.text) if int(m[1]) in values]
    tokens = [m for m in tokens if m[2]] or tokens
    table = t.table("period_phrases")
    out = {}
    for start, end, p, _ in t.spans(table):
        for m in tokens:
            if end <= m.start():
                gap = t.text[end : m.start()]
            elif m.end() <= start:
                gap = t.text[m.end() : start]
            else:
                continue
            if set(words(gap)) <= t.table("clock_words") and not _DIGIT.search(gap):
                out[p] = table[p]
    if not out and t.interval:  # `10:55 – 11:55 p.m.`: one period for both
        out = {p: table[p] for p in t.found(table)}
    return out


def hour_by_period(t: FormText, hour: int) -> int:
    """`hour` (0-23) as the period beside its number sets it (module
    docstring), or `hour` itself."""
    twelve = {hour % 12, hour % 12 or 12}
    if not twelve & t.numbers or (hour > 12 and hour in t.numbers):
        return hour
    periods = periods_beside(t, twelve | {hour})
    hours = set().union(*periods.values())
    if not periods or hour in hours:
        return hour
    dial = {h for h in (hour % 12, hour % 12 + 12) if h in hours}
    return dial.pop() if len(dial) == 1 else hour


def _clocks(point) -> list:
    return [point.clock] if isinstance(point, (Time, DateTime, At)) else []


def _with_clock(point, change):
    if not _clocks(point):
        return point
    return dataclasses.replace(point, clock=change(point.clock))


def _each_point(parsed, change):
    if isinstance(parsed, Interval):
        return Interval(
            _with_clock(parsed.start, change), _with_clock(parsed.end, change)
        )
    return _with_clock(parsed, change)


def periods(t: FormText, parsed):
    """`parsed` with each clock's hour set by its period (module docstring)."""
    t.interval = isinstance(parsed, Interval)
    return _each_point(
        parsed, lambda c: dataclasses.replace(c, hour=hour_by_period(t, c.hour))
    )


def zones(t: FormText, parsed):
    """`parsed` with the one zone its text writes on every clock, where no
    clock writes one (module docstring)."""
    points = [parsed.start, parsed.end] if isinstance(parsed, Interval) else [parsed]
    clocks = [c for p in points for c in _clocks(p)]
    written = set(t.written_zones().values())
    if not clocks or any(c.zone for c in clocks) or len(written) != 1:
        return parsed
    zone = written.pop()
    return _each_point(parsed, lambda c: dataclasses.replace(c, zone=zone))


PASSES = (("period", periods), ("zone", zones))


def settle(text: str, form: str, lexicon, days, languages=LANGUAGES):
    """`(form, set)`: `form` (the model's) through `PASSES` (module
    docstring), and the names of the passes that changed it; `form` itself
    when none did or when it is no form of the grammar (refused later, by
    name). `lexicon`, `days` and `languages` as
    `form_grounding.form_disagreement`'s."""
    if not _CLOCK.search(form):
        return form, ()
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
