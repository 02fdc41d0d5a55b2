"""Generated weekdays alone and ranges of weekdays: "Friday", "am Freitag"
-> `weekday FRI`; "Monday to Friday" -> `weekday MON / weekday FRI`.

A weekday alone leaves its week open, so the policy picks it (by default
its next occurrence on or after the reference, as Duckling reads it;
`resolver`); an interval's end that leaves its week open is its first
occurrence on or after the start, so "Friday to Monday" ends on the
Monday after. The names are CLDR's wide ones (Babel, format context: an
abbreviation is often another word's, Spanish "mar" also March, German
"So." Sonntag or Samstag, which the grounding refuses); the words around them
are hand-written (`expression_words.json` `weekdays`: `alone`, "on {0}",
"am {0}", and `ranges`, "from {0} to {1}"), and every language writes a
range with a dash ("{0}-{1}", "{0} - {1}"). A language without a word
for "on" writes the name alone; where the weekday takes a case or an
article by its gender after the preposition, the whole words are
hand-written (`cases`, seven texts Monday first: Russian "в пятницу",
Polish "we wtorek", Portuguese "no sábado"), which the grounding reads
as naming their weekday (`form_words.weekday_phrases`).

Each pair's reference is a day of any weekday at midnight, and its value
is computed here from the calendar (the days after the reference in
order), not by the resolver's functions.
"""

from __future__ import annotations

import datetime as dt

from attention_zoo.applications.dates.expression_pairs import (
    Pair,
    draw_day,
    locale,
    rng,
    words,
    ymd,
)
from attention_zoo.applications.dates.forms import WEEKDAYS

DASHES = ("{0}-{1}", "{0} - {1}")
PER_PATTERN = 6  # ranges of each pattern


def next_on_or_after(day: dt.date, weekday: int) -> dt.date:
    """The first day on or after `day` that is a `weekday` (0 = Monday)."""
    return next(
        day + dt.timedelta(days=k)
        for k in range(7)
        if (day + dt.timedelta(days=k)).weekday() == weekday
    )


def draw_reference(r) -> tuple[dt.date, str]:
    day = draw_day(r, 1950, 2098)
    return day, dt.datetime.combine(day, dt.time()).isoformat()


def weekdays(language: str) -> list[Pair]:
    r = rng("weekdays", language)
    names = locale(language).days["format"]
    data = words(language).get("weekdays", {})
    out = []
    for template in ("{0}", *data.get("alone", ())):
        for weekday in range(7):
            today, reference = draw_reference(r)
            text = template.format(names["wide"][weekday])
            form = f"weekday {WEEKDAYS[weekday]}"
            value = ymd(next_on_or_after(today, weekday))
            out.append(Pair(text, form, language, "weekday", reference, value))
    for texts in data.get("cases", ()):
        for weekday, text in enumerate(texts):
            today, reference = draw_reference(r)
            value = ymd(next_on_or_after(today, weekday))
            form = f"weekday {WEEKDAYS[weekday]}"
            out.append(Pair(text, form, language, "weekday", reference, value))
    for pattern in (*DASHES, *data.get("ranges", ())):
        for _ in range(PER_PATTERN):
            first, last = r.sample(range(7), 2)
            today, reference = draw_reference(r)
            start = next_on_or_after(today, first)
            end = next_on_or_after(start, last)
            text = pattern.format(names["wide"][first], names["wide"][last])
            form = f"weekday {WEEKDAYS[first]} / weekday {WEEKDAYS[last]}"
            value = f"{ymd(start)}/{ymd(end)}"
            out.append(
                Pair(text, form, language, "interval_weekdays", reference, value)
            )
    return out
