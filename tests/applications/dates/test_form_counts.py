"""A count of days or weeks the form does not use makes no answer (form_counts.py)."""

import pytest

from attention_zoo.applications.dates.form_counts import count_disagreement, unit_words

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, form, word",
    [
        ("two days after Christmas", "date --12-25", "'days'"),  # forms56: Christmas
        ("three days before 3 May 2015", "date 2015-05-03", "'days'"),
        ("dos días después de Navidad", "date --12-25", "'días'"),
        ("через две недели после Рождества", "orthodox-easter 0", "'недели'"),
        ("two weeks after Easter Monday at 10:00", "easter +1 at 10:00", "'weeks'"),
    ],
)  # fmt: skip
def test_a_count_of_days_the_form_does_not_use_is_named(text, form, word):
    assert word in count_disagreement(text, form)


@pytest.mark.parametrize(
    "text, form",
    [
        ("in two days", "shift day +2"),  # the form moves by it
        ("vor zwei Wochen", "shift week -2"),
        ("Christmas Day 2015", "date 2015-12-25"),  # no count
        ("Mis à jour le 27/12/1999", "date 1999-12-27"),  # a singular: other words too
        ("am 3. Oktober 1990 (Tag der Einheit)", "date 1990-10-03"),
        ("el día 7 de noviembre", "date --11-07"),  # a date's word (DATE_WORDS)
        ("ngày 3 tháng 5 năm 2015", "date 2015-05-03"),
        ("в 3 часа дня", "time 15:00"),  # a day period's word
    ],
)
def test_a_form_moving_by_it_a_name_or_a_dates_word_is_left(text, form):
    assert count_disagreement(text, form) == ""


def test_the_words_are_cldrs_plural_unit_words():
    assert unit_words("en") == {"day": {"days"}, "week": {"weeks"}}
    assert unit_words("es") == {"day": {"días"}, "week": {"semanas"}}
    # Romanian's "de" of "20 de zile" is both units': no unit's word.
    assert not {"de"} & (unit_words("ro")["day"] | unit_words("ro")["week"])


def test_no_generated_text_writes_one_its_form_does_not_use(generated_pairs):
    every = [p for pairs in generated_pairs.values() for p in pairs]
    assert [(p.text, p.form) for p in every if count_disagreement(p.text, p.form)] == []
