"""Generated days and months without a year, with a time: "3 mai 12h30".

People give an appointment's day without its year far more often than
with it ("May 3 at 10:30 am", "le 3 mai à 12h30", "10:30, 3 May",
"5月3日 10:30", "am 5. März um 10 Uhr"). `day_month_times(language)` joins
a day and month (CLDR's `MMMMd` and `MMMd`, as `expr_days.partial` writes
them alone) and a time: one of `expr_times.joined_time` by the language's
joiners (`expr_times.day_time_joiners`, and `time_first`), or a whole hour
of the hand-written `hours` as `expr_spoken.dated_hours` joins it to a
dated day -> `date --05-03 at 12:30`, at a reference before that day
(`before`), so that the default policy picks the day drawn. Hours are
`SPOKEN_HOURS`, as for a dated time.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_skeleton

from attention_zoo.applications.dates.expr_days import DAY_MONTH_SKELETONS
from attention_zoo.applications.dates.expr_spoken import half_hour, hour_text
from attention_zoo.applications.dates.expr_times import (
    SPOKEN_HOURS,
    day_time_joiners,
    joined_time,
)
from attention_zoo.applications.dates.expression_pairs import (
    Pair,
    before,
    clock,
    draw_day,
    locale,
    rng,
    with_native,
    words,
    ymd,
)

PER_JOINER = 12
PER_HOURS = 6  # texts per `hours` pattern


def day_month_times(language: str) -> list[Pair]:
    """`PER_JOINER` texts per joiner of `language` (native digits added)."""
    r = rng("day_month_times", language)
    where = locale(language)
    joiners = day_time_joiners(language) + words(language).get("time_first", [])
    out = []
    for joiner in joiners:
        for _ in range(PER_JOINER):
            day = draw_day(r)
            at = dt.time(r.choice(SPOKEN_HOURS), r.randrange(60))
            written = format_skeleton(r.choice(DAY_MONTH_SKELETONS), day, locale=where)
            text = joiner.format(day=written, time=joined_time(language, at, r))
            out.append(_pair(text, day, at, language, r))
    bare = day_time_joiners(language)
    for pattern in words(language).get("hours", ()):
        # A bare hour after an `at` joiner ("5. März um 10 Uhr"); one with
        # its own preposition after a space or a comma ("5 de marzo a las 10").
        glue = bare if pattern.startswith("{") else ["{day} {time}", "{day}, {time}"]
        for _ in range(PER_HOURS):
            day = draw_day(r)
            at = dt.time(
                r.choice(SPOKEN_HOURS), 30 if half_hour(pattern, language) else 0
            )
            written = format_skeleton(r.choice(DAY_MONTH_SKELETONS), day, locale=where)
            hour = hour_text(pattern, at.hour, language, r)
            out.append(
                _pair(
                    r.choice(glue).format(day=written, time=hour), day, at, language, r
                )
            )
    return with_native(out)


def _pair(text: str, day: dt.date, at: dt.time, language: str, r) -> Pair:
    when = clock(at.hour, at.minute)
    form = f"date --{day.month:02d}-{day.day:02d} at {when}"
    value = f"{ymd(day)}T{when}"
    return Pair(text, form, language, "day_month_at", before(day, r), value)
