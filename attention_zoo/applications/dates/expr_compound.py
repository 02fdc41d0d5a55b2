"""Generated compound shifts: several units in one direction.

"2 weeks and 3 days ago", "hace 1 año y 2 meses", "vor 2 Wochen und 3
Tagen", "2 viikon ja 3 päivän päästä", "2周3天前" -> `shift week -2 day
-3`. CLDR writes "in {0} days" and "{0} days ago" one unit at a time
(`Locale._data["date_fields"]`, as `expressions` reads them); people join
the units. So two or three units' patterns in one direction are split
at their count (`joined`):

- what is written before the count must be the same for every unit ("in
  ", "hace ", "vor "), or the units are not joined (Hebrew's dual
  שבועיים writes no count);
- what every unit of the language writes after its count and unit is
  the direction's too (" ago", " päästä", " nữa"): the longest common
  ending, cut at a space
  (a shared "s" of "days ago" and "weeks ago" is the units'), except in a
  language written without spaces (`UNSPACED`: "前" of 2周前 and 3天前);
- what is left is each unit with its count in the case the direction
  gives it (German "3 Tagen", Finnish "3 päivän"), joined by CLDR's list
  patterns: the standard one ("2 weeks and 3 days") and the unit one
  ("2 weeks, 3 days"; "2周3天"), where Babel writes each part once.

`wrappers(language)` gives the prefixes and endings, and
`unit_patterns(language)` the units with their slot, for the grounding
(`form_compound`). Values are computed here with `datetime` (years and
months first, the day clamped to the month's last as
`expr_relative.add_months` does; then weeks and days; then hours,
minutes and seconds), not by the resolver.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator

from babel.lists import format_list
from babel.numbers import format_decimal

from attention_zoo.applications.dates.expr_relative import add_months
from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    clock,
    locale,
    rng,
    with_native,
    ymd,
)

# The units people join, largest first, as a form writes them.
COMBOS = (
    ("year", "month"),
    ("month", "day"),
    ("week", "day"),
    ("day", "hour"),
    ("hour", "minute"),
    ("minute", "second"),
    ("year", "month", "day"),
    ("hour", "minute", "second"),
)
# The counts each unit is written with beside a larger one.
_COUNTS = {
    "year": range(1, 11),
    "month": range(1, 12),
    "week": range(1, 5),
    "day": range(1, 7),
    "hour": range(1, 24),
    "minute": range(1, 60),
    "second": range(1, 60),
}
PER_WAY = 2  # texts of each combination, direction and list style
STYLES = ("standard", "unit")
UNSPACED = ("zh", "ja")  # as time_expressions.UNSPACED


def _pattern(language: str, unit: str, sign: int, n: int) -> str | None:
    where = locale(language)
    field = where._data["date_fields"].get(unit, {})
    patterns = field.get("future" if sign > 0 else "past") or {}
    found = patterns.get(where.plural_form(n), patterns.get("other"))
    return found if found and found.count("{0}") == 1 else None


@functools.lru_cache(maxsize=64)
def _every_unit(language: str, sign: int) -> list[str]:
    """What every unit's pattern in the direction writes after its count:
    an ending the units of a text share but not all units is a unit's
    (Chinese 分钟前 and 秒钟前 share 钟前; the direction is 前)."""
    patterns = [_pattern(language, u, sign, 5) for u in _COUNTS]
    return [p.split("{0}")[1] for p in patterns if p is not None]


def _ending(rests: list[str], language: str) -> str:
    """The longest ending of every one of `rests`, cut at a space."""
    end = 0
    shortest = min(map(len, rests))
    while end < shortest and len({r[len(r) - end - 1] for r in rests}) == 1:
        end += 1
    common = rests[0][len(rests[0]) - end :] if end else ""
    if language in UNSPACED or common.startswith(" "):
        return common
    return common[common.index(" ") :] if " " in common else ""


def joined(
    language: str, units: tuple[str, ...], sign: int, counts: tuple[int, ...]
) -> tuple[str, list[str], str] | None:
    """`(prefix, parts, ending)` of `units` with `counts` in the direction
    `sign`: "vor ", ["{0} Wochen", "{0} Tagen"], "" (each part with its
    slot); None where CLDR writes them no common way (module docstring)."""
    patterns = [_pattern(language, u, sign, n) for u, n in zip(units, counts)]
    if None in patterns:
        return None
    heads = {p.split("{0}")[0] for p in patterns}
    if len(heads) != 1:
        return None
    rests = [p.split("{0}")[1] for p in patterns]
    ending = _ending(rests + _every_unit(language, sign), language)
    parts = ["{0}" + r[: len(r) - len(ending)] for r in rests]
    if any(not part[3:].strip() for part in parts):  # a unit must be written
        return None
    return heads.pop(), parts, ending


def _joined_text(language: str, parts: list[str], style: str) -> str | None:
    try:
        text = format_list(parts, style=style, locale=locale(language))
    except KeyError:  # a style a locale does not define for this length
        return None
    # Babel's unit lists of some locales write a part twice (Arabic).
    return text if all(text.count(p) == 1 for p in parts) else None


def _value(units: tuple[str, ...], amounts: tuple[int, ...]) -> str:
    steps = dict(zip(units, amounts))
    months = 12 * steps.get("year", 0) + steps.get("month", 0)
    day = add_months(REFERENCE.date(), months)
    moment = dt.datetime.combine(day, REFERENCE.time()) + dt.timedelta(
        weeks=steps.get("week", 0),
        days=steps.get("day", 0),
        hours=steps.get("hour", 0),
        minutes=steps.get("minute", 0),
        seconds=steps.get("second", 0),
    )
    finest = units[-1]
    if finest in ("year", "month", "week", "day"):
        return ymd(moment.date())
    written = clock(
        moment.hour, moment.minute, moment.second if finest == "second" else None
    )
    return f"{ymd(moment.date())}T{written}"


def _ways(language: str) -> Iterator[tuple[tuple[str, ...], int, str]]:
    for units in COMBOS:
        for sign in (1, -1):
            for style in STYLES:
                yield units, sign, style


def compound(language: str) -> list[Pair]:
    """The compound shifts of `language` (module docstring), native digits too."""
    r = rng("compound", language)
    where = locale(language)
    reference = REFERENCE.isoformat()
    out = []
    for units, sign, style in _ways(language):
        for _ in range(PER_WAY):
            counts = tuple(r.choice(_COUNTS[u]) for u in units)
            if len(set(counts)) < len(counts):  # each number of a text its own
                continue
            found = joined(language, units, sign, counts)
            if found is None:
                continue
            prefix, parts, ending = found
            written = [
                p.replace("{0}", format_decimal(n, locale=where))
                for p, n in zip(parts, counts)
            ]
            middle = _joined_text(language, written, style)
            if middle is None:
                continue
            amounts = tuple(sign * n for n in counts)
            form = "shift " + " ".join(f"{u} {a:+d}" for u, a in zip(units, amounts))
            out.append(
                Pair(prefix + middle + ending, form, language, "compound",
                     reference, _value(units, amounts))
            )  # fmt: skip
    return with_native(out)


@functools.lru_cache(maxsize=64)
def _every_join(language: str) -> tuple:
    """`joined` of every combination and direction of `language`, at the
    counts of each plural category most languages have."""
    return tuple(
        (units, sign, found)
        for units in COMBOS
        for sign in (1, -1)
        for n in (1, 2, 3, 5, 11, 21)
        if (found := joined(language, units, sign, (n,) * len(units))) is not None
    )


def wrappers(language: str) -> frozenset[tuple[int, str, str]]:
    """`(sign, prefix, ending)` of every way `compound` joins units in `language`."""
    out = {
        (sign, found[0].strip(), found[2].strip())
        for _, sign, found in _every_join(language)
    }
    return frozenset(w for w in out if w[1] or w[2])


def unit_patterns(language: str) -> frozenset[tuple[str, str]]:
    """`(unit, part)`: each unit as `joined` writes it, with its slot `{0}`."""
    return frozenset(
        pair
        for units, _, found in _every_join(language)
        for pair in zip(units, found[1])
    )
