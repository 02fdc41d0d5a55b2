"""Dates before the common era: the era rule.

The model reads years 1900-2099 of the common era. Shown `3 May 1979 BC`,
`3 mai 1979 av. J.-C.` or `3 May -1979` it reads the day, the month and
the digits of the year and answers `1979-05-03`, confidently: the other
rules see a year the input writes. So validity asks the input: an answer
is not valid when the input writes an era marker before the common era
(CLDR's abbreviated and wide era names of the 27 languages the generator
writes, and the spellings people add: `BCE`, `B.C.E.`, `v. u. Z.`,
`до н.э.`) or a minus sign or dash directly before a number, at the start
of the input or after a space (`-1979`; `03-05-1979` writes none).

Markers are matched on the input's words (`text_words.words`: runs of
letters and marks, so `B.C.`, `b. c.` and `B C` are the words `b c`),
joined by one space, as whole words; the Chinese, Japanese and Korean
ones (`公元前1979年`) anywhere. The generator writes none of them
(tests/applications/dates/test_eras.py samples it). The graph twin is
`graph_rules.era_agreement`, on the same patterns.
"""

from __future__ import annotations

import re

from attention_zoo.applications.dates.text_words import words

# Lower case, as `normalize` writes them; each a sequence of words.
ERA_WORDS = (
    # English
    "bc",
    "b c",
    "bce",
    "b c e",
    "before christ",
    "before common era",
    "before the common era",
    # French
    "av j c",
    "av jc",
    "avant j c",
    "avant jésus christ",
    "avant jesus christ",
    "av notre ère",
    "avant notre ère",
    "av n è",
    # German
    "v chr",
    "vor christus",
    "vor christi geburt",
    "v u z",
    "vor unserer zeitrechnung",
    # Spanish, Italian, Portuguese
    "a c",
    "ac",
    "a de c",
    "antes de cristo",
    "a e c",
    "antes de la era común",
    "avanti cristo",
    "prima di cristo",
    # Dutch
    "voor christus",
    "v c",
    "v o t",
    "voor onze jaartelling",
    # Polish, Czech
    "p n e",
    "przed naszą erą",
    "przed chrystusem",
    "př n l",
    "před naším letopočtem",
    "př kr",
    "před kristem",
    # Swedish, Danish, Norwegian (their `e. Kr.` is the common era)
    "f kr",
    "fkr",
    "före kristus",
    "før kristus",
    "f v t",
    # Finnish
    "ekr",
    "eaa",
    "ennen kristusta",
    "ennen kristuksen syntymää",
    "ennen ajanlaskun alkua",
    # Turkish (`İÖ` lower-cased keeps its dot as a mark)
    "mö",
    "m ö",
    "milattan önce",
    "iö",
    "i̇ö",
    "i ö",
    "i̇ ö",
    # Hungarian
    "i e",
    "ie",
    "kr e",
    "krisztus előtt",
    "időszámításunk előtt",
    # Romanian
    "î hr",
    "înainte de hristos",
    "î e n",
    "înaintea erei noastre",
    # Indonesian, Vietnamese
    "sm",
    "sebelum masehi",
    "tcn",
    "trước công nguyên",
    "trước chúa giáng sinh",
    # Russian, Ukrainian
    "до н э",
    "до нашей эры",
    "до р х",
    "до рождества христова",
    "до н е",
    "до нашої ери",
    "до різдва христового",
    # Greek
    "π χ",
    "προ χριστού",
    "π κ ε",
    # Arabic, Hindi, Hebrew (`לפנה״ס`: its gershayim is punctuation)
    "ق م",
    "قبل الميلاد",
    "ईसा पूर्व",
    "ईसापूर्व",
    "ई पू",
    "לפנה ס",
    "לפני הספירה",
)
# Written without spaces, in or beside other characters.
ERA_STRINGS = ("公元前", "西元前", "紀元前", "纪元前", "기원전")
# On the words joined by one space, with one space at each end. Only
# letters and spaces: the same pattern in Python's `re` and RE2.
ERA_PATTERN = f"(?s).*(?: (?:{'|'.join(ERA_WORDS)}) |{'|'.join(ERA_STRINGS)}).*"
# On the normalized text: a minus sign or a dash, at the start or after a
# space, then a digit.
NEGATIVE_YEAR = "(?s)(?:.* )?[-\u2212\u2013\u2012][0-9].*"
_ERA, _NEGATIVE = re.compile(ERA_PATTERN), re.compile(NEGATIVE_YEAR)


def word_view(text: str) -> str:
    """The words of `text` joined by one space, with one space at each end:
    what `ERA_PATTERN` reads."""
    return f" {' '.join(words(text))} "


def era_disagreement(text: str) -> str:
    """The era rule: why no answer to `text` (normalized) is valid, as it
    writes a date before the common era or a negative year; "" when it
    writes neither."""
    if _ERA.fullmatch(word_view(text)):
        return (
            "it writes a date before the common era, which the model does "
            "not read (it reads years 1900-2099 of the common era)"
        )
    if _NEGATIVE.fullmatch(text):
        return (
            "it writes a negative year (a minus sign before a number), which "
            "the model does not read (it reads years 1900-2099 of the common era)"
        )
    return ""
