"""The order rule: an answer's day is a number the text writes where a day
goes, not after a month and its year nor before a comma and a month, and
a text that writes an hour after a word of the clock is no day alone.

The number rule (`grounding`) asks that each number of the text be a part
of the answer, not where it stands. So a citation's issue or volume was
read as the day, valid: "June 1998 issue 4" as 1998-06-04, "May 2015
chapter 7" as 2015-05-07, "volume 3, March 2015" as 2015-03-03; and a
time as the day or a two-digit year: "March 2015 at 5" as 2015-03-05,
"3 May at 10" as 2010-05-03, "12 March at 15" as 2015-03-12. No language
we read writes a day after its month and year (day-month-year,
month-day-year and year-month-day are the orders CLDR's formats write, the
month between a year and a day in the last), nor a day, a comma and its
month ("May 3, 2020" puts the comma after the day and before the year).
So a run of one or two digits is in no day's place

- after a four-digit run that a month word precedes, with no month word
  between that run and it nor right after it (the month, the year, then
  the number; "June 1998 - 4 June 1998" writes a day before its month), or
- before a comma and a month word, words aside (`3, March`, `3rd
  edition, May 2015`);

and an answer whose day is written only as such runs is refused, naming
them. A day written in words, or in a numeric date (`3/5/2015`), is not
read here: the other rules read those.

A run of one or two digits right after a word that the hand-written
`hours` patterns write before an hour ("at", "a las", "um", "alle",
"klockan", "الساعة": `hour_words`), and before no month word, is an
hour's ("à 10" is a time, "στις 10 Μαΐου" a day), so its text writes a
time and an answer of one day is refused, as the number rule refuses
"3 May 1979 10:30". Polish "o" and Romanian "la" are left out: they are
Portuguese's and Spanish's articles too.

Read on the text's tokens: runs of letters and marks (`text_words.words`,
after `mark_months`: `5月` is the word `月e`), runs of digits, a numeric
date's runs joined by `.`, `/` or `-` as one token, and commas; a word
names a month where the run's lexicon says so. The graph half
(`order_agreement`) reads the same tokens with RE2 and segment sums.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.readings import ISO_DATE
from attention_zoo.applications.dates.text_words import mark_months, words

COMMAS = ",，،"  # the Latin, full-width and Arabic commas
# Digits joined by a date's separators (`3/5/2015`, `10.30`): one token,
# no run of a day's; `#` stands for it in the graph (and is one itself).
JOINED = r"[0-9]+(?:[./-][0-9]+)+"


class Token(NamedTuple):
    """`kind`: "M" a month word, "W" another word, "Y" four digits, "D" one
    or two, "N" other digits or a numeric date (`JOINED`), "C" a comma;
    `text`, and where it stands in the text read."""

    kind: str
    text: str
    start: int
    end: int


@functools.lru_cache(maxsize=8)
def hour_words(languages=LANGUAGES) -> frozenset[str]:
    """The last word before the hour of each hand-written `hours` pattern of
    `languages` ("at {h}{a}": `at`, "a las {H}": `las`), in lower case,
    "o" and "la" aside (module docstring)."""
    from attention_zoo.applications.dates.expression_pairs import words as pairs

    out = set()
    for language in languages:
        for pattern in pairs(language).get("hours", ()):
            head = re.split(r"\{[hH]\}", pattern)[0]
            if "{" not in head and words(head.lower()):
                out.add(words(head.lower())[-1])
    return frozenset(out - {"o", "la"})


_PIECES = re.compile(rf"{JOINED}|[0-9]+|[{COMMAS}#]")


def _letters(text: str, start: int, stop: int):
    """The spans of the runs of letters and marks of `text[start:stop]`."""
    begin = None
    for i in range(start, stop + 1):
        letter = i < stop and unicodedata.category(text[i])[0] in "LM"
        if letter and begin is None:
            begin = i
        elif not letter and begin is not None:
            yield begin, i
            begin = None


def tokens(text: str, lexicon) -> list[Token]:
    """The tokens (`Token`) of `text` (normalized), in order."""
    out, pos = [], 0
    for m in [*_PIECES.finditer(text), None]:
        stop = m.start() if m else len(text)
        for a, b in _letters(text, pos, stop):
            out.append(Token("M" if lexicon.get(text[a:b]) else "W", text[a:b], a, b))
        if m is None:
            return out
        piece = m[0]
        kind = (
            "C" if piece in COMMAS
            else "N" if not piece.isdigit()
            else {4: "Y", 1: "D", 2: "D"}.get(len(piece), "N")
        )  # fmt: skip
        out.append(Token(kind, piece, *m.span()))
        pos = m.end()
    return out


def _out_of_place(kinds: list[str], i: int) -> str:
    """Where the run of digits at `i` stands in no day's place (module
    docstring): "after a month and a year", "before a comma and a month",
    or "" when it stands in one."""
    before = [j for j in range(i) if kinds[j] in "MY"]
    after = kinds[i + 1 : i + 2] == ["M"]  # a day before its month: `4 June`
    if before and kinds[before[-1]] == "Y" and "M" in kinds[: before[-1]] and not after:
        return "after a month and a year"
    j = i + 1
    while j < len(kinds) and kinds[j] == "W":  # `3rd edition, May 2015`
        j += 1
    return "before a comma and a month" if kinds[j : j + 2] == ["C", "M"] else ""


def hour_runs(found: list[Token], languages=LANGUAGES) -> list[int]:
    """The indices of the runs of `found` (`tokens`) that are an hour's: one
    or two digits after a word of `hour_words`, before no month word."""
    clock = hour_words(languages)
    return [
        i
        for i, t in enumerate(found)
        if t.kind == "D"
        and i > 0
        and found[i - 1].text in clock
        and not (i + 1 < len(found) and found[i + 1].kind == "M")
    ]


def hour_starts(text: str, lexicon, languages=LANGUAGES) -> set[int]:
    """Where in `text` (normalized) the runs of `hour_runs` start."""
    found = tokens(text, lexicon)
    return {found[i].start for i in hour_runs(found, languages)}


def order_disagreement(text: str, answer: str, lexicon) -> str:
    """The order rule on `text` (normalized) and `answer`: "" when the
    answer's day is a run of digits in a day's place or written as none,
    and the text writes no hour after a word of the clock; "" too when the
    answer is no ISO date. `lexicon` (`lexicon.load`) says which words
    name a month."""
    if not ISO_DATE.fullmatch(answer):
        return ""
    found = tokens(mark_months(text), lexicon)
    hours = hour_runs(found)
    if hours:
        hour, word = found[hours[0]], found[hours[0] - 1]
        return (
            f"it writes {word.text!r} {hour.text}, a time, which no answer of "
            "one day uses"
        )
    kinds = [t.kind for t in found]
    day = int(answer[8:10])
    runs = [i for i, t in enumerate(found) if t.kind == "D" and int(t.text) == day]
    places = [_out_of_place(kinds, i) for i in runs]
    if runs and all(places):
        return (
            f"it writes its day {day} only {places[0]}, where no date writes "
            "its day (an issue, a volume, a time?)"
        )
    return ""


def order_agreement(texts, answers, table):
    """bool `(B,)`: the graph twin of `not order_disagreement(text, answer,
    lexicon)`, with `table` from `graph_rules.word_table`."""
    import tensorflow as tf

    from attention_zoo.applications.dates.graph_rules import (
        _number,
        any_by_row,
        mark_months,
    )

    marks = f"[{COMMAS}#]"
    spaced = tf.strings.regex_replace(mark_months(texts), JOINED, " # ")
    spaced = tf.strings.regex_replace(spaced, rf"([\pL\pM]+|[0-9]+|{marks})", r" \1 ")
    spaced = tf.strings.regex_replace(spaced, rf"[^\pL\pM0-9{COMMAS}#]+", " ")
    found = tf.strings.split(spaced)
    flat, rows = found.flat_values, found.value_rowids()
    size = tf.size(flat, out_type=tf.int64)
    length = tf.strings.length(flat)
    digits = tf.strings.regex_full_match(flat, "[0-9]+")
    comma = tf.strings.regex_full_match(flat, f"[{COMMAS}]")
    word = tf.logical_not(digits | comma | tf.equal(flat, "#"))
    masks = table.lookup(tf.where(word, flat, ""))
    month = word & (masks >= 0) & (tf.bitwise.bitwise_and(masks, (1 << 12) - 1) != 0)
    year = digits & (length == 4)
    day_run = digits & (length <= 2)
    value = tf.strings.to_number(tf.where(day_run, flat, "0"), tf.int32)

    def shifted(flags, k):
        """`flags` of the token k after (k > 0) or before each, in its row."""
        pad = tf.zeros([abs(k)], flags.dtype)
        other = tf.fill([abs(k)], tf.constant(-1, rows.dtype))
        if k > 0:
            moved, moved_rows = tf.concat([flags[k:], pad], 0), tf.concat([rows[k:], other], 0)
        else:
            moved, moved_rows = tf.concat([pad, flags[:k]], 0), tf.concat([other, rows[:k]], 0)
        return moved[:size] & tf.equal(moved_rows[:size], rows)

    # The hour rule: a run after a word of the clock, before no month word.
    clock = "|".join(re.escape(w) for w in sorted(hour_words(), key=len, reverse=True))
    clock_word = word & tf.strings.regex_full_match(flat, f"(?:{clock})")
    hour = day_run & shifted(clock_word, -1) & tf.logical_not(shifted(month, 1))
    writes_an_hour = any_by_row(hour, found)

    # The last month word or year before each token: the k-th of them all,
    # k their count before it, where it lies in the token's own row.
    index = tf.range(size)
    marker = month | year
    count = tf.cumsum(tf.cast(marker, tf.int64), exclusive=True)
    where = tf.concat([tf.where(marker)[:, 0], [-1]], 0)
    last = tf.gather(where, tf.where(count > 0, count - 1, tf.size(where, tf.int64) - 1))
    last = tf.where(last >= tf.gather(found.row_starts(), rows), last, -1)
    first_month = tf.math.unsorted_segment_min(
        tf.where(month, index, size), rows, found.nrows()
    )
    after_year = (last >= 0) & tf.gather(year, tf.maximum(last, 0))
    after_year &= tf.gather(first_month, rows) < last
    after_year &= tf.logical_not(shifted(month, 1))
    # The first token after each that is no word but a month's, the
    # j-th of them all for j their count up to it: a comma before a month?
    other = tf.logical_not(word & tf.logical_not(month))
    upto = tf.cumsum(tf.cast(other, tf.int64))
    ahead = tf.concat([tf.where(other)[:, 0], [0]], 0)
    j = tf.gather(ahead, tf.minimum(upto, tf.size(ahead, tf.int64) - 1))
    j_found = (upto < tf.size(ahead, tf.int64) - 1) & tf.equal(tf.gather(rows, j), rows)
    before_comma = j_found & tf.gather(comma & shifted(month, 1), j)
    misplaced = after_year | before_comma

    iso = tf.strings.regex_full_match(answers, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    safe = tf.where(iso, answers, "0000-00-00")
    day = _number(tf.strings.substr(safe, 8, 2), iso)
    is_day = day_run & tf.equal(value, tf.gather(day, rows))
    placed = any_by_row(is_day & tf.logical_not(misplaced), found)
    unread = tf.logical_not(any_by_row(is_day, found))
    return tf.logical_not(iso) | (tf.logical_not(writes_an_hour) & (unread | placed))
