"""The hand-written words of the generated time expressions
(`expression_words.json`): holiday names, month ranges, weekdays, elisions."""

from __future__ import annotations

import datetime as dt

import pytest

from attention_zoo.applications.dates import expr_computed, expr_spans, expression_pairs
from attention_zoo.applications.dates.form_words import holiday_phrases
from attention_zoo.applications.dates.formats import LOCALES


def _names():
    for language in LOCALES:
        holidays = expression_pairs.words(language).get("holidays", {})
        for name, spellings in holidays.get("names", {}).items():
            yield language, name, spellings


def test_every_holiday_name_has_a_meaning_and_every_meaning_a_name():
    named = {name for _, name, _ in _names()}
    assert named <= set(expr_computed.HOLIDAY_MEANINGS), named - set(
        expr_computed.HOLIDAY_MEANINGS
    )
    assert set(expr_computed.HOLIDAY_MEANINGS) <= named


def test_no_holiday_name_means_two_days():
    # The grounding takes a name's meaning as the day it names: a spelling
    # two holidays share (across languages too) would ground either.
    two = {p: m for p, m in holiday_phrases().items() if len(m) > 1}
    assert two == {}


@pytest.mark.parametrize(
    ("name", "year", "day"),
    [
        ("ascension", 2025, dt.date(2025, 5, 29)),
        ("whit_monday", 2019, dt.date(2019, 6, 10)),
        ("ash_wednesday", 2024, dt.date(2024, 2, 14)),
        ("corpus_christi", 2021, dt.date(2021, 6, 3)),
        ("orthodox_easter", 2021, dt.date(2021, 5, 2)),
        ("orthodox_trinity", 2021, dt.date(2021, 6, 20)),
        ("german_unity_day", 2020, dt.date(2020, 10, 3)),
        ("indian_republic_day", 2026, dt.date(2026, 1, 26)),
    ],
)
def test_holiday_days(name, year, day):
    # Published dates (church and state calendars of those years).
    assert expr_computed.holiday_day(name, year) == day


@pytest.mark.parametrize(
    ("language", "pattern", "year", "first", "last", "text"),
    [
        ("es", "de {m1} a {m2} de {year}", 2020, 3, 5, "de marzo a mayo de 2020"),
        ("ru", "с {m1} по {m2_alone} {year} года", 2019, 3, 5, "с марта по май 2019 года"),
        ("zh", "{year}年{n1}月到{n2}月", 2020, 1, 6, "2020年1月到6月"),
        ("fr", "de {m1} à {m2} {year}", 2021, 4, 8, "d’avril à août 2021"),
        ("it", "da {m1} a {m2} {year}", 2022, 4, 10, "da aprile ad ottobre 2022"),
        ("de", "von {m1} bis {m2} {year}", 2020, 3, 5, "von März bis Mai 2020"),
    ],
)  # fmt: skip
def test_month_range_texts(language, pattern, year, first, last, text):
    assert expr_spans.month_range_text(language, pattern, year, first, last) == text


def test_elisions_apply_at_a_word_start_only():
    # Italian "a aprile" -> "ad aprile", but "da aprile" keeps its "a".
    assert expression_pairs.fixed("da aprile a aprile", "it") == "da aprile ad aprile"


@pytest.mark.parametrize(
    ("form", "value"),
    [
        # The reference is Thursday 2026-01-15.
        ("weekday FRI", "2026-01-16"),
        ("weekday THU", "2026-01-15"),  # on or after: the day itself
        ("weekday MON / weekday FRI", "2026-01-19/2026-01-23"),
        ("weekday FRI / weekday MON", "2026-01-16/2026-01-19"),
    ],
)
def test_weekdays_resolve_as_the_generator_computes_them(form, value):
    from attention_zoo.applications.dates import expr_weekdays
    from attention_zoo.applications.dates.resolver import resolve

    reference = dt.datetime(2026, 1, 15)
    assert resolve(form, reference).text == value
    ends = [w.split()[1] for w in form.split(" / ")]
    days = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]
    start = expr_weekdays.next_on_or_after(reference.date(), days.index(ends[0]))
    end = expr_weekdays.next_on_or_after(start, days.index(ends[-1]))
    assert (str(start) if len(ends) == 1 else f"{start}/{end}") == value


def test_weekday_texts():
    from attention_zoo.applications.dates import expr_weekdays

    texts = {p.text: p.form for p in expr_weekdays.weekdays("de")}
    assert texts["am Freitag"] == "weekday FRI"
    assert any(t.startswith("von ") and " bis " in t for t in texts)
    assert all("." not in t for t in texts)  # wide names only


def test_connector_hours_name_time_connectors_and_write_one_whole_hour():
    # A key that is no time connector of its language (a typo, a dash of
    # another width) would write intervals by a connector nothing else
    # teaches; a pattern without {H} writes no hour at all.
    found = 0
    for language in LOCALES:
        words = expression_pairs.words(language)
        for connector, pattern in words.get("connector_hours", {}).items():
            found += 1
            assert connector in words["time_connectors"], (language, connector)
            assert pattern.count("{H}") == 1 and "{h}" not in pattern, pattern
    assert found >= 8
