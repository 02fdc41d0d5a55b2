"""The Python halves of the text passes (`passes.PASSES`): what each
rewrites of an input before the model reads it. Their graph halves, of
the same names, are in `graph_text`; `passes` holds the one ordered list
both sides iterate (`passes.normalize`)."""

from __future__ import annotations

import re

_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")

# The decimal digits people write dates with besides ASCII: Arabic-Indic
# (Arabic), Extended Arabic-Indic (Persian, Urdu), Devanagari (Hindi) and
# full-width (Chinese, Japanese). Each is read as its ASCII digit, so that
# the model, the numeric rule and the written-year rule see one set of ten.
NATIVE_DIGITS = ("\u0660", "\u06f0", "\u0966", "\uff10")
_ASCII_DIGITS = {
    ord(zero) + i: ord("0") + i for zero in NATIVE_DIGITS for i in range(10)
}


# Chinese and Japanese numerals, as formal dates write them
# (`二〇一九年十二月三十一日`): a digit each, or tens with 十 (`三十一`, `十二`,
# `二十`, `十`). The passes below are RE2's too (the graph half runs them
# in order): the weekday names 星期一..星期六 (and 周, 礼拜) are names, not
# numbers, and are kept, through private-use stand-ins.
CJK_NUMERAL = "[〇零一二两兩三四五六七八九十]"
CJK_WEEKDAY_PREFIX = "星期|禮拜|礼拜|周|週"
CJK_WEEKDAYS = "一二三四五六"
CJK_STAND_IN = 0xE001
_UNIT = "[一二三四五六七八九]"
CJK_TENS = (
    (f"({_UNIT})十({_UNIT})", r"\1\2"),  # 三十一: 31
    (f"({_UNIT})十", r"\1〇"),  # 三十: 30
    (f"十({_UNIT})", r"一\1"),  # 十二: 12
    ("十", "一〇"),  # 10
)
# 两 (兩) is two as a count or an hour says it (`两周前`, `两点`), never
# inside a numeral with 十 (`二十二`).
CJK_DIGITS = ("〇零", "一", "二两兩", *"三四五六七八九")
_CJK_TO_ASCII = {ord(c): ord("0") + i for i, cs in enumerate(CJK_DIGITS) for c in cs}
CJK_WEEKDAY = f"({CJK_WEEKDAY_PREFIX})[{CJK_WEEKDAYS}]"
_WEEKDAY = re.compile(CJK_WEEKDAY)
_HAS_NUMERAL = re.compile(CJK_NUMERAL)


def ascii_digits(text: str) -> str:
    """`text` with the digits of `NATIVE_DIGITS`' scripts as ASCII digits."""
    return text.translate(_ASCII_DIGITS)


# Arabic's marks most writers leave out: the short vowels, tanween, shadda
# and sukun (U+064B-U+0652), the superscript alef (U+0670) and the tatweel
# (U+0640). CLDR writes "غدًا", people "غدا".
ARABIC_MARKS = "[\u0640\u064b-\u0652\u0670]"
_ARABIC_MARKS = re.compile(ARABIC_MARKS)


def arabic_marks(text: str) -> str:
    """`text` without the Arabic marks of `ARABIC_MARKS`."""
    return _ARABIC_MARKS.sub("", text)


def lower_case(text: str) -> str:
    """`text` lower-cased (Unicode)."""
    return text.lower()


def whitespace(text: str) -> str:
    """`text` with its runs of ASCII whitespace as one space, stripped:
    ASCII only, as RE2 and `tf.strings.strip` read it in the graph."""
    return _WHITESPACE.sub(" ", text).strip(" \t\n\r\f\v")


def has_cjk_numeral(text: str) -> bool:
    """Whether `text` writes a numeral outside a weekday name: the
    generator's Chinese dates (`星期三`) do not, and are left as they are."""
    return bool(_HAS_NUMERAL.search(_WEEKDAY.sub("", text)))


def cjk_numerals(text: str) -> str:
    """`text` with its Chinese/Japanese numerals as ASCII digits, weekday
    names (`星期三`) kept."""
    if not has_cjk_numeral(text):
        return text
    for i, numeral in enumerate(CJK_WEEKDAYS):
        stand_in = chr(CJK_STAND_IN + i)
        text = re.sub(f"({CJK_WEEKDAY_PREFIX}){numeral}", rf"\g<1>{stand_in}", text)
    for pattern, replacement in CJK_TENS:
        text = re.sub(pattern, replacement, text)
    text = text.translate(_CJK_TO_ASCII)
    for i, numeral in enumerate(CJK_WEEKDAYS):
        text = text.replace(chr(CJK_STAND_IN + i), numeral)
    return text


# Japanese era years (`平成7年`, `令和元年`: the era's first year) as the
# Gregorian year (1995, 2019): the era's year 1 is the offset + 1. The first
# era year of a text only, as the graph half reads it.
JAPANESE_ERAS = {"明治": 1867, "大正": 1911, "昭和": 1925, "平成": 1988, "令和": 2018}
JAPANESE_ERA_YEAR = f"({'|'.join(JAPANESE_ERAS)})(元|[0-9]{{1,2}})年"
_ERA_YEAR = re.compile(JAPANESE_ERA_YEAR)


def japanese_era(text: str) -> str:
    """`text` with its first Japanese era year (`平成7年`) as the Gregorian
    year (`1995年`)."""
    match = _ERA_YEAR.search(text)
    if not match:
        return text
    era, number = match.groups()
    year = JAPANESE_ERAS[era] + (1 if number == "元" else int(number))
    return f"{text[: match.start()]}{year}年{text[match.end() :]}"


# A Roman-numeral month between a day and a four-digit year, or a year
# and a day (`11 XI 1918 r.`, `1987. IX. 23.`, `23.IX.1987`: Polish, Czech,
# Hungarian, Romanian), upper case as written, is read as the English
# abbreviation the model reads (`11 nov 1918 r.`). Only there: `Louis XIV`
# or `3 X 4` stay as written. One pass per month and order, with the
# neighbouring characters matched and written back, as RE2 (the graph
# half) has no lookaround.
ROMAN_MONTHS = (
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
)
MONTH_ABBREVIATIONS = tuple("jan feb mar apr may jun jul aug sep oct nov dec".split())
SEPARATOR = r"[ .\-/]+"


def _roman_month_passes():
    """`(pattern, replacement)` per month and order (day first, year first),
    in Python's and RE2's shared syntax."""
    passes = []
    for roman, abbreviation in zip(ROMAN_MONTHS, MONTH_ABBREVIATIONS):
        for first, last in (("[0-9]{1,2}", "[0-9]{4}"), ("[0-9]{4}", "[0-9]{1,2}")):
            pattern = (
                f"(^|[^0-9])({first}{SEPARATOR}){roman}({SEPARATOR}{last})([^0-9]|$)"
            )
            passes.append((pattern, rf"\1\2{abbreviation}\3\4"))
    return tuple(passes)


ROMAN_MONTH_PASSES = _roman_month_passes()
# What any pass needs: a cheap test first, in Python and in the graph.
ROMAN_CANDIDATE = f"[0-9]{SEPARATOR}[IVX]+{SEPARATOR}[0-9]"
_HAS_ROMAN = re.compile(ROMAN_CANDIDATE)


def roman_months(text: str) -> str:
    """`text` with a Roman-numeral month between a day and a year written
    as its English abbreviation (before lower-casing: upper case only)."""
    if not _HAS_ROMAN.search(text):
        return text
    for pattern, replacement in ROMAN_MONTH_PASSES:
        text = re.sub(pattern, replacement, text)
    return text


# A form's label before a date: up to 40 characters without a digit or a
# colon at the start of the normalized text, then a colon and a space (a
# URL's `https://` is no label) or a full-width colon. Group 1 is the
# label, group 2 the rest.
LABEL_END = "(?:: |：)"
FORM_LABEL = f"^([^0-9:：]{{1,40}}?) ?{LABEL_END} ?(.+)$"
_FORM_LABEL = re.compile(FORM_LABEL)


def _taught_labels() -> tuple:
    from attention_zoo.applications.dates.annotations import WRAPPERS

    labels = {
        before.lower().strip().rstrip(":：").strip()
        for before, _ in WRAPPERS
        if before.strip().endswith((":", "："))
    }
    # The graph half writes them into an RE2 alternation unescaped.
    assert all(re.fullmatch(r"[^\W\d_]+( [^\W\d_]+)*", label) for label in labels)
    return tuple(sorted(labels))


# The labels the generator writes (the annotated family): the model reads
# those, so they stay.
TAUGHT_LABELS = _taught_labels()


def drop_label(text: str) -> str:
    """`text` without a leading label the model was not taught (`data de
    nascimento: `, `発行日：`): what follows it is read as if written alone.
    A label it was taught (`date: `, `дата: `) stays, so no generated
    text is seen differently (tested)."""
    match = _FORM_LABEL.match(text)
    if match is None or match.group(1) in TAUGHT_LABELS:
        return text
    return match.group(2)
