"""The words the normalizer was taught, and the month-word rule.

The model reads a month from a month word ("mai", "sept.", "Oktober") or
from digits. Shown a month word in a language it was never taught
(`5. toukokuuta 1970`, Finnish for 5 May) it still writes some month,
copies the day and the year right, and is confident: its score cannot
tell a guessed month from a read one. So validity asks the input: an
answer to an input that writes letters is valid only if

- the input names a month the model reads and the answer is that month
  (any of them, where two languages name two months), or
- the input names no month and its digits, without its words, are an
  all-numeric date whose one reading is the answer (the numeric rule of
  `readings`): `le 23/09/1987` is 1987-09-23 and nothing else. The
  generator writes no such input, so this is the only way the model can
  have read its month.

A number that a month marker names is a month word too: `9月` (Chinese,
Japanese), `9월` (Korean), `tháng 9` (Vietnamese) write September with a
digit, and `mark_months` reads each as the word `月i` (`i`, the ninth
letter) before the words are looked up, so these languages' dates are
grounded the same way (their digits alone, `1987  9  23`, have no reading).

The lexicon is what the generator writes (`formats.FORMATS`): every word
(a run of Unicode letters and marks) of every format, over every day of a
leap year, counted per month it was written with. A word written far more
often with some months than with the average month names them (`_months`:
"mai", "sept.", also a French seven, "mar", also a Tuesday); the others
are neutral words (weekdays, spelled days, "de"). It is shipped as
`lexicon.json`, built by `python -m attention_zoo.applications.dates.lexicon`, and
tests/applications/dates/test_months.py checks that it is the generator's.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import types
import unicodedata
from pathlib import Path

from attention_zoo.applications.dates.readings import (
    disagreement,
    numeric_readings,
    numeric_view,
)

PATH = Path(__file__).with_name("lexicon.json")
# A run trained on some languages (`--languages`) holds their lexicon.
RUN_FILE = "lexicon.json"
# A word with 31 days in 7 months (`thirty-first`, `y` in "treinta y uno")
# is written with them 12 / 7 times as often as on average: no month.
NAMING_RATIO = 3
_ISO = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# 2000: a leap year that two-digit-year formats write too (1969-2068).
_LEAP_YEAR = [dt.date(2000, 1, 1) + dt.timedelta(days=i) for i in range(366)]


# A month marker after its number (CJK) or before it (Vietnamese), the
# number 1-12 not part of a longer one. The graph twin
# (`graph_rules.mark_months`) writes the same with one RE2 pass per month.
_MARKED_AFTER = re.compile(r"(?<![0-9])0?(1[0-2]|[1-9]) ?[月월]")
_MARKED_BEFORE = re.compile(r"(?:tháng|thg) ?0?(1[0-2]|[1-9])(?![0-9])")
MONTH_LETTERS = "abcdefghijkl"
_MARKED_WORD = re.compile(f"月[{MONTH_LETTERS}]")


def mark_months(text: str) -> str:
    """`text` (normalized) with each month written by a marker and its
    number (`9月`, `9월`, `tháng 9`) as the word `月` + the month's letter
    (`月i`), spaced."""

    def word(match):
        return f" 月{MONTH_LETTERS[int(match.group(1)) - 1]} "

    return _MARKED_BEFORE.sub(word, _MARKED_AFTER.sub(word, text))


def words(text: str) -> list[str]:
    """The runs of letters and combining marks of `text`, in order (the
    graph twin splits on RE2's `[^\\pL\\pM]`)."""
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


def build(languages=None) -> dict[str, list[int]]:
    """`{word: months}` of what the formats of `languages` (default all)
    write, normalized as the model reads them: a month word's months (1-12),
    or `[]` for a neutral word."""
    from attention_zoo.applications.dates.formats import FORMATS
    from attention_zoo.applications.dates.text import normalize

    counts: dict[str, list[int]] = {}
    for fmt in FORMATS:
        if languages is not None and fmt.language not in languages:
            continue
        for day in _LEAP_YEAR:
            for word in words(mark_months(normalize(fmt.render(day)))):
                counts.setdefault(word, [0] * 12)[day.month - 1] += 1
    return {word: _months(counts[word]) for word in sorted(counts)}


def _months(counts: list[int]) -> list[int]:
    """The months (1-12) a word written `counts[m - 1]` times with month m
    names: those it is written with at least `NAMING_RATIO` times as often
    as with the average month. A weekday or a spelled day is written about
    as often with every month; a month word with its own only; a homograph
    ("mar": March and a Tuesday, "dez": December and ten) far more often
    with its month than with the others."""
    mean = sum(counts) / 12
    return [m + 1 for m, count in enumerate(counts) if count >= NAMING_RATIO * mean]


def load(path=None):
    """`{word: months}` of the lexicon file `path` (default: the shipped
    `lexicon.json`, of every language, read-only; a run trained on some
    languages holds its own).

    Raises:
        ValueError: when the file is not `{"words": {word: [months]}}`.
    """
    if path is None:
        return _shipped()
    return _parse(json.loads(Path(path).read_text(encoding="utf-8")))


@functools.lru_cache(maxsize=1)
def _shipped():
    # Read-only: every caller shares it.
    return types.MappingProxyType(_parse(json.loads(PATH.read_text(encoding="utf-8"))))


def _parse(document) -> dict[str, tuple[int, ...]]:
    entries = document.get("words") if isinstance(document, dict) else None
    if not isinstance(entries, dict) or not all(
        isinstance(word, str)
        and isinstance(months, list)
        and all(type(m) is int and 1 <= m <= 12 for m in months)
        for word, months in entries.items()
    ):
        raise ValueError(
            'a lexicon must be {"words": {word: [months 1-12]}}. Received: '
            f"{str(document)[:80]!r}"
        )
    return {word: tuple(months) for word, months in entries.items()}


def write(path, lexicon, built_by: str) -> None:
    """Write `lexicon` (`build`) as JSON, one word a line, so that a change
    of the formats reads as a diff; `built_by` says how."""
    entries = ",\n".join(
        f"{json.dumps(word, ensure_ascii=False)}: {json.dumps(months)}"
        for word, months in lexicon.items()
    )
    built_by = json.dumps(built_by)
    Path(path).write_text(
        f'{{"built_by": {built_by},\n"words": {{\n{entries}\n}}}}\n',
        encoding="utf-8",
    )


def digits(text: str) -> str:
    """`text` without its words, cut from its first digit to its last (the
    graph twin: RE2's `[\\pL\\pM]+` -> " ", then `^[^0-9]+|[^0-9]+$` -> "")."""
    out, in_word = [], False
    for ch in text:
        letter = unicodedata.category(ch)[0] in "LM"
        if not letter:
            out.append(ch)
        elif not in_word:
            out.append(" ")
        in_word = letter
    return numeric_view("".join(out))  # letterless: its ends cut


def _day_disagreement(found, text, answer) -> str:
    """Where the month is a number with a marker (`9月`, `tháng 9`), the
    languages that write it so write the day with digits too (`23日`,
    `ngày 23`): the answer's day must be one of the input's numbers of one
    or two digits, besides the month's ("tháng 9 năm 1987", September 1987,
    was answered 1987-09-09, valid)."""
    if not any(_MARKED_WORD.fullmatch(w) for w in found):
        return ""
    runs = re.findall(r"[0-9]+", mark_months(text))
    if int(answer[8:10]) in {int(r) for r in runs if len(r) <= 2}:
        return ""
    return f"its month is a number, and its day {answer[8:10]} is none of its numbers"


def month_disagreement(text: str, answer: str, lexicon=None) -> str:
    """The month-word rule (module docstring): why `answer` is not grounded
    in `text` (normalized), "" when it is, when the answer is empty or not
    an ISO date, or when the input writes no letters."""
    lexicon = _shipped() if lexicon is None else lexicon
    found = words(mark_months(text))
    if not found or not _ISO.fullmatch(answer):
        return ""
    named = {w: lexicon[w] for w in found if lexicon.get(w)}
    if named:
        if any(int(answer[5:7]) in months for months in named.values()):
            return _day_disagreement(found, text, answer)
        names = ", ".join(
            f"{w!r} ({'/'.join(f'{m:02d}' for m in months)})"
            for w, months in named.items()
        )
        return f"it names the month {names}, not {answer[5:7]}"
    # No month word: the month can only come from its digits, read by the
    # numeric rule (`readings`).
    readings = numeric_readings(digits(text))
    if readings == {answer}:
        return ""
    unknown = list(dict.fromkeys(w for w in found if w not in lexicon))
    if unknown:
        return (
            "it names no month the model reads, and writes words it was not "
            f"taught ({', '.join(map(repr, unknown[:3]))}): the month is a guess"
        )
    return disagreement(readings, answer) or "it names no month, in words or digits"


def main() -> None:
    lexicon = build()
    write(PATH, lexicon, "python -m attention_zoo.applications.dates.lexicon")
    named = sum(bool(m) for m in lexicon.values())
    print(f"{PATH}: {named} month words, {len(lexicon) - named} neutral words")


if __name__ == "__main__":
    main()
