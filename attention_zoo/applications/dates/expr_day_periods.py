"""Generated relative days named with a part of the day, and a time.

"tonight at 8", "heute Abend um 8 Uhr", "сегодня вечером в 8", "今晚8点" ->
`shift day 0 at 20:00`; "tomorrow morning at 9", "demain matin à 9
heures" -> `shift day +1 at 09:00`. CLDR names neither the day and its
part together ("tonight", "anoche") nor lets a part of the day stand
before the time, so they are hand-written
(`expression_words.json` `day_periods`, in en, es, fr, de, pt, it, nl,
ru, zh and ja):

- `texts`: each day and part of the day, with the day it moves to and the
  hours (0-23, first and last) the part is written with: "tonight" `[0,
  18, 23]`, "esta tarde" `[0, 13, 19]`, "last night" `[-1, 19, 23]`;
- `times`: how each is joined to the time, `{h}` the hour on a 12-hour
  clock (the part sets its half of the day: "tonight at 8" is 20:00),
  `{H}` on a 24-hour one, `{mm}` its minutes: "{day} at {h}", "at {h}
  {day}", "{day} à {H}h".

The part alone ("tonight") is not written: it names a span of hours no
form has. The grounding reads each text as its day (`form_words.
relative_phrases`) and as a day period with its hours
(`form_words.period_phrases`), so "tonight at 8" is no 08:00.
"""

from __future__ import annotations

import datetime as dt

from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    clock,
    rng,
    with_native,
    words,
    ymd,
)

MINUTES = (15, 30, 45)  # the minutes of a time written with them


def day_periods(language: str) -> list[Pair]:
    """Each `day_periods` text of `language` by each of its `times`, an
    hour of its part of the day drawn for each (module docstring)."""
    table = words(language).get("day_periods")
    if not table:
        return []
    r = rng("day_periods", language)
    reference = REFERENCE.isoformat()
    out = []
    for text, (days, first, last) in table["texts"].items():
        day = REFERENCE.date() + dt.timedelta(days=days)
        for pattern in table["times"]:
            hour = r.randint(first, last)
            minute = r.choice(MINUTES) if "{mm}" in pattern else 0
            written = pattern.format(
                day=text, h=hour % 12 or 12, H=hour, mm=f"{minute:02d}"
            )
            at = clock(hour, minute)
            form = "shift day " + (f"{days:+d}" if days else "0") + f" at {at}"
            out.append(
                Pair(written, form, language, "relative_at", reference,
                     f"{ymd(day)}T{at}")
            )  # fmt: skip
    return with_native(out)
