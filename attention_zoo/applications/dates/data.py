"""Human-written dates and their ISO form, generated offline with Faker + Babel.

Every example is `(text, iso, format_name, language, family)`; language is
`en`, `fr`, `de`, `es`, or `any` for year-first numeric forms. Formats come in
families (`babel`, `pattern`, `ordinal`, `abbreviation`, `numeric`); each is
rendered in one locale, then the whole string gets a random case (original,
lower, upper, title) and, sometimes, stray whitespace.

Numeric formats follow an explicit day/month convention: `MM/dd/y` (US) and
`dd/MM/y` (British, French, Spanish) share the slash, so a slash date is only
generated when it reads the same both ways (day > 12, or day == month).

The model sees `normalize(text)`: lower case, runs of whitespace collapsed to
one space, stripped. The exported SavedModel applies the same rule in-graph.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from babel.dates import format_date
from faker import Faker

MIN_DATE, MAX_DATE = dt.date(1900, 1, 1), dt.date(2099, 12, 31)
TX = 30  # longest normalized input, in characters
TY = 10  # "YYYY-MM-DD"

_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")


def normalize(text: str) -> str:
    """The model's view of an input: lower case, single spaces, stripped."""
    # ASCII whitespace only, as in the exported graph (RE2, tf.strings.strip).
    return _WHITESPACE.sub(" ", text.lower()).strip(" \t\n\r\f\v")


# ------------------------------------------------------------------ formats

_EN_DOTTED = [
    "Jan.",
    "Feb.",
    "Mar.",
    "Apr.",
    "May",
    "June",
    "July",
    "Aug.",
    "Sept.",
    "Oct.",
    "Nov.",
    "Dec.",
]


def _ordinal_en(day: int) -> str:
    if 10 <= day % 100 <= 20:
        return f"{day}th"
    return str(day) + {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _ordinal_fr(day: int) -> str:
    return "1er" if day == 1 else str(day)


def _babel(pattern, locale):
    def render(date):
        return format_date(date, pattern, locale=locale)

    return render


def _month(date, locale, width="wide"):
    return format_date(date, "MMMM" if width == "wide" else "MMM", locale=locale)


@dataclass(frozen=True)
class DateFormat:
    name: str
    family: str
    language: str
    render: object  # date -> str
    # Numeric formats whose day/month order a reader cannot tell apart from
    # the other slash convention when day <= 12 and day != month.
    slash_ambiguous: bool = False


def _formats() -> list[DateFormat]:
    out = []
    add = out.append
    # Babel's named formats ("short" only where it keeps four year digits).
    for locale, language, styles in (
        ("en_US", "en", ("full", "long", "medium")),
        ("en_GB", "en", ("full", "long", "medium")),
        ("fr_FR", "fr", ("full", "long", "medium")),
        ("de_DE", "de", ("full", "long", "medium")),
        ("es_ES", "es", ("full", "long", "medium")),
    ):
        for style in styles:
            add(
                DateFormat(
                    f"babel_{style}_{locale}", "babel", language, _babel(style, locale)
                )
            )
    add(
        DateFormat("babel_short_en_GB", "numeric", "en", _babel("short", "en_GB"), True)
    )
    add(
        DateFormat("babel_short_fr_FR", "numeric", "fr", _babel("short", "fr_FR"), True)
    )
    # CLDR patterns written out (Babel's `y` is the calendar year; `Y` would
    # be the week-based year and is never used).
    patterns = [
        ("en_US", "en", "EEE, MMM d, y"),
        ("en_US", "en", "EEEE MMMM d y"),
        ("en_US", "en", "MMM d y"),
        ("en_GB", "en", "EEE d MMM y"),
        ("en_GB", "en", "d MMM, y"),
        ("en_GB", "en", "EEEE d MMMM y"),
        ("fr_FR", "fr", "EEE d MMM y"),
        ("fr_FR", "fr", "'le' d MMMM y"),
        ("fr_FR", "fr", "dd MMMM y"),
        ("fr_FR", "fr", "EEEE d MMM y"),
        ("de_DE", "de", "EEE, d. MMM y"),
        ("de_DE", "de", "'am' d. MMMM y"),
        ("de_DE", "de", "d. MMM y"),
        ("de_DE", "de", "EEEE, d. MMM y"),
        ("es_ES", "es", "d 'de' MMM 'de' y"),
        ("es_ES", "es", "EEE, d MMM y"),
        ("es_ES", "es", "d-MMM-y"),
        ("es_ES", "es", "EEEE d 'de' MMMM 'de' y"),
    ]
    for locale, language, pattern in patterns:
        add(
            DateFormat(
                f"pattern[{pattern}]_{locale}",
                "pattern",
                language,
                _babel(pattern, locale),
            )
        )
    # Numeric conventions.
    for name, pattern, language, ambiguous in (
        ("iso", "y-MM-dd", "any", False),
        ("ymd_slash", "y/MM/dd", "any", False),
        ("mdy_slash_us", "MM/dd/y", "en", True),
        ("mdy_slash_us_short", "M/d/y", "en", True),
        ("dmy_slash", "dd/MM/y", "es", True),
        ("dmy_dot_de", "dd.MM.y", "de", False),
        ("dmy_dot_de_short", "d.M.y", "de", False),
        ("dmy_dash", "dd-MM-y", "fr", False),
    ):
        add(
            DateFormat(
                f"numeric_{name}",
                "numeric",
                language,
                _babel(pattern, "en_US"),
                ambiguous,
            )
        )

    # English ordinals and dotted abbreviations, French "1er".
    ordinal_forms = {
        "ordinal_d_month_y": lambda d: (
            f"{_ordinal_en(d.day)} {_month(d, 'en_US')} {d.year}"
        ),
        "ordinal_the_d_of_month_y": lambda d: (
            f"the {_ordinal_en(d.day)} of {_month(d, 'en_US')} {d.year}"
        ),
        "ordinal_month_d_y": lambda d: (
            f"{_month(d, 'en_US')} {_ordinal_en(d.day)}, {d.year}"
        ),
        "ordinal_d_of_mon_y": lambda d: (
            f"{_ordinal_en(d.day)} of {_month(d, 'en_US', 'abbr')} {d.year}"
        ),
        "ordinal_weekday_the_d": lambda d: (
            f"{format_date(d, 'EEE', locale='en_US')} the {_ordinal_en(d.day)} of "
            f"{_month(d, 'en_US', 'abbr')} {d.year}"
        ),
        "ordinal_fr_le_d": lambda d: (
            f"le {_ordinal_fr(d.day)} {_month(d, 'fr_FR')} {d.year}"
        ),
    }
    for name, fn in ordinal_forms.items():
        add(DateFormat(name, "ordinal", "fr" if "_fr_" in name else "en", fn))
    abbreviation_forms = {
        "abbr_dotted_mon_d_y": lambda d: f"{_EN_DOTTED[d.month - 1]} {d.day}, {d.year}",
        "abbr_d_dotted_mon_y": lambda d: f"{d.day} {_EN_DOTTED[d.month - 1]} {d.year}",
        "abbr_undotted_mon_d_y": lambda d: (
            f"{_EN_DOTTED[d.month - 1].rstrip('.')} {d.day} {d.year}"
        ),
        "abbr_fr_dotted": lambda d: format_date(d, "d MMM y", locale="fr_FR"),
        "abbr_de_undotted": lambda d: (
            f"{d.day} {format_date(d, 'MMM', locale='de_DE').rstrip('.')} {d.year}"
        ),
    }
    for name, fn in abbreviation_forms.items():
        language = name.split("_")[1] if name.split("_")[1] in ("fr", "de") else "en"
        add(DateFormat(name, "abbreviation", language, fn))
    return out


FORMATS = _formats()
FORMAT_NAMES = [f.name for f in FORMATS]


def _ambiguous(fmt: DateFormat, date: dt.date) -> bool:
    return fmt.slash_ambiguous and date.day <= 12 and date.day != date.month


def _noise(text: str, rng: random.Random) -> str:
    case = rng.random()
    if case < 0.2:
        text = text.lower()
    elif case < 0.35:
        text = text.upper()
    elif case < 0.5:
        text = text.title()
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    if rng.random() < 0.25:  # stray whitespace
        tokens = text.split(" ")
        text = "".join(t + " " * rng.choice((1, 1, 2, 3)) for t in tokens).rstrip()
        text = " " * rng.choice((0, 0, 1, 2)) + text + " " * rng.choice((0, 0, 1))
    return text


@dataclass
class Example:
    text: str
    iso: str
    format_name: str
    language: str
    family: str


def generate(n: int, seed: int = 0, max_length: int = TX, exclude=()) -> list[Example]:
    """`n` examples with distinct normalized inputs, none of them in `exclude`.

    A format and a date (uniform in 1900-2099, Faker) are drawn together;
    pairs that are ambiguous (slash formats), too long once normalized or
    already seen are redrawn, so slash formats end up somewhat rarer.
    """
    rng = random.Random(seed)
    fake = Faker()
    fake.seed_instance(seed)
    seen = set(exclude)
    out = []
    attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > 50 * n + 1000:
            raise RuntimeError(f"could only generate {len(out)} of {n} distinct dates")
        fmt = rng.choice(FORMATS)
        date = fake.date_between_dates(MIN_DATE, MAX_DATE)
        if _ambiguous(fmt, date):
            continue
        text = _noise(fmt.render(date), rng)
        key = normalize(text)
        if len(key) > max_length or key in seen:
            continue
        seen.add(key)
        out.append(Example(text, date.isoformat(), fmt.name, fmt.language, fmt.family))
    return out


def make_splits(n_train: int, n_val: int, n_test: int, seed: int = 0):
    """Train, validation and test lists that never share a normalized input."""
    train = generate(n_train, seed=seed)
    val = generate(n_val, seed=seed + 1, exclude={normalize(e.text) for e in train})
    taken = {normalize(e.text) for e in train + val}
    test = generate(n_test, seed=seed + 2, exclude=taken)
    return train, val, test


# -------------------------------------------------------------- vocabularies

PAD, UNK = "<pad>", "<unk>"
START, END = "<start>", "<end>"
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
        out = np.zeros((len(texts), max_length), "int32")
        for i, text in enumerate(texts):
            ids = [self.index.get(c, 1) for c in normalize(text)][:max_length]
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
    """Output characters: `<pad>`=0, `<start>`=1, `<end>`=2, digits and '-'."""

    tokens = [PAD, START, END, *ISO_CHARS]
    pad_id, start_id, end_id = 0, 1, 2
    index = {c: i for i, c in enumerate(tokens)}

    def __len__(self):
        return len(self.tokens)

    def encode(self, isos) -> np.ndarray:
        """int32 `(N, TY)`: the characters of each ISO date."""
        return np.array([[self.index[c] for c in iso] for iso in isos], "int32")

    def decode(self, ids) -> list[str]:
        out = []
        for row in np.asarray(ids):
            chars = []
            for i in row:
                if i == self.end_id or i == self.pad_id:
                    break
                chars.append(self.tokens[i] if i >= 3 else "")
            out.append("".join(chars))
        return out


def save_examples(path: Path, examples) -> None:
    path.write_text(json.dumps([e.__dict__ for e in examples], ensure_ascii=False))


def load_examples(path: Path) -> list[Example]:
    return [Example(**e) for e in json.loads(Path(path).read_text())]


def is_calendar_date(iso: str) -> bool:
    """True for a real `YYYY-MM-DD` date."""
    try:
        return len(iso) == 10 and dt.date.fromisoformat(iso).isoformat() == iso
    except ValueError:
        return False
