"""Generated weekdays of a named week: "Friday next week", "next week
Friday", "el viernes de la próxima semana", CLDR's 下周五 and 来週の金曜日
-> `week +1 FRI`; with a time, `week +1 FRI at 10:00`.

`week K DOW` is that weekday of the ISO week (Monday to Sunday) K weeks
from the reference's (`form_weeks.py`). Its texts are:

- CLDR's texts of next and last weekday that write the language's "next
  week" or "last week" (Chinese 下周五, Japanese 来週の金曜日, Dutch
  "volgende week vrijdag", Swedish "fredag nästa vecka"), which
  `expressions.relative_expressions` leaves out for this form;
- in the languages that space their words, a weekday as
  `expr_weekdays.weekdays` writes it alone ("Friday", "am Freitag", "в
  пятницу") beside CLDR's "next week" or "last week" in either order
  ("Friday next week", "nächste Woche am Freitag"), and by the
  hand-written `weekdays` `weeks` templates ("{day} of {week}": "Friday of
  next week", "el viernes de la próxima semana");
- each of those texts with a time, by a joiner of `expr_relative`
  (`weekday_at`'s), `PER_TIMED` of them a text.

The grounding reads the week only by CLDR's text of it
(`form_weekdays.named_week`), so no other spelling of "next week" is
written. Each pair's reference is a day of any weekday at midnight, and
its value is computed here from the calendar (the reference's Monday, K
weeks on, the weekday's day of that week), not by the resolver.
"""

from __future__ import annotations

import datetime as dt

from attention_zoo.applications.dates import expr_relative, expr_timed, expr_weekdays
from attention_zoo.applications.dates.expression_pairs import (
    Pair,
    locale,
    rng,
    with_native,
    words,
    ymd,
)
from attention_zoo.applications.dates.expressions import WEEKDAY_FIELDS, names_a_week
from attention_zoo.applications.dates.forms import WEEKDAYS

UNSPACED = ("zh", "ja")  # as time_expressions.UNSPACED
ORDERS = ("{day} {week}", "{week} {day}")
PER_TIMED = 1  # texts with a time of each text of a weekday of a week


def week_day(reference: dt.date, week: int, weekday: int) -> dt.date:
    """The `weekday` (0 = Monday) of the ISO week `week` weeks from `reference`'s."""
    monday = reference - dt.timedelta(days=reference.weekday())
    return monday + dt.timedelta(weeks=week, days=weekday)


def _texts(language: str) -> list[tuple[str, int, int]]:
    """(text, week, weekday) of every text of a weekday of next or last week."""
    fields = locale(language)._data["date_fields"]
    days = locale(language).days
    out = []
    for weekday, field in enumerate(WEEKDAY_FIELDS):
        for week in (-1, 1):
            text = fields.get(field, {}).get("relative", {}).get(week)
            # The week's text outside the weekday's name: Hungarian "előző
            # hétfő" (last Monday) holds "előző hét" (last week), Indonesian
            # "Minggu lalu" (last Sunday) "minggu lalu": no week is named.
            rest = text.casefold() if text else ""
            for context in days.values():
                rest = rest.replace(context["wide"][weekday].casefold(), " ")
            if text and names_a_week(rest, fields, week):
                out.append((text, week, weekday))
    if language in UNSPACED:
        return out
    days = {
        (p.text, p.form.split(" ")[1])
        for p in expr_weekdays.weekdays(language)
        if p.kind == "weekday"
    }
    templates = ORDERS + tuple(words(language).get("weekdays", {}).get("weeks", ()))
    for week in (-1, 1):
        written = fields.get("week", {}).get("relative", {}).get(week)
        if not written:
            continue
        for day, name in sorted(days):
            for template in templates:
                text = template.format(day=day, week=written)
                out.append((text, week, WEEKDAYS.index(name)))
    return list(dict.fromkeys(out))


def weeks(language: str) -> list[Pair]:
    r = rng("weeks", language)
    out = []
    for text, week, weekday in _texts(language):
        today, reference = expr_weekdays.draw_reference(r)
        form = f"week {week:+d} {WEEKDAYS[weekday]}"
        value = ymd(week_day(today, week, weekday))
        out.append(Pair(text, form, language, "week", reference, value))
    timed = rng("weeks_at", language)
    joiners = expr_relative.weekday_joiners(language)
    for pair in list(out):
        for _ in range(PER_TIMED):
            joiner = timed.choice(joiners)
            if not expr_relative.two_readings(language, joiner, pair):
                out.append(
                    expr_timed.timed(language, joiner, pair, timed, "week_at")
                )
    return with_native(out)
