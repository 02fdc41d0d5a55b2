"""Where the phrases of a table are in a text: the grounding's search.

A phrase (`phrase`) is a text normalized as the model's input is
(`data.normalize`), with one apostrophe, Arabic without its vowel marks,
Devanagari without its nukta and single spaces; a counted one writes its number as the slot `#`. It is
found in a text (`spans`) where its words are words of the text,
in order, side by side: in a script written without spaces (Han, kana) it
is a part of a run of letters; beside the slot the space is optional.

A table holds thousands of phrases and a text a few of them, so each
table is indexed once by a key of each phrase (`_index`: the first `KEY`
characters of its longest part) and a text is screened against the
phrases its own keys name (`_keys`, every substring of at most `KEY`
characters, worked out once a text for all the tables), then by
substring, then by the phrase's pattern. Found this way or by trying
every phrase, the spans are the same
(tests/applications/dates/test_phrase_spans.py).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from attention_zoo.applications.dates.data import normalize


def unspaced(ch: str) -> bool:
    """Whether `ch` is of a script written without spaces between words."""
    return unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA"))


def _letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM"


SLOT = "#"  # where a counted pattern writes its number
# Arabic's vowel marks (fathatan to sukun) and the tatweel: CLDR writes
# ظهرًا, people ظهرا. Devanagari's nukta: CLDR and the hand-written words
# write हफ़्ते (week), people as often हफ्ते.
_APOSTROPHES = str.maketrans(
    {c: "'" for c in "\u2019\u02bc\u2018`\u00b4"}
    | dict.fromkeys(map(chr, range(0x064B, 0x0653)), None)
    | {"\u0640": None, "\u093c": None}
)


def apostrophes(text: str) -> str:
    """`text` with one apostrophe (people write `l'an` for CLDR's
    `l\u2019an`), Arabic without its vowel marks and Devanagari without
    its nukta."""
    return text.translate(_APOSTROPHES)


def normalized(text: str) -> str:
    """`text` as the phrases are searched in: normalized as the model's
    input, with one apostrophe and single spaces."""
    return apostrophes(" ".join(normalize(text).split()))


@functools.lru_cache(maxsize=65536)
def phrase(text: str, ends: str = " ,.;:-–—\u200f\u200e", slot: bool = False) -> str:
    """`text` as a phrase: normalized, single spaces, without the characters
    `ends` at either end; with `slot`, a number (digits) is the slot `#`."""
    out = apostrophes(normalize(text) or text.casefold())
    if slot:
        out = re.sub(r"[0-9]+(?:[.,][0-9]+)*", f" {SLOT} ", out)
    return re.sub(r"\s+", " ", out).strip(ends)


@functools.lru_cache(maxsize=4096)
def _pattern(words: str) -> re.Pattern:
    # A phrase's ends are word ends unless they are letters of a script
    # without spaces; its inner spaces stand for any run of spaces.
    head = "" if unspaced(words[0]) or not _letter(words[0]) else r"(?<![^\W\d_])"
    tail = "" if unspaced(words[-1]) or not _letter(words[-1]) else r"(?![^\W\d_])"
    tokens = words.split(" ")
    body = ""
    for i, w in enumerate(tokens):
        if i:  # beside the number, the space is optional (`3天前`, `3 días`)
            body += r"\s*" if SLOT in (w, tokens[i - 1]) else r"\s+"
        body += r"(?<![0-9])(?P<n>[0-9]+|[^\W\d_]+)" if w == SLOT else re.escape(w)
    return re.compile(head + body + tail)


# The length of a phrase's key. Two characters ("de", "in") name
# thousands of phrases in all, of which a text holds a few dozen; four
# leave a handful to try, and a text's keys are still few (five a
# character, the empty key once).
KEY = 4
# id(phrases): (phrases, index, its keys) of `_index`; the phrases are
# kept, so an id stays theirs. The tables are the cached ones of this
# module: few.
_INDEXES: dict[int, tuple] = {}


def _index(phrases) -> tuple[dict[str, list], frozenset[str]]:
    """`phrases` by the first `KEY` characters of each one's longest part
    (the part itself when shorter), and the set of those keys: a text
    holds a phrase only where it holds that key, so a text is screened
    against the few phrases its own keys name, not the thousands of a
    table. Each entry: the phrase's position, the phrase, the parts a text
    that holds it holds as they are."""
    kept = _INDEXES.get(id(phrases))
    if kept is not None and kept[0] is phrases:
        return kept[1], kept[2]
    index: dict[str, list] = {}
    for position, p in enumerate(phrases):
        parts = tuple(q.strip() for q in p.split(SLOT) if q.strip())
        if p:  # a phrase of its slot alone, under "", is every text's
            key = max(parts, key=len)[:KEY] if parts else ""
            index.setdefault(key, []).append((position, p, parts))
    if len(_INDEXES) >= 64:
        _INDEXES.clear()
    keys = frozenset(index)
    _INDEXES[id(phrases)] = (phrases, index, keys)
    return index, keys


@functools.lru_cache(maxsize=4096)
def _keys(text: str) -> frozenset[str]:
    """Every substring of `text` of at most `KEY` characters, "" included:
    the keys of `_index` that a phrase `text` holds can have. A text is
    searched for every table's phrases, so they are worked out once."""
    return frozenset(
        text[i : i + n] for n in range(KEY + 1) for i in range(len(text) - n + 1)
    )


def spans(text: str, phrases) -> list[tuple[int, int, str, str | None]]:
    """`(start, end, phrase, number)` of each of `phrases` found in `text`
    (normalized, single spaces), `number` what its slot holds (digits or a
    word; None without a slot), but those inside a longer one found
    (`easter` inside `easter monday`)."""
    index, keys = _index(phrases)
    candidates = sorted(e for key in _keys(text) & keys for e in index[key])
    hits = []
    # A substring test first: it is far cheaper than the phrase's pattern.
    for _, p, parts in candidates:
        if all(part in text for part in parts):
            hits += [
                (m.start(), m.end(), p, m.groupdict().get("n"))
                for m in _pattern(p).finditer(text)
            ]
    return [
        h
        for h in hits
        if not any(
            o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits
        )
    ]


def first_marked(text: str, table: dict) -> str | None:
    """The first phrase of `table` found in `text` (as written) whose value
    is true, or None: a table of words that mark a text (a repetition, a
    count) beside the names that hold them with a false value, so a word
    inside a name found is no mark (`spans` keeps the longer)."""
    for _, _, p, _ in sorted(spans(normalized(text), table)):
        if table[p]:
            return p
    return None
