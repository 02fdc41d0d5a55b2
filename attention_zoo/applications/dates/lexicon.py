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

The day is grounded too, wherever a month word is: the answer's day must
be one of the input's numbers of one or two digits, or named by every day
word it writes (`twenty`, `seventh`, `dreiundzwanzigsten`: the day words,
counted per day of the month as the month words are per month). A partial date,
`bulan September 1987` or `tháng 9 năm 1987`, names no day: the model's
day there is a guess (it answered 1987-09-02, valid, before this rule).

A number that a month marker names is a month word too: `9月` (Chinese,
Japanese), `9월` (Korean), `tháng 9` (Vietnamese) write September with a
digit, and `mark_months` reads each as the word `月i` (`i`, the ninth
letter) before the words are looked up, so these languages' dates are
grounded the same way (their digits alone, `1987  9  23`, have no reading).

The lexicon is what the generator writes (`formats.FORMATS`): every word
(a run of Unicode letters and marks) of every format, over every day of a
leap year, counted per month it was written with. A word written far more
often with some months than with the average month names them (`_naming`:
"mai", "sept.", also a French seven, "mar", also a Tuesday); the others
are neutral words (weekdays, spelled days, "de"). It is shipped as
`lexicon.json`, built by `python -m attention_zoo.applications.dates.lexicon`, and
tests/applications/dates/test_months.py checks that it is the generator's.
The file's `days` hold the day words (`build_days`) the same way.
"""

from __future__ import annotations

import collections
import datetime as dt
import functools
import json
import re
import unicodedata
from pathlib import Path

from attention_zoo.applications.common.errors import quoted
from attention_zoo.applications.dates.lexicon_file import (  # noqa: F401 (the lexicon's readers, public here)
    PATH,
    RUN_FILE,
    load,
    load_days,
)
from attention_zoo.applications.dates.readings import (
    ISO_DATE,
    disagreement,
    numeric_readings,
    numeric_view,
)
from attention_zoo.applications.dates.text_words import mark_months, words

# A word with 31 days in 7 months (`thirty-first`, `y` in "treinta y uno")
# is written with them 12 / 7 times as often as on average: no month.
NAMING_RATIO = 3
# 2000: a leap year that two-digit-year formats write too (1969-2068).
_LEAP_YEAR = [dt.date(2000, 1, 1) + dt.timedelta(days=i) for i in range(366)]


@functools.lru_cache(maxsize=1)
def _written(languages: tuple | None) -> tuple[dict, dict]:
    """`{word: Counter((month, day))}` twice: how often each word of the
    formats of `languages` (sorted, or None: all) is written with each day
    of a leap year, normalized as the model reads it; then the same without
    the annotated family (`build_days`). One pass renders both, and the
    last is kept: a run's `build` and `build_days` are of one set."""
    from attention_zoo.applications.dates.formats import FORMATS
    from attention_zoo.applications.dates.passes import normalize

    every: dict[str, collections.Counter] = {}
    plain: dict[str, collections.Counter] = {}
    for fmt in FORMATS:
        if languages is not None and fmt.language not in languages:
            continue
        targets = (every,) if fmt.family == "annotated" else (every, plain)
        for day in _LEAP_YEAR:
            for word in words(mark_months(normalize(fmt.render(day)))):
                for counts in targets:
                    counts.setdefault(word, collections.Counter())[
                        day.month, day.day
                    ] += 1
    return every, plain


def _key(languages) -> tuple | None:
    return None if languages is None else tuple(sorted(set(languages)))


def build(languages=None) -> dict[str, list[int]]:
    """`{word: months}` of what the formats of `languages` (default all)
    write, normalized as the model reads them: a month word's months (1-12),
    or `[]` for a neutral word."""
    counts = _written(_key(languages))[0]
    return {
        word: _naming(
            [sum(counts[word][m, d] for d in range(1, 32)) for m in range(1, 13)]
        )
        for word in sorted(counts)
    }


def _naming(rates: list[float]) -> list[int]:
    """The months (1-12) a word written `rates[m - 1]` times with month m
    names (or days, 1-31, for `build_days`): those it is written with at
    least `NAMING_RATIO` times as often as with the average month. A
    weekday or a spelled day is written about as often with every month; a
    month word with its own only; a homograph ("mar": March and a Tuesday,
    "dez": December and ten) far more often with its month than with the
    others."""
    mean = sum(rates) / len(rates)
    if mean == 0:  # a month word, outside its months (`build_days`)
        return []
    return [m + 1 for m, rate in enumerate(rates) if rate >= NAMING_RATIO * mean]


def build_days(languages=None, months=None) -> dict[str, list[int]]:
    """`{word: days}` of the words of `languages`' formats (default all)
    that name days of the month (1-31), counted like `build`'s months: a
    word whose rate with day d (its count over the number of dates with
    that day) is at least `NAMING_RATIO` times its mean rate names d.
    `twenty` names 20-29, `first` 1, 21 and 31; a month word or a weekday,
    written about as often with every day, names none. Only the words
    naming some day are kept.

    A month word is counted outside its months: `sept` (French seven and
    September) and `dez` (Portuguese ten and December) name their day in
    the other eleven months. The annotated family is left out: it picks its
    note from the date, so a note's word ("Paris, ") is written with a few
    days only, and its dates are other families' forms. `months`: `build`
    of the same languages, where the caller has it already.
    """
    months = build(languages) if months is None else months
    counts = _written(_key(languages))[1]
    out = {}
    for word in sorted(counts):
        outside = [d for d in _LEAP_YEAR if d.month not in months.get(word, ())]
        rates = [
            sum(counts[word][d.month, d.day] for d in outside if d.day == day)
            / max(1, sum(d.day == day for d in outside))
            for day in range(1, 32)
        ]
        named = _naming(rates)
        if named:
            out[word] = named
    return out


def write(path, lexicon, built_by: str, days=None) -> None:
    """Write `lexicon` (`build`) and its day words `days` (`build_days`) as
    JSON, one word a line, so that a change of the formats reads as a diff;
    `built_by` says how."""

    def entries(mapping):
        return ",\n".join(
            f"{json.dumps(word, ensure_ascii=False)}: {json.dumps(list(numbers))}"
            for word, numbers in mapping.items()
        )

    built_by = json.dumps(built_by)
    text = f'{{"built_by": {built_by},\n"words": {{\n{entries(lexicon)}\n}}'
    if days is not None:
        text += f',\n"days": {{\n{entries(days)}\n}}'
    Path(path).write_text(text + "}\n", encoding="utf-8")


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


def _day_disagreement(found, text, answer, days) -> str:
    """Where the month is named, the answer's day must be written: one of
    the input's numbers of one or two digits (the month's marked number
    aside) or named by all of its day words (`days`, from `build_days`).
    "bulan September 1987" and "tháng 9 năm 1987" (September 1987) were
    answered 1987-09-02 and 1987-09-09, valid."""
    day = int(answer[8:10])
    runs = re.findall(r"[0-9]+", mark_months(text))
    if day in {int(r) for r in runs if len(r) <= 2}:
        return ""
    # Every day word must name it: "twenty-seventh" is 27, not 21.
    named = [days[w] for w in found if w in days]
    if named and all(day in numbers for numbers in named):
        return ""
    return (
        f"its day {answer[8:10]} is none of its numbers, and none of its words names it"
    )


def month_disagreement(text: str, answer: str, lexicon=None, days=None) -> str:
    """The month-word rule and, where a month is named, the day rule
    (module docstring): why `answer` is not grounded in `text`
    (normalized), "" when it is, when the answer is empty or not an ISO
    date, or when the input writes no letters. `lexicon` and `days`
    default to the shipped ones (`load`, `load_days`)."""
    lexicon = load() if lexicon is None else lexicon
    days = load_days() if days is None else days
    found = words(mark_months(text))
    if not found or not ISO_DATE.fullmatch(answer):
        return ""
    named = {w: lexicon[w] for w in found if lexicon.get(w)}
    if named:
        if any(int(answer[5:7]) in months for months in named.values()):
            return _day_disagreement(found, text, answer, days)
        names = ", ".join(
            f"{quoted(w)} ({'/'.join(f'{m:02d}' for m in months)})"
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
            f"taught ({', '.join(map(quoted, unknown[:3]))}): the month is a guess"
        )
    return disagreement(readings, answer) or "it names no month, in words or digits"


def main() -> None:
    lexicon = build()
    days = build_days(months=lexicon)
    write(PATH, lexicon, "python -m attention_zoo.applications.dates.lexicon", days)
    named = sum(bool(m) for m in lexicon.values())
    print(
        f"{PATH}: {named} month words, {len(lexicon) - named} neutral words, "
        f"{len(days)} day words"
    )


if __name__ == "__main__":
    main()
