"""The resolver: a form and a reference date-time in, an ISO 8601 value out.

The model reads a time expression into a form (`forms.py`); this module
does the calendar arithmetic, deterministically: `resolve(form, reference,
prefer=..., tz=...)` returns a `Resolution` with the value (`text`), its
kind and grain, which of its parts came from the reference, and the
reference it used. A form outside the grammar, an answer outside the
years 1-9999 or a day that does not exist (a fifth Tuesday, 29 February of
the reference's year under `prefer="current"`) is an answer that is not
valid, with the reason: never an exception, never a guess. The rules and
the policy are stated in docs/dates.md ("Time expressions"); in short:

- `prefer` picks what a form leaves open (`date --05-03`, `month --03`,
  `weekday FRI`, `time 17:30`, `nth 3 TUE --09`, `easter -2`): "future"
  (the default, as Duckling) the first occurrence on or after the
  reference, "past" the last on or before it, "current" the one of the
  reference's year (its ISO week for a weekday, its day for a time);
- a selector overrides it: `+k` the kth occurrence strictly after the
  reference's day (month, for `month`), `-k` the kth strictly before, `0`
  the reference's year (week, for `weekday`);
- shifts add years and months first (the day clamped to the month's last:
  31 January + 1 month is 28 or 29 February), then weeks and days, on the
  reference's wall clock, then hours, minutes and seconds in elapsed time;
- two-digit years by the fixed window of `readings` ('69 to '99 are
  1969 to 1999, '00 to '68 are 2000 to 2068);
- an interval's end that leaves a part open is its first occurrence on
  or after the start, so `time 22:00 / time 06:00` ends the next morning.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from collections.abc import Mapping

from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.forms import (
    At,
    Date,
    Easter,
    Form,
    FormError,
    Interval,
    Month,
    Nth,
    Time,
    Weekday,
)
from attention_zoo.applications.dates.points import (
    OUT_OF_RANGE,
    PointResolver,
    Refused,
    Value,
)
from attention_zoo.applications.dates.reference import parse_reference

PREFER = ("future", "past", "current")


@dataclasses.dataclass(frozen=True)
class Resolution:
    """What a form means against a reference.

    Attributes:
        text: the ISO 8601 value: `1979-05-03`, `2014-12-12T08:25` (seconds
            and offset only when the form writes them), `2015-03`, `1987`,
            an interval `start/end` (both inclusive); `""` when not valid.
        kind: `date`, `datetime`, `month`, `year` or `interval` (`""` when
            not valid).
        grain: the finest unit the value gives: `year`, `month`, `week`,
            `day`, `minute` or `second`.
        form: the form resolved, as written (the text received if it is none).
        parts: the value's parts the form does not write, and where they
            came from: `{"year": "reference"}` for `date --05-03`,
            `{"century": "window"}` for `date '79-05-03`, an interval's as
            `start.year`, `end.year` (`"start"`: from the interval's start).
        reference: the reference used, ISO 8601 with its offset.
        prefer: the policy used.
        valid, reason: whether it is an answer, and why not.
    """

    text: str
    kind: str
    grain: str
    form: str
    parts: Mapping[str, str]
    reference: str
    prefer: str
    valid: bool = True
    reason: str = ""


def leaves_open(form) -> bool:
    """Whether the policy picks a part of `form` (so an interval's end follows its start)."""
    if isinstance(form, At):
        return leaves_open(form.day)
    if isinstance(form, (Date, Month, Nth, Easter)):
        return form.year is None and getattr(form, "select", None) is None
    if isinstance(form, Weekday):
        return form.select is None and form.week is None
    return isinstance(form, Time)


def _start_moment(value: Value, zone: dt.tzinfo) -> dt.datetime:
    if value.kind == "datetime":
        moment = value.value
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)
    if value.kind == "date":
        return dt.datetime.combine(value.value, dt.time(), zone)
    year, month = value.value if value.kind == "month" else (value.value, 1)
    return dt.datetime(year, month, 1, tzinfo=zone)


def _order_key(value: Value, other: Value):
    if value.kind == "datetime" and (
        value.value.tzinfo is None or other.value.tzinfo is None
    ):
        return value.value.replace(tzinfo=None)
    return value.value


def _point(form, reference: dt.datetime, prefer: str) -> Value:
    """`form`'s value. A day at a time whose day the policy picks
    (`weekday THU at 08:00`, `date --01-15 at 08:00`) compares at its
    clock, as a time alone does: at 09:00 on Thursday 15 January,
    "Thursday at 8am" is the 22nd's under `future`, not the 15th's 08:00
    that has passed. The day found is on or after the reference's, so a
    value before the reference is on its day; the day is then picked again
    from the next day (from the day before under `past`)."""
    value = PointResolver(reference, prefer).point(form)
    if not isinstance(form, At) or not leaves_open(form) or prefer == "current":
        return value
    moment = value.value
    now = reference if moment.tzinfo is not None else reference.replace(tzinfo=None)
    seconds = now.second if form.clock.second is not None else 0
    now = now.replace(microsecond=0, second=seconds)
    step = 1 if prefer == "future" else -1
    if (moment - now) * step >= dt.timedelta(0):
        return value
    day = dt.datetime.combine(reference.date() + dt.timedelta(days=step), dt.time())
    return PointResolver(day.replace(tzinfo=reference.tzinfo), prefer).point(form)


def _interval(form: Interval, reference: dt.datetime, prefer: str) -> Value:
    start = _point(form.start, reference, prefer)
    if start.kind == "interval":
        raise Refused(
            "an interval's ends are days, months, years or date-times, not weeks"
        )
    from_start = leaves_open(form.end)
    if from_start:
        end = PointResolver(_start_moment(start, reference.tzinfo), "future").point(
            form.end
        )
    else:
        end = _point(form.end, reference, prefer)
    if end.kind != start.kind:
        raise Refused(
            f"an interval's ends are of one kind, not {start.kind} and {end.kind}"
        )
    if _order_key(end, start) < _order_key(start, end):
        raise Refused(f"the interval ends ({end.text}) before it starts ({start.text})")
    parts = {f"start.{k}": v for k, v in start.parts.items()}
    parts.update(
        {
            f"end.{k}": ("start" if from_start and v == "reference" else v)
            for k, v in end.parts.items()
        }
    )
    grain = "second" if "second" in (start.grain, end.grain) else start.grain
    return Value(
        "interval", (start.value, end.value), grain, parts, f"{start.text}/{end.text}"
    )


def resolve(
    form: Form | str, reference=None, *, prefer: str = "future", tz=None
) -> Resolution:
    """The value `form` means against `reference` (see the module's rules).

    Args:
        form: a form (`forms.py`) or its text; a text outside the grammar
            gives an answer that is not valid, with the parser's reason.
        reference: an ISO 8601 string, a `datetime` or None (now);
            `reference.parse_reference` reads it (naive means UTC, or `tz`).
        prefer: "future", "past" or "current": what a form leaves open means.
        tz: the zone the reference's wall clock is read in.

    Example:

    >>> resolve("weekday +1 FRI", "2026-01-15T09:00:00").text
    '2026-01-16'
    >>> answer = resolve("date --03-03", "2026-05-01")
    >>> answer.text, dict(answer.parts)
    ('2027-03-03', {'year': 'reference'})
    """
    if prefer not in PREFER:
        raise ValueError(
            f"prefer must be one of {', '.join(PREFER)}. Received: prefer={prefer!r:.80}"
        )
    moment = parse_reference(reference, tz)
    if not isinstance(form, (str, *typing.get_args(Form))):
        raise ValueError(
            "form must be a form of forms.py or its text. "
            f"Received: form={form!r:.80} of type {type(form).__name__}"
        )
    shown = str(form) if not isinstance(form, str) else form

    def refused(reason: str) -> Resolution:
        return Resolution(
            "",
            "",
            "",
            shown,
            types.MappingProxyType({}),
            moment.isoformat(),
            prefer,
            False,
            reason,
        )

    if isinstance(form, str):
        try:
            form = parse_form(form)
        except FormError as error:
            return refused(f"not a form: {error}")
    try:
        if isinstance(form, Interval):
            value = _interval(form, moment, prefer)
        else:
            value = _point(form, moment, prefer)
    except Refused as refusal:
        return refused(str(refusal))
    except (OverflowError, ValueError):
        return refused(OUT_OF_RANGE)
    return Resolution(
        value.text, value.kind, value.grain, str(form), types.MappingProxyType(value.parts),
        moment.isoformat(), prefer,
    )  # fmt: skip
