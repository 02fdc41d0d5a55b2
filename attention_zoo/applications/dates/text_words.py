"""The words of a normalized text (`words`), its month markers read as
words (`mark_months`), and the text pass that drops leading words a run
was not taught (`drop_untaught_words`, the Python half of the pass of
that name in `passes.PASSES`). Kept out of `lexicon`, which builds the
lexicon from what the passes make of the generator's formats, and so
imports the passes."""

from __future__ import annotations

import re
import unicodedata

# A month marker after its number (CJK) or before it (Vietnamese), the
# number 1-12 not part of a longer one. The graph half
# (`graph_rules.mark_months`) writes the same with one RE2 pass per month.
_MARKED_AFTER = re.compile(r"(?<![0-9])0?(1[0-2]|[1-9]) ?[月월]")
_MARKED_BEFORE = re.compile(r"(?:tháng|thg) ?0?(1[0-2]|[1-9])(?![0-9])")
MONTH_LETTERS = "abcdefghijkl"


def mark_months(text: str) -> str:
    """`text` (normalized) with each month written by a marker and its
    number (`9月`, `9월`, `tháng 9`) as the word `月` + the month's letter
    (`月i`), spaced."""

    def word(match):
        return f" 月{MONTH_LETTERS[int(match.group(1)) - 1]} "

    return _MARKED_BEFORE.sub(word, _MARKED_AFTER.sub(word, text))


def words(text: str) -> list[str]:
    """The runs of letters and combining marks of `text`, in order (the
    graph half splits on RE2's `[^\\pL\\pM]`)."""
    out, current = [], []
    for ch in text:
        if unicodedata.category(ch)[0] in "LM":
            current.append(ch)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return out


# Words before a date and a comma (`київ, 24 серпня 1991 р.`, a place):
# up to 40 characters without a digit or a comma at the start of the
# normalized text, then ", " and a digit. Group 1 is the words, group 2 the
# rest; the graph half is `graph_text.drop_untaught_words`.
LEADING_WORDS = r"^([^0-9,]{1,40}), ([0-9].*)$"
_LEADING_WORDS = re.compile(LEADING_WORDS)
ONE_NUMBER = "[^0-9]*[0-9]+[^0-9]*"  # a date writes two at least
_ONE_NUMBER = re.compile(ONE_NUMBER)


def drop_untaught_words(text: str, lexicon) -> str:
    """`text` (normalized) without its leading words and comma when one of
    them is a word `lexicon` (a run's: every word its formats write,
    neutral ones included) does not hold and every word after the comma
    is one it holds: the generator writes no place before a date, so the
    model would read `київ, ` as noise around a date it knows and refuse
    it. A weekday or a phrase the formats write (`tuesday, `, `december
    twenty-first, `) stays, and so do an address (`rua simões, 7`,
    `vicolo fiamma, 15 (archived)`: one number, or words it was
    not taught after the comma) and a weekday before a date in a language
    it was not taught: the generator writes both as non-dates, and no
    generated text is read differently (tested)."""
    match = _LEADING_WORDS.match(text)
    if match is None or _ONE_NUMBER.fullmatch(match.group(2)):
        return text
    head, rest = words(match.group(1)), words(mark_months(match.group(2)))
    if all(w in lexicon for w in head) or not all(w in lexicon for w in rest):
        return text
    return match.group(2)
