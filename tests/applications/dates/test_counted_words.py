"""Counts in words the grounding reads beyond CLDR's own patterns
(`form_words.relative_phrases`): each count a language spells in its
hand-written counted texts ("d’ici trois jours", `expressions.
hand_written_counts`) and two by its unit's gender in Russian, Ukrainian,
Polish and Romanian ("две недели назад", `expressions.TWO_BY_UNIT`).
The shipped model read "два дня назад" as `shift day -2` and the grounding
refused it: no phrase of the language wrote that count in words."""

import pytest

from attention_zoo.applications.dates import expressions
from tests.applications.dates.settling import reason

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, form",
    [
        ("d’ici trois jours", "shift day +3"),
        ("daqui a três dias", "shift day +3"),
        ("tiga hari lagi", "shift day +3"),
        ("спустя пять дней", "shift day +5"),
        ("om to dager", "shift day +2"),
        ("два дня назад", "shift day -2"),
        ("две недели назад", "shift week -2"),
        ("через две минуты", "shift minute +2"),
        ("два года назад", "shift year -2"),
        ("дві години тому", "shift hour -2"),
        ("два тижні тому", "shift week -2"),
        ("dwa dni temu", "shift day -2"),
        ("za dwie godziny", "shift hour +2"),
        ("acum două zile", "shift day -2"),
        ("peste doi ani", "shift year +2"),
    ],
)  # fmt: skip
def test_a_count_in_words_grounds_its_form(text, form):
    assert reason(text, form) == ""


@pytest.mark.parametrize(
    "text, form",
    [
        ("d’ici trois jours", "shift day +2"),  # another count
        ("две недели назад", "shift week -9"),
        ("две недели назад", "shift week +2"),  # the other direction
        ("два дня назад", "shift week -2"),  # another unit
        ("peste doi ani", "shift day +2"),
        ("через две минуты", "shift minute +30"),
    ],
)  # fmt: skip
def test_another_count_unit_or_direction_is_refused(text, form):
    assert "not written in the text" in reason(text, form)


def test_the_counts_a_language_spells_in_words():
    assert expressions.hand_written_counts("fr", 2, 4) == [
        (2, "deux"),
        (3, "trois"),
        (4, "quatre"),
    ]
    # Japanese writes its counts in digits here (`spelled_counts` gives none).
    assert expressions.hand_written_counts("ja") == []
