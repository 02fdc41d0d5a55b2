"""Generated intervals: of days, of months, of times; forms with both ends in full.

Babel's `format_interval` writes CLDR's interval patterns, which leave out
what both ends share ("13–15 jul 2013", "May 2015 – Jun 2016",
"8:00 AM – 5:30 PM"); the form writes both ends whole (`date 2013-07-13 /
date 2013-07-15`). Days are drawn within one month, across months and
across years, so each of CLDR's greatest-difference patterns is used.
Each language also gets hand-written connectors around two dates
(`expression_words.json` `connectors`: "del {0} al {1}", "vom {0} bis
{1}", "{0}至{1}"), in full or, in one year, with the year written once
("du 3 mars au 5 avril 2021", "2021年3月1日至4月5日"), around two days
of one month (`day_ranges`: "from 3 to 7 May 1979", "13 - 15 de julio de
2013", "с 1 по 10 мая 2021 года", and with no year: "del 3 al 5 de
mayo"), around two days with no year (CLDR's `MMMd` and `MMMMd` intervals, "Jul 13 – 15",
"20 déc. – 5 janv.", and the connectors around `MMMMd`: "du 20 décembre
au 5 janvier" -> `date --12-20 / date --01-05`, at a reference before the
start, so that the policy picks the drawn year; the end is the first such
day on or after the start, the next year's where the months turn), around
two months of one year (`month_ranges`: "de marzo a mayo de 2020"), and
around two times (`expr_time_spans`: "from 10pm to 6am", "von 8 Uhr bis 17
Uhr"); CLDR's dash is also written as people type it (" - "). Years:
"1990-1995", "1990 - 1995" in every language and the hand-written
`year_connectors` ("de 1914 à 1918", "1914年至1918年") -> `year 1914 /
year 1918`. CLDR's times are one day's (the end after the start); a
hand-written interval of times may end the next day ("22:00 to 06:00"),
as the resolver reads an end before its start. The reference is the
start's day at midnight.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from babel.dates import format_interval, format_skeleton

from attention_zoo.applications.dates import expr_time_spans
from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    before,
    clock,
    draw_day,
    fixed,
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
PER_GAP = 4  # intervals of CLDR's day skeletons per gap
PER_PATTERN = 4  # intervals of each other pattern
# Two days with no year: within 80 days (the first two gaps), so that the
# end is the first such day on or after the start, as the resolver reads it;
# the third reaches past a year, which a text with no year cannot say.
YEARLESS_SKELETONS = ("MMMd", "MMMMd")
YEARLESS_GAPS = DAY_GAPS[:2]
# The year of a `day_ranges` pattern and the words that go with it (" de
# {year}", " {year} года", "{year}년 "), left out for the same days with no
# year; and how many of those each pattern writes (two left "May 3-7",
# a month's own template, unread).
_YEAR_WRITTEN = re.compile(
    r"^\{year\}(?:년|\.)? |,? (?:de |năm )?\{year\}(?: года| г\.| року| р\.| r\.)?"
)
PER_YEARLESS_RANGE = 6
# How every language writes two years apart (the hand-written connectors
# come beside).
YEAR_DASHES = ("{0}-{1}", "{0}\u2013{1}", "{0} - {1}", "{0} \u2013 {1}")


def typed_dash(text: str) -> str | None:
    """`text` with CLDR's en dash as a spaced hyphen ("13 - 15 de julio"),
    or None when it writes none."""
    if "\u2013" not in text:
        return None
    return " ".join(text.replace("\u2013", " - ").split())


def _days(r) -> tuple[dt.date, dt.date]:
    low, high = r.choice(DAY_GAPS)
    start = draw_day(r, 1900, 2098)
    end = start + dt.timedelta(days=r.randint(low, high))
    if start.month == end.month and (low, high) != DAY_GAPS[0]:
        end += dt.timedelta(days=31)
    return start, end


def _yearless_days(r) -> tuple[dt.date, dt.date]:
    """Two days of `YEARLESS_GAPS` apart; never 29 February (`draw_day`)."""
    low, high = r.choice(YEARLESS_GAPS)
    start = draw_day(r, 1900, 2098)
    end = start + dt.timedelta(days=r.randint(low, high))
    if (end.month, end.day) == (2, 29):
        end += dt.timedelta(days=1)
    return start, end


def _yearless(language: str, r) -> list[Pair]:
    """Two days with no year, by CLDR's intervals and the connectors."""
    where = locale(language)

    def cldr(skeleton):
        return lambda start, end: format_interval(start, end, skeleton, locale=where)

    def connected(connector):
        return lambda start, end: connector.format(
            *(format_skeleton("MMMMd", d, locale=where) for d in (start, end))
        )

    writers = [cldr(k) for k in YEARLESS_SKELETONS]
    writers += [connected(c) for c in words(language).get("connectors", ())]
    out = []
    for write in writers:
        for _ in range(2 * PER_GAP):
            start, end = _yearless_days(r)
            form = f"date --{start:%m-%d} / date --{end:%m-%d}"
            value = f"{ymd(start)}/{ymd(end)}"
            pair = Pair(
                write(start, end), form, language, "interval_days",
                before(start, r), value,
            )  # fmt: skip
            out.append(pair)
    return out


def _year_once(ends: list[str], start, end, where) -> list[str]:
    """Two dates of one year with the year written once, where the
    language writes it: after the end's day where its dates end in the
    year ("du 3 mars au 5 avril 2021"), before the start's where they
    begin with it ("2021年3月1日至4月5日")."""
    if ends[0].startswith(str(start.year)):
        return [ends[0], format_skeleton("MMMMd", end, locale=where)]
    return [format_skeleton("MMMMd", start, locale=where), ends[1]]


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
        for _ in range(len(DAY_GAPS) * PER_GAP):
            start, end = _days(r)
            text = format_interval(start, end, skeleton, locale=where)
            form = f"date {ymd(start)} / date {ymd(end)}"
            value = f"{ymd(start)}/{ymd(end)}"
            out.append(Pair(text, form, language, "interval_days", reference, value))
    for connector in words(language).get("connectors", ()):
        for _ in range(len(DAY_GAPS) * 2):
            start, end = _days(r)
            ends = [format_skeleton("yMMMMd", d, locale=where) for d in (start, end)]
            if start.year == end.year and r.random() < 0.5:
                ends = _year_once(ends, start, end, where)
            text = connector.format(*ends)
            form = f"date {ymd(start)} / date {ymd(end)}"
            value = f"{ymd(start)}/{ymd(end)}"
            out.append(Pair(text, form, language, "interval_days", reference, value))
    for skeleton in MONTH_SKELETONS:
        for _ in range(2 * PER_PATTERN):
            start, end = _months(r)
            text = format_interval(start, end, skeleton, locale=where)
            ends = [f"{d.year:04d}-{d.month:02d}" for d in (start, end)]
            form = f"month {ends[0]} / month {ends[1]}"
            out.append(
                Pair(text, form, language, "interval_months", reference, "/".join(ends))
            )
    for skeleton in TIME_SKELETONS:
        for _ in range(2 * PER_PATTERN):
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
    out += _yearless(language, r)
    out += [
        dataclasses.replace(p, text=typed_dash(p.text))
        for p in out
        if typed_dash(p.text)
    ]
    out += _years(language, r) + _day_ranges(language, r) + _month_ranges(language, r)
    out += expr_time_spans.time_ranges(language, r)
    return with_native(out)


def _years(language: str, r) -> list[Pair]:
    reference = REFERENCE.isoformat()
    out = []
    for pattern in YEAR_DASHES + tuple(words(language).get("year_connectors", ())):
        for _ in range(PER_PATTERN):
            start = r.randint(1000, 2090)
            end = start + r.randint(1, 30)
            form = f"year {start:04d} / year {end:04d}"
            value = f"{start:04d}/{end:04d}"
            text = pattern.format(start, end)
            out.append(Pair(text, form, language, "interval_years", reference, value))
    return out


def _day_ranges(language: str, r) -> list[Pair]:
    """Two days of one month, the month and year written once, and the same
    with no year ("del 3 al 5 de mayo": the pattern less `_YEAR_WRITTEN`),
    read against a reference before the start."""
    names = locale(language).months["format"]["wide"]
    out = []
    for pattern in words(language).get("day_ranges", ()):
        yearless = _YEAR_WRITTEN.sub("", pattern)
        for written, count in ((pattern, PER_PATTERN), (yearless, PER_YEARLESS_RANGE)):
            for _ in range(count):
                start = draw_day(r, 1900, 2098).replace(day=r.randint(1, 20))
                end = start.replace(day=r.randint(start.day + 1, 28))
                text = written.format(
                    d1=start.day, d2=end.day, month=names[start.month], year=start.year
                )
                if written is pattern:
                    form = f"date {ymd(start)} / date {ymd(end)}"
                    reference = REFERENCE.isoformat()
                else:
                    form = f"date --{start:%m-%d} / date --{end:%m-%d}"
                    reference = before(start, r)
                value = f"{ymd(start)}/{ymd(end)}"
                out.append(Pair(text, form, language, "interval_days", reference, value))
    return out


def month_range_text(
    language: str, pattern: str, year: int, first: int, last: int
) -> str:
    """Months `first` to `last` of `year` by a `month_ranges` pattern:
    `{m1}`/`{m2}` CLDR's wide month names in the format context,
    `{m1_alone}`/`{m2_alone}` in the stand-alone one (Russian "май" after
    "по"), `{n1}`/`{n2}` the months' numbers (2020年1月到6月)."""
    months = locale(language).months
    wide, alone = months["format"]["wide"], months["stand-alone"]["wide"]
    text = pattern.format(
        m1=wide[first], m2=wide[last], m1_alone=alone[first],
        m2_alone=alone[last], n1=first, n2=last, year=year,
    )  # fmt: skip
    return fixed(text, language)


def _month_ranges(language: str, r) -> list[Pair]:
    """Two months of one year, the year written once ("de marzo a mayo de
    2020", "с марта по май 2019 года")."""
    reference = REFERENCE.isoformat()
    out = []
    for pattern in words(language).get("month_ranges", ()):
        for _ in range(PER_PATTERN):
            year = r.randint(1900, 2098)
            first = r.randint(1, 11)
            last = r.randint(first + 1, 12)
            text = month_range_text(language, pattern, year, first, last)
            ends = [f"{year:04d}-{m:02d}" for m in (first, last)]
            form = f"month {ends[0]} / month {ends[1]}"
            out.append(
                Pair(text, form, language, "interval_months", reference, "/".join(ends))
            )
    return out
