"""The grounding of a form: every number and word it uses is written in its text.

A run of the forms target writes a form (`forms.py`) that the resolver
computes whatever the text said (a short run answered "yesterday" with
`easter -2`). So a form is valid only where the text (`data.normalize`d:
native digits and CJK numerals read as digits, lower case) writes what
the form uses, by these rules (`form_disagreement` names the first part
that fails: "the form's '3' is not written in the text"):

- a number of the form (a day of the month, an amount `day -3`, an hour, a
  minute, a second, a rank `nth 3`) is a run of digits of the text with its
  value, or a day word of the lexicon naming that number alone (`twenty`);
  a four-digit year is a run of that value, a two-digit year (`'79`) a run
  of two digits; a minute 00 may go unwritten (`5 pm`);
- a month is named by a month word of the lexicon (`mai`, `9月`: the month
  words `lexicon.month_disagreement` reads; a marker's digits are its) or,
  where the text names none, written as its number; with no year, not
  only by an abbreviation that is another language's word written with
  a capital as a name ("iPhone 15 Pro": `form_homographs.py`);
- an hour written on a 12-hour clock (`5` for 17) needs a period of the
  text that CLDR writes with that hour (`pm`, `in the evening`, `下午`:
  `form_words.period_phrases`), and an hour no period of the text is
  written with is refused (`5:30 pm` is not 05:30); "noon", "à minuit"
  are 12:00, 00:00 (`form_words.named_time_phrases`), 7点半 7:30, not 7:00;
  a whole hour needs a clock (`FormText.writes_a_clock`): "page 12" is no 12:00;
- a zone (`form_zones`): `Z` needs `z`, `utc` or `gmt`; an offset its sign
  and digits (`+02:00`, `+0200`) or its abbreviation (`EST`); a name its
  city or words (`form_words.zone_phrases`: "по московскому времени"); a
  text writing a zone needs one (`10:00 EST`);
- a relative form is named by CLDR's relative texts of the 27 languages
  (`form_words.relative_phrases`): `shift day -1` by "yesterday", "ayer";
  `shift day -3` by a pattern of days in the past ("ago", "hace", "vor")
  and the number 3; `cycle week +1` by "next week"; `weekday +2 FRI` by
  "in {0} Fridays" and 2 (only so: "last Friday 8 pm" is no `weekday -8
  FRI`); `shift week -2 day -3` by its units and direction (`form_compound`);
  `week +1 FRI` by the weekday's name and a text of that week ("下周五"),
  a weekday form of a text naming another week not at all (`form_weeks`);
  else the weekday's name (`form_words.weekday_phrases`; not in
  another unit's relative text: Indonesian "2 minggu lalu" is weeks) and,
  for a selector ±1 or 0, a word of its direction ("last", "this", "next":
  `form_words.direction_phrases`), as `date -1 --12-25` needs;
- `nth N DOW ...` needs the ordinal word of N (`form_words.rank_phrases`:
  "the third", "le dernier"), the weekday's name (beside an ordinal, the
  nth words' own too: `form_words.nth_weekday_phrases`, "أول اثنين"), the
  month and the year;
- `easter N` and a fixed holiday's `date --12-25` need a holiday name that
  means them (`form_words.holiday_phrases`: "Good Friday" is `easter -2`;
  "Christmas" `date --12-25`), a name inside a longer one found not
  counting (`easter` in `easter monday`; `easter` in `easter saturday`,
  one of the hand-written `other_days`);
- an interval grounds both its ends, a day form `at` a time both parts;
- a time or a year is no reading of a text naming a month ("9 мая" is no
  `time 09:00`; nor checked for a relative form: Spanish `ago` is one),
  and an interval uses every month its text names; a form with no relative
  part uses the text's relative words ("明天下午5点" is no 17:00 alone:
  `FormText.unused_relative`; "last March" no `month --03`:
  `form_selectors.py`), nor a half ("half an hour": `form_halves.py`);
  a form with no clock is no reading of a text naming noon or midnight
  ("tomorrow noon" is no `shift day +1`);
- no form is a reading of a text that writes a repetition ("every
  Monday", "cada lunes", 每周一: `form_repeats.py`), or a relative word of
  two opposite meanings (Hindi कल: `form_two_way.py`);
- each number of the text is used once and is the form's: the parts that
  take their number from its digits each find a run of their own
  (`FormText.overclaimed`: `2014-12-12 08:12` is not the 8th at 08:12), a
  day is not a number written only as a time's (`10 Uhr`, `à 10`), and
  every run of digits is a number of the form, of a phrase (`第3`), of a
  note, of a written offset or month marker, or the 00 of a whole hour
  (`FormText.unused`: `vendredi 13 novembre 2015 à 21h20` is no
  interval of the 13th to the 21st).

A part the text does not write (the year of `date --05-03`) is no number
of the form; the answer's `parts` name it. A `date YYYY-MM-DD` no holiday
name grounds is an ISO date's (`form_answers.form_checks`). Python only.
"""

from __future__ import annotations

from attention_zoo.applications.dates import form_numeric
from attention_zoo.applications.dates.form_clocks import periods_beside, written_hour
from attention_zoo.applications.dates.form_compound import compound_disagreement
from attention_zoo.applications.dates.form_halves import half_disagreement
from attention_zoo.applications.dates.form_homographs import homograph_disagreement
from attention_zoo.applications.dates.form_joins import ranged_clock
from attention_zoo.applications.dates.form_other_months import other_month
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_repeats import repeat_disagreement
from attention_zoo.applications.dates.form_selectors import unused_direction
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.form_two_way import two_way_disagreement
from attention_zoo.applications.dates.form_weeks import week_form_disagreement
from attention_zoo.applications.dates.form_years import year_disagreement
from attention_zoo.applications.dates.form_zones import missing as _missing
from attention_zoo.applications.dates.form_zones import zone_disagreement
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import (
    WEEKDAYS,
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
    has_clock,
    relative_part,
)
from attention_zoo.applications.dates.grounding import _compact as _compact_forms

_DIRECTIONS = {-1: "last", 0: "this", 1: "next"}


def _number(t: FormText, n: int, what: str) -> str:
    if n in t.numbers:
        t.claim(what, n)
        return ""
    if n in t.day_words:
        return ""
    return _missing(f"{what} {n!r}")


def _year(t: FormText, year: Year) -> str:
    if year.short:
        ok = any(len(r) == 2 and int(r) == year.value for r in t.runs)
    else:
        ok = year.value in t.numbers
    if ok:
        t.claim("year", year.value)
        return ""
    return _missing(f"year {str(year)!r}")


def _month(t: FormText, month: int) -> str:
    if t.months:
        if month in t.months:
            if month in t.marked_months:
                t.allowed.add(month)  # the digits of a month marker, `9月`
            t.months_used.add(month)
            return ""
        return (
            f"the form's month {month:02d} is not the month the text names "
            f"({'/'.join(f'{m:02d}' for m in sorted(t.months))})"
        )
    if month in t.numbers:
        t.claim("month", month)
        return ""
    return _missing(f"month {month:02d}")


def _select(t: FormText, select: int | None) -> str:
    if select is None:
        return ""
    sign = (select > 0) - (select < 0)
    if abs(select) > 1:
        reason = _number(t, abs(select), "count")
        if reason:
            return reason
    if t.found(t.table("direction_phrases")[sign]):
        return ""
    return (
        f"the form's selector {select:+d} is not written in the text: no word "
        f"of a taught language says {_DIRECTIONS[sign]!r} there"
    )


def _compact(t: FormText, date: Date) -> bool:
    """Whether the text writes the date as one run of digits (`250481`)."""
    if date.year is None:
        return False
    runs = set(t.runs) & _compact_forms(full_year(date.year), date.month, date.day)
    for run in runs:
        t.claim("date", int(run))
    return bool(runs)


def _date(t: FormText, date: Date) -> str:
    reasons = []
    if _compact(t, date):  # a run the numeric rule reads: not claimed
        return _select(t, date.select)
    if t.holiday(("date", date.month, date.day)):
        t.months_used.add(date.month)  # a month word beside the name
    else:
        if t.hours_only(date.day):
            return (
                f"the form's day {date.day} is written only as a time's number "
                "(before a clock word or a period, after a clock's word: 10 Uhr, à 10)"
            )
        reasons += [_number(t, date.day, "day"), _month(t, date.month)]
        if date.year is None:  # "iPhone 15 Pro" is no 15 December
            reasons.append(homograph_disagreement(t, date.month))
        year = None if date.year is None else full_year(date.year)
        reasons.append(form_numeric.apart(t, date.day, date.month, year))
    if date.year is not None:
        reasons.append(_year(t, date.year))
    reasons.append(_select(t, date.select))
    return next((r for r in reasons if r), "")


def _clock(t: FormText, clock: Clock) -> str:
    hour = clock.hour
    if clock.second is None and t.named_time(hour, clock.minute):  # noon
        return zone_disagreement(t, clock.zone)
    # A 12-hour clock writes 17 as 5, and 12 as 12 or 0 (Japanese 午後0時).
    twelve = {hour % 12, hour % 12 or 12}
    periods = periods_beside(t, twelve | {hour})
    hours = set().union(*periods.values())
    # 13-23 written need no period, nor take a morning's ("13 am", not "дня, 23:00")
    written24 = hour > 12 and hour in t.numbers and max(hours, default=0) >= 12
    if periods and hour not in hours and not written24:
        return f"the form's hour {hour:02d} disagrees with the text's {min(periods)!r}"
    if (hour <= 12 or hour not in t.numbers) and not written_hour(t, clock):
        return _missing(f"hour {hour:02d}")  # the rule the hour pass settles by
    if clock.minute == 0 and clock.second is None and not t.writes_a_clock():
        return f"the text writes the hour {hour:02d} as no clock (page 12)"
    t.claim("hour", hour, *(twelve if hour in hours else ()))
    if clock.minute == 0:
        t.allowed.add(0)  # `17:00` beside `5 pm`
    half = t.half_past(twelve | {hour}, every=clock.minute == 0)  # 7点半: 7:30
    minute = (
        "" if clock.minute in (0, 30) and half == (clock.minute == 30)
        else "the form's minute is not the text's half past (半)" if half
        else _number(t, clock.minute, "minute")
    )  # fmt: skip
    reasons = [
        minute,
        form_numeric.no_clock(t, hour, clock.minute),
        ranged_clock(t, hour, clock.minute) if clock.minute else "",
        t.unwritten_seconds()
        if clock.second is None
        else _number(t, clock.second, "second"),
        zone_disagreement(t, clock.zone),
    ]
    return next((r for r in reasons if r), "")


def _relative(t: FormText, form) -> bool:
    """Whether a named relative text of the form is in the text."""
    return str(form) in t.named(t.table("relative_phrases"))


def _counted(t: FormText, field: str, amount: int) -> bool:
    """Whether a counted pattern of `field` in the direction of `amount` is
    in the text with the number `abs(amount)` in its slot."""
    sign = 1 if amount > 0 else -1
    table = t.table("relative_phrases")
    for _, _, p, n in t.spans(table):
        if (field, sign) in table[p] and n is not None and t.writes(abs(amount), n):
            if n.isdigit():
                t.claim("count", abs(amount))
            return True
    return False


def _shift(t: FormText, shift: Shift) -> str:
    # Its count first: `mañana` is in "dentro de 1 día a las 7 de la mañana".
    (unit, amount), *more = shift.steps
    if not more and amount and _counted(t, unit, amount) or _relative(t, shift):
        return ""
    if more:  # "2 weeks and 3 days ago": its units, its direction around them
        return compound_disagreement(t, shift.steps)
    return (
        f"the form's {f'{unit} {amount:+d}' if amount else f'{unit} 0'!r} is not "
        "written in the text: no word of a taught language names it with its "
        "number (yesterday, 3 days ago, hace 3 días, in ...)"
    )


def _cycle(t: FormText, cycle: Cycle) -> str:
    if _relative(t, cycle):
        return ""
    return (
        f"the form's {str(cycle)!r} is not written in the text: no word of a "
        "taught language names it (this week, next month, last year ...)"
    )


def _weekday_named(t: FormText, weekday: int, table="weekday_phrases") -> str:
    # Not a name inside a relative text of another unit: Indonesian's week
    # is its Sunday's name ("2 minggu lalu", two weeks ago, is no Sunday).
    relative = t.table("relative_phrases")
    units = [
        h[:2]
        for h in t.spans(relative)
        if not any(d in str(m) for m in relative[h[2]] for d in WEEKDAYS)
    ]
    names = t.table(table)
    named = {
        names[p]
        for start, end, p, _ in t.spans(names)
        if not any(a <= start and end <= b for a, b in units)
    }
    if weekday in named:
        return ""
    return _missing(f"weekday {WEEKDAYS[weekday]!r}")


def _weekday(t: FormText, form: Weekday) -> str:
    name = WEEKDAYS[form.weekday]
    if _relative(t, form) or form.select and _counted(t, name, form.select):
        return ""
    table = t.table("relative_phrases")
    sign = 1 if (form.select or 0) > 0 else -1
    count = _missing(f"count {abs(form.select or 0)} (of {name})")
    if form.select and any((name, sign) in table[p] for p in t.found(table)):
        return count
    named = _weekday_named(t, form.weekday)
    return named or (count if abs(form.select or 0) > 1 else _select(t, form.select))


def _nth(t: FormText, form: Nth) -> str:
    if form.n not in t.named(t.table("rank_phrases")):
        return _missing(f"rank {form.n!r} (an ordinal word: the third, the last)")
    reasons = [
        _weekday_named(t, form.weekday, "nth_weekday_phrases"),
        _month(t, form.month),
    ]
    if form.year is not None:
        reasons.append(_year(t, form.year))
    return next((r for r in reasons if r), "")


def _easter(t: FormText, form: Easter) -> str:
    keyword = "orthodox-easter" if form.orthodox else "easter"
    if not t.holiday((keyword, form.days)):
        head = str(form) if form.year is None else str(form).rsplit(" ", 1)[0]
        return (
            f"the form's {head!r} is not written in the text: no holiday name "
            "of a taught language means it"
        )
    return "" if form.year is None else _year(t, form.year)


def _point(t: FormText, form) -> str:
    if isinstance(form, Date):
        return _date(t, form)
    if isinstance(form, Month):
        return (
            _month(t, form.month)
            or ("" if form.year is None else _year(t, form.year))
            or _select(t, form.select)
        )
    # A time or a year uses no month: a text naming one was not read whole.
    if isinstance(form, YearForm):
        return _year(t, form.year) or t.unused_month()
    if isinstance(form, Time):
        return t.unused_month() or _clock(t, form.clock)
    if isinstance(form, DateTime):
        return _date(t, form.date) or _clock(t, form.clock)
    if isinstance(form, Shift):
        return _shift(t, form)
    if isinstance(form, Cycle):
        return _cycle(t, form)
    if isinstance(form, Weekday):
        return week_form_disagreement(t, form) or _weekday(t, form)
    if isinstance(form, Nth):
        return _nth(t, form)
    if isinstance(form, Easter):
        return _easter(t, form)
    if isinstance(form, At):
        return _point(t, form.day) or _clock(t, form.clock)
    raise TypeError(f"form must be a form of forms.py. Received: {form!r:.80}")


def form_disagreement(text: str, form: str, lexicon, days, languages=LANGUAGES) -> str:
    """Why `form` (a text of the grammar) is not grounded in `text` (the
    input, as written), "" when it is (module docstring). `lexicon` and
    `days`: the run's month and day words (`lexicon.load`, `load_days`);
    `languages`: the run's, whose words the phrases are (`form_words`).
    Raises FormError when `form` is outside the grammar."""
    parsed = parse_form(form)
    t = FormText(text, lexicon, days, languages)
    if isinstance(parsed, Interval):
        reason = t.read_ends(lambda point: _point(t, point), parsed)
    else:
        reason = _point(t, parsed)
    if not reason and not relative_part(parsed):  # "last March" is no March
        reason = t.unused_relative() or unused_direction(t, parsed)
    if not reason and not has_clock(parsed):  # "tomorrow noon" is no day alone
        named = sorted(t.found(t.table("named_time_phrases")))
        reason = named and (
            f"the text names a time ({named[0]!r}) that the form does not write"
        )
    if not reason and isinstance(parsed, YearForm):
        reason = year_disagreement(text, languages)  # "2000 km" is no year
    if not reason and relative_part(parsed):  # "half an hour" is no hour
        reason = half_disagreement(text, languages)
    if not reason:  # "every Monday" is a set of Mondays; Hindi कल two days
        reason = repeat_disagreement(text, languages) or two_way_disagreement(
            text, languages
        )
    return reason or t.overclaimed() or t.unused() or other_month(t)
