"""Generated months with a selector: "last March", "el próximo marzo",
"mars dernier", "diesen März" -> `month -1 --03`, `month +1 --03`,
`month 0 --03`.

CLDR writes "last month" and "next Friday", never a named month with
"next" or "last", so the templates are hand-written, per selector, in
`expression_words.json` (`selected_months`: `{"-1": ["last {month}"],
"1": [...], "0": [...]}`, `{month}` the month's stand-alone wide name),
for the languages whose usage the writer knows (English, Spanish,
French, German, Italian, Portuguese). Each template writes every month
once. The selector's word must be one of the language's direction words
(`form_words.direction_phrases`: those of CLDR's "last week", "next
month", "this year"), since the grounding asks the text for it; a
template writing another word is refused by the tests.

The resolver's rule (`resolver.py`): `+1` is the first month of that
name strictly after the reference's month, `-1` the last strictly before
it, `0` the one of the reference's year. Each pair's reference is a day
of a year of `MODERN` in any month (the reference's own month included,
where "last March" in March is the year before's), and its value is
computed here from those rules, not by the resolver.
"""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date

from attention_zoo.applications.dates.expr_days import MODERN
from attention_zoo.applications.dates.expression_pairs import (
    Pair,
    locale,
    rng,
    words,
)

KIND = "month_selected"


def selected_year(select: int, month: int, reference: dt.date) -> int:
    """The year of the month `month` that `select` (-1, 0, +1) picks from `reference`."""
    if select == 0:
        return reference.year
    if select > 0:
        return reference.year + (month <= reference.month)
    return reference.year - (month >= reference.month)


def selected_months(language: str) -> list[Pair]:
    """The pairs of the language's `selected_months` templates (none without them)."""
    templates = words(language).get("selected_months", {})
    r = rng(KIND, language)
    where = locale(language)
    out = []
    for select, written in sorted(templates.items()):
        select = int(select)
        for template in written:
            for month in range(1, 13):
                name = format_date(dt.date(2001, month, 1), "LLLL", locale=where)
                reference = dt.date(
                    r.randint(*MODERN), r.randint(1, 12), r.randint(1, 28)
                )
                year = selected_year(select, month, reference)
                form = f"month {'0' if select == 0 else f'{select:+d}'} --{month:02d}"
                out.append(
                    Pair(
                        template.format(month=name),
                        form,
                        language,
                        KIND,
                        dt.datetime.combine(reference, dt.time()).isoformat(),
                        f"{year:04d}-{month:02d}",
                    )
                )
    return out
