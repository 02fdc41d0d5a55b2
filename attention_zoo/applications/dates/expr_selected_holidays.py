"""Generated holidays of a fixed day with a selector: "last Christmas",
"next Halloween", "this New Year's Eve" -> `date -1 --12-25`, `date +1
--10-31`, `date 0 --12-31`.

CLDR writes no holiday; the names are the hand-written `holidays` of
`expression_words.json`, and the templates per selector are hand-written
too (`selected_holidays`: `{"-1": ["last {name}"], ...}`) for the
languages where a selector word stays the same before every name
(English; Spanish "la Navidad pasada" and "el pasado Día de Reyes" agree
with the name, which a template cannot). Only names of a fixed day
(`expr_computed.HOLIDAY_MEANINGS` `date`): the grammar has no selector for
`easter`. A name written with its article ("the Fourth of July") is left
out, as "last the Fourth of July" is no one's text.

The resolver's rule for a date with a selector (`resolver.py`): `+1` the
first such day strictly after the reference's day, `-1` the last strictly
before it, `0` the one of the reference's year. Each pair's reference is
a day up to `SPREAD` days either side of the holiday of a year of
`MODERN` (the holiday itself among them), and its value is computed here
from those rules, not by the resolver.
"""

from __future__ import annotations

import datetime as dt

from attention_zoo.applications.dates.expr_computed import HOLIDAY_MEANINGS
from attention_zoo.applications.dates.expr_days import MODERN
from attention_zoo.applications.dates.expression_pairs import Pair, rng, words, ymd

KIND = "holiday_selected"
SPREAD = 200


def selected_day(select: int, month: int, day: int, reference: dt.date) -> dt.date:
    """The day `month`-`day` that `select` (-1, 0, +1) picks from `reference`."""
    this = dt.date(reference.year, month, day)
    if select > 0:
        return this if this > reference else this.replace(year=reference.year + 1)
    if select < 0:
        return this if this < reference else this.replace(year=reference.year - 1)
    return this


def selected_holidays(language: str) -> list[Pair]:
    """The pairs of the language's `selected_holidays` templates (none without them)."""
    templates = words(language).get("selected_holidays", {})
    names = words(language).get("holidays", {}).get("names", {})
    r = rng(KIND, language)
    out = []
    for select, written in sorted(templates.items()):
        select = int(select)
        for name, spellings in names.items():
            meaning = HOLIDAY_MEANINGS[name]
            if meaning[0] != "date":
                continue
            _, month, day = meaning
            for spelling in spellings:
                if spelling.casefold().startswith("the "):
                    continue
                for template in written:
                    holiday = dt.date(r.randint(*MODERN), month, day)
                    reference = holiday + dt.timedelta(days=r.randint(-SPREAD, SPREAD))
                    sign = "0" if select == 0 else f"{select:+d}"
                    out.append(
                        Pair(
                            template.format(name=spelling),
                            f"date {sign} --{month:02d}-{day:02d}",
                            language,
                            KIND,
                            dt.datetime.combine(reference, dt.time()).isoformat(),
                            ymd(selected_day(select, month, day, reference)),
                        )
                    )
    return out
