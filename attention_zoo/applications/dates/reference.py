"""The reference date-time a time expression is resolved against.

Every entry point takes one: an ISO 8601 string (`"2026-01-15T09:00:00"`,
`"2026-01-15"`, with `Z` or an offset or without), a `datetime` or a
`date`, or None for now. `parse_reference` reads it once, for all of them,
into an aware `datetime` in the caller's zone:

- `tz` (a name of the tz database, `"Europe/Paris"`, or a `tzinfo`) is the
  zone the reference's wall clock is read in: a naive reference is taken
  as a wall time there, an aware one converted to it;
- without `tz`, a naive reference is UTC and an aware one keeps its offset;
- None is now, in `tz` or UTC.

A wrong argument is a `ValueError` naming the argument and what it received.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def parse_zone(tz) -> dt.tzinfo | None:
    """The `tzinfo` the argument `tz` names: None, a `tzinfo`, or a tz database name."""
    if tz is None or isinstance(tz, dt.tzinfo):
        return tz
    if isinstance(tz, str):
        try:
            return zoneinfo.ZoneInfo(tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            pass
    raise ValueError(
        "tz must be None, a tzinfo or a time zone name of the tz database "
        f"(e.g. 'Europe/Paris'). Received: tz={_shown(tz)}"
    )


def parse_reference(reference=None, tz=None, *, now=None) -> dt.datetime:
    """`reference` as an aware `datetime` in the zone `tz` (UTC by default).

    `now` (a function returning an aware datetime) is for tests; the
    default is the clock.

    Example:

    >>> parse_reference("2026-01-15T09:00:00").isoformat()
    '2026-01-15T09:00:00+00:00'
    >>> parse_reference("2026-01-15T09:00:00Z", tz="Asia/Tokyo").isoformat()
    '2026-01-15T18:00:00+09:00'
    """
    zone = parse_zone(tz)
    if reference is None:
        moment = (now or (lambda: dt.datetime.now(dt.timezone.utc)))()
        return moment.astimezone(zone or dt.timezone.utc)
    if isinstance(reference, str):
        try:
            moment = dt.datetime.fromisoformat(reference)
        except ValueError:
            raise ValueError(
                "reference must be an ISO 8601 date or date-time (e.g. "
                f"'2026-01-15T09:00:00'), a datetime or None. Received: reference={_shown(reference)}"
            ) from None
    elif isinstance(reference, dt.datetime):
        moment = reference
    elif isinstance(reference, dt.date):
        moment = dt.datetime.combine(reference, dt.time())
    else:
        raise ValueError(
            "reference must be an ISO 8601 string, a datetime, a date or None. "
            f"Received: reference={_shown(reference)} of type {type(reference).__name__}"
        )
    try:
        if moment.tzinfo is None or moment.utcoffset() is None:
            return moment.replace(tzinfo=zone or dt.timezone.utc)
        return moment.astimezone(zone) if zone is not None else moment
    except (OverflowError, ValueError):
        # Converting a reference at the calendar's edge to another zone can
        # leave years 1-9999 (9999-12-31T23:00-05:00 is 10000 in UTC).
        raise ValueError(
            "reference is outside the years 1-9999 in the zone it is read in. "
            f"Received: reference={_shown(reference)}, tz={_shown(tz)}"
        ) from None
