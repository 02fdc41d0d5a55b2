"""Generated relative expressions, and relative days with a time.

- `relative(language)`: the pairs of `expressions.relative_expressions`
  (CLDR's relative fields: "ayer", "hace 3 días", "el mes pasado", "in 2
  Fridays"), and the named days CLDR lacks (`expression_words.json`
  `named_days`: English "the day after tomorrow", which CLDR's English
  does not write while its Spanish "pasado mañana" is there), and the
  relative texts CLDR does not write (`relative`: "hace un año", "daqui
  a uma semana", Arabic "بعد 3 أيام", Hindi "3 दिन बाद");
- `relative_at(language)`: a relative day ("tomorrow", "in 3 days", "pasado
  mañana") and a time, joined by the language's CLDR date-time pattern
  (`{1}, {0}`: "tomorrow, 5:00 PM") and by its hand-written `at`
  ("{day} a las {time}") -> `shift day +1 at 17:00`; after an `at`, a
  whole hour as people write it too (`expr_spoken`: "tomorrow at 5pm",
  "morgen um 8 Uhr", "明天下午5点", "tomorrow at noon").

Each value is computed here from `REFERENCE` with `datetime` arithmetic
(the week's Monday, the month's last day for a clamped month shift), not
by the resolver.
"""

from __future__ import annotations

import calendar
import datetime as dt

from babel.dates import format_skeleton

from attention_zoo.applications.dates import expr_spoken
from attention_zoo.applications.dates.expr_times import SPOKEN_HOURS
from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    clock,
    locale,
    rng,
    with_native,
    word_form,
    words,
    ymd,
)
from attention_zoo.applications.dates.expressions import relative_expressions
from attention_zoo.applications.dates.forms import WEEKDAYS

_SPANS = {
    "second": dt.timedelta(seconds=1),
    "minute": dt.timedelta(minutes=1),
    "hour": dt.timedelta(hours=1),
}
AT_SKELETONS = ("Hm", "hm")
# The counts of a hand-written counted text (`relative`, "en {0} días"),
# and how many of them each text is written with.
COUNTS = (2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20)
PER_COUNTED = 4


def _add_months(day: dt.date, months: int) -> dt.date:
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def relative_value(form: str, reference: dt.datetime = REFERENCE) -> str:
    """The ISO value of one of the relative forms this module writes, at `reference`."""
    words_ = form.split(" ")
    today = reference.date()
    if words_[0] == "shift":
        unit, amount = words_[1], int(words_[2])
        if unit in _SPANS:
            moment = reference + amount * _SPANS[unit]
            return moment.isoformat(
                timespec="seconds" if unit == "second" else "minutes"
            )
        if unit in ("day", "week"):
            return ymd(today + dt.timedelta(days=amount * (7 if unit == "week" else 1)))
        return ymd(_add_months(today, amount * (12 if unit == "year" else 1)))
    if words_[0] == "cycle":
        unit, select = words_[1], int(words_[2])
        if unit == "week":
            monday = (
                today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=select)
            )
            return f"{ymd(monday)}/{ymd(monday + dt.timedelta(days=6))}"
        if unit == "month":
            first = _add_months(today.replace(day=1), select)
            return f"{first.year:04d}-{first.month:02d}"
        return f"{today.year + select:04d}"
    if words_[0] == "weekday":
        select, weekday = int(words_[1]), WEEKDAYS.index(words_[2])
        if select == 0:  # the reference's ISO week
            return ymd(today + dt.timedelta(days=weekday - today.weekday()))
        step = 1 if select > 0 else -1
        day, found = today, 0
        while found < abs(select):
            day += dt.timedelta(days=step)
            found += day.weekday() == weekday
        return ymd(day)
    raise ValueError(
        f"form must be a shift, cycle or weekday form. Received: form={form!r:.80}"
    )


def _relative(language: str) -> list[Pair]:
    reference = REFERENCE.isoformat()
    out = [
        Pair(e.text, e.form, language, "relative", reference, relative_value(e.form))
        for e in relative_expressions(language)
    ]
    for text, days in words(language).get("named_days", {}).items():
        form = "shift day " + ("0" if days == 0 else f"{days:+d}")
        out.append(
            Pair(text, form, language, "relative", reference, relative_value(form))
        )
    r = rng("relative_words", language)
    for text, unit, amount, *bounds in words(language).get("relative", ()):
        if "{0}" not in text:
            written = [(text, amount)]
        else:  # `amount` is the direction; Arabic plurals bound the counts
            low, high = bounds or (2, 20)
            counts = [n for n in COUNTS if low <= n <= high]
            chosen = r.sample(counts, min(PER_COUNTED, len(counts)))
            written = [(text.format(n), amount * n) for n in chosen]
        for phrase, steps in written:
            form = word_form(unit, steps)
            out.append(
                Pair(
                    phrase, form, language, "relative", reference, relative_value(form)
                )
            )
    return out


def relative(language: str) -> list[Pair]:
    return with_native(_relative(language))


def relative_at(language: str) -> list[Pair]:
    """Relative days ("shift day N") with a time, by CLDR's and the hand-written joiners."""
    r = rng("relative_at", language)
    where = locale(language)
    joiners = [
        str(where.datetime_formats["medium"])
        .replace("{1}", "{day}")
        .replace("{0}", "{time}")
    ]
    joiners += words(language).get("at", [])
    days = [
        p for p in _relative(language)
        if p.form.startswith("shift day ") and p.form.count(" ") == 2
    ]  # fmt: skip
    reference = REFERENCE.isoformat()
    out = []
    for joiner in joiners:
        for pair in days:
            at = dt.time(
                r.choice(SPOKEN_HOURS), r.choice((0, 0, 15, 30, r.randrange(60)))
            )
            time_text = format_skeleton(r.choice(AT_SKELETONS), at, locale=where)
            text = joiner.format(day=pair.text, time=time_text)
            written = clock(at.hour, at.minute)
            shifted = dt.date.fromisoformat(pair.value)
            out.append(
                Pair(text, f"{pair.form} at {written}", language, "relative_at",
                     reference, f"{ymd(shifted)}T{written}")
            )  # fmt: skip
    for joiner in words(language).get("at", []):
        for pair in days:
            out.append(_spoken_at(language, joiner, pair, r))
    return with_native(out)


def _spoken_at(language: str, joiner: str, pair: Pair, r) -> Pair:
    """`pair`'s relative day and a whole hour as people write it after the
    `joiner`'s `at` ("tomorrow at 5pm"), or noon or midnight by name."""
    word = joiner.split("{time}")[0].split("{day}")[-1].strip()
    named = expr_spoken.named_time_words(language)
    # A name after a joiner without a word ("{day}{time}": 明天中午), or
    # one written after the `at` word ("at noon": "{day} at noon").
    choices = [
        (text, expr_spoken.NAMED_HOURS[name], 0)
        for name, texts in named.items()
        for text in texts
        if not word or text.startswith(word + " ")
    ]
    patterns = expr_spoken.bare_hours(language)
    if patterns and (not choices or r.random() < 0.8):
        pattern = r.choice(patterns)
        hour = r.choice(SPOKEN_HOURS)
        minute = 30 if expr_spoken.half_hour(pattern, language) else 0
        choices = [(expr_spoken.hour_text(pattern, hour, language, r), hour, minute)]
    if not choices:  # no hand-written words: a CLDR time
        hour = r.choice(SPOKEN_HOURS)
        at = format_skeleton("Hm", dt.time(hour), locale=locale(language))
        choices = [(at, hour, 0)]
    time_text, hour, minute = r.choice(choices)
    if word and time_text.startswith(word + " "):
        text = f"{pair.text} {time_text}"
    else:
        text = joiner.format(day=pair.text, time=time_text)
    written = clock(hour, minute)
    shifted = dt.date.fromisoformat(pair.value)
    return Pair(
        text, f"{pair.form} at {written}", language, "relative_at",
        pair.reference, f"{ymd(shifted)}T{written}",
    )  # fmt: skip
