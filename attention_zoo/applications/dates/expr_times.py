"""Generated times and dates with a time.

- `times(language)`: a time alone (`time 17:30`, `time 08:25:10`), from
  CLDR's skeletons through Babel (`hm`, `Hm`, `hms`, `Hms`, `h`: 12- and
  24-hour clocks with the language's a.m./p.m.; `Bhm`, `Bh`: its day
  periods, "8:25 in the evening", "晚上8:25"), the clocks a language
  writes besides (`expression_words.json` `clocks`: French `17h30`,
  German `17.30 Uhr`, Japanese `午前8時15分`), with a case ending
  (`clock_suffixes`: Turkish `20:00'de`), a.m./p.m. spellings CLDR does
  not write (`periods`: English `5:30 p.m.`), and a 24-hour time in UTC
  (`17:30 UTC` -> `time 17:30Z`), and a time after the language's
  hand-written `at` ("at 5:30 PM", "a las 17:30"); some of them with a
  hand-written zone name (`zone_names`: "22:00 по московскому времени" ->
  `time 22:00[Europe/Moscow]`). The reference is the rendered day at
  midnight, so the default policy picks that day.
- `datetimes(language)`: a date skeleton and a time skeleton joined by the
  language's CLDR date-time pattern (`{1}, {0}`), Babel's `medium`
  date-time, a day of `formats.FORMATS` and a time by the hand-written
  joiners ("8:25 a.m. Dec. 12, 2014", "12 de mayo de 2014 a las 17:30"),
  and ISO 8601 (`2014-12-12T08:25:00Z`, an offset, a space for
  the `T`) -> `datetime 2014-12-12T08:25:00Z`; some of the local ones
  with a zone name ("北京时间2020年5月9日 22:00").
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import email.utils
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_datetime, format_skeleton, format_time

from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    clock,
    draw_day,
    half_day_apart,
    locale,
    rng,
    with_native,
    words,
    ymd,
)
from attention_zoo.applications.dates.formats import FORMATS
from attention_zoo.applications.dates.passes import normalize
from attention_zoo.applications.dates.readings import numeric_readings

# skeleton: (writes minutes, writes seconds)
TIME_SKELETONS = {
    "hm": (True, False),
    "Hm": (True, False),
    "hms": (True, True),
    "Hms": (True, True),
    "h": (False, False),
    "Bhm": (True, False),
    "Bh": (False, False),
}
DATE_SKELETONS = ("yMMMd", "yMMMMd", "yMMMEd")
DATETIME_TIME_SKELETONS = ("hm", "Hm", "Hms", "Bhm")
PER_SKELETON = 6
# The zones an ISO 8601 text writes: `Z` and the offsets in use, whole
# hours, half and quarter hours (India +05:30, Nepal +05:45).
OFFSETS = (
    ("Z", "+00:00")
    + tuple(f"+{h:02d}:00" for h in range(1, 15))
    + tuple(f"-{h:02d}:00" for h in range(1, 13))
    + ("+03:30", "+04:30", "+05:30", "+05:45", "+06:30", "+09:30", "+10:30")
    + ("-02:30", "-03:30", "-09:30")
)
ISO_ZONES = 8  # ISO 8601 texts with a zone, per language
# Texts with each hand-written zone name (`zone_names`), per name: dates
# with a time, and times alone.
ZONE_NAME_DATETIMES = 5
ZONE_NAME_TIMES = 2
# Languages that write the zone's name before the time ("北京时间22:00"),
# with what comes between.
ZONE_NAMES_FIRST = {"zh": "", "ja": "", "ko": " "}


def _draw_time(r, minutes: bool, seconds: bool) -> dt.time:
    return dt.time(
        r.randrange(24),
        r.randrange(60) if minutes else 0,
        r.randrange(60) if seconds else 0,
    )


def _zoned(value: str, zone: str, kind: str, reference: str) -> str:
    """The ISO 8601 value of `value` (a naive date-time) read in `zone` (`Z`
    or an IANA name, by zoneinfo's rules): a date-time at its day; a time at
    its first occurrence on or after `reference` (naive, UTC), on the
    zone's own calendar, as the resolver's default policy reads a time."""
    tz = dt.timezone.utc if zone == "Z" else ZoneInfo(zone)
    moment = dt.datetime.fromisoformat(value).replace(tzinfo=tz)
    if kind == "time":
        ref = dt.datetime.fromisoformat(reference).replace(tzinfo=dt.timezone.utc)
        moment = dt.datetime.combine(ref.astimezone(tz).date(), moment.time(), tz)
        if moment < ref:
            moment = dt.datetime.combine(
                moment.date() + dt.timedelta(days=1), moment.time(), tz
            )
    text = moment.isoformat(timespec="seconds" if len(value) > 16 else "minutes")
    return text.replace("+00:00", "Z") if zone == "Z" else text


def _named_zones(language: str, pairs: list[Pair], count: int, r) -> list[Pair]:
    """`count` of `pairs` (times or dates with a time, of no zone, ASCII
    digits; of the years since 1970, whose offsets are whole minutes) per
    hand-written zone name of the language, the name written after the text
    (before it in `ZONE_NAMES_FIRST`): "22:00 по московскому времени" ->
    `time 22:00[Europe/Moscow]`; "بتوقيت غرينتش" -> `Z`."""
    pairs = [p for p in pairs if p.value[:4] >= "1970"]
    out = []
    for name, zone in words(language).get("zone_names", {}).items():
        for pair in r.sample(pairs, min(count, len(pairs))):
            first = ZONE_NAMES_FIRST.get(language)
            text = f"{pair.text} {name}" if first is None else name + first + pair.text
            out.append(
                dataclasses.replace(
                    pair,
                    text=text,
                    form=pair.form + ("Z" if zone == "Z" else f"[{zone}]"),
                    value=_zoned(pair.value, zone, pair.kind, pair.reference),
                )
            )
    return out


def _time_pair(language, kind, text, at: dt.time, seconds: bool, day, zone="") -> Pair:
    written = clock(at.hour, at.minute, at.second if seconds else None) + zone
    reference = dt.datetime.combine(day, dt.time()).isoformat()
    return Pair(
        text, f"time {written}", language, kind, reference, f"{ymd(day)}T{written}"
    )


def times(language: str) -> list[Pair]:
    r = rng("times", language)
    where = locale(language)
    hand = words(language)
    out = []
    for skeleton, (minutes, seconds) in TIME_SKELETONS.items():
        for _ in range(PER_SKELETON):
            at, day = _draw_time(r, minutes, seconds), draw_day(r)
            text = format_skeleton(skeleton, at, locale=where)
            if text == format_skeleton(skeleton, half_day_apart(at), locale=where):
                continue
            out.append(_time_pair(language, "time", text, at, seconds, day))
    for pattern in hand.get("clocks", ()):
        for _ in range(PER_SKELETON):
            at, day = _draw_time(r, True, False), draw_day(r)
            text = format_time(at, pattern, locale=where)
            out.append(_time_pair(language, "time", text, at, False, day))
    out += _suffixed(language, r)
    for half, spellings in hand.get("periods", {}).items():
        for spelling in spellings:
            for _ in range(PER_SKELETON):
                at, day = _draw_time(r, r.random() < 0.7, False), draw_day(r)
                at = at.replace(hour=at.hour % 12 + (12 if half == "pm" else 0))
                twelve = at.hour % 12 or 12
                head = (
                    f"{twelve}:{at.minute:02d}"
                    if at.minute or r.random() < 0.5
                    else f"{twelve}"
                )
                glue = "" if spelling.isalpha() and r.random() < 0.5 else " "
                out.append(
                    _time_pair(
                        language, "time", f"{head}{glue}{spelling}", at, False, day
                    )
                )
    # A time after the word a day and time are joined with ("at 5:30 PM",
    # "a las 17:30", "um 8:15"): how a time alone is written in a sentence.
    for joiner in hand.get("at", ()):
        word = joiner.split("{time}")[0].split("{day}")[-1].strip()
        if not joiner.startswith("{day} ") or not word:  # 明天下午5点: no word
            continue
        for _ in range(2 * PER_SKELETON):
            skeleton = r.choice(("hm", "Hm", "h"))
            at, day = _draw_time(r, skeleton != "h", False), draw_day(r)
            text = format_skeleton(skeleton, at, locale=where)
            if text == format_skeleton(skeleton, half_day_apart(at), locale=where):
                continue
            out.append(_time_pair(language, "time", f"{word} {text}", at, False, day))
    out += _named_zones(language, list(out), ZONE_NAME_TIMES, r)
    for _ in range(PER_SKELETON):
        at, day = _draw_time(r, True, False), draw_day(r)
        text = format_skeleton("Hm", at, locale=where) + " UTC"
        out.append(_time_pair(language, "time", text, at, False, day, "Z"))
    return with_native(out)


def _suffixed(language: str, r) -> list[Pair]:
    """Times with the case ending a sentence gives them (`clock_suffixes`:
    "saat 20:00'de", "saat 8'de", "18:30-kor"). Turkish's ending agrees with the
    last number read aloud, the minute's or, on the hour, the hour's
    (`by_last_number`: its units' word, or its tens' where it ends in 0)."""
    spec = words(language).get("clock_suffixes")
    if not spec:
        return []
    where, table, out = locale(language), spec.get("by_last_number", {}), []
    for pattern in spec["patterns"]:
        for _ in range(PER_SKELETON):
            at, day = _draw_time(r, r.random() < 0.7, False), draw_day(r)
            # On the hour "saat 8'de"; a bare "8'de" is no clock.
            bare = pattern.startswith("{clock}")
            whole = at.minute == 0 and not bare and r.random() < 0.5
            written = str(at.hour) if whole else format_skeleton("Hm", at, locale=where)
            last = at.minute or at.hour
            suffix = table.get(str(last if last % 10 == 0 else last % 10), "")
            text = pattern.format(clock=written, suffix=suffix)
            out.append(_time_pair(language, "time", text, at, False, day))
    return out


def _datetime_pair(language, text, moment: dt.datetime, seconds: bool, zone="") -> Pair:
    written = (
        f"{ymd(moment.date())}T"
        f"{clock(moment.hour, moment.minute, moment.second if seconds else None)}{zone}"
    )
    return Pair(
        text,
        f"datetime {written}",
        language,
        "datetime",
        REFERENCE.isoformat(),
        written,
    )


# The families of formats.FORMATS whose days a time is joined to: a month
# word, so the joined text has one reading.
SPOKEN_HOURS = tuple(h for h in range(24) if h % 12 not in (0, 1))
JOINED_FAMILIES = ("babel", "pattern", "abbreviation", "ordinal", "spelled")
# Days written with digits for the month, joined where they read one way
# (`13/09/2018 à 8h`; `12/09/2018` reads two and is left out).
NUMERIC_FAMILIES = ("numeric", "separated")


def one_reading(text: str, day: dt.date) -> bool:
    """Whether a rendered `day` is read as that day only (an all-numeric text
    with two readings, Portuguese `06/05/1997`, is not)."""
    readings = numeric_readings(normalize(text))
    return readings is None or readings == {day.isoformat()}


def day_time_joiners(language: str) -> list[str]:
    """The language's hand-written `at` joiners ("{day} um {time}"), and a
    comma where it spaces its words ("12.03.2019, 18:45 Uhr"; not where it
    glues them, "2020年1月23日10点")."""
    at = words(language).get("at", [])
    return at + ([] if "{day}{time}" in at else ["{day}, {time}"])


def _joined(language: str, r) -> list[Pair]:
    """A day of `formats.FORMATS` and a time, by the language's joiners
    (`day_time_joiners`: "{day} a las {time}", "{day}, {time}"; `time_first`:
    "8:25 a.m. Dec. 12, 2014"); the time by a CLDR skeleton, an a.m./p.m.
    spelling (`periods`) or a clock the language writes (`clocks`: "18:45 Uhr",
    "8h05")."""
    hand = words(language)
    joiners = day_time_joiners(language) + hand.get("time_first", [])
    days = [
        f
        for f in FORMATS
        if f.language == language and f.family in JOINED_FAMILIES + NUMERIC_FAMILIES
    ]
    out = []
    for joiner in joiners:
        for _ in range(2 * PER_SKELETON):
            fmt = r.choice(days)
            at = _draw_time(r, True, False)
            # Hours 2-11 and 14-23: Spanish and Portuguese write "a la 1", "à 1".
            at = at.replace(hour=r.choice(SPOKEN_HOURS))
            moment = dt.datetime.combine(draw_day(r), at)
            # Digits glued to digits (`2032/1/1521:28`) read as no day.
            glued = "{day}{time}" in joiner or "{time}{day}" in joiner
            if fmt.family in NUMERIC_FAMILIES and (
                glued or not one_reading(fmt.render(moment.date()), moment.date())
            ):
                continue
            # A day in words and the same number in the time: the grounding
            # reads "vingt-trois juin 2072 à 23:27" as one 23 written for two
            # parts (as `expr_spoken.dated_hours` leaves days in words out).
            if fmt.family == "spelled" and moment.day in (
                moment.hour,
                moment.hour % 12 or 12,
                moment.minute,
            ):
                continue
            time_text = joined_time(language, moment.time(), r)
            text = joiner.format(day=fmt.render(moment.date()), time=time_text)
            out.append(_datetime_pair(language, text, moment, False))
    return out


def joined_time(language: str, at: dt.time, r) -> str:
    """`at` as a time joined to a day is written (`_joined`): with an
    a.m./p.m. spelling (`periods`), a clock the language writes (`clocks`)
    or a CLDR skeleton, by a draw of `r`."""
    hand = words(language)
    spellings = [w for half in hand.get("periods", {}).values() for w in half]
    how = r.random()
    if spellings and how < 0.4:
        spelling = r.choice(hand["periods"]["am" if at.hour < 12 else "pm"])
        return f"{at.hour % 12 or 12}:{at.minute:02d} {spelling}"
    if hand.get("clocks") and how < 0.5:
        return format_time(at, r.choice(hand["clocks"]), locale=locale(language))
    return format_skeleton(r.choice(("hm", "Hm")), at, locale=locale(language))


def datetimes(language: str) -> list[Pair]:
    r = rng("datetimes", language)
    where = locale(language)
    joined = where.datetime_formats["medium"]
    local = []
    for date_skeleton in DATE_SKELETONS:
        for time_skeleton in DATETIME_TIME_SKELETONS:
            _, seconds = TIME_SKELETONS[time_skeleton]
            moment = dt.datetime.combine(draw_day(r), _draw_time(r, True, seconds))
            text = str(joined).format(
                format_skeleton(time_skeleton, moment, locale=where),
                format_skeleton(date_skeleton, moment, locale=where),
            )
            local.append(_datetime_pair(language, text, moment, seconds))
    for _ in range(PER_SKELETON):
        moment = dt.datetime.combine(draw_day(r), _draw_time(r, True, True))
        text = format_datetime(moment, "medium", locale=where)
        # An all-numeric day (German `06.12.1922`) only with the one reading
        # the absolute days keep (readings.numeric_readings).
        if not one_reading(
            format_date(moment.date(), "medium", locale=where), moment.date()
        ):
            continue
        local.append(_datetime_pair(language, text, moment, True))
    local += _joined(language, r)
    out = with_native(local)
    # ISO 8601: ASCII digits everywhere; `Z` in every language, as logs and
    # APIs write it most.
    for zone in ("Z", *r.sample(OFFSETS[1:], ISO_ZONES - 1)):
        moment = dt.datetime.combine(draw_day(r), _draw_time(r, True, True))
        iso = moment.isoformat(r.choice("T "))
        out.append(_datetime_pair(language, iso + zone, moment, True, zone))
        out.append(_datetime_pair(language, iso[:16] + zone, moment, False, zone))
        if zone != "Z":  # "2019-06-01 10:00 +02:00", as logs write it
            text = f"{iso[:16]} {zone}"
            out.append(_datetime_pair(language, text, moment, False, zone))
    moment = dt.datetime.combine(draw_day(r), _draw_time(r, True, False))
    out.append(_datetime_pair(language, moment.isoformat(" ")[:16], moment, False))
    out += _named_zones(language, local, ZONE_NAME_DATETIMES, r)
    return out + _basic_offsets(language, r)


def _basic_offsets(language: str, r) -> list[Pair]:
    """ISO 8601's basic offset (`2019-06-01T10:00:00+0200`), and in English
    RFC 2822's date-time (`Sat, 01 Jun 2019 10:00:00 +0200`, e-mail's and
    HTTP's): the offset without its colon, which logs write as often."""
    out = []
    for zone in r.sample(OFFSETS[2:], ISO_ZONES):
        moment = dt.datetime.combine(draw_day(r, 1970, 2099), _draw_time(r, True, True))
        basic = zone.replace(":", "")
        iso = moment.isoformat(r.choice("T "))
        out.append(_datetime_pair(language, iso + basic, moment, True, zone))
        if language == "en":
            offset = dt.timezone(
                dt.timedelta(hours=int(zone[:3]), minutes=int(zone[0] + zone[4:]))
            )
            text = email.utils.format_datetime(moment.replace(tzinfo=offset))
            out.append(_datetime_pair(language, text, moment, True, zone))
    return out
