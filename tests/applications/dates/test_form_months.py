"""What code sets in an interval of days whose one end takes a month the
text names nowhere (form_settling.months): the month the text names that
the other end does not take, or its one month; every other form as the
model wrote it. The grounding then checks the result as any form."""

import pytest

from tests.applications.dates.settling import assert_grounds, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, written, expected",
    [
        # One month written for both days.
        ("del 2 al 9 de agosto de 2024", "date 2024-02-02 / date 2024-08-09",
         "date 2024-08-02 / date 2024-08-09"),
        ("vom 3. bis 8. März 2022", "date 2022-08-03 / date 2022-03-08",
         "date 2022-03-03 / date 2022-03-08"),
        ("с 10 по 15 июня 2020 года", "date 2020-10-10 / date 2020-06-15",
         "date 2020-06-10 / date 2020-06-15"),
        ("2024年8月2日から9日まで", "date 2024-02-02 / date 2024-08-09",
         "date 2024-08-02 / date 2024-08-09"),
        ("du 3 au 7 mai", "date --03-03 / date --05-07", "date --05-03 / date --05-07"),
        # A month per end: the one the other end does not take, at either end.
        ("28 February - 4 March 2021", "date 2021-01-28 / date 2021-03-04",
         "date 2021-02-28 / date 2021-03-04"),
        ("28 February - 4 March 2021", "date 2021-02-28 / date 2021-04-04",
         "date 2021-02-28 / date 2021-03-04"),
        ("from 30 January to 2 February", "date --03-30 / date --02-02",
         "date --01-30 / date --02-02"),
        # A date-time keeps its clock.
        ("from 3 May 2021 10:00 to 7 May 2021 12:00",
         "datetime 2021-03-03T10:00 / datetime 2021-05-07T12:00",
         "datetime 2021-05-03T10:00 / datetime 2021-05-07T12:00"),
    ],
)  # fmt: skip
def test_the_month_the_text_names_sets_an_ends_unnamed_month(text, written, expected):
    assert_grounds(text, written, expected, ("month",))


@pytest.mark.parametrize(
    "text, written",
    [
        ("1.–6. 7. 2008", "date 2008-01-01 / date 2008-07-06"),  # months as numbers
        ("3 May to 7 June", "date --04-03 / date --08-07"),  # neither end named
        ("3 May to 7 June", "date --05-03 / date --06-07"),  # both named: grounded
        ("1 April, 5 May or 9 June", "date --01-01 / date --05-05"),  # two left
        ("3-5 May 1979", "date 1979-06-03"),  # no interval
        ("May - June 2016", "month 2016-07 / month 2016-06"),  # months, not days
        ("3 May to 7 June at 10:00", "date --05-03 / time 10:00"),  # a time end
    ],
)
def test_a_month_is_set_only_where_one_end_is_named_and_one_month_is_left(
    text, written
):
    assert settled(text, written) == (written, ())
