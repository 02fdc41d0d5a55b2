"""Computed days: Easter Sunday (Western and Orthodox) and the nth weekday of a month.

Both are calendar arithmetic the resolver does, never the model: a form
writes `easter -2 2021` (Good Friday) or `nth -1 SUN 2021-03`, and these
functions give the day, in the proleptic Gregorian calendar of
`datetime.date` for every year 1-9999.

- Western Easter: the Gregorian computus, as the anonymous algorithm of
  1876 (Meeus, Jones, Butcher) computes it, applied to every year (before
  1583 too, proleptically, as `datetime.date` counts days).
- Orthodox Easter: the Julian computus (Meeus's Julian algorithm) gives a
  day of the Julian calendar, converted to the Gregorian day through the
  Julian day number (Orthodox churches keep the Julian Paschalion and
  publish the Gregorian date: 2021-05-02).

The tests check both against other algorithms (Gauss's with its
exceptions; the Julian-Gregorian difference by century) over all years,
and against `dateutil.easter` where installed.
"""

from __future__ import annotations

import calendar
import datetime as dt

# The Julian day number of 0001-01-01 (proleptic Gregorian) is 1721426;
# `date.toordinal()` counts that day as 1.
_JDN_OF_ORDINAL_ZERO = 1721425


def western_easter(year: int) -> dt.date:
    """Easter Sunday by the Gregorian computus (anonymous Gregorian algorithm)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741 (the algorithm's name)
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


def julian_to_gregorian(year: int, month: int, day: int) -> dt.date:
    """The Gregorian day of a day of the Julian calendar (via its Julian day number)."""
    a = (14 - month) // 12
    y = year + 4800 - a
    m = month + 12 * a - 3
    jdn = day + (153 * m + 2) // 5 + 365 * y + y // 4 - 32083
    return dt.date.fromordinal(jdn - _JDN_OF_ORDINAL_ZERO)


def orthodox_easter(year: int) -> dt.date:
    """Orthodox Easter Sunday: the Julian computus, as a Gregorian day."""
    a, b, c = year % 4, year % 7, year % 19
    d = (19 * c + 15) % 30
    e = (2 * a + 4 * b - d + 34) % 7
    month, day = divmod(d + e + 114, 31)
    return julian_to_gregorian(year, month, day + 1)


def easter(year: int, *, orthodox: bool = False) -> dt.date:
    return orthodox_easter(year) if orthodox else western_easter(year)


def nth_weekday(year: int, month: int, n: int, weekday: int) -> dt.date | None:
    """The `n`th `weekday` (0 = Monday) of the month, counted from its end when
    `n` < 0 (-1 the last); None when the month has no such day (a fifth Tuesday)."""
    length = calendar.monthrange(year, month)[1]
    if n > 0:
        first = dt.date(year, month, 1).weekday()
        day = 1 + (weekday - first) % 7 + 7 * (n - 1)
    else:
        last = dt.date(year, month, length).weekday()
        day = length - (last - weekday) % 7 + 7 * (n + 1)
    return dt.date(year, month, day) if 1 <= day <= length else None
