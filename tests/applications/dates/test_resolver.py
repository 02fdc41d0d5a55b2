"""The resolver (resolver.py, points.py) against computations written independently.

Weekdays, days and months with the year open, nth weekdays, Easter, times
and shifts are checked against brute force (stepping one day, one month or
one minute at a time with `datetime.timedelta` from the reference) over
references in years 1-9999, under every policy; every form against every
reference resolves to a well-formed answer or a reason, never an exception.
"""

import calendar
import datetime as dt
import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_zoo.applications.dates import holidays
from attention_zoo.applications.dates.forms import (
    ZONES,
    At,
    Clock,
    Date,
    Easter,
    Month,
    Nth,
    Shift,
    Time,
    Weekday,
)
from attention_zoo.applications.dates.resolver import PREFER, resolve
from tests.applications.dates.form_strategies import (
    edge_references,
    forms,
    small_selects,
)

pytestmark = pytest.mark.backend_free

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
prefers = st.sampled_from(PREFER)
REF = "2026-01-15T09:17:42"  # a Thursday


def _steps(start, step):
    """start, start + step, start + 2 step, ... until the calendar ends."""
    while True:
        yield start
        try:
            start = start + step
        except OverflowError:
            return


def _first(items, count=1):
    for item in items:
        count -= 1
        if count == 0:
            return item
    return None


def _by_policy(today, matches, select, prefer, this_period):
    """The brute-force pick: the kth match strictly after/before, or by policy."""
    day = dt.timedelta(days=1)
    if select == 0 or (select is None and prefer == "current"):
        return this_period()
    if select is None:
        return _first(
            d for d in _steps(today, day if prefer == "future" else -day) if matches(d)
        )
    direction = day if select > 0 else -day
    try:
        start = today + direction
    except OverflowError:
        return None
    return _first((d for d in _steps(start, direction) if matches(d)), abs(select))


def _expect(form, reference, expected, prefer="future"):
    answer = resolve(form, reference, prefer=prefer)
    if expected is None:
        assert not answer.valid and answer.text == "" and answer.reason, answer
    else:
        assert answer.valid and answer.text == expected, (answer, expected)


@SETTINGS
@given(edge_references, st.integers(0, 6), st.one_of(st.none(), small_selects), prefers)
def test_weekdays_against_stepping_days(reference, weekday, select, prefer):
    today = reference.date()

    def this_week():
        monday = _first(
            d for d in _steps(today, -dt.timedelta(days=1)) if d.weekday() == 0
        )
        if monday is None:
            return None
        return _first(
            d
            for d in itertools.islice(_steps(monday, dt.timedelta(days=1)), 7)
            if d.weekday() == weekday
        )

    want = _by_policy(
        today, lambda d: d.weekday() == weekday, select, prefer, this_week
    )
    _expect(Weekday(weekday, select), reference, want and want.isoformat(), prefer)


@st.composite
def month_days(draw):
    month = draw(st.integers(1, 12))
    return month, draw(st.integers(1, calendar.monthrange(2000, month)[1]))


@SETTINGS
@given(edge_references, month_days(), st.one_of(st.none(), small_selects), prefers)
def test_days_with_the_year_open_against_stepping_days(
    reference, month_day, select, prefer
):
    today, (month, day) = reference.date(), month_day

    def this_year():
        try:
            return dt.date(today.year, month, day)
        except ValueError:
            return None

    want = _by_policy(
        today, lambda d: (d.month, d.day) == (month, day), select, prefer, this_year
    )
    answer = resolve(Date(month, day, None, select), reference, prefer=prefer)
    assert answer.text == (want.isoformat() if want else "")
    if want:
        assert dict(answer.parts) == {"year": "reference"}


@SETTINGS
@given(
    edge_references, st.integers(1, 12), st.one_of(st.none(), small_selects), prefers
)
def test_months_with_the_year_open_against_stepping_months(
    reference, month, select, prefer
):
    def months(year, mon, step):
        while 1 <= year <= 9999:
            yield year, mon
            mon += step
            year, mon = (
                (year + 1, 1)
                if mon == 13
                else (year - 1, 12)
                if mon == 0
                else (year, mon)
            )

    now = (reference.year, reference.month)
    if select == 0 or (select is None and prefer == "current"):
        want = (reference.year, month)
    elif select is None:
        want = _first(
            m for m in months(*now, 1 if prefer == "future" else -1) if m[1] == month
        )
    else:
        step = 1 if select > 0 else -1
        want = _first(
            (m for m in months(*now, step) if m[1] == month and m != now), abs(select)
        )
    _expect(
        Month(month, None, select),
        reference,
        want and f"{want[0]:04d}-{want[1]:02d}",
        prefer,
    )


@SETTINGS
@given(
    edge_references,
    st.sampled_from((1, 2, 3, 4, 5, -1, -2, -5)),
    st.integers(0, 6),
    st.integers(1, 12),
    prefers,
)
def test_nth_weekdays_with_the_year_open_against_stepping_days(
    reference, n, weekday, month, prefer
):
    def matches(d):
        length = calendar.monthrange(d.year, d.month)[1]
        rank = (d.day - 1) // 7 + 1 if n > 0 else -((length - d.day) // 7 + 1)
        return d.month == month and d.weekday() == weekday and rank == n

    def this_year():
        days = (
            dt.date(reference.year, month, d)
            for d in range(1, calendar.monthrange(reference.year, month)[1] + 1)
        )
        return _first(d for d in days if matches(d))

    want = _by_policy(reference.date(), matches, None, prefer, this_year)
    _expect(Nth(n, weekday, month), reference, want and want.isoformat(), prefer)


@SETTINGS
@given(edge_references, st.integers(-999, 999), st.booleans(), prefers)
def test_easter_days_with_the_year_open_against_stepping_days(
    reference, days, orthodox, prefer
):
    offset = dt.timedelta(days=days)

    def matches(d):
        try:
            sunday = d - offset
        except OverflowError:
            return False
        return sunday == holidays.easter(sunday.year, orthodox=orthodox)

    def this_year():
        try:
            return holidays.easter(reference.year, orthodox=orthodox) + offset
        except OverflowError:
            return None

    want = _by_policy(reference.date(), matches, None, prefer, this_year)
    _expect(Easter(days, None, orthodox), reference, want and want.isoformat(), prefer)


fixed_zones = st.one_of(
    st.none(), st.just("Z"), st.sampled_from(("+01:00", "-05:30", "+14:00", "-12:00"))
)


@SETTINGS
@given(
    edge_references,
    st.integers(0, 23),
    st.integers(0, 59),
    st.one_of(st.none(), st.integers(0, 59)),
    fixed_zones,
    prefers,
)
def test_times_against_stepping_minutes(reference, hour, minute, second, zone, prefer):
    clock = Clock(hour, minute, second, zone)
    aware = reference.replace(tzinfo=dt.timezone.utc)
    if zone is not None:
        offset = (
            dt.timedelta(0)
            if zone == "Z"
            else (1 if zone[0] == "+" else -1)
            * dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
        )
        try:
            aware = aware.astimezone(dt.timezone(offset))
        except OverflowError:
            _expect(Time(clock), reference, None, prefer)
            return
    wall = aware.replace(tzinfo=None, microsecond=0)
    start = wall.replace(second=0)
    now = wall if second is not None else start
    minute_step = dt.timedelta(minutes=1)

    def hits(moment):
        return (moment.hour, moment.minute) == (hour, minute) and moment.replace(
            second=second or 0
        )

    if prefer == "current":
        want = dt.datetime.combine(wall.date(), dt.time(hour, minute, second or 0))
    else:
        step = minute_step if prefer == "future" else -minute_step
        ok = (lambda m: m >= now) if prefer == "future" else (lambda m: m <= now)
        want = _first(
            hits(m)
            for m in itertools.islice(_steps(start, step), 2 * 1441)
            if hits(m) and ok(hits(m))
        )
    if want is None:
        _expect(Time(clock), reference, None, prefer)
        return
    text = want.isoformat(timespec="minutes" if second is None else "seconds")
    text += "" if zone is None else zone
    _expect(Time(clock), reference, text, prefer)


@SETTINGS
@given(
    st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2100, 1, 1)),
    st.integers(0, 6),
    st.integers(0, 23),
    st.sampled_from((0, 30, 59)),
    st.sampled_from(("future", "past")),
)
def test_an_open_weekday_at_a_time_against_stepping_minutes(
    reference, weekday, hour, minute, prefer
):
    # "Thursday at 8am" compares at its minute, as a time alone does: at
    # 09:00 on a Thursday it is the next week's under `future`.
    now = reference.replace(second=0, microsecond=0)
    step = dt.timedelta(minutes=1 if prefer == "future" else -1)
    want = _first(
        m
        for m in itertools.islice(_steps(now, step), 8 * 1441)
        if (m.weekday(), m.hour, m.minute) == (weekday, hour, minute)
    )
    form = At(Weekday(weekday), Clock(hour, minute))
    _expect(form, reference, want.isoformat(timespec="minutes"), prefer)


@pytest.mark.parametrize(
    "form, prefer, value",
    [
        ("weekday THU at 08:00", "future", "2026-01-22T08:00"),  # 08:00 has passed
        ("weekday THU at 09:17", "future", "2026-01-15T09:17"),  # the same minute
        ("weekday THU at 10:00", "future", "2026-01-15T10:00"),
        ("weekday THU at 10:00", "past", "2026-01-08T10:00"),
        ("date --01-15 at 08:00", "future", "2027-01-15T08:00"),
        ("weekday THU at 08:00", "current", "2026-01-15T08:00"),
        # A selector or a shift says the day: its clock does not move it.
        ("weekday 0 THU at 08:00", "future", "2026-01-15T08:00"),
        ("shift day 0 at 08:00", "future", "2026-01-15T08:00"),
    ],
)
def test_a_day_the_policy_picks_at_a_time_compares_at_the_minute(form, prefer, value):
    assert resolve(form, REF, prefer=prefer).text == value


@SETTINGS
@given(
    edge_references,
    st.integers(-30_000, 30_000),
    st.integers(-120_000, 120_000),
    st.integers(-999_999, 999_999),
    st.integers(-999_999, 999_999),
)
def test_shifts_against_stepping_months_and_timedelta(
    reference, months, days, hours, minutes
):
    # Months: stepped one at a time, the day clamped to the month's last.
    year, month = reference.year, reference.month
    for _ in range(abs(months)):
        month += 1 if months > 0 else -1
        year, month = (
            (year + 1, 1)
            if month == 13
            else (year - 1, 12)
            if month == 0
            else (year, month)
        )
    if not 1 <= year <= 9999:
        want_day = None
    else:
        want_day = dt.date(
            year, month, min(reference.day, calendar.monthrange(year, month)[1])
        )
        try:
            want_day += dt.timedelta(days=days)
        except OverflowError:
            want_day = None
    _expect(
        Shift((("month", months), ("day", days))),
        reference,
        want_day and want_day.isoformat(),
    )
    try:
        want = reference + dt.timedelta(
            hours=hours, minutes=minutes
        )  # UTC: elapsed time is wall time
    except OverflowError:
        want = None
    _expect(
        Shift((("hour", hours), ("minute", minutes))),
        reference,
        want and want.isoformat(timespec="minutes"),
    )


# What docs/dates.md states, against a Thursday, 2026-01-15T09:17:42 (UTC).
DOCUMENTED = [
    ("date 1979-05-03", "1979-05-03", "date", "day", {}),
    ("date '79-05-03", "1979-05-03", "date", "day", {"century": "window"}),
    ("date '68-05-03", "2068-05-03", "date", "day", {"century": "window"}),
    ("date --05-03", "2026-05-03", "date", "day", {"year": "reference"}),
    ("date --01-15", "2026-01-15", "date", "day", {"year": "reference"}),
    ("date --01-14", "2027-01-14", "date", "day", {"year": "reference"}),
    ("date -1 --12-25", "2025-12-25", "date", "day", {"year": "reference"}),
    ("date +1 --01-15", "2027-01-15", "date", "day", {"year": "reference"}),
    ("date --02-29", "2028-02-29", "date", "day", {"year": "reference"}),
    ("month --03", "2026-03", "month", "month", {"year": "reference"}),
    ("month --01", "2026-01", "month", "month", {"year": "reference"}),
    ("month -1 --03", "2025-03", "month", "month", {"year": "reference"}),
    ("month 2015-03", "2015-03", "month", "month", {}),
    ("year 1987", "1987", "year", "year", {}),
    ("year 0001", "0001", "year", "year", {}),
    ("time 17:30", "2026-01-15T17:30", "datetime", "minute", None),
    ("time 09:00", "2026-01-16T09:00", "datetime", "minute", None),
    ("time 09:17", "2026-01-15T09:17", "datetime", "minute", None),
    ("time 09:17:41", "2026-01-16T09:17:41", "datetime", "second", None),
    ("time 17:30[Europe/Paris]", "2026-01-15T17:30+01:00", "datetime", "minute", None),
    ("datetime 2014-12-12T08:25", "2014-12-12T08:25", "datetime", "minute", {}),
    ("datetime 2014-12-12T08:25:00Z", "2014-12-12T08:25:00Z", "datetime", "second", {}),
    (
        "datetime 2014-07-12T08:25[Europe/Paris]",
        "2014-07-12T08:25+02:00",
        "datetime",
        "minute",
        {},
    ),
    (
        "datetime 1800-07-12T08:25[Europe/Paris]",
        "1800-07-12T08:25+00:09:21",
        "datetime",
        "minute",
        {},
    ),
    ("shift day -1", "2026-01-14", "date", "day", None),
    ("shift day 0", "2026-01-15", "date", "day", None),
    ("shift week +2", "2026-01-29", "date", "day", None),
    ("shift hour +3", "2026-01-15T12:17", "datetime", "minute", None),
    ("shift minute -30", "2026-01-15T08:47", "datetime", "minute", None),
    ("shift second +30", "2026-01-15T09:18:12", "datetime", "second", None),
    ("shift day +1 at 17:00", "2026-01-16T17:00", "datetime", "minute", None),
    ("cycle week +1", "2026-01-19/2026-01-25", "interval", "week", None),
    ("cycle month -1", "2025-12", "month", "month", None),
    ("cycle year 0", "2026", "year", "year", None),
    ("weekday FRI", "2026-01-16", "date", "day", None),
    ("weekday THU", "2026-01-15", "date", "day", None),
    ("weekday +1 FRI", "2026-01-16", "date", "day", None),
    ("weekday +1 THU", "2026-01-22", "date", "day", None),
    ("weekday -1 FRI", "2026-01-09", "date", "day", None),
    ("weekday -1 THU", "2026-01-08", "date", "day", None),
    ("weekday 0 MON", "2026-01-12", "date", "day", None),
    # That weekday of the ISO week K weeks from the reference's (form_weeks)
    ("week +1 FRI", "2026-01-23", "date", "day", None),
    ("week +1 MON", "2026-01-19", "date", "day", None),
    ("week -1 SUN", "2026-01-11", "date", "day", None),
    ("week -1 MON", "2026-01-05", "date", "day", None),
    ("week +2 THU", "2026-01-29", "date", "day", None),
    ("week +1 FRI at 17:00", "2026-01-23T17:00", "datetime", "minute", None),
    ("weekday 0 SUN", "2026-01-18", "date", "day", None),
    ("nth 3 TUE 2014-09", "2014-09-16", "date", "day", {}),
    ("nth -1 SUN 2021-03", "2021-03-28", "date", "day", {}),
    ("nth 3 TUE --09", "2026-09-15", "date", "day", {"year": "reference"}),
    ("easter +1 2021", "2021-04-05", "date", "day", {}),
    ("easter -2", "2026-04-03", "date", "day", {"year": "reference"}),
    ("orthodox-easter 0 2021", "2021-05-02", "date", "day", {}),
    (
        "date 1979-05-03 / date 1979-05-07",
        "1979-05-03/1979-05-07",
        "interval",
        "day",
        {},
    ),
    ("month 2015-05 / month 2016-06", "2015-05/2016-06", "interval", "month", {}),
    (
        "time 22:00 / time 06:00",
        "2026-01-15T22:00/2026-01-16T06:00",
        "interval",
        "minute",
        None,
    ),
    (
        "date --12-20 / date --01-05",
        "2026-12-20/2027-01-05",
        "interval",
        "day",
        {"start.year": "reference", "end.year": "start"},
    ),
    (
        "weekday MON at 09:00 / weekday FRI at 17:00",
        "2026-01-19T09:00/2026-01-23T17:00",
        "interval",
        "minute",
        None,
    ),
    ("shift day -1 / shift day +1", "2026-01-14/2026-01-16", "interval", "day", None),
]


@pytest.mark.parametrize(("form", "text", "kind", "grain", "parts"), DOCUMENTED)
def test_documented_resolutions(form, text, kind, grain, parts):
    answer = resolve(form, REF)
    assert (answer.text, answer.kind, answer.grain, answer.valid) == (
        text,
        kind,
        grain,
        True,
    ), answer
    assert (
        answer.form == form
        and answer.reference == "2026-01-15T09:17:42+00:00"
        and answer.prefer == "future"
    )
    if parts is not None:
        assert dict(answer.parts) == parts


REFUSED = [
    ("date 0 --02-29", "2026 has no 02-29"),
    ("nth 5 MON 2014-10", "2014-10 has no 5 MON"),
    ("shift year +7974", "outside the years 1-9999"),
    ("shift year -2026", "outside the years 1-9999"),
    (
        "date 1979-05-07 / date 1979-05-03",
        "ends (1979-05-03) before it starts (1979-05-07)",
    ),
    ("date 1979-05-03 / month 1979-06", "of one kind, not date and month"),
    ("cycle week 0 / cycle week +1", "not weeks"),
    ("weekday +1 FRIDAY", "not a form: expected a weekday"),
    ("tomorrow", "not a form: expected a form keyword"),
]


@pytest.mark.parametrize(("form", "reason"), REFUSED)
def test_refusals_name_their_reason(form, reason):
    answer = resolve(form, REF)
    assert not answer.valid and answer.text == "" and reason in answer.reason, answer
    assert answer.form == form


def test_at_the_calendar_edges():
    assert (
        resolve("cycle year -50", "0050-06-01").reason
        == "the answer falls outside the years 1-9999"
    )
    assert resolve("cycle year -49", "0050-06-01").text == "0001"
    assert (
        resolve("weekday +1 SAT", "9999-12-31").reason
        == "the answer falls outside the years 1-9999"
    )
    assert resolve("date --12-31", "9999-12-31").text == "9999-12-31"
    assert (
        "no 01-01 in the years 1-9999 after"
        in resolve("date +1 --01-01", "9999-06-01").reason
    )
    # Easter + 544 days of 9998 falls in 9999, after the reference.
    assert resolve("easter +544", "9999-10-01").text == "9999-10-01"


def test_policies_past_and_current():
    assert resolve("date --01-14", REF, prefer="past").text == "2026-01-14"
    assert resolve("date --05-03", REF, prefer="past").text == "2025-05-03"
    assert resolve("date --05-03", REF, prefer="current").text == "2026-05-03"
    assert resolve("weekday FRI", REF, prefer="past").text == "2026-01-09"
    assert resolve("weekday MON", REF, prefer="current").text == "2026-01-12"
    assert resolve("time 08:00", REF, prefer="past").text == "2026-01-15T08:00"
    assert resolve("time 20:00", REF, prefer="past").text == "2026-01-14T20:00"
    assert resolve("time 08:00", REF, prefer="current").text == "2026-01-15T08:00"


def test_month_shifts_clamp_to_the_last_day():
    assert resolve("shift month +1", "2026-01-31").text == "2026-02-28"
    assert resolve("shift month +1", "2028-01-31").text == "2028-02-29"
    assert resolve("shift year +1", "2028-02-29").text == "2029-02-28"
    assert resolve("shift month -1 day +1", "2026-03-31").text == "2026-03-01"


def test_elapsed_hours_across_daylight_saving_time():
    # 2026-03-29 02:00 CET is 03:00 CEST: three hours after 00:30 is 04:30.
    answer = resolve("shift hour +3", "2026-03-29T00:30", tz="Europe/Paris")
    assert (
        answer.text == "2026-03-29T04:30"
        and answer.reference == "2026-03-29T00:30:00+01:00"
    )
    # Days are on the wall clock: the day after is the same time.
    assert (
        resolve("shift day +1 at 00:30", "2026-03-28T00:30", tz="Europe/Paris").text
        == "2026-03-29T00:30"
    )


def test_the_reference_zone_decides_the_day():
    # 23:30 UTC on the 15th is already the 16th in Tokyo.
    assert resolve("shift day 0", "2026-01-15T23:30:00Z").text == "2026-01-15"
    assert (
        resolve("shift day 0", "2026-01-15T23:30:00Z", tz="Asia/Tokyo").text
        == "2026-01-16"
    )
    assert (
        resolve("shift day 0", "2026-01-15T23:30:00", tz="Asia/Tokyo").text
        == "2026-01-15"
    )
    assert (
        resolve("time 09:00+09:00", "2026-01-15T23:30:00Z").text
        == "2026-01-16T09:00+09:00"
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forms, edge_references, prefers, st.one_of(st.none(), st.sampled_from(ZONES)))
def test_every_form_against_every_reference_answers_or_says_why(
    form, reference, prefer, tz
):
    answer = resolve(form, reference, prefer=prefer, tz=tz)
    assert answer.form == str(form)
    if not answer.valid:
        assert answer.text == "" and answer.kind == "" and answer.reason
        return
    assert (
        answer.kind in ("date", "datetime", "month", "year", "interval")
        and not answer.reason
    )
    assert answer.grain in ("year", "month", "week", "day", "minute", "second")
    ends = answer.text.split("/") if answer.kind == "interval" else [answer.text]
    assert len(ends) == (2 if answer.kind == "interval" else 1)
    for end in ends:
        if len(end) == 4:
            assert 1 <= int(end) <= 9999
        elif len(end) == 7:
            dt.date.fromisoformat(end + "-01")
        else:
            dt.datetime.fromisoformat(end.replace("Z", "+00:00"))
    if answer.kind == "interval" and answer.grain in ("day", "month", "year"):
        assert ends[0] <= ends[1]


def test_the_reference_used_is_now_in_utc_without_one():
    before = dt.datetime.now(dt.timezone.utc)
    answer = resolve("shift day 0")
    used = dt.datetime.fromisoformat(answer.reference)
    assert used.utcoffset() == dt.timedelta(0) and before <= used <= dt.datetime.now(
        dt.timezone.utc
    )
    tokyo = resolve("shift day 0", tz="Asia/Tokyo")
    assert tokyo.reference.endswith("+09:00")


def test_references_of_every_type():
    assert (
        resolve("shift day 0", dt.datetime(2026, 1, 15, 9)).reference
        == "2026-01-15T09:00:00+00:00"
    )
    assert (
        resolve("shift day 0", dt.date(2026, 1, 15)).reference
        == "2026-01-15T00:00:00+00:00"
    )
    assert resolve("shift day 0", "2026-01-15").reference == "2026-01-15T00:00:00+00:00"
    aware = dt.datetime(2026, 1, 15, 9, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert resolve("shift day 0", aware).reference == "2026-01-15T09:00:00-05:00"
    assert (
        resolve("shift day 0", aware, tz="UTC").reference == "2026-01-15T14:00:00+00:00"
    )
    assert resolve("shift day 0", "0001-01-01T00:00").text == "0001-01-01"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"reference": "yesterday"}, "reference must be an ISO 8601 date or date-time"),
        ({"reference": "2026-13-01"}, "Received: reference='2026-13-01'"),
        ({"reference": "x" * 500}, "Received: reference='xxxx"),
        ({"reference": 1768467600}, "of type int"),
        (
            {"reference": "2026-01-15", "tz": "Mars/Olympus"},
            "Received: tz='Mars/Olympus'",
        ),
        ({"reference": "2026-01-15", "tz": 5}, "Received: tz=5"),
        (
            {"reference": "9999-12-31T23:00:00-05:00", "tz": "UTC"},
            "outside the years 1-9999",
        ),
        ({"reference": "2026-01-15", "prefer": "later"}, "Received: prefer='later'"),
        ({"form": 20260115}, "Received: form=20260115 of type int"),
        ({"form": b"shift day 0"}, "of type bytes"),
    ],
)
def test_a_wrong_argument_is_named_with_what_it_received(kwargs, message):
    kwargs = {"form": "shift day 0", **kwargs}
    with pytest.raises(ValueError, match="^(form|reference|tz|prefer)") as caught:
        resolve(**kwargs)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 300


def test_the_example_of_docs_dates_md_runs_as_written():
    page = (Path(__file__).resolve().parents[3] / "docs" / "dates.md").read_text(
        encoding="utf-8"
    )
    (block,) = re.findall(
        r"```python\n(from attention_zoo.applications.dates.resolver .*?)```",
        page,
        re.S,
    )
    names = {}
    checked = 0
    for line in block.splitlines():
        code, _, shown = line.partition("  # ")
        if not shown:
            exec(code, names)
            continue
        assert repr(eval(code, names)) == shown, line
        checked += 1
    assert checked == 3


def test_doctests():
    import doctest

    from attention_zoo.applications.dates import reference, resolver

    for module in (resolver, reference):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0
