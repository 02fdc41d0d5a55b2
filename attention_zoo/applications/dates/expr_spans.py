"""Generated intervals: of days, of months, of times; forms with both ends in full.

Babel's `format_interval` writes CLDR's interval patterns, which leave out
what both ends share ("13–15 jul 2013", "May 2015 – Jun 2016",
"8:00 AM – 5:30 PM"); the form writes both ends whole (`date 2013-07-13 /
date 2013-07-15`). Days are drawn within one month, across months and
across years, so each of CLDR's greatest-difference patterns is used.
A few languages also get hand-written connectors around two full dates
(`expression_words.json` `connectors`: "del {0} al {1}", "vom {0} bis
{1}"). Times are one day's (the end after the start), with the reference
at that day's midnight.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_interval, format_skeleton

from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    clock,
    draw_day,
    half_day_apart,
    locale,
    rng,
    with_native,
    words,
    ymd,
)

DAY_SKELETONS = ("yMMMd", "yMMMMd")
MONTH_SKELETONS = ("yMMM", "yMMMM")
TIME_SKELETONS = ("Hm", "hm")
# How far the end lies from the start, in days: the same month, the next
# months, another year.
DAY_GAPS = ((1, 10), (20, 80), (200, 500))


def _days(r) -> tuple[dt.date, dt.date]:
    low, high = r.choice(DAY_GAPS)
    start = draw_day(r, 1900, 2098)
    end = start + dt.timedelta(days=r.randint(low, high))
    if start.month == end.month and (low, high) != DAY_GAPS[0]:
        end += dt.timedelta(days=31)
    return start, end


def _months(r) -> tuple[dt.date, dt.date]:
    start = draw_day(r, 1900, 2098).replace(day=1)
    span = r.randint(1, 20)
    index = start.year * 12 + start.month - 1 + span
    return start, dt.date(index // 12, index % 12 + 1, 1)


def written_apart(start: dt.time, end: dt.time, skeleton: str, where) -> bool:
    """Whether CLDR's interval of `skeleton` tells `start`-`end` from the same ends
    twelve hours off: a text that does not change wrote no a.m./p.m."""
    text = format_interval(start, end, skeleton, locale=where)
    others = [
        (half_day_apart(start), end),
        (start, half_day_apart(end)),
        (half_day_apart(start), half_day_apart(end)),
    ]
    return all(text != format_interval(*o, skeleton, locale=where) for o in others)


def intervals(language: str) -> list[Pair]:
    r = rng("intervals", language)
    where = locale(language)
    reference = REFERENCE.isoformat()
    out = []
    for skeleton in DAY_SKELETONS:
        for _ in range(len(DAY_GAPS) * 2):
            start, end = _days(r)
            text = format_interval(start, end, skeleton, locale=where)
            form = f"date {ymd(start)} / date {ymd(end)}"
            value = f"{ymd(start)}/{ymd(end)}"
            out.append(Pair(text, form, language, "interval_days", reference, value))
    for connector in words(language).get("connectors", ()):
        for _ in range(len(DAY_GAPS)):
            start, end = _days(r)
            text = connector.format(
                format_skeleton("yMMMMd", start, locale=where),
                format_skeleton("yMMMMd", end, locale=where),
            )
            form = f"date {ymd(start)} / date {ymd(end)}"
            value = f"{ymd(start)}/{ymd(end)}"
            out.append(Pair(text, form, language, "interval_days", reference, value))
    for skeleton in MONTH_SKELETONS:
        for _ in range(4):
            start, end = _months(r)
            text = format_interval(start, end, skeleton, locale=where)
            ends = [f"{d.year:04d}-{d.month:02d}" for d in (start, end)]
            form = f"month {ends[0]} / month {ends[1]}"
            out.append(
                Pair(text, form, language, "interval_months", reference, "/".join(ends))
            )
    for skeleton in TIME_SKELETONS:
        for _ in range(4):
            first = r.randrange(0, 23 * 60)
            last = r.randrange(first + 1, 24 * 60)
            start, end = (dt.time(*divmod(m, 60)) for m in (first, last))
            text = format_interval(start, end, skeleton, locale=where)
            if not written_apart(start, end, skeleton, where):
                continue
            day = draw_day(r)
            ends = [clock(t.hour, t.minute) for t in (start, end)]
            form = f"time {ends[0]} / time {ends[1]}"
            value = f"{ymd(day)}T{ends[0]}/{ymd(day)}T{ends[1]}"
            midnight = dt.datetime.combine(day, dt.time()).isoformat()
            out.append(Pair(text, form, language, "interval_times", midnight, value))
    return with_native(out)
