"""Human-written dates and their ISO form, generated offline with Faker + Babel.

Every example is `(text, iso, format_name, language, family)`; language is
one of `formats.LANGUAGES` or `any` for numeric forms read the same way
everywhere. The formats and their families are `formats.py`; each is
rendered in one locale, then the whole string gets a random case (original,
lower, upper, title) and, sometimes, stray whitespace. All-numeric
renderings are kept only when they have exactly one reading
(`readings.numeric_readings`), so `03/04/2005` is never a training date.

Non-dates (`negatives.py`) have family `non_date` and `iso == ""`: the
default model learns to answer them with the `<invalid>` token. Impossible
dates with a named month are non-dates whose `iso` is the date as written
(`2001-04-31`), which the calendar check refuses.

The model sees `normalize(text)`: the passes of `passes.PASSES` (lower
case, the digits of other scripts as ASCII digits, runs of whitespace
collapsed to one space, stripped, ...), which the exported SavedModel
runs in its graph too.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from faker import Faker

from attention_zoo.applications.dates.annotations import wrap
from attention_zoo.applications.dates.formats import (
    FAMILIES,
    FORMATS,
    SHORT_YEAR_RANGE,
    DateFormat,
)
from attention_zoo.applications.dates.lexicon import month_disagreement
from attention_zoo.applications.dates.negatives import NegativeGenerator
from attention_zoo.applications.dates.passes import normalize
from attention_zoo.applications.dates.readings import (
    MAX_DATE,
    MIN_DATE,
    numeric_readings,
)
from attention_zoo.applications.dates.text import NATIVE_DIGITS

TX = 64  # longest normalized input of the default model, in characters
TX_CLASSIC = 30  # the course's Tx, kept by the classic model
TY = 10  # "YYYY-MM-DD"
NON_DATE = "non_date"  # the family of generated non-dates


__all__ = [
    "FAMILIES",
    "FORMATS",
    "NATIVE_DIGITS",
    "DateFormat",
    "MAX_DATE",
    "MIN_DATE",
    "normalize",
]


FORMAT_NAMES = [f.name for f in FORMATS]


def _noise(text: str, rng: random.Random) -> str:
    case = rng.random()
    if case < 0.2:
        cased = text.lower()
    elif case < 0.35:
        cased = text.upper()
    elif case < 0.5:
        cased = text.title()
    else:
        cased = text
    # Greek's "ΐ" upper-cases to two characters that lower-case to another
    # spelling than the word's ("μαΐ"): such a word keeps its case.
    if cased.lower() == text.lower():
        text = cased
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    if rng.random() < 0.25:  # stray whitespace
        tokens = text.split(" ")
        text = "".join(t + " " * rng.choice((1, 1, 2, 3)) for t in tokens).rstrip()
        text = " " * rng.choice((0, 0, 1, 2)) + text + " " * rng.choice((0, 0, 1))
    return text


# Share of dates moved to a boundary of what is a date: the last day of
# their month (31 December beside the impossible 31 November) or, half the
# time, the day equal to the month (09/09/2009 beside the ambiguous
# 09/08/2009). Uniform dates alone make these about 1/30 and 1/365 of the
# data, and a model trained with impossible and ambiguous non-dates then
# refuses them.
BOUNDARY_SHARE = 0.15


def _boundary(date: dt.date, rng: random.Random) -> dt.date:
    if rng.random() < 0.5:
        return date.replace(day=date.month)
    last = calendar.monthrange(date.year, date.month)[1]
    return date.replace(day=last)


@dataclass
class Example:
    text: str
    # The answer to learn: "" (`<invalid>`) for a non-date, the date as
    # written for an impossible one (2001-04-31).
    iso: str
    format_name: str
    language: str
    family: str

    @property
    def is_date(self) -> bool:
        return self.family != NON_DATE


def generate(
    n: int,
    seed: int = 0,
    max_length: int = TX,
    exclude=(),
    families=None,
    languages=None,
) -> list[Example]:
    """`n` dates with distinct normalized inputs, none of them in `exclude`.

    A family (of `families`, default all), one of its formats (of
    `languages`, default all; all-numeric formats are language `"any"`)
    and a date (uniform in 1900-2099, Faker; 1969-2068 for two-digit
    years) are drawn together; renderings
    that are all-numeric without exactly one reading, too long once
    normalized or already seen are redrawn.
    """
    rng = random.Random(seed)
    fake = Faker()
    fake.seed_instance(seed)
    by_family = {}
    for f in FORMATS:
        if (families is None or f.family in families) and (
            languages is None or f.language in languages
        ):
            by_family.setdefault(f.family, []).append(f)
    # A family, then one of its formats: families are equally common whatever
    # their number of formats (seven languages of `separated` would
    # otherwise drown the four `compact` forms).
    family_names = sorted(by_family)
    seen = set(exclude)
    out = []
    attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > 50 * n + 1000:
            raise RuntimeError(f"could only generate {len(out)} of {n} distinct dates")
        fmt = rng.choice(by_family[rng.choice(family_names)])
        low, high = SHORT_YEAR_RANGE if fmt.short_year else (MIN_DATE, MAX_DATE)
        date = fake.date_between_dates(low, high)
        if rng.random() < BOUNDARY_SHARE:
            date = _boundary(date, rng)
        text = _noise(fmt.render(date), rng)
        key = normalize(text)
        readings = numeric_readings(key)
        if readings is not None and readings != {date.isoformat()}:
            continue
        # A note around an all-numeric date with two readings ("[1]
        # 03/04/05") is no date either: the month-word rule would refuse it.
        if fmt.family == "annotated" and month_disagreement(key, date.isoformat()):
            continue
        if len(key) > max_length or key in seen:
            continue
        seen.add(key)
        out.append(Example(text, date.isoformat(), fmt.name, fmt.language, fmt.family))
    return out


# Share of non-dates with a note around them (`annotations.wrap`), about the
# share of the `annotated` family among dates.
ANNOTATED_NEGATIVES = 0.1


def generate_negatives(
    n: int, seed: int = 0, max_length: int = TX, exclude=(), wrapped: bool = True
) -> list[Example]:
    """`n` distinct non-dates (`negatives.py`), none of them in `exclude`;
    `wrapped`: some with a note around them, as the `annotated` dates."""
    rng = random.Random(seed)
    generator = NegativeGenerator(seed)
    seen = set(exclude)
    out = []
    while len(out) < n:
        text, kind, language, target = generator.draw(rng)
        if rng.random() < ANNOTATED_NEGATIVES and wrapped:
            text = wrap(text, rng)
        if rng.random() < 0.3:
            text = _noise(text, rng)
        key = normalize(text)
        if not key or len(key) > max_length or key in seen:
            continue
        if len(numeric_readings(key) or ()) == 1:  # a code that reads as a date
            continue
        seen.add(key)
        out.append(Example(text, target, f"non_date_{kind}", language, NON_DATE))
    return out


def make_splits(
    n_train: int,
    n_val: int,
    n_test: int,
    *,
    seed: int = 0,
    negatives: float = 0.0,
    max_length: int = TX,
    families=None,
    languages=None,
):
    """Train, validation and test lists that never share a normalized input.

    `negatives` adds that many non-dates per date to training and validation
    (test stays dates only: `metrics.json` measures dates; the committed
    non-dates measure refusals). `families` and `languages` restrict the
    dates' formats (`generate`).
    """
    train = generate(n_train, seed, max_length, (), families, languages)
    val = generate(
        n_val,
        seed + 1,
        max_length,
        {normalize(e.text) for e in train},
        families,
        languages,
    )
    taken = {normalize(e.text) for e in train + val}
    test = generate(n_test, seed + 2, max_length, taken, families, languages)
    if negatives:
        taken |= {normalize(e.text) for e in test}
        extra = generate_negatives(
            round(negatives * n_train) + round(negatives * n_val),
            seed + 3,
            max_length,
            taken,
            # Without annotated dates (leave one family out), no notes at all.
            wrapped=families is None or "annotated" in families,
        )
        cut = round(negatives * n_train)
        train, val = train + extra[:cut], val + extra[cut:]
        random.Random(seed + 4).shuffle(train)
    return train, val, test


# -------------------------------------------------------------- vocabularies

PAD, UNK = "<pad>", "<unk>"
START, END, INVALID = "<start>", "<end>", "<invalid>"
ISO_CHARS = "0123456789-"


class CharVocabulary:
    """Characters to ids: 0 is padding, 1 the unknown character.

    Built from the normalized training inputs; any other character maps to
    `<unk>` (id 1).
    """

    def __init__(self, chars):
        self.chars = sorted(set(chars) - {PAD, UNK})
        self.tokens = [PAD, UNK, *self.chars]
        self.index = {c: i for i, c in enumerate(self.tokens)}

    @classmethod
    def from_texts(cls, texts):
        return cls({c for t in texts for c in normalize(t)})

    def __len__(self):
        return len(self.tokens)

    def encode(self, texts, max_length: int = TX) -> np.ndarray:
        """int32 `(N, max_length)`, right-padded with 0; longer inputs truncated."""
        return self.encode_normalized([normalize(t) for t in texts], max_length)

    def encode_normalized(self, texts, max_length: int = TX) -> np.ndarray:
        """`encode` of texts already normalized (a predictor's view)."""
        out = np.zeros((len(texts), max_length), "int32")
        for i, text in enumerate(texts):
            ids = [self.index.get(c, 1) for c in text][:max_length]
            out[i, : len(ids)] = ids
        return out

    def unknown(self, text: str) -> list[str]:
        return sorted({c for c in normalize(text) if c not in self.index})

    def to_json(self) -> dict:
        return {"chars": self.chars}

    @classmethod
    def from_json(cls, data: dict):
        return cls(data["chars"])


class IsoVocabulary:
    """Output tokens: `<pad>`=0, `<start>`=1, `<end>`=2, digits and '-',
    then `<invalid>`=14, the default model's whole answer to a non-date."""

    tokens = [PAD, START, END, *ISO_CHARS, INVALID]
    pad_id, start_id, end_id = 0, 1, 2
    invalid_id = len(tokens) - 1
    index = {c: i for i, c in enumerate(tokens)}

    def __len__(self):
        return len(self.tokens)

    def encode(self, isos) -> np.ndarray:
        """int32 `(N, TY)`: the characters of each ISO date; `""` (a
        non-date) is `<invalid>` then padding."""
        out = np.full((len(isos), TY), self.pad_id, "int32")
        for row, iso in enumerate(isos):
            ids = [self.index[c] for c in iso] if iso else [self.invalid_id]
            out[row, : len(ids)] = ids
        return out

    def targets(self, isos) -> np.ndarray:
        """int32 `(N, TY + 1)`: `encode` with `<end>` after the last token."""
        encoded = self.encode(isos)
        out = np.concatenate([encoded, np.zeros((len(isos), 1), "int32")], axis=1)
        lengths = (encoded != self.pad_id).sum(axis=1)
        out[np.arange(len(isos)), lengths] = self.end_id
        return out

    def decode(self, ids) -> list[str]:
        """Strings up to `<end>`; `<invalid>` and other specials read as ""."""
        out = []
        for row in np.asarray(ids):
            chars = []
            for i in row:
                if i == self.end_id or i == self.pad_id:
                    break
                chars.append(self.tokens[i] if 3 <= i < self.invalid_id else "")
            out.append("".join(chars))
        return out


def save_examples(path: Path, examples) -> None:
    path.write_text(
        json.dumps([e.__dict__ for e in examples], ensure_ascii=False), encoding="utf-8"
    )


def load_examples(path: Path) -> list[Example]:
    return [Example(**e) for e in json.loads(Path(path).read_text(encoding="utf-8"))]


def is_calendar_date(iso: str) -> bool:
    """True for a real `YYYY-MM-DD` date."""
    try:
        return len(iso) == 10 and dt.date.fromisoformat(iso).isoformat() == iso
    except ValueError:
        return False
