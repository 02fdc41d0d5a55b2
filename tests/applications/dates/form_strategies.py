"""Hypothesis strategies for every form of the grammar (forms.py), and references."""

import calendar
import datetime as dt

from hypothesis import strategies as st

from attention_zoo.applications.dates.forms import (
    CYCLE_UNITS,
    SHIFT_UNITS,
    ZONES,
    At,
    Clock,
    Cycle,
    Date,
    DateTime,
    Easter,
    Interval,
    Month,
    Nth,
    Shift,
    Time,
    Weekday,
    Year,
    YearForm,
    full_year,
)

references = st.datetimes(
    min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(9999, 12, 31, 23, 59, 59)
)
# Most references away from the calendar's two edges, some at them.
edge_references = st.one_of(
    references,
    st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(1, 3, 1)),
    st.datetimes(
        min_value=dt.datetime(9999, 10, 1),
        max_value=dt.datetime(9999, 12, 31, 23, 59, 59),
    ),
)
selects = st.integers(-99, 99)
small_selects = st.integers(-4, 4)
years = st.one_of(
    st.builds(Year, st.integers(1, 9999)),
    st.builds(Year, st.integers(0, 99), st.just(True)),
)
zones = st.one_of(
    st.none(),
    st.just("Z"),
    st.builds(
        lambda sign, h, m: f"{sign}{h:02d}:{m:02d}",
        st.sampled_from("+-"),
        st.integers(0, 13),
        st.sampled_from((0, 15, 30, 45)),
    ).filter(lambda z: z != "-00:00"),
    st.sampled_from(ZONES),
)
clocks = st.builds(
    Clock,
    st.integers(0, 23),
    st.integers(0, 59),
    st.one_of(st.none(), st.integers(0, 59)),
    zones,
)


@st.composite
def full_dates(draw, select=False):
    year = draw(st.one_of(st.none(), years))
    month = draw(st.integers(1, 12))
    length = calendar.monthrange(2000 if year is None else full_year(year), month)[1]
    day = draw(st.integers(1, length))
    chosen = (
        draw(st.one_of(st.none(), small_selects)) if select and year is None else None
    )
    return Date(month, day, year, chosen)


@st.composite
def with_year(draw):
    year = draw(years)
    month = draw(st.integers(1, 12))
    return Date(
        month,
        draw(st.integers(1, calendar.monthrange(full_year(year), month)[1])),
        year,
    )


@st.composite
def shifts(draw, day_only=False):
    units = SHIFT_UNITS[:4] if day_only else SHIFT_UNITS
    chosen = draw(st.lists(st.sampled_from(units), min_size=1, max_size=3, unique=True))
    chosen.sort(key=SHIFT_UNITS.index)
    return Shift(tuple((unit, draw(st.integers(-999_999, 999_999))) for unit in chosen))


months = st.one_of(
    st.builds(Month, st.integers(1, 12), years),
    st.builds(
        Month, st.integers(1, 12), st.none(), st.one_of(st.none(), small_selects)
    ),
)
weekdays = st.one_of(
    st.builds(Weekday, st.integers(0, 6), st.one_of(st.none(), selects)),
    # `week K DOW`: K not 0 (this week's is `weekday 0 DOW`)
    st.builds(
        lambda d, k: Weekday(d, week=k), st.integers(0, 6), selects.filter(bool)
    ),
)
nths = st.builds(
    Nth, st.sampled_from((1, 2, 3, 4, 5, -1, -2, -3, -4, -5)), st.integers(0, 6), st.integers(1, 12),
    st.one_of(st.none(), years),
)  # fmt: skip
easters = st.builds(
    Easter, st.integers(-999, 999), st.one_of(st.none(), years), st.booleans()
)
day_forms = st.one_of(
    full_dates(select=True), weekdays, nths, easters, shifts(day_only=True)
)
points = st.one_of(
    full_dates(select=True),
    months,
    st.builds(YearForm, years),
    st.builds(Time, clocks),
    st.builds(DateTime, with_year(), clocks),
    shifts(),
    st.builds(Cycle, st.sampled_from(CYCLE_UNITS), selects),
    weekdays,
    nths,
    easters,
    st.builds(At, day_forms, clocks),
)
forms = st.one_of(points, st.builds(Interval, points, points))
