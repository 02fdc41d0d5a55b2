"""A year alone is read from a text that writes nothing but the year.

A `year YYYY` form grounds in any text that writes its four digits, so
"2000 km" and "ISO 9001" were read as years: the number is a quantity or
a name's, which the words beside it say. A text read as a year alone
(`year_disagreement`) may write, besides the year's digits, only the
words the generator writes around a year (`year_words`): each language's
year patterns (`expression_words.json` `partials.year`: "in {0}", "im Jahr
{0}", "в {0} году") around CLDR's year in the generator's skeleton
(`expr_spoken.PARTIAL_SKELETONS`: "1987年", "1987 г."). An interval of years has its connectors and is not checked
here; an era written beside a year ("1987 AD") is refused, as it is
untaught.
"""

from __future__ import annotations

import datetime as dt
import functools
import unicodedata

from babel.dates import format_skeleton

from attention_zoo.applications.dates import phrase_spans
from attention_zoo.applications.dates.data import normalize
from attention_zoo.applications.dates.expr_spoken import PARTIAL_SKELETONS
from attention_zoo.applications.dates.expression_pairs import fixed, locale, words
from attention_zoo.applications.dates.formats import LANGUAGES

_SAMPLE = dt.date(1987, 5, 3)


def words_of(text: str) -> set[str]:
    """The runs of letters and their marks (Devanagari's vowel signs) of
    `text`, normalized as the model's input."""
    text = phrase_spans.apostrophes(normalize(text))
    kept = (c if unicodedata.category(c)[0] in "LM" else " " for c in text)
    return set("".join(kept).split())


@functools.lru_cache(maxsize=8)
def year_words(languages=LANGUAGES) -> frozenset[str]:
    """The words the generator writes around a year alone in `languages`."""
    out = set()
    for language in languages:
        skeleton = PARTIAL_SKELETONS["year"]  # as the generator writes a year
        year = format_skeleton(skeleton, _SAMPLE, locale=locale(language))
        patterns = words(language).get("partials", {}).get("year", [])
        for pattern in ["{0}", *patterns]:
            out |= words_of(fixed(pattern.format(year, year=_SAMPLE.year), language))
    return frozenset(out)


def year_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why `text` is no year alone ("" when it writes only year words)."""
    other = sorted(words_of(text) - year_words(tuple(languages)))
    if not other:
        return ""
    return (
        f"the text writes {other[0]!r}, which no year alone is written with "
        "(a quantity, a name's number?)"
    )
