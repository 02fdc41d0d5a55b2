"""What code sets in a form's clocks from its text (form_clocks.py, through
form_settling.py): the hour by the day period beside its number, the one
number the text writes as a clock's hour, and the one zone it writes;
every other form, and every form those rules do not settle, as the model
wrote it. The grounding then checks the result as any form
(test_form_grounding.py)."""

import pytest

from tests.applications.dates.settling import assert_grounds, reason, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, written, expected",
    [
        # The period beside the number puts it in its half of the day.
        ("15 अगस्त 2022, शाम 7:00 बजे", "datetime 2022-08-15T07:00", "datetime 2022-08-15T19:00"),
        ("२६ जनवरी २०२३ को सुबह १० बजे", "datetime 2023-01-26T22:00", "datetime 2023-01-26T10:00"),
        ("6 أكتوبر 1973 الساعة 2:00 ظهرا", "datetime 1973-10-06T02:00", "datetime 1973-10-06T14:00"),
        ("الثلاثاء القادم الساعة ٣ عصراً", "weekday +1 TUE at 03:00", "weekday +1 TUE at 15:00"),
        ("5:30 pm", "time 05:30", "time 17:30"),
        ("12 a.m.", "time 12:00", "time 00:00"),
        ("morgen um 8 Uhr abends", "shift day +1 at 08:00", "shift day +1 at 20:00"),
        # Past the clock word of a hand-written `hours` pattern ("heures"),
        # which no generated text writes before a period.
        ("8 heures du soir", "time 08:00", "time 20:00"),
        # Each end by its own period; one period after both ends for both.
        ("from 10pm to 6am", "time 10:00 / time 06:00", "time 22:00 / time 06:00"),
        ("सुबह 10 बजे से दोपहर 2 बजे तक", "time 22:00 / time 02:00", "time 10:00 / time 14:00"),
        ("10:55 – 11:55 p.m.", "time 10:55 / time 23:55", "time 22:55 / time 23:55"),
    ],
)  # fmt: skip
def test_a_period_sets_the_hour_of_its_number(text, written, expected):
    assert_grounds(text, written, expected, ("period",))


# Day periods people write with hours CLDR gives another period
# (`period_hours` of expression_words.json): CLDR's Chinese 早上 is 5-7,
# its Korean 아침 3-5, its Spanish "de la mañana" 6-11 and "de la noche"
# 20-23, so "早上8点", "아침 8시" and "5 de la mañana" were refused as
# read, and "晚上6点" read as 06:00 stayed refused where 18:00 is meant.
@pytest.mark.parametrize(
    "text, form",
    [
        ("早上8点", "time 08:00"),
        ("明天早上8点", "shift day +1 at 08:00"),
        ("从早上8点到晚上10点", "time 08:00 / time 22:00"),
        ("아침 8시", "time 08:00"),
        ("내일 아침 7시", "shift day +1 at 07:00"),
        ("5 de la mañana", "time 05:00"),
        ("夜11時", "time 23:00"),
        # CLDR's Russian вечера is 18-21, German morgens 5-9 and vormittags
        # 10-11, Polish wieczorem 18-20, Turkish akşam 19-20, Vietnamese tối
        # 18-20, Indonesian pagi 0-9, Greek απόγευμα 17-19.
        ("завтра в 11 вечера", "shift day +1 at 23:00"),
        ("в 5 вечера", "time 17:00"),
        ("um 10 Uhr morgens", "time 10:00"),
        ("um 9 Uhr vormittags", "time 09:00"),
        ("um 11 Uhr nachts", "time 23:00"),
        ("o 10 rano", "time 10:00"),
        ("o 9 wieczorem", "time 21:00"),
        ("akşam 6", "time 18:00"),
        ("9 giờ tối", "time 21:00"),
        ("10 בערב", "time 22:00"),
        ("शाम 8 बजे", "time 20:00"),
        ("दोपहर 4 बजे", "time 16:00"),
        ("jam 10 pagi", "time 10:00"),
        ("jam 3 siang", "time 15:00"),
        ("jam 6 sore", "time 18:00"),
        ("στις 3 το απόγευμα", "time 15:00"),
    ],
)  # fmt: skip
def test_a_period_grounds_the_hours_people_write_it_with(text, form):
    assert reason(text, form) == ""
    assert settled(text, form) == (form, ())


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("晚上6点", "time 06:00", "time 18:00"),
        ("밤 8시", "time 08:00", "time 20:00"),
        ("저녁 9시", "time 09:00", "time 21:00"),
        ("夜11時", "time 11:00", "time 23:00"),
        ("9 in the evening", "time 09:00", "time 21:00"),
        ("7 de la noche", "time 07:00", "time 19:00"),
        ("в 10 вечера", "time 10:00", "time 22:00"),
        ("um 11 Uhr nachts", "time 11:00", "time 23:00"),
        ("akşam 9", "time 09:00", "time 21:00"),
        ("10 giờ tối", "time 10:00", "time 22:00"),
        ("jam 3 siang", "time 03:00", "time 15:00"),
    ],
)  # fmt: skip
def test_those_hours_settle_a_number_of_the_other_half(text, written, expected):
    assert_grounds(text, written, expected, ("period",))


@pytest.mark.parametrize(
    "text, form",
    [
        ("早上8点", "time 20:00"),  # still a morning's
        ("晚上6点", "time 06:00"),
        ("아침 8시", "time 20:00"),
        ("5 de la mañana", "time 17:00"),
        ("9 in the evening", "time 09:00"),
        ("в 10 вечера", "time 10:00"),
        ("o 10 rano", "time 22:00"),
        ("jam 10 pagi", "time 22:00"),
        ("στις 3 το απόγευμα", "time 03:00"),
    ],
)  # fmt: skip
def test_the_other_half_stays_refused_by_the_grounding(text, form):
    assert "disagrees" in reason(text, form)


@pytest.mark.parametrize(
    "text, written",
    [
        ("5:30 pm", "time 17:30"),  # the model's hour agrees: unchanged
        ("3 May 1979", "date 1979-05-03"),  # no clock
        ("5:30 pm", "time 5:30"),  # no form: refused by name later
        ("", ""),
    ],
)
def test_a_form_no_period_settles_is_the_model_s(text, written):
    assert settled(text, written) == (written, ())


def test_a_period_moves_an_hour_to_its_number_only_not_to_another_number():
    # 上午10点到下午2点 read as 10:00 to 22:00: the 22 is the 10's hour on
    # the other half of the day, so the end becomes 10:00 and the 2 of the
    # text stays unused: refused, never 10:00 to 22:00.
    text = "上午10点到下午2点"
    form, names = settled(text, "time 10:00 / time 22:00")
    assert (form, names) == ("time 10:00 / time 10:00", ("period",))
    assert reason(text, form) != ""


@pytest.mark.parametrize(
    "text, written, expected",
    [
        # The model's hour is written nowhere: the one clock number is it.
        ("um 6:30 Uhr", "time 18:30", "time 06:30"),
        ("at 7:00", "time 19:00", "time 07:00"),
        ("9 мая 2020 года в 22:00 по московскому времени", "datetime 2020-05-09T12:00[Europe/Moscow]", "datetime 2020-05-09T22:00[Europe/Moscow]"),
        # 8点 is the clock's (the 8 of 8月 and 8日 are not), in 晚上's half.
        ("2008年8月8日晚上8点", "datetime 2008-08-08T22:00", "datetime 2008-08-08T20:00"),
        # The other clock's number is its own.
        ("von 10 bis 22 Uhr", "time 10:00 / time 12:00", "time 10:00 / time 22:00"),
        ("morgen um 17h30", "shift day +1 at 07:30", "shift day +1 at 17:30"),
        # The 21 of 2:21 is its minutes before the period, not an hour.
        ("2:21 p.m., December 11, 2014", "datetime 2014-12-11T23:21", "datetime 2014-12-11T14:21"),
        # 17 written as such: no period moves it; the text's one clock
        # number (its 00 is minutes) is the hour.
        ("17:00 Uhr", "time 05:00", "time 17:00"),
        # 9, in du soir's half (it had read "h" as no clock word: 09:00).
        ("à 9 h du soir", "time 19:00", "time 21:00"),
    ],
)  # fmt: skip
def test_an_hour_written_nowhere_is_the_one_clock_number_of_the_text(
    text, written, expected
):
    assert_grounds(text, written, expected, ("hour",))


@pytest.mark.parametrize(
    "text, written",
    [
        ("12.03.2020 um 8 Uhr", "datetime 2020-03-12T20:00"),  # 12.03 a clock too
        ("von 10 bis 22 Uhr", "time 11:00 / time 23:00"),  # two unwritten
        ("page 7", "time 19:00"),  # no clock number
        ("8:15", "time 08:15"),  # written: the model's
        ("at noon", "time 12:00"),  # named
    ],
)
def test_an_hour_is_set_only_from_exactly_one_clock_number(text, written):
    assert settled(text, written) == (written, ())


def test_an_hour_set_from_the_text_is_grounded_again():
    # "quarter to 7 pm" is 18:45; the 7 is the text's only clock number, so
    # the hour pass makes 19:45 of the model's 18:45, and the minute 45,
    # written nowhere, keeps it refused: the pass never makes an answer
    # the grounding would not accept of any form.
    text = "quarter to 7 pm"
    form, names = settled(text, "time 18:45")
    assert (form, names) == ("time 19:45", ("hour",))
    assert "minute" in reason(text, form)


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("vendredi 13 novembre 2015 à 21 h 20", "datetime 2015-11-13T21:00", "datetime 2015-11-13T21:20"),
        ("um 8.15 Uhr", "time 08:00", "time 08:15"),
        ("17h30", "time 17:00", "time 17:30"),
        ("at 5:30 pm", "time 17:00", "time 17:30"),  # the hour's dial number
    ],
)  # fmt: skip
def test_a_minute_00_is_the_one_minute_written_after_its_hour(text, written, expected):
    assert_grounds(text, written, expected, ("minute",))


@pytest.mark.parametrize(
    "text, written",
    [
        ("8:15", "time 08:10"),  # a minute the model wrote is its own
        ("8:15 or 8:45", "time 08:00"),  # two minutes after the hour
        ("5 pm", "time 17:00"),  # none written
        ("9:30 or 10", "time 10:00"),  # written after another hour
        ("entre 14 h et 2 h 30", "time 14:00 / time 02:30"),  # 14 written: not "2 h 30"
        ("8:15:30", "time 08:00:00"),  # seconds written: a clock the model read
    ],
)
def test_a_minute_is_set_only_from_exactly_one_written_after_its_hour(text, written):
    assert settled(text, written) == (written, ())


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("2014-12-12T08:25:00Z", "datetime 2014-12-12T08:25:00", "datetime 2014-12-12T08:25:00Z"),
        ("10:00 EST", "time 10:00", "time 10:00-05:00"),
        ("10:00-12:00 UTC", "time 10:00 / time 12:00", "time 10:00Z / time 12:00Z"),
        ("9 мая 2020 года в 22:00 по московскому времени", "datetime 2020-05-09T22:00", "datetime 2020-05-09T22:00[Europe/Moscow]"),
        ("北京时间2020年5月9日 22:00", "datetime 2020-05-09T22:00", "datetime 2020-05-09T22:00[Asia/Shanghai]"),
        ("3:30 PM Pacific Time", "time 15:30", "time 15:30[America/Los_Angeles]"),
    ],
)  # fmt: skip
def test_the_one_zone_a_text_writes_is_set_on_its_clocks(text, written, expected):
    assert_grounds(text, written, expected, ("zone",))


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
    assert settled(text, written) == (written, ())


def test_the_passes_settle_one_form_in_order():
    assert settled("10pm EST", "time 10:00") == (
        "time 22:00-05:00",
        ("period", "zone"),
    )
    assert settled("10:00 EST", "time 22:00") == ("time 10:00-05:00", ("hour", "zone"))
