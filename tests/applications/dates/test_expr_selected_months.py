"""expr_selected_months.py: "last March", "el próximo marzo" -> `month -1 --03`."""

import datetime as dt

import pytest

from attention_zoo.applications.dates import expression_pairs, form_words
from attention_zoo.applications.dates.expr_selected_months import (
    KIND,
    selected_months,
    selected_year,
)
from attention_zoo.applications.dates.form_words import phrase
from attention_zoo.applications.dates.formats import LOCALES

pytestmark = pytest.mark.backend_free

WRITTEN = ("en", "es", "fr", "de", "it", "pt")


def _walk(select: int, month: int, reference: dt.date) -> int:
    """The year by stepping month by month from the reference's, as a reader counts."""
    if select == 0:
        return reference.year
    step = 1 if select > 0 else -1
    year, at = reference.year, reference.month
    while True:
        at += step
        if at in (0, 13):
            year, at = year + step, 12 if at == 0 else 1
        if at == month:
            return year


@pytest.mark.parametrize("select", [-1, 0, 1])
def test_the_year_is_the_one_a_reader_counts_to(select):
    # Every month against a reference in every month: the reference's own
    # month is never its "next" or "last" one.
    for reference_month in range(1, 13):
        reference = dt.date(2026, reference_month, 15)
        for month in range(1, 13):
            assert selected_year(select, month, reference) == _walk(
                select, month, reference
            ), (select, month, reference)


@pytest.mark.parametrize("language", WRITTEN)
def test_each_template_writes_every_month_once(language):
    pairs = selected_months(language)
    templates = expression_pairs.words(language)["selected_months"]
    assert len(pairs) == 12 * sum(len(t) for t in templates.values())
    assert {p.kind for p in pairs} == {KIND}
    for select, written in templates.items():
        sign = "0" if select == "0" else f"{int(select):+d}"
        forms = sorted(p.form for p in pairs if p.form.startswith(f"month {sign} "))
        assert forms == sorted(
            f"month {sign} --{m:02d}" for m in range(1, 13) for _ in written
        )


@pytest.mark.parametrize("language", WRITTEN)
def test_each_selector_is_written_with_a_direction_word(language):
    # The grounding asks the text for the selector's word
    # (`form_grounding._select`): a template writing another is untaught.
    directions = form_words.direction_phrases((language,))
    templates = expression_pairs.words(language)["selected_months"]
    for select, written in templates.items():
        for template in written:
            words = set(phrase(template.format(month="")).split(" "))
            assert words & directions[int(select)], (language, template)


def test_only_the_written_languages_have_them():
    assert {lang for lang in LOCALES if selected_months(lang)} == set(WRITTEN)
