"""A text writing a repetition grounds no form (form_repeats.py)."""

import pytest

from attention_zoo.applications.dates.form_repeats import repeat_disagreement

from .settling import reason

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, form, word",
    [
        ("every Monday", "weekday MON", "'every'"),
        ("each Friday at 5pm", "weekday FRI at 17:00", "'each'"),
        ("cada lunes", "weekday MON", "'cada'"),
        ("todos los lunes a las 8", "weekday MON at 08:00", "'todos los'"),
        ("tous les jours à 8h", "time 08:00", "'tous les'"),
        ("jeden Montag um 8 Uhr", "weekday MON at 08:00", "'jeden'"),
        ("każdy poniedziałek", "weekday MON", "'każdy'"),
        ("каждый понедельник", "weekday MON", "'каждый'"),
        ("每周一", "weekday MON", "'每'"),
        ("毎週月曜日", "weekday MON", "'毎'"),
        ("her gün 17:00", "time 17:00", "'her gün'"),
    ],
)  # fmt: skip
def test_a_repetition_grounds_no_form_naming_its_word(text, form, word):
    found = reason(text, form)
    assert "a repetition" in found and word in found, found


@pytest.mark.parametrize(
    "text, form",
    [
        ("el Día de Todos los Santos", "date --11-01"),  # a holiday's name
        ("Dia de Todos os Santos 2007", "date 2007-11-01"),
        ("her birthday on 3 May", "date --05-03"),  # Turkish's her: phrases only
        ("next Monday", "weekday +1 MON"),
    ],
)
def test_a_name_or_a_word_of_another_language_is_no_repetition(text, form):
    assert reason(text, form) == ""


def test_no_generated_text_writes_a_repetition(generated_pairs):
    # The generator writes no repetition (a repeated day has no form), so
    # the rule refuses no text a run is taught to read.
    every = [p.text for pairs in generated_pairs.values() for p in pairs]
    assert [t for t in every if repeat_disagreement(t)] == []
