"""Generated non-dates: what the model learns to answer `<invalid>` to.

Drawn by code (Faker, Babel, num2words and templates), never from the
hand-written `tests/applications/dates/data/non_dates.txt` that measures
them. Kinds: words and phrases (Faker, seven locales), other scripts
(Faker words and Babel dates in non-Latin locales), numbers, times, phone
numbers, prices, codes (ISBN, IBAN, IP, e-mail, URL, plates), emoji,
impossible dates (31 February, month 13), partial dates (no day or no
year), and all-numeric dates with two readings (`readings.py`).
"""

from __future__ import annotations

import calendar
import datetime as dt
import random

from babel.dates import format_date
from faker import Faker

from attention_zoo.applications.dates.formats import LOCALES, spelled_day
from attention_zoo.applications.dates.readings import numeric_readings

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
_BABEL_OTHER = ("ru", "ja", "zh", "ko", "ar", "he", "el", "hi", "th", "uk", "bg")


def _random_date(rng):
    return dt.date(1900, 1, 1) + dt.timedelta(days=rng.randrange(73049))


class NegativeGenerator:
    """Non-date strings by kind; `draw(rng)` returns `(text, kind, language)`."""

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
            "emoji": self._emoji,
            "impossible_date": self._impossible,
            "partial_date": self._partial,
            "ambiguous_numeric": self._ambiguous,
        }
        # Dates-like kinds are the hard ones: drawn more often.
        self.weights = [3, 2, 2, 1, 1, 1, 1, 1, 4, 3, 2]

    def draw(self, rng: random.Random):
        kind = rng.choices(list(self.kinds), self.weights)[0]
        text, language = self.kinds[kind](rng)
        return text, kind, language

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
            locale = rng.choice(_BABEL_OTHER)
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

    def _emoji(self, rng):
        fake = self.fakers["en_US"]
        text = "".join(fake.emoji() for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.3:
            text += " " + fake.word()
        return text, "any"

    def _impossible(self, rng):
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
        numeric_month = (
            rng.choice([month, 13, rng.randint(13, 99)])
            if rng.random() < 0.3
            else month
        )
        spelled = spelled_day(day, language) if 1 <= day <= 31 else str(day)
        forms = [
            f"{day} {name} {year}",
            f"{name} {day}, {year}",
            f"{day}. {name} {year}",
            f"{day} de {name} de {year}",
            f"le {spelled} {name} {year}",
            f"the {spelled} of {name} {year}",
            f"{day:02d}/{numeric_month:02d}/{year}",
            f"{day:02d}.{numeric_month:02d}.{year}",
            f"{year}-{numeric_month:02d}-{day:02d}",
            f"{numeric_month:02d}/{day:02d}/{year}",
        ]
        return rng.choice(forms), language

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

    def _ambiguous(self, rng):
        for _ in range(100):
            date = _random_date(rng)
            if date.day > 12 or date.day == date.month:
                continue
            year = str(date.year) if rng.random() < 0.6 else f"{date.year % 100:02d}"
            sep = rng.choice(["/", "/", "-", " ", ""])
            day, month = f"{date.day:02d}", f"{date.month:02d}"
            if sep and rng.random() < 0.3:
                day, month = str(date.day), str(date.month)
            first, second = (day, month) if rng.random() < 0.5 else (month, day)
            text = f"{first}{sep}{second}{sep}{year}"
            readings = numeric_readings(text)
            if readings is not None and len(readings) >= 2:
                return text, "any"
        return "03/04/05", "any"
