"""Every kind of generated time expression, in the 27 languages: (text, form) pairs.

`pairs(language)` joins the kind modules (`KINDS` names each kind and
the function that makes it) and leaves out a text that two pairs of the
language read into two forms (a day period CLDR writes for two hours,
"12:25 matin"), as `expressions.ambiguous` does for the relative ones:
the model cannot read it without context; a text CLDR writes with a
curly apostrophe (French `aujourd’hui`) comes with its copy in the ASCII
one people type (`aujourd'hui`). Every pair's form is checked
by `form_parser.parse_form`; the tests check that `resolver.resolve`
gives each pair's value at its reference. docs/dates.md ("Generated time
expressions") has the counts per kind and language.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict

from attention_zoo.applications.dates import (
    expr_compound,
    expr_computed,
    expr_day_month_times,
    expr_day_periods,
    expr_days,
    expr_relative,
    expr_selected_holidays,
    expr_selected_months,
    expr_spans,
    expr_spoken,
    expr_times,
    expr_weekdays,
    expr_weeks,
)
from attention_zoo.applications.dates.expression_pairs import Pair
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.formats import LOCALES

# kind: the function that makes the pairs of which it is one kind
KINDS = {
    "date": expr_days.absolute,
    "month": expr_days.partial,
    "month_selected": expr_selected_months.selected_months,
    "year": expr_days.partial,
    "day_month": expr_days.partial,
    "day_month_at": expr_day_month_times.day_month_times,
    "time": expr_times.times,
    "datetime": expr_times.datetimes,
    "interval_days": expr_spans.intervals,
    "interval_months": expr_spans.intervals,
    "interval_times": expr_spans.intervals,
    "interval_years": expr_spans.intervals,
    "nth": expr_computed.nth,
    "holiday": expr_computed.holidays,
    "holiday_selected": expr_selected_holidays.selected_holidays,
    "weekday": expr_weekdays.weekdays,
    "interval_weekdays": expr_weekdays.weekdays,
    "relative": expr_relative.relative,
    "compound": expr_compound.compound,
    "relative_at": expr_relative.relative_at,
    "weekday_at": expr_relative.weekday_at,
    "week": expr_weeks.weeks,
    "week_at": expr_weeks.weeks,
}
# The texts of kinds above in hand-written words CLDR does not write
# ("noon", "um 15 Uhr", "in 1987"; "tonight at 8", of `relative_at`).
SPOKEN = (expr_spoken.spoken, expr_day_periods.day_periods)


def candidates(language: str) -> list[Pair]:
    """Every pair the kind modules make for `language`, ambiguous texts included."""
    if language not in LOCALES:
        raise ValueError(
            f"language must be one of {', '.join(LOCALES)}. Received: language={language!r:.80}"
        )
    out = []
    for make in (*dict.fromkeys(KINDS.values()), *SPOKEN):  # each once, in order
        out += make(language)
    return with_unspaced(with_ascii_apostrophes(out))


def with_ascii_apostrophes(found: list[Pair]) -> list[Pair]:
    """`found`, each pair whose text writes a curly apostrophe (CLDR's
    `l’année prochaine`) followed by its copy with the ASCII one."""
    out = []
    for pair in found:
        out.append(pair)
        if "\u2019" in pair.text:
            out.append(dataclasses.replace(pair, text=pair.text.replace("\u2019", "'")))
    return out


# Languages written without spaces between words, and a space CLDR puts
# between a number and a word of theirs ("2 週間前"), which people mostly
# leave out ("2週間前").
UNSPACED = ("zh", "ja")
_CJK = "\u3040-\u30ff\u3400-\u9fff"
_NUMBER_SPACE = re.compile(
    rf"(?<=[0-9\uff10-\uff19]) (?=[{_CJK}])|(?<=[{_CJK}]) (?=[0-9\uff10-\uff19])"
)


def with_unspaced(found: list[Pair]) -> list[Pair]:
    """`found`, each pair of an `UNSPACED` language whose text spaces a
    number from a word followed by its copy without those spaces."""
    out = []
    for pair in found:
        out.append(pair)
        if pair.language in UNSPACED:
            text = _NUMBER_SPACE.sub("", pair.text)
            if text != pair.text:
                out.append(dataclasses.replace(pair, text=text))
    return out


def ambiguous(found: list[Pair]) -> dict[str, set[str]]:
    """The texts (case-folded) of `found` read into more than one form, with those forms."""
    forms = defaultdict(set)
    for pair in found:
        forms[pair.text.casefold()].add(pair.form)
    return {text: meant for text, meant in forms.items() if len(meant) > 1}


def pairs(language: str) -> list[Pair]:
    """The (text, form) pairs of `language`: one per text and form, ambiguous texts left out."""
    found = candidates(language)
    unclear = ambiguous(found)
    seen, out = set(), []
    for pair in found:
        key = (pair.text, pair.form)
        if pair.text.casefold() in unclear or key in seen:
            continue
        parse_form(pair.form)  # a form outside the grammar is a bug here
        seen.add(key)
        out.append(pair)
    return out


def counts() -> dict[str, dict[str, int]]:
    """The number of pairs per language and kind (docs/dates.md's table)."""
    table = {}
    for language in LOCALES:
        row = dict.fromkeys(KINDS, 0)
        for pair in pairs(language):
            row[pair.kind] += 1
        table[language] = row
    return table


def _print_table() -> None:
    table = counts()
    print("| language | " + " | ".join(KINDS) + " | all |")
    print("|---" * (len(KINDS) + 2) + "|")
    totals = dict.fromkeys(KINDS, 0)
    for language, row in table.items():
        for kind, n in row.items():
            totals[kind] += n
        cells = " | ".join(str(row[kind]) for kind in KINDS)
        print(f"| {language} | {cells} | {sum(row.values())} |")
    cells = " | ".join(str(totals[kind]) for kind in KINDS)
    print(f"| all | {cells} | {sum(totals.values())} |")


if __name__ == "__main__":
    _print_table()
