"""A day's text and a time joined into one text: "next Monday at 10am",
"3pm tomorrow", "morgen um 8 Uhr".

`timed` writes a relative day or a weekday (a `Pair` of
`expr_relative`, `expr_weekdays`) with a time by a joiner (`{day} at
{time}`, `{time} {day}`: `expr_relative.weekday_joiners`): a CLDR time
("next Monday, 10:15 AM") or a whole hour as people write it
(`spoken_at`, the `hours` words of `expr_spoken`: "tomorrow at 5pm",
"明天下午5点", noon and midnight by name). The form is the day's with
` at HH:MM`, the value the day's with that clock.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_skeleton

from attention_zoo.applications.dates import expr_spoken
from attention_zoo.applications.dates.expr_times import SPOKEN_HOURS
from attention_zoo.applications.dates.expression_pairs import (
    Pair,
    clock,
    locale,
    words,
)

AT_SKELETONS = ("Hm", "hm")


def timed(
    language: str, joiner: str, pair: Pair, r, kind: str, spoken: bool | None = None
) -> Pair:
    """`pair`'s day and a time by `joiner`: a whole hour as people write it
    (`spoken_at`: "next Monday at 10am") where `spoken`, a CLDR time
    ("next Monday, 10:15 AM") where not, and either by a coin where None."""
    if spoken is None:
        spoken = r.random() < 0.5
    if spoken:
        return spoken_at(language, joiner, pair, r, kind)
    at = dt.time(r.choice(SPOKEN_HOURS), r.choice((0, 0, 15, 30, r.randrange(60))))
    time_text = format_skeleton(r.choice(AT_SKELETONS), at, locale=locale(language))
    written = clock(at.hour, at.minute)
    return Pair(
        joiner.format(day=pair.text, time=time_text), f"{pair.form} at {written}",
        language, kind, pair.reference, f"{pair.value}T{written}",
    )  # fmt: skip


def _at_word(joiner: str) -> str:
    """The word of `joiner` before its time ("at" of "{day} at {time}"), or ""."""
    return joiner.split("{time}")[0].split("{day}")[-1].strip()


def hour_patterns(language: str, joiner: str) -> list[str]:
    """The `hours` patterns a time after `joiner` is written with: those
    that start with the hour, and those that start with the joiner's `at`
    word, written once ("mañana a las 9" of "a las {H}")."""
    word = _at_word(joiner)
    return expr_spoken.bare_hours(language) + [
        p for p in words(language).get("hours", ()) if word and p.startswith(word + " ")
    ]


def spoken_at(
    language: str,
    joiner: str,
    pair: Pair,
    r,
    kind: str = "relative_at",
    pattern: str | None = None,
) -> Pair:
    """`pair`'s relative day and a whole hour as people write it after the
    `joiner`'s `at` ("tomorrow at 5pm"), or noon or midnight by name; by
    `pattern` of `hour_patterns` where given."""
    word = _at_word(joiner)
    named = expr_spoken.named_time_words(language)
    # A name after a joiner without a word ("{day}{time}": 明天中午), or
    # one written after the `at` word ("at noon": "{day} at noon").
    choices = [
        (text, expr_spoken.NAMED_HOURS[name], 0)
        for name, texts in named.items()
        for text in texts
        if not word or text.startswith(word + " ")
    ]
    patterns = [pattern] if pattern else hour_patterns(language, joiner)
    if patterns and (pattern or not choices or r.random() < 0.8):
        pattern = r.choice(patterns)
        hour = r.choice(SPOKEN_HOURS)
        minute = 30 if expr_spoken.half_hour(pattern, language) else 0
        choices = [(expr_spoken.hour_text(pattern, hour, language, r), hour, minute)]
    if not choices:  # no hand-written words: a CLDR time
        hour = r.choice(SPOKEN_HOURS)
        at = format_skeleton("Hm", dt.time(hour), locale=locale(language))
        choices = [(at, hour, 0)]
    time_text, hour, minute = r.choice(choices)
    if word and time_text.startswith(word + " "):  # the `at` word written once
        joiner = joiner.replace(f"{word} {{time}}", "{time}")
    text = joiner.format(day=pair.text, time=time_text)
    written = clock(hour, minute)
    return Pair(
        text, f"{pair.form} at {written}", language, kind,
        pair.reference, f"{pair.value}T{written}",
    )  # fmt: skip
