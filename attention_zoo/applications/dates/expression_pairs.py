"""What every generated time expression carries: its text, form and checked value.

A `Pair` is a text, the form it is read into, and the value the generator
knows it wrote: the datetime it rendered, as the ISO text that
`resolver.resolve(form, reference)` must give (`value`) at the pair's
`reference`. A form that leaves a part open (`date --05-03`, `time
17:30`) gets a reference chosen so that the day rendered is the one the
default policy picks (a reference on or before it, less than a year
before), so the check is the rendered datetime coming back. The kind
modules (`expr_days`, `expr_times`, `expr_spans`, `expr_computed`,
`expr_relative`) build the pairs; `time_expressions.pairs` joins them.

Words CLDR does not give (ordinal words, holiday names, "from ... to")
are in `expression_words.json`, read here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import random
import re
from pathlib import Path

from babel import Locale

from attention_zoo.applications.dates.formats import LOCALES
from attention_zoo.applications.dates.world import NATIVE

# The reference of the pairs whose value does not depend on it, and of the
# relative ones (a Thursday, mid-month, with seconds).
REFERENCE = dt.datetime(2026, 1, 15, 9, 17, 42)
_WORDS = Path(__file__).with_name("expression_words.json")


@dataclasses.dataclass(frozen=True)
class Pair:
    """A text, its form, and the value `resolve(form, reference)` must give."""

    text: str
    form: str
    language: str
    kind: str
    reference: str  # ISO 8601, naive (UTC)
    value: str  # the ISO text the generating datetime writes


def locale(language: str) -> Locale:
    return Locale.parse(LOCALES[language])


def list_word(language: str, style: str) -> str:
    """The word CLDR's list pattern of two writes between them in
    `language`: `style` "standard" ("{0} and {1}": "and") or "or" ("{0} or
    {1}": "or"); "" where CLDR has none."""
    two = locale(language).list_patterns.get(style, {}).get("2", "")
    return " ".join(two.replace("{0}", " ").replace("{1}", " ").split())


@functools.cache
def _all_words() -> dict:
    return json.loads(_WORDS.read_text(encoding="utf-8"))


def words(language: str) -> dict:
    """The hand-written words of `language` (`{}` when it has none)."""
    return _all_words().get(language, {})


def word_form(unit: str, amount: int) -> str:
    """The form of a hand-written `relative` text: `shift day -2` ("vor zwei
    Tagen": unit `day`), or a cycle where the unit says so (`cycle month`:
    "अगले महीने", next month -> `cycle month +1`)."""
    how, _, field = unit.rpartition(" ")
    return f"{how or 'shift'} {field} " + ("0" if amount == 0 else f"{amount:+d}")


def fixed(text: str, language: str) -> str:
    """`text` with the language's elisions made (`replace`: French "de
    avril" -> "d’avril")."""
    for old, new in words(language).get("replace", ()):
        # At a word's start only: Italian "a aprile" -> "ad aprile", not in "da aprile".
        text = re.sub(rf"(?<!\w){re.escape(old)}", new, text)
    return text


def rng(kind: str, language: str) -> random.Random:
    """A generator seeded by kind and language, so the pairs are the same every run."""
    return random.Random(f"{kind}/{language}")


def draw_day(r: random.Random, low: int = 1900, high: int = 2099) -> dt.date:
    """A day of the years `low`-`high`; never 29 February (its open-year form
    picks the next leap year, which the check below does not model)."""
    start, end = dt.date(low, 1, 1).toordinal(), dt.date(high, 12, 31).toordinal()
    day = dt.date.fromordinal(r.randint(start, end))
    return day.replace(day=28) if (day.month, day.day) == (2, 29) else day


def draw_yearless_day(r: random.Random) -> dt.date:
    """`draw_day`, its day of the month one of 1-9 one time in two: a day
    and month with no year writes a day of one digit as one ("March 3",
    "3 mai"), a text of its own, which days drawn uniformly gave 9 times
    in 31 (docs/dates.md, "forms56 to forms57")."""
    day = draw_day(r)
    return day.replace(day=r.randint(1, 9)) if r.random() < 0.5 else day


def before(day: dt.date, r: random.Random, most: int = 300) -> str:
    """A reference 0-`most` days before `day` (midnight), so the default policy
    ("the next occurrence on or after the reference") picks `day` itself."""
    moment = dt.datetime.combine(day - dt.timedelta(days=r.randint(0, most)), dt.time())
    return moment.isoformat()


def ymd(day: dt.date) -> str:
    return f"{day.year:04d}-{day.month:02d}-{day.day:02d}"


def clock(hour: int, minute: int, second: int | None = None) -> str:
    text = f"{hour:02d}:{minute:02d}"
    return text if second is None else text + f":{second:02d}"


def half_day_apart(at: dt.time) -> dt.time:
    """`at` twelve hours later or earlier: a 12-hour clock that writes both
    alike writes no a.m./p.m., so its text is left out (CLDR's Russian
    interval `03:10 — 01:38` for 03:10-13:38)."""
    return at.replace(hour=(at.hour + 12) % 24)


def native(text: str, language: str) -> str | None:
    """`text` with the native digits of `language` (`world.NATIVE`), or None
    when the language writes none or the text has no digit."""
    zero = NATIVE.get(language)
    if zero is None or not any("0" <= c <= "9" for c in text):
        return None
    shift = ord(zero) - ord("0")
    return "".join(chr(ord(c) + shift) if "0" <= c <= "9" else c for c in text)


def with_native(pairs: list[Pair]) -> list[Pair]:
    """`pairs`, each followed by its copy in native digits where its language writes them."""
    out = []
    for pair in pairs:
        out.append(pair)
        text = native(pair.text, pair.language)
        if text is not None:
            out.append(dataclasses.replace(pair, text=text))
    return out
