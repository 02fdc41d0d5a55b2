"""expr_selected_holidays.py: "last Christmas", "next Halloween" -> `date -1 --12-25`."""

import datetime as dt

import pytest

from attention_zoo.applications.dates import expression_pairs, form_words
from attention_zoo.applications.dates.expr_computed import HOLIDAY_MEANINGS
from attention_zoo.applications.dates.expr_selected_holidays import (
    KIND,
    selected_day,
    selected_holidays,
)
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_words import phrase
from attention_zoo.applications.dates.formats import LOCALES

pytestmark = pytest.mark.backend_free


def _walk(select: int, month: int, day: int, reference: dt.date) -> dt.date:
    """The day by stepping a day at a time from the reference, as a reader counts."""
    if select == 0:
        return dt.date(reference.year, month, day)
    step = dt.timedelta(days=1 if select > 0 else -1)
    at = reference + step  # the reference's own day is never its next or last
    while (at.month, at.day) != (month, day):
        at += step
    return at


@pytest.mark.parametrize("select", [-1, 0, 1])
def test_the_day_is_the_one_a_reader_counts_to(select):
    # Every fixed holiday against references around it, its own day among them.
    for month, day in {m[1:] for m in HOLIDAY_MEANINGS.values() if m[0] == "date"}:
        for shift in range(-3, 4):
            for year in (2023, 2024):  # 2024 a leap year: 29 February on the way
                reference = dt.date(year, month, day) + dt.timedelta(days=shift)
                assert selected_day(select, month, day, reference) == _walk(
                    select, month, day, reference
                ), (select, month, day, reference)


def test_english_writes_each_fixed_name_with_each_selector():
    pairs = selected_holidays("en")
    assert {p.kind for p in pairs} == {KIND}
    names = expression_pairs.words("en")["holidays"]["names"]
    fixed = [
        s for name, spellings in names.items() for s in spellings
        if HOLIDAY_MEANINGS[name][0] == "date" and not s.lower().startswith("the ")
    ]  # fmt: skip
    assert sorted(p.text for p in pairs) == sorted(
        f"{word} {s}" for word in ("last", "next", "this") for s in fixed
    )
    assert {p.text for p in pairs} >= {"last Christmas", "next Halloween"}
    for pair in pairs:
        assert str(parse_form(pair.form)) == pair.form
        assert not pair.form.startswith("easter")


def test_the_values_follow_the_rule_from_each_reference():
    for pair in selected_holidays("en"):
        reference = dt.date.fromisoformat(pair.reference[:10])
        select, (month, day) = pair.form.split(" ")[1], pair.form[-5:].split("-")
        assert (
            pair.value
            == _walk(int(select), int(month), int(day), reference).isoformat()
        )


def test_each_selector_is_written_with_a_direction_word():
    directions = form_words.direction_phrases(("en",))
    for select, written in expression_pairs.words("en")["selected_holidays"].items():
        for template in written:
            words = set(phrase(template.format(name="")).split(" "))
            assert words & directions[int(select)], template


def test_only_english_has_them():
    assert {lang for lang in LOCALES if selected_holidays(lang)} == {"en"}
