"""Generated times and partial dates in the words people write and CLDR does not.

- `named_times(language)`: noon and midnight by name (CLDR's day periods
  `noon` and `midnight` where Babel has them, and the hand-written
  `named_times` of `expression_words.json`, alone and after a
  preposition: "at noon", "à minuit", "в полдень", "正午") -> `time 12:00`
  and `time 00:00`;
- `hours(language)`: a whole hour with a clock word or a day period
  (`hours`: "um 15 Uhr", "a las 7 de la mañana",
  "下午3点", "早上7点半" with 半 for half past: `half_hours`);
- `dated_hours(language)`: a day and one of those hours ("3. Oktober
  2020, 10 Uhr") -> `datetime 2020-10-03T10:00`;
- `partials(language)`: a year, a month and year, a day and month after a
  preposition (`partials`: "in 1987", "im Jahr 1989", "в 1961 году", "en
  marzo de 2015", "am 3. Mai") -> `year 1987`, `month 2015-03`, `date
  --05-03`, or in an order or with an ordinal CLDR does not write ("25th
  Dec", "May the 2nd", "5 Jan": English's patterns); a month alone after the month's preposition ("in May", "im
  Mai") -> `month --05`; a month in a case of `month_cases` (`partials`
  `month_case`: "в марте 2015 года", "w maju") -> `month 2015-03`,
  `month --05`.

`hour_text` renders one of the `hours` patterns, which the relative days
with a time (`expr_relative.relative_at`: "morgen um 8 Uhr", "明天下午5点")
and the intervals of times (`expr_spans`) use too.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date, format_skeleton, format_time

from attention_zoo.applications.dates.expr_days import (
    any_day_of,
    draw_year_span,
    month_alone,
    yearless_day_of,
)
from attention_zoo.applications.dates.expr_times import (
    JOINED_FAMILIES,
    NUMERIC_FAMILIES,
    SPOKEN_HOURS,
    _datetime_pair,
    _time_pair,
    day_time_joiners,
    one_reading,
)
from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    before,
    draw_day,
    draw_yearless_day,
    fixed,
    locale,
    rng,
    with_native,
    words,
    ymd,
)
from attention_zoo.applications.dates.formats import FORMATS, ordinal_en, spelled_day

PER_PATTERN = 4
# A pattern with the day in words ("{month} {sord}": "March first") writes
# every day once: its texts share no template, so four drawn days taught
# four words of the 31 and left "March first" unread.
SPELLED_DAYS = 31
NAMED_HOURS = {"noon": 12, "midnight": 0}
# kind: the CLDR skeleton a partial pattern's {0} is written with
PARTIAL_SKELETONS = {"year": "y", "month": "yMMMM", "day_month": "MMMMd"}


def named_time_words(language: str) -> dict[str, list[str]]:
    """`{"noon": texts, "midnight": texts}`: CLDR's day periods of that name
    (wide) and the hand-written `named_times` of `language`."""
    periods = locale(language).day_periods
    out: dict[str, list[str]] = {name: [] for name in NAMED_HOURS}
    for context in ("format", "stand-alone"):
        for name in NAMED_HOURS:
            text = periods.get(context, {}).get("wide", {}).get(name)
            if text and text not in out[name]:
                out[name].append(text)
    for name, texts in words(language).get("named_times", {}).items():
        out[name] += [t for t in texts if t not in out[name]]
    return out


def half_hour(pattern: str, language: str) -> bool:
    """Whether `pattern` writes half past the hour (`{h}点半`)."""
    return any(w in pattern for w in words(language).get("half_hours", ()))


def hour_text(pattern: str, hour: int, language: str, r) -> str:
    """`pattern` of the `hours` words at `hour` (`{H}`: 0-23, `{h}`: on a
    12-hour clock, `{B}`: CLDR's day period of that hour, `{a}`: a
    hand-written a.m./p.m. spelling)."""
    fields = {"H": hour, "h": hour % 12 or 12}
    if "{B}" in pattern:
        fields["B"] = format_time(dt.time(hour), "B", locale=locale(language))
    if "{a}" in pattern:
        half = "am" if hour < 12 else "pm"
        fields["a"] = r.choice(words(language)["periods"][half])
    return pattern.format(**fields)


def bare_hours(language: str) -> list[str]:
    """The `hours` patterns that start with the hour or its period, not a
    preposition: those that follow an `at` joiner ("{day} um {time}")."""
    return [p for p in words(language).get("hours", ()) if p.startswith("{")]


def named_times(language: str) -> list[Pair]:
    r = rng("named_times", language)
    out = []
    for name, texts in named_time_words(language).items():
        at = dt.time(NAMED_HOURS[name])
        for text in texts:
            out.append(_time_pair(language, "time", text, at, False, draw_day(r)))
    return out


def hours(language: str) -> list[Pair]:
    r = rng("hours", language)
    out = []
    for pattern in words(language).get("hours", ()):
        for _ in range(PER_PATTERN):
            hour = r.choice(SPOKEN_HOURS)
            at = dt.time(hour, 30 if half_hour(pattern, language) else 0)
            text = hour_text(pattern, hour, language, r)
            out.append(_time_pair(language, "time", text, at, False, draw_day(r)))
    return out


def dated_hours(language: str) -> list[Pair]:
    """A day (`expr_times.JOINED_FAMILIES` but days in words, and
    `NUMERIC_FAMILIES`) and a whole hour of the `hours` words after it: by
    `day_time_joiners` where the hour's pattern starts bare ("3. Oktober
    2020, 10 Uhr", "13.09.2018 um 20 Uhr", "2020年1月23日上午10点"), by a space
    or a comma where it starts with its own preposition ("10 de marzo de
    2024 a las 9 de la mañana")."""
    patterns = words(language).get("hours", ())
    # Not a day in words: the grounding reads "veertiende december 2019,
    # 14 uur" as the 14 of the hour (a day is no number written only as a time's).
    # Days with digits for the month too ("13/09/2018 à 8h"), where they
    # read one way and are not glued to the hour's digits.
    families = set(JOINED_FAMILIES + NUMERIC_FAMILIES) - {"spelled"}
    days = [f for f in FORMATS if f.language == language and f.family in families]
    if not patterns or not days:
        return []
    r = rng("dated_hours", language)
    bare = day_time_joiners(language)
    out = []
    for pattern in patterns:
        joiners = bare if pattern.startswith("{") else ["{day} {time}", "{day}, {time}"]
        for _ in range(PER_PATTERN):
            hour = r.choice(SPOKEN_HOURS)
            minute = 30 if half_hour(pattern, language) else 0
            moment = dt.datetime.combine(draw_day(r), dt.time(hour, minute))
            fmt, joiner = r.choice(days), r.choice(joiners)
            day = fmt.render(moment.date())
            if fmt.family in NUMERIC_FAMILIES and (
                "{day}{time}" in joiner or not one_reading(day, moment.date())
            ):
                continue
            text = joiner.format(day=day, time=hour_text(pattern, hour, language, r))
            out.append(_datetime_pair(language, text, moment, False))
    return out


def partials(language: str) -> list[Pair]:
    r = rng("spoken_partials", language)
    where = locale(language)
    reference = REFERENCE.isoformat()
    out = []
    for kind, patterns in words(language).get("partials", {}).items():
        if kind == "month_case":
            out += _month_cases(language, patterns, reference, r)
            continue
        for pattern in patterns:
            spelled = "{sord}" in pattern
            for i in range(SPELLED_DAYS if spelled else PER_PATTERN):
                if kind != "day_month":
                    day = draw_day(r, *draw_year_span(r))
                elif spelled:  # each day's word once, in a month drawn
                    day = yearless_day_of(r, number=i + 1)
                else:
                    day = draw_yearless_day(r)
                written = format_skeleton(PARTIAL_SKELETONS[kind], day, locale=where)
                text = fixed(_format(pattern, written, day, where), language)
                out.append(_partial(text, day, language, kind, reference, r))
            if kind == "month":  # the month alone after it: "in May", "im Mai"
                for month in range(1, 13):
                    day = any_day_of(month, r)
                    name = format_date(day, "MMMM", locale=where)
                    text = fixed(pattern.format(name), language)
                    out.append(month_alone(text, day, language, r))
    return out


def _format(pattern: str, written: str, day: dt.date, where) -> str:
    """A `partials` pattern with its fields: {0} the skeleton's text, {year},
    {d} the day, {ord} English's ordinal day (25th), {sord} in words
    (twenty-fifth), {month} and {mon} the
    wide and abbreviated month names."""
    return pattern.format(
        written,
        year=day.year,
        d=day.day,
        ord=ordinal_en(day.day),
        sord=spelled_day(day.day, "en"),
        month=format_date(day, "MMMM", locale=where),
        mon=format_date(day, "MMM", locale=where),
    )


def _month_cases(language: str, patterns, reference: str, r) -> list[Pair]:
    """A month in a case CLDR does not write (`month_cases`: the locative of
    "в марте 2015 года", "w maju"), with its year (`{year}`) or alone."""
    out = []
    for names in words(language).get("month_cases", ()):
        for pattern in patterns:
            for _ in range(PER_PATTERN):
                day = draw_day(r, *draw_year_span(r))
                if "{year}" not in pattern:
                    day = any_day_of(day.month, r)
                text = fixed(
                    pattern.format(month=names[day.month - 1], year=day.year), language
                )
                if "{year}" in pattern:
                    out.append(_partial(text, day, language, "month", reference, r))
                else:
                    out.append(month_alone(text, day, language, r))
    return out


def _partial(text, day: dt.date, language: str, kind: str, reference: str, r) -> Pair:
    if kind == "year":
        value = f"{day.year:04d}"
        return Pair(text, f"year {value}", language, kind, reference, value)
    if kind == "month":
        value = f"{day.year:04d}-{day.month:02d}"
        return Pair(text, f"month {value}", language, kind, reference, value)
    form = f"date --{day.month:02d}-{day.day:02d}"
    return Pair(text, form, language, kind, before(day, r), ymd(day))


def spoken(language: str) -> list[Pair]:
    """The pairs of this module in `language` (native digits added)."""
    return with_native(
        named_times(language)
        + hours(language)
        + partials(language)
        + dated_hours(language)
    )
