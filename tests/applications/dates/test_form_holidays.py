"""What code sets in a form's day from a holiday name (form_holidays.py,
through form_settling.py): the day the one name of the text means, where
the model wrote a day the text writes nowhere; every other form as the
model wrote it. The grounding then checks the result as any form."""

import pytest

from tests.applications.dates.settling import assert_grounds, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("Wigilia 2021", "easter +49 2021", "date 2021-12-24"),
        ("Cumhuriyet Bayramı", "date --10-25", "date --10-29"),
        ("Good Friday", "date --03-29", "easter -2"),
        ("Пасха 2021", "easter 0 2021", "orthodox-easter 0 2021"),
        # With a time: a date keeps its clock; an Easter day takes `at`.
        ("Christmas 2015 at 8pm", "datetime 2015-12-24T20:00", "datetime 2015-12-25T20:00"),
        ("Easter Monday 2021 at 10:00", "datetime 2021-04-06T10:00", "easter +1 2021 at 10:00"),
        ("Ostermontag 2021 um 10 Uhr", "easter +2 2021 at 10:00", "easter +1 2021 at 10:00"),
    ],
)  # fmt: skip
def test_the_one_holiday_named_sets_the_day(text, written, expected):
    assert_grounds(text, written, expected, ("holiday",))


@pytest.mark.parametrize(
    "text, written",
    [
        ("Christmas and Easter 2021", "date 2021-12-24"),  # two holidays
        ("from Christmas to New Year", "date --12-24 / date --01-01"),  # an interval
        ("3 May 2021", "date 2021-05-04"),  # no holiday name
        ("Koningsdag 2023", "easter -7 2023"),  # a name in no table
        ("Wigilia, 23.12.2021", "date 2021-12-23"),  # its day written
        ("Christmas 2015", "date 2015-12-25"),  # the name's day already
        ("next Good Friday", "date +1 --04-02"),  # `easter` has no selector
        ("Easter Saturday 2021", "easter +1 2021"),  # inside a longer name
        ("Christmas at 8pm", "time 20:00"),  # no day
    ],
)
def test_a_day_is_set_only_by_exactly_one_holiday_name(text, written):
    assert settled(text, written) == (written, ())
