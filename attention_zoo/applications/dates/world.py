"""The dates of twenty more languages, eleven Latin-script and nine not.

CLDR (through Babel) has each locale's date styles in the grammar a full
date uses: genitive months (`23 сентября 1987 г.`, `5 lutego 1910`,
`24. prosince 2056`), year markers (`г.`, `р.`), year-first Hungarian and
CJK forms (`1987. szeptember 23.`, `1987年9月23日`), weekday forms, and the
all-numeric order each locale writes (its `short` style). What people
write besides is added by hand: Polish `r.`, Russian `года`, Ukrainian
`року`, Japanese `(水)`, Vietnamese `ngày 23 tháng 9 năm 1987`, and the
native digits people use in Arabic (Arabic-Indic), Hindi (Devanagari) and
Chinese and Japanese (full-width), which `data.normalize` reads as ASCII.

Each form's family is what it writes: a month word (`babel`, `pattern`,
`abbreviation`), or digits only (`numeric`, `short_year` for a two-digit
year), decided by rendering one date.
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from babel.dates import format_date

from attention_zoo.applications.dates.readings import numeric_readings

LOCALES = {
    "pl": "pl_PL",
    "cs": "cs_CZ",
    "sv": "sv_SE",
    "da": "da_DK",
    "nb": "nb_NO",
    "fi": "fi_FI",
    "tr": "tr_TR",
    "hu": "hu_HU",
    "ro": "ro_RO",
    "id": "id_ID",
    "vi": "vi_VN",
    "ru": "ru_RU",
    "uk": "uk_UA",
    "el": "el_GR",
    "zh": "zh_CN",
    "ja": "ja_JP",
    "ko": "ko_KR",
    "ar": "ar_EG",
    "hi": "hi_IN",
    "he": "he_IL",
}

# Beside CLDR's full, long, medium and short styles: (family, pattern).
_PATTERNS = {
    "pl": [("pattern", "d MMMM y 'r.'"), ("pattern", "EEEE, d MMMM y 'r.'")],
    "cs": [("pattern", "EEEE, d. MMMM y"), ("numeric", "d.M.y")],
    "sv": [("abbreviation", "d MMM y"), ("pattern", "'den' d MMMM y")],
    "da": [("abbreviation", "d. MMM y"), ("pattern", "'den' d. MMMM y")],
    "nb": [("abbreviation", "d. MMM y"), ("pattern", "EEEE d. MMMM y")],
    "fi": [("pattern", "d. MMMM y"), ("pattern", "EEEE d. MMMM y")],
    "tr": [("abbreviation", "d MMM y"), ("pattern", "d MMMM y, EEEE")],
    "hu": [("pattern", "y. MMMM d., EEEE"), ("abbreviation", "y. MMM d.")],
    "ro": [("pattern", "EEEE, d MMMM y"), ("abbreviation", "d MMM y")],
    "id": [("abbreviation", "d MMM y"), ("pattern", "EEEE, d MMMM y")],
    "vi": [
        ("pattern", "'ngày' d 'tháng' M 'năm' y"),
        ("pattern", "EEEE, 'ngày' d 'tháng' M 'năm' y"),
        ("numeric", "dd/MM/y"),
    ],
    "ru": [
        ("pattern", "d MMMM y 'года'"),
        ("abbreviation", "d MMM y"),
        ("numeric", "dd.MM.y 'г.'"),
    ],
    "uk": [("pattern", "d MMMM y 'року'"), ("numeric", "dd.MM.y")],
    "el": [("pattern", "EEEE, d MMMM y"), ("abbreviation", "d MMM y")],
    "zh": [
        ("pattern", "y年M月d日 EEEE"),
        ("pattern", "y年M月d日（EEEE）"),
        ("pattern", "y年M月d日 EEE"),
        ("numeric", "y-M-d"),
    ],
    "ja": [
        ("pattern", "y年M月d日(E)"),
        ("pattern", "y年M月d日（E）"),
        ("pattern", "y年M月d日（EEEE）"),
        ("pattern", "y年M月d日"),
    ],
    "ko": [("pattern", "y년 M월 d일 (E)"), ("pattern", "y년 M월 d일")],
    "ar": [
        ("pattern", "d MMMM y"),
        ("pattern", "EEEE، d MMMM y"),
        ("pattern", "d MMMM y'م'"),
    ],
    "hi": [("pattern", "EEEE, d MMMM y"), ("pattern", "d MMMM y")],
    "he": [("pattern", "EEEE, d בMMMM y"), ("numeric", "d.M.y")],
}

# Other locales of a language, whose month names differ: Arabic's Levantine
# and Iraqi (`نيسان`, `آب`, `تشرين الثاني`) and Maghrebi (`شتنبر`) months
# beside Egypt's (`أبريل`), in CLDR's full and long styles.
_MORE_LOCALES = {"ar": ("ar_SY", "ar_MA")}

# Spellings people write beside CLDR's: Hindi's months with a half
# consonant instead of the anusvara (`सितम्बर`, `सितंबर`), or without
# the nukta (`फरवरी`).
_SPELLINGS = {
    "hi": {
        "फ़रवरी": "फरवरी",
        "सितंबर": "सितम्बर",
        "अक्टूबर": "अक्तूबर",
        "नवंबर": "नवम्बर",
        "दिसंबर": "दिसम्बर",
    }
}

# Native digits where people write dates with them (the zero of each): every
# form of these languages is also written with them.
NATIVE = {"ar": "\u0660", "hi": "\u0966", "zh": "\uff10", "ja": "\uff10"}
_SAMPLE = dt.date(1987, 9, 23)


def _render(pattern, locale, zero=None, spellings=None):
    shift = None if zero is None else ord(zero) - ord("0")

    def render(d):
        text = format_date(d, pattern, locale=locale)
        for cldr, other in (spellings or {}).items():
            text = text.replace(cldr, other)
        if shift is None:
            return text
        return "".join(chr(ord(c) + shift) if "0" <= c <= "9" else c for c in text)

    return render


def _family(render, family: str) -> tuple[str, bool] | None:
    """`(family, short_year)` of a form from what it writes of one date;
    None for an all-numeric form the numeric rule never reads (Korean
    `87. 9. 23.`: a two-digit year first)."""
    text = render(_SAMPLE)
    if any(unicodedata.category(ch)[0] == "L" for ch in text):
        return family, False
    if not numeric_readings(text):
        return None
    if "1987" in text:
        return "numeric", False
    return "short_year", True


def formats(make) -> None:
    """Call `make(name, family, language, render, short_year)` for every
    form of the languages of `LOCALES`."""
    for language, locale in LOCALES.items():
        forms = [("babel", style) for style in ("full", "long", "medium", "short")]
        forms = [(locale, *form) for form in forms + _PATTERNS[language]]
        for more in _MORE_LOCALES.get(language, ()):
            forms += [(more, "babel", "full"), (more, "babel", "long")]
        for locale, family, pattern in forms:
            kind = "babel" if family == "babel" else "pattern"
            name = f"{kind}[{pattern}]_{locale}"
            render = _render(pattern, locale)
            kept = _family(render, family)
            if kept is None:
                continue
            family, short_year = kept
            make(name, family, language, render, short_year)
            spelled = _render(pattern, locale, spellings=_SPELLINGS.get(language))
            if spelled(_SAMPLE) != render(_SAMPLE):  # a month of _SPELLINGS
                make(f"spelling_{name}", family, language, spelled, short_year)
            if language in NATIVE and family != "short_year":
                native = _render(pattern, locale, NATIVE[language])
                make(f"native_{name}", family, language, native, short_year)
