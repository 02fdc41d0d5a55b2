"""Generated non-dates: what the model learns to answer `<invalid>` to.

Drawn by code (Faker, Babel, num2words and templates), never from the
hand-written `tests/applications/dates/data/non_dates.txt` that measures
them. Kinds: words and phrases (Faker, seven locales), other scripts
(Faker words, and Babel dates in locales the generator does not write), numbers, times, phone
numbers, prices, codes (ISBN, IBAN, IP, e-mail, URL, plates), words
with numbers (addresses, model names, versions, ranges, scores), emoji,
impossible dates (31 April; the model learns to answer them as written,
`2001-04-31`, which no calendar has), and partial dates (no day or no
year). All-numeric dates with two readings or none are the numeric rule's
(`readings.py`), not the model's, and are not drawn.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random

from babel.dates import format_date
from faker import Faker

from attention_zoo.applications.dates.formats import EVERY_FAMILY, LOCALES, spelled_day

_LATIN = ("en_US", "fr_FR", "de_DE", "es_ES", "it_IT", "pt_PT", "nl_NL")
_OTHER_SCRIPTS = (
    "ru_RU",
    "ja_JP",
    "zh_CN",
    "ko_KR",
    "ar_AA",
    "he_IL",
    "el_GR",
    "hi_IN",
    "th_TH",
)
# Dates in languages the generator does not write: a model that reads
# Russian must still refuse Bulgarian and Thai (the month-word rule would).
BABEL_OTHER = ("th", "bg", "ka", "hy", "fa", "sr")


def _random_date(rng):
    return dt.date(1900, 1, 1) + dt.timedelta(days=rng.randrange(73049))


class NegativeGenerator:
    """Non-date strings by kind; `draw(rng)` returns `(text, kind, language,
    target)`, the target "" (`<invalid>`) except for impossible dates."""

    def __init__(self, seed: int):
        self.fakers = {}
        for i, locale in enumerate(_LATIN + _OTHER_SCRIPTS):
            fake = Faker(locale)
            fake.seed_instance(seed * 1000 + i)
            self.fakers[locale] = fake
        self.kinds = {
            "words": self._words,
            "other_script": self._other_script,
            "number": self._number,
            "time": self._time,
            "phone": self._phone,
            "price": self._price,
            "code": self._code,
            "labelled_number": self._labelled_number,
            "emoji": self._emoji,
            "impossible_date": self._impossible,
            "partial_date": self._partial,
        }
        # Dates-like kinds are the hard ones: drawn more often.
        self.weights = [3, 2, 2, 1, 1, 1, 1, 3, 1, 3, 3]

    def draw(self, rng: random.Random):
        kind = rng.choices(list(self.kinds), self.weights)[0]
        text, language, *target = self.kinds[kind](rng)
        return text, kind, language, "".join(target)

    def _fake(self, rng, locales):
        locale = rng.choice(locales)
        return self.fakers[locale], locale[:2]

    def _words(self, rng):
        fake, language = self._fake(rng, _LATIN)
        method = rng.choice(
            [
                "word",
                "word",
                "words",
                "sentence",
                "name",
                "city",
                "street_address",
                "company",
                "job",
                "day_of_week",
                "month_name",
                "country",
            ]
        )
        value = getattr(fake, method)()
        if method == "words":
            value = " ".join(value[: rng.randint(1, 4)])
        return str(value), language

    def _other_script(self, rng):
        if rng.random() < 0.5:
            locale = rng.choice(BABEL_OTHER)
            style = rng.choice(("full", "long", "medium", "d MMMM", "MMMM y"))
            return format_date(_random_date(rng), style, locale=locale), locale
        fake, language = self._fake(rng, _OTHER_SCRIPTS)
        method = rng.choice(["word", "word", "name", "city", "sentence"])
        return str(getattr(fake, method)()), language

    def _number(self, rng):
        forms = [
            lambda: str(rng.randint(0, 100)),
            lambda: str(rng.randint(1900, 2099)),
            lambda: str(rng.randint(0, 10 ** rng.randint(3, 12))),
            lambda: f"{rng.uniform(-1000, 1000):.{rng.randint(1, 5)}f}",
            lambda: f"{rng.randint(1, 999):,}".replace(",", rng.choice(",. ")),
            lambda: f"{rng.randint(0, 100)}%",
            lambda: f"{rng.randint(1, 9)}/{rng.randint(2, 12)}",
            lambda: (
                f"{rng.randint(1, 99)}{rng.choice(['st', 'nd', 'rd', 'th', '.', 'º'])}"
            ),
            lambda: f"{rng.randint(1, 12)}.{rng.randint(1, 31)}",
            lambda: f"{rng.randint(1, 31)}/{rng.randint(1, 12)}",
            lambda: f"{rng.randint(1, 31)}.{rng.randint(1, 12)}.",
        ]
        return rng.choice(forms)(), "any"

    def _time(self, rng):
        h, m = rng.randint(0, 23), rng.randint(0, 59)
        forms = [
            f"{h}:{m:02d}",
            f"{h:02d}:{m:02d}:{rng.randint(0, 59):02d}",
            f"{h % 12 or 12}{rng.choice(['am', 'pm', ' am', ' pm', ' a.m.'])}",
            f"{h}h{m:02d}",
            f"{h} Uhr",
            f"{h}.{m:02d}",
            f"{rng.randint(1, 90)} minutes",
            f"{rng.randint(1, 12)} {rng.choice(['days', 'weeks', 'months', 'years', 'jours', 'Tage'])}",
        ]
        return rng.choice(forms), "any"

    def _phone(self, rng):
        fake, language = self._fake(rng, _LATIN)
        return fake.phone_number(), language

    def _price(self, rng):
        fake, language = self._fake(rng, _LATIN)
        amount = rng.uniform(0, 5000)
        forms = [
            fake.pricetag(),
            f"{rng.choice('$€£¥')}{amount:.2f}",
            f"{amount:.2f} {rng.choice(['€', 'EUR', 'USD', '$', 'CHF'])}".replace(
                ".", rng.choice(".,")
            ),
            f"{rng.randint(1, 500)} {rng.choice(['kg', 'g', 'km', 'm', 'l', 'ml', '°C', 'km/h'])}",
        ]
        return rng.choice(forms), language

    def _code(self, rng):
        fake, language = self._fake(rng, _LATIN)
        method = rng.choice(
            [
                "isbn13",
                "isbn10",
                "iban",
                "ipv4",
                "email",
                "url",
                "license_plate",
                "postcode",
                "ean8",
                "credit_card_number",
                "uuid4",
                "user_name",
            ]
        )
        value = str(getattr(fake, method)())
        return (value[:8] if method == "uuid4" else value), language

    def _labelled_number(self, rng):
        """Text that mixes words and numbers without being a date: a street
        and house number, a postcode and city, a name with a model number, a
        version, a range of years, a score, a decimal constant."""
        fake, language = self._fake(rng, _LATIN)
        word = fake.word()
        if rng.random() < 0.5:
            word = word.title()
        n = rng.randint(1, 10 ** rng.randint(1, 4))
        year = rng.randint(1900, 2099)
        forms = [
            lambda: f"{fake.street_name()} {fake.building_number()}",
            lambda: f"{fake.building_number()} {fake.street_name()}",
            lambda: f"{fake.postcode()} {fake.city()}",
            lambda: f"{fake.city()} {fake.postcode()}",
            lambda: f"{word} {n}",
            lambda: f"{n} {word}",
            lambda: f"{word} {rng.choice(['#', 'No. ', 'n° ', 'Nr. '])}{n}",
            lambda: f"{word[0].upper()}{rng.choice(['', '-', ' '])}{n}",
            lambda: f"{word} {rng.randint(0, 20)}.{rng.randint(0, 30)}",
            lambda: f"v{rng.randint(0, 20)}.{rng.randint(0, 30)}.{rng.randint(0, 99)}",
            lambda: (
                f"{year}{rng.choice(['-', '–', ' - ', '/', ' to '])}{year + rng.randint(1, 30)}"
            ),
            lambda: (
                f"{rng.randint(0, 9)}{rng.choice(['-', ':', ' - '])}{rng.randint(0, 9)}"
            ),
            lambda: f"{rng.randint(0, 9)}.{rng.randint(10**3, 10**6)}",
            lambda: f"{rng.uniform(-90, 90):.4f}, {rng.uniform(-180, 180):.4f}",
        ]
        return rng.choice(forms)(), language

    def _emoji(self, rng):
        fake = self.fakers["en_US"]
        text = "".join(fake.emoji() for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.3:
            text += " " + fake.word()
        return text, "any"

    def _impossible(self, rng):
        """A named month with a day it does not have (31 April, 0 or 45 May):
        the answer to learn is the date as written, `2001-04-31`, which the
        calendar check refuses. The model reads; it need not know month
        lengths. All-numeric ones are left to the numeric rule."""
        language = rng.choice(list(LOCALES))
        year, month = rng.randint(1900, 2099), rng.randint(1, 12)
        last = calendar.monthrange(year, month)[1]
        if rng.random() < 0.7:
            day = rng.choice(range(last + 1, 32)) if last < 31 else 32
        else:
            day = rng.choice([0, 32, rng.randint(33, 99)])
        name = format_date(
            dt.date(2001, month, 1),
            rng.choice(["MMMM", "MMM"]),
            locale=LOCALES[language],
        )
        spelled = str(day)
        if 1 <= day <= 31 and language in EVERY_FAMILY:  # num2words' languages
            spelled = spelled_day(day, language)
        forms = [
            f"{day} {name} {year}",
            f"{name} {day}, {year}",
            f"{day}. {name} {year}",
            f"{day} de {name} de {year}",
            f"le {spelled} {name} {year}",
            f"the {spelled} of {name} {year}",
        ]
        return rng.choice(forms), language, f"{year}-{month:02d}-{day:02d}"

    def _partial(self, rng):
        language = rng.choice(list(LOCALES))
        date = _random_date(rng)
        pattern = rng.choice(
            [
                "MMMM y",
                "MMM y",
                "d MMMM",
                "MMMM d",
                "d. MMMM",
                "d 'de' MMMM",
                "MMMM 'de' y",
                "MM/y",
                "M/y",
                "y-MM",
                "dd/MM",
                "dd.MM.",
                "MMMM",
                "y",
                "EEEE d MMMM",
            ]
        )
        return format_date(date, pattern, locale=LOCALES[language]), language
