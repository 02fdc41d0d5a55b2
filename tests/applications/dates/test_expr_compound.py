"""Compound shifts (expr_compound.py, form_compound.py): "2 weeks and 3
days ago" in the 27 languages, with the case each direction gives its
units, and their grounding: each unit with its number, the direction
around them. That every generated pair resolves to its value and is
grounded is test_time_expressions.py's and test_generated_grounding.py's."""

import re

import pytest

from attention_zoo.applications.dates import expr_compound, lexicon
from attention_zoo.applications.dates.expression_pairs import REFERENCE
from attention_zoo.applications.dates.form_grounding import form_disagreement
from attention_zoo.applications.dates.formats import LOCALES
from attention_zoo.applications.dates.resolver import resolve

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


def _texts(language, form_start=""):
    return [
        p.text
        for p in expr_compound.compound(language)
        if p.form.startswith("shift " + form_start)
    ]


@pytest.mark.parametrize(
    "language, pattern",
    [
        ("en", r"\d+ weeks? and \d+ days? ago"),
        ("en", r"in \d+ years?, \d+ months?"),
        ("es", r"hace \d+ semanas? y \d+ días?"),
        # the case the direction gives the unit, and a direction around
        ("de", r"vor \d+ Wochen? und \d+ Tagen?"),
        ("fi", r"\d+ viikon ja \d+ päivän päästä"),
        ("sv", r"för \d+ veckor?,? (och )?\d+ dagar? sedan"),
        ("vi", r"sau \d+ tuần(,| và) \d+ ngày nữa"),
        ("ru", r"\d+ (недели|недель|неделю) (и )?\d+ (дня|дней|день) назад"),
        # the ending every unit writes, not one two units share (钟前)
        ("zh", r"\d+周\d+天[前后]"),
        ("zh", r"\d+分钟(和)?\d+秒钟[前后]"),
    ],
)
def test_units_are_joined_as_the_language_writes_them(language, pattern):
    assert any(re.fullmatch(pattern, t) for t in _texts(language)), _texts(language)


def test_every_language_writes_compound_shifts_that_resolve_to_their_value():
    for language in LOCALES:
        pairs = expr_compound.compound(language)
        assert len(pairs) >= 20, language
        for pair in pairs:
            resolved = resolve(pair.form, REFERENCE.isoformat())
            assert resolved.valid and resolved.text == pair.value, pair
            # each number once: the grounding claims each count
            numbers = re.findall(r"\d+", pair.text)
            assert len(numbers) == len(set(numbers)) == pair.form.count(" ") // 2


def test_a_direction_is_never_a_unit():
    # " ago" is every unit's in English; "s ago" is not: the "s" is a unit's
    wrappers = expr_compound.wrappers("en")
    assert (-1, "", "ago") in wrappers and (1, "in", "") in wrappers
    assert all(not w[2].startswith("s") for w in wrappers)


@pytest.mark.parametrize(
    "text, form",
    [
        ("2 weeks and 3 days ago", "shift week -2 day -3"),
        ("in 1 year, 2 months", "shift year +1 month +2"),
        ("posted 2 weeks, 3 days ago", "shift week -2 day -3"),
        ("vor 2 Wochen und 3 Tagen", "shift week -2 day -3"),
        ("för 2 veckor och 3 dagar sedan", "shift week -2 day -3"),
        ("2 viikon ja 3 päivän päästä", "shift week +2 day +3"),
        ("2周3天前", "shift week -2 day -3"),
        ("hace 1 año, 2 meses y 3 días", "shift year -1 month -2 day -3"),
    ],
)
def test_a_compound_shift_the_text_writes_is_grounded(text, form):
    assert form_disagreement(text, form, *WORDS) == ""


@pytest.mark.parametrize(
    "text, form, named",
    [
        ("2 weeks and 3 days ago", "shift week +2 day +3", "direction"),
        ("in 2 weeks and 3 days", "shift week -2 day -3", "direction"),
        ("2 weeks and 3 days", "shift week -2 day -3", "direction"),
        ("2 weeks and 3 days ago", "shift week -3 day -2", "'week -3'"),
        ("3 days ago", "shift week -1 day -3", "'week -1'"),
        ("2 weeks and 3 days ago", "shift week -2 day -3 hour -1", "'hour -1'"),
        ("2 weeks and 3 days ago", "shift week -2 day +3", "two directions"),
        ("för 2 veckor och 3 dagar", "shift week -2 day -3", "direction"),
    ],
)
def test_a_compound_shift_the_text_does_not_write_is_refused(text, form, named):
    assert named in form_disagreement(text, form, *WORDS)
