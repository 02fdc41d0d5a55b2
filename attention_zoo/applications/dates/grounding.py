"""The grounding rules: every number a text writes, and every weekday it
names, must agree with the answer. Each with its Python half (a reason, ""
when it agrees) and its graph half (bool `(B,)`, True where it agrees),
side by side; `checks.CHECKS` holds them as the checks `numbers` and
`weekday`.

The model reads one absolute day. Shown more than that, it answered with
a confident day made of the wrong numbers: `8:25 a.m. Dec. 12, 2014` as
2014-12-25 (the minutes read as the day), `13 - 15 de julio de 2013` as
2013-07-15 (a range), `3 days after 5 May 2015` as 2015-05-05. The
number rule asks that each number of the text be a part of the answer:
its day or month (one or two digits), its year (four digits, or two that
pivot to it), or the whole date in one of the compact forms the numeric
rule reads (`19870923`); a month the text names in words (`mai`, `9月`)
is not a number's to take; and no more numbers than the answer has parts
left. So a time, a second day, a count of days or a second year leaves a
number the answer does not use, and the answer is refused, naming it.

`third Tuesday of September 2014` writes no number but the year, and the
model answered 2014-09-03 (the ordinal read as the day). The weekday
rule asks that a weekday the text names (CLDR's wide and abbreviated
names in the 27 languages, `weekday_words`) be the answer's weekday:
2014-09-03 is a Wednesday. The weekday rule cannot tell a second Tuesday
that falls on the 2nd (both Tuesdays); docs/dates.md counts what is left.
"""

from __future__ import annotations

import datetime as dt
import functools
import re

from attention_zoo.applications.dates.readings import ISO_DATE, PIVOT, expand_year
from attention_zoo.applications.dates.text_words import mark_months, words

_RUNS = re.compile(r"[0-9]+")
# A note in brackets (`[12]`, a footnote; `(aged 62)`): the generator and
# people write them after a date, and their numbers are no part of it.
NOTE = r"\[[^\]]*\]|\([^)]*\)"
_NOTE = re.compile(NOTE)
# Python's weekday() numbers Monday 0.
_WEEKDAY_DATES = [dt.date(2001, 1, 1) + dt.timedelta(days=i) for i in range(7)]


def _parts(answer: str) -> tuple[int, int, int]:
    return int(answer[:4]), int(answer[5:7]), int(answer[8:10])


def _compact(year: int, month: int, day: int) -> set[str]:
    """The compact forms of a date the numeric rule reads (`readings`)."""
    y, yy, m, d = f"{year:04d}", f"{year % 100:02d}", f"{month:02d}", f"{day:02d}"
    return {y + m + d, d + m + y, m + d + y, d + m + yy, m + d + yy}


def _uses(run: str, year: int, month: int, day: int, month_free: bool) -> bool:
    """Whether the answer's parts account for the written number `run`."""
    if len(run) > 4:
        return run in _compact(year, month, day)
    if len(run) == 4:
        return int(run) == year
    if len(run) > 2:
        return False
    value = int(run)
    return (
        value == day
        or (month_free and value == month)
        or (len(run) == 2 and expand_year(run) == year)
    )


def number_disagreement(text: str, answer: str, lexicon) -> str:
    """The number rule (module docstring) on `text` (normalized) and
    `answer`: "" when every number is a part of it, or when the answer is
    not an ISO date. `lexicon` (`lexicon.load`) says which words name a
    month."""
    if not ISO_DATE.fullmatch(answer):
        return ""
    year, month, day = _parts(answer)
    marked = mark_months(text)
    month_free = not any(lexicon.get(w) for w in words(marked))
    runs = _RUNS.findall(_NOTE.sub(" ", marked)) or _RUNS.findall(marked)
    unused = [r for r in runs if not _uses(r, year, month, day, month_free)]
    if unused:
        listed = ", ".join(dict.fromkeys(unused))
        return (
            f"it writes the number {listed}, which its answer {answer} does not "
            "use (a time, a second date, a count?): the model reads one day"
        )
    cost = sum(3 if len(r) > 4 else 1 for r in runs)
    if cost > 2 + month_free:
        return (
            f"it writes {len(runs)} numbers, more than one date's "
            f"{'day, month and year' if month_free else 'day and year'}: "
            "the model reads one day"
        )
    return ""


def number_agreement(texts, answers, table):
    """bool `(B,)`: the graph twin of `not number_disagreement(text,
    answer, lexicon)`, with `table` from `graph_rules.word_table`."""
    import tensorflow as tf

    from attention_zoo.applications.dates.graph_rules import (
        _number,
        any_by_row,
        mark_months,
        words,
    )

    iso = tf.strings.regex_full_match(answers, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    safe = tf.where(iso, answers, "0000-00-00")
    year, month, day = (
        _number(tf.strings.substr(safe, start, length), iso)
        for start, length in ((0, 4), (5, 2), (8, 2))
    )
    marked = mark_months(texts)
    masks = tf.ragged.map_flat_values(table.lookup, words(marked))
    month_bits = tf.bitwise.bitwise_and(masks.flat_values, (1 << 12) - 1)
    names_month = any_by_row((masks.flat_values >= 0) & (month_bits != 0), masks)
    month_free = tf.logical_not(names_month)

    unnoted = tf.strings.regex_replace(marked, NOTE, " ")
    unnoted = tf.where(
        tf.strings.regex_full_match(unnoted, "(?s).*[0-9].*"), unnoted, marked
    )
    runs = tf.strings.split(tf.strings.regex_replace(unnoted, "[^0-9]+", " "))
    flat, rows = runs.flat_values, runs.value_rowids()
    length = tf.strings.length(flat)
    short = length <= 4
    value = tf.strings.to_number(tf.where(short & (length > 0), flat, "0"), tf.int32)
    y, m, d = (tf.gather(part, rows) for part in (year, month, day))
    free = tf.gather(month_free, rows)
    pivoted = value + tf.where(value >= PIVOT, 1900, 2000)
    small = (value == d) | (free & (value == m)) | ((length == 2) & (pivoted == y))
    compact = tf.zeros_like(short)
    ys, yy = (
        tf.strings.as_string(y, width=4, fill="0"),
        tf.strings.as_string(y % 100, width=2, fill="0"),
    )
    ms, ds = (tf.strings.as_string(p, width=2, fill="0") for p in (m, d))
    for parts in ((ys, ms, ds), (ds, ms, ys), (ms, ds, ys), (ds, ms, yy), (ms, ds, yy)):
        compact |= tf.equal(flat, tf.strings.join(list(parts)))
    used = tf.where(
        length > 4,
        compact,
        tf.where(length == 4, value == y, (length <= 2) & small),
    )
    unused = any_by_row(tf.logical_not(used), runs)
    cost = tf.math.unsorted_segment_sum(tf.where(length > 4, 3, 1), rows, runs.nrows())
    limit = 2 + tf.cast(month_free, tf.int32)
    return tf.logical_not(iso) | (tf.logical_not(unused) & (cost <= limit))


@functools.lru_cache(maxsize=1)
def weekday_words() -> dict[str, frozenset[int]]:
    """`{word: weekdays}` (Monday 0): CLDR's wide and abbreviated weekday
    names of the 27 languages, as the model reads them (lower case), but
    the words that name a month in the shipped lexicon (`mar`, Tuesday and
    March) and the one-letter ones."""
    from babel.dates import format_date

    from attention_zoo.applications.dates import lexicon
    from attention_zoo.applications.dates.formats import LOCALES
    from attention_zoo.applications.dates.passes import normalize

    months = lexicon.load()
    found: dict[str, set[int]] = {}
    for language, locale in LOCALES.items():
        if language == "vi":
            continue
        for date in _WEEKDAY_DATES:
            for width in ("EEEE", "EEE"):
                name = normalize(format_date(date, width, locale=locale))
                for word in words(name):
                    if len(word) > 2 and not months.get(word):
                        found.setdefault(word, set()).add(date.weekday())
    return {w: frozenset(d) for w, d in sorted(found.items()) if len(d) == 1}


def weekday_disagreement(text: str, answer: str) -> str:
    """The weekday rule (module docstring) on `text` (normalized): "" when
    every weekday it names is the answer's, or when the answer is not an
    ISO date (or no date: `data.is_calendar_date` refuses those)."""
    if not ISO_DATE.fullmatch(answer):
        return ""
    try:
        weekday = dt.date(*_parts(answer)).weekday()
    except ValueError:
        return ""
    names = weekday_words()
    wrong = [w for w in words(text) if w in names and weekday not in names[w]]
    if wrong:
        return (
            f"it names the weekday {wrong[0]!r}, but {answer} is a "
            f"{_WEEKDAY_DATES[weekday].strftime('%A')} (a weekday counted in "
            "the month? the model reads one day)"
        )
    return ""


def weekday_agreement(texts, answers):
    """bool `(B,)`: the graph twin of `not weekday_disagreement(text,
    answer)`: the text's words joined by one space, one at each end, and
    for each weekday the words that do not name it looked for."""
    import tensorflow as tf

    from attention_zoo.applications.dates.graph_rules import _real, _ymd

    iso = tf.strings.regex_full_match(answers, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    year, month, day = _ymd(answers, iso)
    real = iso & _real(year, month, day)
    # Sakamoto's rule, Sunday 0, as Monday 0.
    shift = tf.constant([0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4])
    y = year - tf.cast(month < 3, tf.int32)
    sunday_0 = (
        y
        + y // 4
        - y // 100
        + y // 400
        + tf.gather(shift, tf.clip_by_value(month - 1, 0, 11))
        + day
    ) % 7
    weekday = (sunday_0 + 6) % 7
    names = weekday_words()
    joined = tf.strings.strip(tf.strings.regex_replace(texts, r"[^\pL\pM]+", " "))
    joined = tf.strings.join([" ", joined, " "])

    def alternation(chosen):
        return "|".join(re.escape(w) for w in sorted(chosen, key=len, reverse=True))

    def judge():
        wrong = tf.zeros_like(real)
        for k in range(7):
            others = [w for w, days in names.items() if k not in days]
            found = tf.strings.regex_full_match(
                joined, f"(?s).* (?:{alternation(others)}) .*"
            )
            wrong |= (weekday == k) & found
        return wrong

    named = tf.strings.regex_full_match(joined, f"(?s).* (?:{alternation(names)}) .*")
    wrong = tf.cond(tf.reduce_any(named & real), judge, lambda: tf.zeros_like(real))
    return tf.logical_not(real & wrong)
