"""Generated days and months without a year, with a time: "3 mai 12h30".

People give an appointment's day without its year far more often than
with it ("May 3 at 10:30 am", "le 3 mai à 12h30", "10:30, 3 May",
"5月3日 10:30"). `day_month_times(language)` joins a day and month
(CLDR's `MMMMd` and `MMMd`, as `expr_days.partial` writes them alone) and
a time (`expr_times.joined_time`) by the language's joiners
(`expr_times.day_time_joiners`, and `time_first`) -> `date --05-03 at
12:30`, at a reference before that day (`before`), so that the default
policy picks the day drawn. Hours are `SPOKEN_HOURS`, as for a dated time.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_skeleton

from attention_zoo.applications.dates.expr_days import DAY_MONTH_SKELETONS
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

PER_JOINER = 8


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
            when = clock(at.hour, at.minute)
            form = f"date --{day.month:02d}-{day.day:02d} at {when}"
            value = f"{ymd(day)}T{when}"
            out.append(
                Pair(text, form, language, "day_month_at", before(day, r), value)
            )
    return with_native(out)
