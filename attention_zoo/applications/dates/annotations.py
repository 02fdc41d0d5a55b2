"""Dates with something around them: the `annotated` family.

References, listings and forms put a word, a note or punctuation before or
after a date: `Date: 14.09.2001`, `Thursday, 24 September 1970 (UK)`,
`3 May 1979 [citation needed]`, `approx. 12 June 1950`, `(12 May 1950)`.
The model reads the date and ignores the rest; the words around it are
neutral words of the lexicon (written with every month alike).

An annotated form of a language wraps one of that language's other forms,
chosen with the wrapper from the date itself, so that every wrapper meets
every family and no format list grows by wrappers x forms. Non-dates get
the same wrappers (`wrap`), so that a note around a text is no sign of a
date.
"""

from __future__ import annotations

import random

# (before, after) the date. Both sides are written with their spacing.
WRAPPERS = (
    ("Date: ", ""),
    ("date : ", ""),
    ("Dated ", ""),
    ("on ", ""),
    ("On ", ","),
    ("approx. ", ""),
    ("c. ", ""),
    ("ca. ", ""),
    ("circa ", ""),
    ("* ", ""),
    ("† ", ""),
    ("b. ", ""),
    ("Datum: ", ""),
    ("Fecha: ", ""),
    ("Data: ", ""),
    ("Stand: ", ""),
    ("Дата: ", ""),
    ("日期：", ""),
    ("Tarih: ", ""),
    ("Released ", ""),
    ("", " (UK)"),
    ("", " (US)"),
    ("", " (France)"),
    ("", " [citation needed]"),
    ("", " [1]"),
    ("", "[12]"),
    ("", " (est.)"),
    ("", " (approx.)"),
    ("", "."),
    ("", ","),
    ("", ";"),
    ("", " (?)"),
    ("", " (archived)"),
    ("", " (retrieved)"),
    ("(", ")"),
    ("[", "]"),
    ('"', '"'),
    ("«", "»"),
    ("- ", " -"),
    ("Last updated: ", ""),
    ("Accessed ", "."),
    ("Retrieved ", "."),
    ("Paris, ", ""),
    ("Roma, ", ""),
    ("Lisboa, ", ""),
    ("Praha ", ""),
    ("Санкт-Петербург, ", ""),
    ("北京，", ""),
    ("作成日：", ""),
    ("Thành phố Hồ Chí Minh, ", ""),
)
# Annotated forms per language: each picks its wrapper and its base form
# from the date with its own offset.
FORMS_PER_LANGUAGE = 2


def wrap(text: str, rng: random.Random) -> str:
    before, after = rng.choice(WRAPPERS)
    return f"{before}{text}{after}"


def _render(bases, offset):
    def render(d):
        key = d.toordinal() * 7 + offset
        before, after = WRAPPERS[key % len(WRAPPERS)]
        base = bases[(key // len(WRAPPERS)) % len(bases)]
        return f"{before}{base.render(d)}{after}"

    return render


def formats(existing, make) -> None:
    """Call `make(name, "annotated", language, render)` for the annotated
    forms of each language of the `existing` forms (full-year ones only: a
    two-digit year with a note is left to its own family)."""
    by_language = {}
    for fmt in existing:
        if fmt.language != "any" and not fmt.short_year:
            by_language.setdefault(fmt.language, []).append(fmt)
    for language, bases in by_language.items():
        for i in range(FORMS_PER_LANGUAGE):
            make(f"annotated_{language}_{i}", "annotated", language, _render(bases, i))
