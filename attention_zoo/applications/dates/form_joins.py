"""An interval's text joins its two ends.

The ends of an interval form ground in the numbers and words of its text
one by one, so a text that writes two points side by side ("3 PM 2 PM",
"1999 2000", "Monday Tuesday") was read as the interval between them:
two times or a list, not a span. An interval is valid only where its text
writes a joiner (`unjoined`): what the generator writes between the two
ends of a range in a language of the run (`expression_words.json`'s range
patterns: "to" of "from {0} to {1}", "au" of "du {d1} au {d2}", "至",
"から", Korean's "부터" inside its word) or a dash or tilde, with which CLDR's intervals and every
language's ranges are written ("13-15", "Jul 13 – 15", "{0}～{1}"). A
joiner that starts with the language's word for "and" (CLDR's list of
two: `conjunction`) joins only after the word its pattern opens with
("between 3 and 5 May"; `openers`): "3 and 5 May" and "Monday and
Wednesday" are two days, which forms56 read as the ranges between them.
Nor is an interval of two ends that are one point ("until Friday" read as
Friday to Friday: `interval_disagreement`); the settling pass `point`
answers that point, grounded as any. And an hour and a minute written
with a joiner between them are a range's ends, no clock (`ranged_clock`:
"de 3 a 5" is no 03:05).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from attention_zoo.applications.dates import phrase_spans
from attention_zoo.applications.dates.data import normalize
from attention_zoo.applications.dates.expression_pairs import list_word, words
from attention_zoo.applications.dates.formats import LANGUAGES, LOCALES

# Where a range pattern writes its two ends.
_ENDS = re.compile(r"\{(?:0|d1|m1|n1)\}(.*?)\{(?:1|d2|m2|n2)\}")
# The range patterns of `expression_words.json`.
_RANGES = (
    "year_connectors",
    "day_ranges",
    "time_connectors",
    "connectors",
    "month_ranges",
)
DASHES = "-\u2013\u2014~\uff5e\u301c"  # -, en and em dash, tilde, full-width, wave


def _patterns(language: str) -> list[str]:
    found = words(language)
    out = [p for key in _RANGES for p in found.get(key) or ()]
    return out + list((found.get("weekdays") or {}).get("ranges", ()))


def _phrase(text: str) -> str:
    return phrase_spans.apostrophes(normalize(text)).strip().strip(" ,")


def _pairs(language: str) -> set[tuple[str, str]]:
    """`(opener, joiner)` of each range pattern of `language`: the words
    written before its first end ("between", "" for none) and between its
    two ends ("and"); a dash joins by itself and is left out."""
    out = set()
    for pattern in _patterns(language):
        opener = _phrase(re.sub(r"\{\w+\}.*", "", pattern))
        for between in _ENDS.findall(pattern):
            # "{0}年～{1}年" joins by its dash, which is one already: the
            # first end's 年 before it is no joiner (年 would join
            # "2015年5月3日10时").
            if any(d in between for d in DASHES):
                continue
            # "{m1}年{n1}月到" writes the year and month first: the joiner
            # is what no placeholder writes.
            between = _phrase(re.sub(r"\{\w+\}", " ", between))
            if between and not between.isdigit():
                out.add((opener, between))
    # The elisions the language's `replace` writes ("a ottobre" -> "ad
    # ottobre" in "da maggio ad ottobre") join as the word they replace.
    for old, new in words(language).get("replace", ()):
        head, written = old.split()[:1], new.split()[:1]
        for opener, joiner in list(out):
            if head and written and joiner == head[0] and written != head:
                out.add((opener, _phrase(written[0])))
    return out


def conjunction(language: str) -> str:
    """The language's word for "and" (CLDR's list of two, `list_word`)."""
    return _phrase(list_word(language, "standard"))


@functools.lru_cache(maxsize=8)
def openers(languages=LANGUAGES) -> dict[str, frozenset[str]]:
    """`{joiner: openers}` of the joiners that start with the language's
    word for "and" (`conjunction`): a list's word, which joins a range's
    two ends only after the word that opens it, "between" ("3 and 5 May"
    is two days, not the 3rd to the 5th; "entre el 3 y el 5 de mayo" is a
    range). A joiner of another language's pattern that opens with none
    ("to", "a", "bis") joins by itself."""
    found: dict[str, set[str]] = {}
    free = set()
    for language in languages:
        word = conjunction(language) if language in LOCALES else ""
        for opener, joiner in _pairs(language):
            if opener and word and joiner.split()[0] == word:
                found.setdefault(joiner, set()).add(opener)
            else:
                free.add(joiner)
    return {j: frozenset(o) for j, o in found.items() if j not in free}


@functools.lru_cache(maxsize=8)
def joiners(languages=LANGUAGES) -> re.Pattern:
    """A pattern of the words written between a range's ends in
    `languages` (whole words where words are spaced) and of the dashes."""
    phrases = {joiner for language in languages for _, joiner in _pairs(language)}
    alternatives = [rf"[{re.escape(DASHES)}]"]
    # Each a word, not a part of one (a digit may touch it: Arabic "و1257"),
    # or a part of a word in a script written without spaces.
    alternatives += [_word(p).pattern for p in sorted(phrases, key=len, reverse=True)]
    return re.compile("|".join(alternatives))


def _word(p: str) -> re.Pattern:
    if any(map(_attached, p)):
        return re.compile(re.escape(p))
    return re.compile(rf"(?<![^\W\d_]){re.escape(p)}(?![^\W\d_])")


def _attached(ch: str) -> bool:
    """Whether `ch` is of a script whose joiners are parts of words: Han and
    kana, written without spaces, and Hangul, whose particles end a word
    ("7일부터")."""
    return phrase_spans.unspaced(ch) or "HANGUL" in unicodedata.name(ch, "")


def interval_disagreement(
    text: str, interval, languages=LANGUAGES, end_numbers: bool = False
) -> str:
    """Why `text` (as written) is not the `interval` (`forms.Interval`) whose
    ends the grounding read: its two ends are one point that the end took
    no number of its own for (`end_numbers`: "from 6:30 to 6:30" writes
    each end's, which `FormText.overclaimed` counts; "until Friday" read
    as Friday to Friday names Friday once), or it writes no joiner
    (`unjoined`); "" when neither."""
    if str(interval.start) == str(interval.end) and not end_numbers:
        return (
            f"the interval's two ends are one point ({interval.start}), which "
            "the text names once"
        )
    return unjoined(text, languages)


def unjoined(text: str, languages=LANGUAGES) -> str:
    """Why `text` (as written) is no interval: "" when it writes a joiner,
    after one of its openers where it has them (`openers`)."""
    normalized = phrase_spans.apostrophes(normalize(text))
    paired = openers(tuple(languages))
    for m in joiners(tuple(languages)).finditer(normalized):
        before = normalized[: m.start()]
        if m[0] not in paired or any(_word(o).search(before) for o in paired[m[0]]):
            return ""
    return (
        "the text writes no word or dash that joins two ends (to, -, 至): "
        "two points side by side are no interval"
    )


def ranged_clock(t, hour: int, minute: int) -> str:
    """Why a clock of `hour`:`minute` is no reading of `t` (a `FormText`)
    that writes them as a range's two ends ("de 3 a 5", "from 3 to 5",
    "3-5": forms57 read the first as 03:05, valid): every run of the
    minute's digits after a run of the hour's has a joiner between (the
    runs' text between them, `joiners`); "" where one has none ("10:30",
    "17 Uhr 30") or the minute is written nowhere after its hour."""
    hours = {hour, hour % 12, hour % 12 or 12}
    runs = list(re.finditer(r"\d+", t.text))
    pairs = [
        t.text[a.end() : b.start()]
        for a, b in zip(runs, runs[1:])
        if int(a[0]) in hours and int(b[0]) == minute
    ]
    pattern = joiners(tuple(t.languages))
    if pairs and all(pattern.search(between) for between in pairs):
        return (
            f"the text writes the hour and the minute {minute:02d} as a "
            f"range's two ends ({pairs[0].strip()!r} between them), no clock"
        )
    return ""
