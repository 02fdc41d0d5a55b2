"""A form that took a month is no reading of a text naming another (form_other_months.py)."""

import pytest

from attention_zoo.applications.dates import form_answers, lexicon, time_expressions
from attention_zoo.applications.dates.form_other_months import NAMES

WORDS = lexicon.load(), lexicon.load_days()


def _reason(text, form):
    return form_answers.grounding_reason(text, form, *WORDS)


@pytest.mark.parametrize(
    ("text", "form", "month"),
    [
        # an interval's months read as its first month: forms64 answered these
        ("с марта по май 2019 года", "month 2019-03", "05"),
        ("з березня по травень 2019 року", "month 2019-03", "05"),
        ("3 March, not April", "date --03-03", "04"),
        ("from March to May 2019", "month 2019-05", "03"),
        ("March and April 2019", "month 2019-03", "04"),
    ],
)
def test_a_second_month_refuses_a_form_of_one(text, form, month):
    assert f"names a month ({month})" in _reason(text, form)


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("с марта по май 2019 года", "month 2019-03 / month 2019-05"),
        ("March 2019", "month 2019-03"),
        ("3 days ago", "shift day -3"),  # "ago" is Spanish August's too: no month taken
        ("1976年12月の第2月曜日", "nth 2 MON 1976-12"),  # 月 of 月曜日, Monday
        ("mar., 13 iul. 1926, 7:11", "datetime 1926-07-13T07:11"),  # Tuesday's "mar."
        ("annandag jul 1959", "date 1959-12-26"),  # jul: Christmas, not July
        ("الأربعاء الثاني من سبتمبر 2013", "nth 2 WED 2013-09"),  # the second, not January
    ],
)
def test_a_month_inside_a_name_or_a_form_of_no_month_is_not_asked(text, form):
    assert _reason(text, form) == ""


def test_every_generated_pair_of_a_month_still_grounds():
    # The generated texts that name a month with a name beside it, in the
    # languages whose names hold a month's word (checked over all 27 by hand).
    for language in ("ja", "ro", "sv", "ar", "fr"):
        for p in time_expressions.pairs(language):
            if p.kind in ("nth", "holiday", "datetime"):
                reason = _reason(p.text, p.form)
                assert "names a month" not in reason, (p.text, p.form, reason)


def test_the_names_are_tables_of_the_grounding():
    from attention_zoo.applications.dates import form_words

    assert all(callable(getattr(form_words, name)) for name in NAMES)
