"""What code sets in a form's clocks from its text (form_clocks.py): the hour
by the day period beside its number, and the one zone the text writes;
every other form, and every form those rules do not settle, as the model
wrote it. The grounding then checks the result as any form
(test_form_grounding.py)."""

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_clocks import settle

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


def _settle(text, form):
    return settle(text, form, *WORDS)


@pytest.mark.parametrize(
    "text, written, settled",
    [
        # The period beside the number puts it in its half of the day.
        ("15 अगस्त 2022, शाम 7:00 बजे", "datetime 2022-08-15T07:00", "datetime 2022-08-15T19:00"),
        ("२६ जनवरी २०२३ को सुबह १० बजे", "datetime 2023-01-26T22:00", "datetime 2023-01-26T10:00"),
        ("6 أكتوبر 1973 الساعة 2:00 ظهرا", "datetime 1973-10-06T02:00", "datetime 1973-10-06T14:00"),
        ("5:30 pm", "time 05:30", "time 17:30"),
        ("12 a.m.", "time 12:00", "time 00:00"),
        ("morgen um 8 Uhr abends", "shift day +1 at 08:00", "shift day +1 at 20:00"),
        # Each end by its own period; one period after both ends for both.
        ("from 10pm to 6am", "time 10:00 / time 06:00", "time 22:00 / time 06:00"),
        ("सुबह 10 बजे से दोपहर 2 बजे तक", "time 22:00 / time 02:00", "time 10:00 / time 14:00"),
        ("10:55 – 11:55 p.m.", "time 10:55 / time 23:55", "time 22:55 / time 23:55"),
    ],
)  # fmt: skip
def test_a_period_sets_the_hour_of_its_number(text, written, settled):
    assert _settle(text, written) == (settled, ("period",))
    assert form_answers.grounding_reason(text, settled, *WORDS) == ""
    assert form_answers.grounding_reason(text, written, *WORDS) != ""


@pytest.mark.parametrize(
    "text, written",
    [
        ("5:30 pm", "time 17:30"),  # the model's hour agrees: unchanged
        ("17:00 Uhr", "time 05:00"),  # 17 written as such: no period read
        ("at 7:00", "time 19:00"),  # no period: the model's, refused later
        ("3 May 1979", "date 1979-05-03"),  # no clock
        ("5:30 pm", "time 5:30"),  # no form: refused by name later
        ("", ""),
    ],
)
def test_a_form_no_period_settles_is_the_model_s(text, written):
    assert _settle(text, written) == (written, ())


def test_a_period_moves_an_hour_to_its_number_only_not_to_another_number():
    # 上午10点到下午2点 read as 10:00 to 22:00: the 22 is the 10's hour on
    # the other half of the day, so the end becomes 10:00 and the 2 of the
    # text stays unused: refused, never 10:00 to 22:00.
    text = "上午10点到下午2点"
    form, names = _settle(text, "time 10:00 / time 22:00")
    assert (form, names) == ("time 10:00 / time 10:00", ("period",))
    assert form_answers.grounding_reason(text, form, *WORDS) != ""


@pytest.mark.parametrize(
    "text, written, settled",
    [
        ("2014-12-12T08:25:00Z", "datetime 2014-12-12T08:25:00", "datetime 2014-12-12T08:25:00Z"),
        ("10:00 EST", "time 10:00", "time 10:00-05:00"),
        ("10:00-12:00 UTC", "time 10:00 / time 12:00", "time 10:00Z / time 12:00Z"),
        ("9 мая 2020 года в 22:00 по московскому времени", "datetime 2020-05-09T22:00", "datetime 2020-05-09T22:00[Europe/Moscow]"),
        ("北京时间2020年5月9日 22:00", "datetime 2020-05-09T22:00", "datetime 2020-05-09T22:00[Asia/Shanghai]"),
        ("3:30 PM Pacific Time", "time 15:30", "time 15:30[America/Los_Angeles]"),
    ],
)  # fmt: skip
def test_the_one_zone_a_text_writes_is_set_on_its_clocks(text, written, settled):
    assert _settle(text, written) == (settled, ("zone",))
    assert form_answers.grounding_reason(text, settled, *WORDS) == ""
    assert form_answers.grounding_reason(text, written, *WORDS) != ""


@pytest.mark.parametrize(
    "text, written",
    [
        ("10:00 UTC and 11:00 CET", "time 10:00 / time 11:00"),  # two zones
        ("10:00 EST", "time 10:00-04:00"),  # the model wrote one: kept
        ("rendez-vous à 10:00 à l'est", "time 10:00"),  # "est" in lower case
        ("22:00", "time 22:00"),
    ],
)
def test_a_zone_is_set_only_where_the_text_writes_exactly_one(text, written):
    assert _settle(text, written) == (written, ())


def test_both_passes_settle_one_form_in_order():
    assert _settle("10pm EST", "time 10:00") == (
        "time 22:00-05:00",
        ("period", "zone"),
    )
