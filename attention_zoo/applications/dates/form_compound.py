"""The grounding of a compound shift: several units in one direction.

A form `shift week -2 day -3` ("2 weeks and 3 days ago", "vor 2 Wochen
und 3 Tagen", "för 2 veckor och 3 dagar sedan") is grounded in its text
(`compound_disagreement` is "") where:

- each step's unit is written with its number: a unit as the generator
  joins it (`expr_compound.unit_patterns`), with its slot
  (`unit_phrases`: "# weeks", German "# tagen", Finnish "# päivän"), one
  unit a step;
- its direction is written around them: the prefix and the ending of one
  of the language's compound texts of that direction
  (`expr_compound.wrappers`, `wrapper_phrases`: "vor", "ago", "för" and
  "sedan"), the prefix before the first unit, the ending after the last.

CLDR's pattern of one unit ("3 days ago") is such a unit and its
direction, so a text that writes each unit with its own pattern is
grounded by `form_grounding` first. Python only, as the grounding is.
"""

from __future__ import annotations

import functools

from attention_zoo.applications.dates import expr_compound
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.phrase_spans import phrase, spans


def _add(table: dict, key: str, value) -> None:
    if key:
        table.setdefault(key, set()).add(value)


@functools.lru_cache(maxsize=8)
def unit_phrases(languages=LANGUAGES) -> dict[str, frozenset[str]]:
    """`{phrase: units}`: each unit as a compound text writes it, its number a slot."""
    table: dict[str, set[str]] = {}
    for language in languages:
        for unit, part in expr_compound.unit_patterns(language):
            _add(table, phrase(part.replace("{0}", "0"), slot=True), unit)
    return {p: frozenset(v) for p, v in table.items()}


@functools.lru_cache(maxsize=8)
def wrapper_phrases(languages=LANGUAGES) -> dict[str, frozenset[tuple]]:
    """`{phrase: wrappers}`: each prefix and ending of a compound text, with
    the `(sign, prefix, ending)` of each way of writing one it is part of
    (both as phrases, "" for none)."""
    table: dict[str, set[tuple]] = {}
    for language in languages:
        for sign, prefix, ending in expr_compound.wrappers(language):
            wrapper = (sign, phrase(prefix), phrase(ending))
            for part in wrapper[1:]:
                _add(table, part, wrapper)
    return {p: frozenset(v) for p, v in table.items()}


def counted_units(normalized: str, languages=LANGUAGES) -> list[tuple]:
    """The spans of `unit_phrases` in `normalized` (`phrase_spans.normalized`)
    whose number is digits: Romanian "4 luni" is four months, no Monday;
    German "Montag" is no "mon" days of "# Tag"."""
    found = spans(normalized, unit_phrases(tuple(languages)))
    return [h for h in found if h[3] is not None and h[3].isdigit()]


def compound_disagreement(t, steps) -> str:
    """Why the shift of `steps` (`(unit, amount)`, largest first) is not
    grounded as a compound one in `t` (a `FormText`), "" when it is."""
    signs = {amount > 0 for _, amount in steps}
    if len(signs) > 1 or any(amount == 0 for _, amount in steps):
        return "the form's shift moves its units in two directions or none"
    units = unit_phrases(t.languages)
    hits = t.spans(units)
    places = []
    for unit, amount in steps:
        hit = next(
            (
                h for h in hits
                if unit in units[h[2]] and h[3] is not None
                and t.writes(abs(amount), h[3]) and h[:2] not in places
            ),
            None,
        )  # fmt: skip
        if hit is None:
            return (
                f"the form's '{unit} {amount:+d}' is not written in the text: "
                f"no unit of {unit} with the number {abs(amount)}"
            )
        if hit[3].isdigit():
            t.claim("count", abs(amount))
        places.append(hit[:2])
    first = min(start for start, _ in places)
    last = max(end for _, end in places)
    sign = 1 if signs.pop() else -1
    table = wrapper_phrases(t.languages)
    found = t.spans(table)
    before = {p for _, end, p, _ in found if end <= first}
    after = {p for start, _, p, _ in found if start >= last}
    for s, prefix, ending in t.named(table):
        if s == sign and (not prefix or prefix in before):
            if not ending or ending in after:
                return ""
    way = "in ..." if sign > 0 else "... ago"
    return (
        f"the form's shift is not written with its direction ({way}) around "
        "its units in the text"
    )
