"""Computed days (holidays.py) against algorithms written independently, over every year."""

import calendar
import datetime as dt

import pytest

from attention_zoo.applications.dates import holidays

pytestmark = pytest.mark.backend_free


def _gauss_easter(year: int) -> dt.date:
    """Gauss's Easter algorithm with the Gregorian corrections and its two exceptions."""
    a, b, c = year % 19, year % 4, year % 7
    k = year // 100
    p = (13 + 8 * k) // 25
    q = k // 4
    m = (15 - p + k - q) % 30
    n = (4 + k - q) % 7
    d = (19 * a + m) % 30
    e = (2 * b + 4 * c + 6 * d + n) % 7
    if d == 29 and e == 6:
        return dt.date(year, 4, 19)
    if d == 28 and e == 6 and (11 * m + 11) % 30 < 19:
        return dt.date(year, 4, 18)
    return dt.date(year, 3, 22) + dt.timedelta(days=d + e)


def _gauss_julian_easter(year: int) -> dt.date:
    """Orthodox Easter: Gauss's Julian algorithm, then the calendars' difference
    by century (10 days in 1583-1699, 13 in 1900-2099; it grows where the
    Julian calendar has 29 February and the Gregorian not, before March)."""
    a, b, c = year % 19, year % 4, year % 7
    d = (19 * a + 15) % 30
    e = (2 * b + 4 * c + 6 * d + 6) % 7
    # Days after Julian 22 March; the difference at Easter (March-May) is
    # the one after February of that year.
    difference = year // 100 - year // 400 - 2
    return dt.date(year, 3, 1) + dt.timedelta(days=21 + d + e + difference)


def test_western_easter_agrees_with_gauss_in_every_year():
    wrong = [
        y for y in range(1, 10000) if holidays.western_easter(y) != _gauss_easter(y)
    ]
    assert wrong == []


def test_western_easter_is_a_sunday_between_22_march_and_25_april():
    for year in range(1, 10000):
        day = holidays.western_easter(year)
        assert day.weekday() == 6 and dt.date(year, 3, 22) <= day <= dt.date(
            year, 4, 25
        )


def test_orthodox_easter_agrees_with_the_julian_difference_in_every_year():
    wrong = [
        y
        for y in range(1, 10000)
        if holidays.orthodox_easter(y) != _gauss_julian_easter(y)
    ]
    assert wrong == []
    assert all(holidays.orthodox_easter(y).weekday() == 6 for y in range(1, 10000))


def test_easter_agrees_with_dateutil():
    easter = pytest.importorskip("dateutil.easter")
    for year in range(1583, 4100):  # the years dateutil states it is valid for
        assert holidays.easter(year) == easter.easter(year, easter.EASTER_WESTERN)
        assert holidays.easter(year, orthodox=True) == easter.easter(
            year, easter.EASTER_ORTHODOX
        )


def test_known_days():
    assert holidays.western_easter(2021) == dt.date(2021, 4, 4)
    assert holidays.orthodox_easter(2021) == dt.date(2021, 5, 2)
    # In 2017 both churches kept Easter on the same Sunday.
    assert (
        holidays.western_easter(2017)
        == holidays.orthodox_easter(2017)
        == dt.date(2017, 4, 16)
    )


def test_julian_to_gregorian_at_the_reform():
    # Thursday 4 October 1582 (Julian) was followed by Friday 15 October 1582 (Gregorian).
    assert holidays.julian_to_gregorian(1582, 10, 5) == dt.date(1582, 10, 15)
    assert holidays.julian_to_gregorian(1, 1, 3) == dt.date(1, 1, 1)


def test_nth_weekday_in_every_month_of_a_400_year_cycle():
    # Weekdays repeat every 400 Gregorian years (146,097 days, a multiple
    # of 7), so these months hold every case there is.
    for year in range(2000, 2400):
        for month in range(1, 13):
            days = [
                dt.date(year, month, d)
                for d in range(1, calendar.monthrange(year, month)[1] + 1)
            ]
            for weekday in range(7):
                matching = [d for d in days if d.weekday() == weekday]
                for n in (1, 2, 3, 4, 5):
                    want = matching[n - 1] if n <= len(matching) else None
                    assert holidays.nth_weekday(year, month, n, weekday) == want
                    want = matching[-n] if n <= len(matching) else None
                    assert holidays.nth_weekday(year, month, -n, weekday) == want


def test_nth_weekday_at_the_calendar_edges():
    assert holidays.nth_weekday(1, 1, 1, 0) == dt.date(1, 1, 1)  # a Monday
    assert holidays.nth_weekday(9999, 12, -1, 4) == dt.date(9999, 12, 31)  # a Friday
