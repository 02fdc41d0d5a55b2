"""What code sets in a form's clocks from its text: hour, minute, day period, zone.

"शाम 7:00 बजे" is 19:00 and "सुबह 10 बजे" 10:00: which number is the hour
is language, and the model reads it; which half of the day a period word
puts that number in is a table (`form_words.period_phrases`: CLDR's
a.m./p.m. and day periods, with the hours each is written with) and
arithmetic. The digits of an hour are the text's, as the grounding
demands, and so are the minutes written after them; the zone of "22:00
по московскому времени" or "08:25:00Z" is a format and a table
(`FormText.written_zones`). These are passes of
`form_settling.PASSES`, run in this order on a form the grounding refuses:

- `periods`: the hour `h` of a clock of the form, the text writing `h % 12`
  (or 12 for 0 and 12) with a period beside it (only clock words between:
  `7:00 बजे`, `4 Uhr nachm.`; after a day with its part of the day also
  an `at` word, "tonight at 8"; in an interval whose ends share one period,
  `10:55 – 11:55 p.m.`, that period), and `h` not among the period's hours:
  where the period's hours hold exactly one of `h % 12` and `h % 12 + 12`,
  that hour is the clock's. Where they hold both or neither, or the text
  writes the hour as 13-23 itself (`17:00 Uhr`), the hour stays the model's.
- `hours`: the one clock of the form whose hour the text writes nowhere
  (not its digits, nor its dial number with a period taking it: "um 6:30
  Uhr" read as 18:30, "в 22:00" as 12:00) takes the one number the text
  writes as a clock's hour (`FormText.clock_hours`: before minutes, an
  `h`, a clock word or a period, or in an `hours` pattern) that the form's
  other clock does not hold ("von 10 bis 22 Uhr" read as 10:00 to 12:00:
  the 22). Where two clocks are unwritten, or the text writes no such
  number or two (`12.03.2020 um 8 Uhr`: the 12 reads as a clock too), the
  hour stays the model's. The number is put in its half of the day as
  `periods` puts one (`晚上8点` read as 22:00: 8, then 20).
- `minutes`: a clock of the form at minute 00, no seconds written, whose
  hour's digits the text writes with one minute after them and a clock's
  separator (`21h20`, `21:20`, `21.20`, with spaces or not), gets that
  minute: "13 novembre 2015 à 21h20" read at 21:00 is 21:20. A minute
  the model wrote is never changed, and two minutes after the hour leave
  it the model's.
- `zones`: a form whose clocks write no zone, of a text that writes exactly
  one (an abbreviation in capitals, `EST`; `Z` after a number; a zone
  named in words, `по московскому времени`, `北京时间`: the hand-written
  `zone_names`), gets that zone on every clock (`10:00-12:00 UTC`: both
  ends). A text writing two zones, or a form that writes one, is left alone.

A form the grounding accepts is one no pass changes: its hours are
written, agree with the period beside their number, and a text that
writes a zone has it. Python only.
"""

from __future__ import annotations

import dataclasses
import functools
import re

from attention_zoo.applications.dates.data import normalize
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.forms import At, DateTime, Interval, Time
from attention_zoo.applications.dates.phrase_spans import phrase
from attention_zoo.applications.dates.text_words import words

# A number and the numbers a clock writes after it (`5`, `5:30`, `17h30`).
_TOKEN = re.compile(r"(?<![0-9])([0-9]+)((?:[:.h][0-9]+)*)")
_DIGIT = re.compile("[0-9]")


@functools.lru_cache(maxsize=8)
def _day_parts(languages) -> tuple[frozenset[str], frozenset[str]]:
    """The phrases of a day with its part of the day (`day_periods`:
    "tonight", "ce soir"), and the words of the hand-written `at` joiners
    ("at", "à", "um", "в") that stand between one and its hour ("tonight
    at 8"); after another period, no: Polish "r." (rok) is a period
    elsewhere, and "24 września 2064 r. o 11" is 11:00."""
    from attention_zoo.applications.dates.expression_pairs import words as written

    parts: set[str] = set()
    joining: set[str] = set()
    for language in languages:
        found = written(language)
        parts |= {phrase(p, " ") for p in found.get("day_periods", {}).get("texts", {})}
        for joiner in found.get("at", ()):
            bare = joiner.replace("{day}", " ").replace("{time}", " ")
            joining |= set(words(normalize(bare) or ""))
    return frozenset(parts), frozenset(joining)


def periods_beside(t: FormText, values: set[int]) -> dict[str, frozenset[int]]:
    """The text's periods beside a number of `values` (`5:30 pm`, `4 Uhr nachm.`:
    only clock words between; after a day with its part of the day also an
    `at` word: "tonight at 8"), a clock first (`через 3 дня в 03:30`: `03:30`)."""
    tokens = [m for m in _TOKEN.finditer(t.text) if int(m[1]) in values]
    tokens = [m for m in tokens if m[2]] or tokens
    table = t.table("period_phrases")
    parts, joining = _day_parts(t.languages)
    out = {}
    for start, end, p, _ in t.spans(table):
        for m in tokens:
            allowed = t.table("clock_words")
            if end <= m.start():
                gap = t.text[end : m.start()]
                allowed = allowed | joining if p in parts else allowed
            elif m.end() <= start:
                gap = t.text[m.end() : start]
            else:
                continue
            if set(words(gap)) <= allowed and not _DIGIT.search(gap):
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


def written_hour(t: FormText, clock) -> bool:
    """Whether the text writes `clock`'s hour: its digits, its dial number
    with a period that takes it, or a name (`noon`). The grounding
    (`form_grounding._clock`) refuses a clock whose hour this says is
    unwritten, and the hour pass settles only such a clock: one rule."""
    hour, twelve = clock.hour, {clock.hour % 12, clock.hour % 12 or 12}
    if hour in t.numbers or (hour, clock.minute) in t.named(
        t.table("named_time_phrases")
    ):
        return True
    periods = periods_beside(t, twelve | {hour})
    return bool(twelve & t.numbers) and hour in set().union(*periods.values())


def hours(t: FormText, parsed):
    """`parsed` with a clock's hour the text writes nowhere set to the one
    number the text writes as a clock's hour that no other clock of the
    form has (module docstring)."""
    t.interval = isinstance(parsed, Interval)
    points = [parsed.start, parsed.end] if t.interval else [parsed]
    clocks = [c for p in points for c in _clocks(p)]
    kept = [c.hour for c in clocks if written_hour(t, c)]
    left = t.clock_hours() - {d for h in kept for d in (h, h % 12, h % 12 or 12)}
    if len(clocks) - len(kept) != 1 or len(left) != 1:
        return parsed
    hour = hour_by_period(t, left.pop())
    return _each_point(
        parsed,
        lambda c: c if written_hour(t, c) else dataclasses.replace(c, hour=hour),
    )


def minutes(t: FormText, parsed):
    """`parsed` with a clock's minute 00 that the text writes otherwise set
    to it (module docstring)."""

    def change(c):
        if c.minute or c.second is not None:
            return c
        # The hour's digits as the text writes them: 14 as such, or 2 for
        # 14 where 14 is written nowhere ("2h30" is not 14:00's).
        dial = {c.hour} if c.hour in t.numbers else {c.hour % 12, c.hour % 12 or 12}
        written = t.clock_minutes(dial)
        if len(written) != 1 or written == {0}:
            return c
        return dataclasses.replace(c, minute=written.pop())

    return _each_point(parsed, change)


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
