"""The Python halves of the passes that write an absolute day the way the
model reads it, where people write it another way it was not taught
(`passes.PASSES`; the graph halves, of the same names, are in
`graph_text`). Each is a regular expression in Python's and RE2's shared
syntax, so both halves run the same one; none rewrites a text the
generator writes (tested), so the model, trained on those, reads the
rewritten text as it was taught.

- `cjk_day_marker`: Chinese `号`/`號` after the day (`2015年3月3号`), as
  `日`, which CLDR writes.
- `japanese_particle`: a particle after a Japanese date (`2021年3月25日に`,
  `まで`, `から`...) dropped.
- `month_spellings`: a month name in a form CLDR has but the model was not
  taught, after a day: Polish, Finnish, Czech, Russian, Ukrainian and
  Greek nominatives (`3 marzec 2015`, `3 maaliskuu 2015`) as the genitive
  or partitive the dates write (`marca`, `maaliskuuta`), German `mär` as
  `märz`, French `fév` and `aoû` as `févr` and `août`, Hebrew `ל` before
  a month (`3 למרץ 2015`) as the `ב` CLDR writes.
- `numeric_spaces`: spaces around the separators of an all-numeric date
  of three groups (`2013 . 08 . 20`) dropped.
"""

from __future__ import annotations

import functools
import re

CJK_DAY_MARKER = ("([0-9])[号號]", r"\1日")
JAPANESE_PARTICLES = "までに|までは|からは|には|まで|から|より|に|は|を|が|も|で|の|と"
JAPANESE_PARTICLE = (f"([0-9]日)(?:{JAPANESE_PARTICLES})$", r"\1")
# A day before the month (`3 `, `3. `, `12-`), and after it a space, a
# comma, a dot, a dash or the end: the month is a whole word, written
# with the same characters on both sides (RE2 has no lookaround).
MONTH_BEFORE = r"([0-9]\.?[ -])"
MONTH_AFTER = r"( |,|\.|-|$)"
# Abbreviations people write that CLDR does not: French without the
# last letters, German's stand-alone `mär` is CLDR's (below).
EXTRA_SPELLINGS = {"fév": "févr", "aoû": "août"}
# Three groups of digits, as the numeric rule reads them (`readings`):
# `1 - 7`, a non-date the generator writes, stays as it is.
NUMERIC = "[0-9]{1,4} ?[./-] ?[0-9]{1,2} ?[./-] ?[0-9]{1,4}"
NUMERIC_SPACES = ("([0-9]) ([./-]) ([0-9])", r"\1\2\3")


def cjk_day_marker(text: str) -> str:
    """`text` with `号`/`號` after a number as `日`."""
    return re.sub(CJK_DAY_MARKER[0], CJK_DAY_MARKER[1], text)


def japanese_particle(text: str) -> str:
    """`text` without a particle after its final `日`."""
    return re.sub(JAPANESE_PARTICLE[0], JAPANESE_PARTICLE[1], text)


@functools.lru_cache(maxsize=1)
def month_spellings_table() -> dict[str, str]:
    """`{spelling: the month word the model reads}`: CLDR's stand-alone
    month names (wide and abbreviated) of the 27 languages, Hebrew's with
    `ל` for CLDR's `ב`, and `EXTRA_SPELLINGS`; each kept only where the
    shipped lexicon does not hold it (a word the generator writes, then
    read as it was taught) and holds its replacement as the same month,
    and where no language the generator writes as a non-date writes it
    (Bulgarian `май` is Russian's nominative: the model was not taught
    Bulgarian, which stays refused)."""
    from babel.dates import get_month_names

    from attention_zoo.applications.dates import lexicon_file as lexicon
    from attention_zoo.applications.dates.formats import LOCALES
    from attention_zoo.applications.dates.negatives import BABEL_OTHER

    untaught = {
        names[month].lower().rstrip(".")
        for locale in BABEL_OTHER
        for width in ("wide", "abbreviated")
        for context in ("format", "stand-alone")
        for names in [get_month_names(width, context, locale)]
        for month in range(1, 13)
    }

    words = lexicon.load()
    candidates: dict[str, tuple[str, int]] = {}
    for locale in LOCALES.values():
        for width in ("wide", "abbreviated"):
            alone = get_month_names(width, "stand-alone", locale)
            written = get_month_names(width, "format", locale)
            for month in range(1, 13):
                # The wide name's reading first: `март` is wide and short.
                candidates.setdefault(
                    alone[month].lower().rstrip("."),
                    (written[month].lower().rstrip("."), month),
                )
    for month, name in get_month_names("wide", "format", "he").items():
        candidates["ל" + name] = ("ב" + name, month)
    for spelling, word in EXTRA_SPELLINGS.items():
        candidates[spelling] = (word, words[word][0])
    return {
        spelling: word
        for spelling, (word, month) in sorted(candidates.items())
        if spelling not in words
        and spelling not in untaught
        and month in words.get(word, ())
        and re.fullmatch(r"[^\W\d_]+", spelling)
    }


# Cached as the table is: `normalize` runs these per text (the lexicon's
# generator some 330,000 times), and building the patterns cost more than
# matching them.
@functools.lru_cache(maxsize=1)
def month_spelling_passes() -> tuple[tuple[str, str], ...]:
    """`(pattern, replacement)` per spelling, longest first."""
    table = month_spellings_table()
    return tuple(
        (f"{MONTH_BEFORE}{re.escape(s)}{MONTH_AFTER}", rf"\1{table[s]}\2")
        for s in sorted(table, key=len, reverse=True)
    )


@functools.lru_cache(maxsize=1)
def month_spelling_candidate() -> str:
    """A pattern any text a `month_spelling_passes` rewrites holds."""
    table = month_spellings_table()
    return "|".join(re.escape(s) for s in sorted(table, key=len, reverse=True))


def month_spellings(text: str) -> str:
    """`text` with a month spelling of `month_spellings_table` after a day
    as the month word the model reads."""
    if not re.search(month_spelling_candidate(), text):
        return text
    for pattern, replacement in month_spelling_passes():
        text = re.sub(pattern, replacement, text)
    return text


def numeric_spaces(text: str) -> str:
    """An all-numeric `text` of three groups without the spaces around its
    separators."""
    if not re.fullmatch(NUMERIC, text):
        return text
    return re.sub(NUMERIC_SPACES[0], NUMERIC_SPACES[1], text)
