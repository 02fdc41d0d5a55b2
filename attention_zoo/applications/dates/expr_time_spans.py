"""Generated intervals of two times written with hand-written connectors.

`time_ranges(language, r)` writes two times around a connector of
`expression_words.json` (`time_connectors`: "from {0} to {1}", "von {0}
bis {1}", "{0}到{1}") -> `time 22:00 / time 06:00`. An end before the
start is the next day's ("from 10pm to 6am"): the value's end is on the
next day, as the resolver reads it. Each end is written by one of three
styles, drawn per interval, as people write a span:

- spoken: both ends by one bare `hours` pattern ("10pm", "8 Uhr abends",
  "下午2点"), so a period is written at each end, never once for both;
- clock: the language's `clocks` ("14h30", "9.00 uur") or CLDR's `Hm`,
  an end on the hour written by a bare 24-hour `hours` pattern half the
  time, as German writes "von 14 Uhr bis 16:30 Uhr";
- shared unit: a 24-hour `hours` pattern whose clock word follows the
  hour ("{H} Uhr", "{H} uur") written once after both numbers with a dash
  ("10-12 Uhr", "9–17 uur"), which every language that writes such a
  word uses; a period is never shared this way (`10-11 pm` is left to
  CLDR's own interval patterns in `expr_spans`).

A connector that itself says its numbers are hours (`connector_hours`:
Italian "dalle {0} alle {1}", Swedish "kl. {0}–{1}") also takes two whole
hours by its own pattern ("dalle 15 alle 18", "kl. 9–17", Arabic "من
الساعة 10 إلى الساعة 12").

The reference is the start's day at midnight.
"""

from __future__ import annotations

import datetime as dt
import re

from babel.dates import format_skeleton, format_time

from attention_zoo.applications.dates import expr_spoken
from attention_zoo.applications.dates.expr_times import SPOKEN_HOURS
from attention_zoo.applications.dates.expression_pairs import (
    Pair,
    clock,
    draw_day,
    locale,
    words,
    ymd,
)

PER_CONNECTOR = 12  # intervals of each connector
SHARED_PER_PATTERN = 6  # "10-12 Uhr" intervals of each pattern
DASHES = ("-", "\u2013", " - ", " \u2013 ")
# The minutes of a clock end: on the hour and the quarters as people
# mostly write them, and any minute.
MINUTES = (0, 0, 0, 15, 30, 30, 45, None)


def _pair(language: str, first: dt.time, last: dt.time, text: str, r) -> Pair:
    ends = [clock(t.hour, t.minute) for t in (first, last)]
    day = draw_day(r, 1900, 2098)
    next_day = day + dt.timedelta(days=int(last < first))
    form = f"time {ends[0]} / time {ends[1]}"
    value = f"{ymd(day)}T{ends[0]}/{ymd(next_day)}T{ends[1]}"
    midnight = dt.datetime.combine(day, dt.time()).isoformat()
    return Pair(text, form, language, "interval_times", midnight, value)


def twenty_four_hours(language: str) -> list[str]:
    """The bare `hours` patterns of a 24-hour clock ("{H} Uhr", "{H}h"):
    no period and no half-hour word."""
    return [
        p
        for p in expr_spoken.bare_hours(language)
        if "{H}" in p
        and "{B}" not in p
        and "{a}" not in p
        and not expr_spoken.half_hour(p, language)
    ]


def _minute(r) -> int:
    minute = r.choice(MINUTES)
    return r.randrange(60) if minute is None else minute


def _spoken(language: str, pattern: str, r) -> tuple[dt.time, dt.time, list[str]]:
    first, last = r.sample(SPOKEN_HOURS, 2)
    minute = 30 if expr_spoken.half_hour(pattern, language) else 0
    texts = [expr_spoken.hour_text(pattern, h, language, r) for h in (first, last)]
    return dt.time(first, minute), dt.time(last, minute), texts


def _clock(
    language: str, r, words_after: bool = True
) -> tuple[dt.time, dt.time, list[str]]:
    """Both ends by one clock pattern (`clocks` or CLDR's `Hm`), an end on
    the hour by a bare 24-hour pattern half the time (`words_after`: the
    patterns that end in a word may be used)."""
    where = locale(language)
    clocks = words(language).get("clocks", []) if words_after else []
    pattern = r.choice(clocks) if clocks and r.random() < 0.8 else None
    bare = twenty_four_hours(language)
    hour_word = r.choice(bare) if bare and pattern and words_after else None
    times, texts = [], []
    for hour in r.sample(range(24), 2):
        at = dt.time(hour, _minute(r))
        if at.minute == 0 and hour_word and r.random() < 0.5:
            texts.append(expr_spoken.hour_text(hour_word, hour, language, r))
        elif pattern:
            texts.append(format_time(at, pattern, locale=where))
        else:
            texts.append(format_skeleton("Hm", at, locale=where))
        times.append(at)
    return times[0], times[1], texts


def _whole_hours(r) -> tuple[int, int]:
    """Two whole hours, the later first a fifth of the time: the night,
    "22-6 Uhr", "dalle 22 alle 6"."""
    first, last = sorted(r.sample(range(24), 2))
    if r.random() < 0.2:
        first, last = last, first
    return first, last


def _shared(language: str, r) -> list[Pair]:
    """Two hours and one clock word after both ("10-12 Uhr", "9–17 uur")."""
    out = []
    for pattern in twenty_four_hours(language):
        if not pattern.startswith("{H}"):
            continue
        for _ in range(SHARED_PER_PATTERN):
            first, last = _whole_hours(r)
            text = f"{first}{r.choice(DASHES)}" + expr_spoken.hour_text(
                pattern, last, language, r
            )
            out.append(_pair(language, dt.time(first), dt.time(last), text, r))
    return out


def _connector_hours(language: str, r) -> list[Pair]:
    """Two whole hours inside a connector that says they are hours, each
    by the connector's hour pattern ("dalle 15 alle 18")."""
    out = []
    for connector, pattern in sorted(
        words(language).get("connector_hours", {}).items()
    ):
        for _ in range(SHARED_PER_PATTERN):
            first, last = _whole_hours(r)
            texts = [
                expr_spoken.hour_text(pattern, h, language, r) for h in (first, last)
            ]
            out.append(
                _pair(
                    language, dt.time(first), dt.time(last), connector.format(*texts), r
                )
            )
    return out


def time_ranges(language: str, r) -> list[Pair]:
    """The intervals of times of `language` by its hand-written words (see
    the module's docstring)."""
    spoken = expr_spoken.bare_hours(language)
    out = []
    for connector in words(language).get("time_connectors", ()):
        # A particle glued to an end (Korean "{0}에서"): a clock word
        # before it would not be read as one, so digits end those ends.
        glued = bool(re.search(r"\{[01]\}[^\W\d_]", connector))
        for _ in range(PER_CONNECTOR):
            if spoken and not glued and r.random() < 0.5:
                first, last, texts = _spoken(language, r.choice(spoken), r)
            else:
                first, last, texts = _clock(language, r, words_after=not glued)
            out.append(_pair(language, first, last, connector.format(*texts), r))
    if words(language).get("time_connectors"):
        out += _shared(language, r)
    return out + _connector_hours(language, r)
