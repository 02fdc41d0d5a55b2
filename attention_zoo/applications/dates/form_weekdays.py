"""The weekdays a text names against the days its answer falls on.

A form that selects no weekday may be read from a text that names one:
"Monday 9am" read as `time 09:00` resolves to the reference's next 9:00,
whatever day that is. So an answer is valid only where every weekday its
text names is the weekday of a day the answer gives (`weekday_disagreement`):
the day of a date or date-time, either end of an interval of days; an
answer coarser than a day (a week, a month, a year) gives none. It is
read on the resolved value, not on the form, so one rule holds for every
form and its resolution: "next Friday" and "Easter Monday" fall on their
weekdays, "Monday, March 3" resolved to a Tuesday is refused rather than
answered on the wrong day or the wrong year.

A weekday is named by CLDR's wide name in a language of the run
(`form_words.weekday_phrases` with `widths=("wide",)`), or by an
abbreviation in Han or kana (Chinese "周一"): the other abbreviations are
other words too (Indonesian "Min" is minutes elsewhere, German "So"
English's "so", Spanish "mar" March). A name inside a phrase of another
table does not count: a relative time's ("2 minggu lalu", in Indonesian
the week is its Sunday's name), an ordinal's (Vietnamese "thứ hai",
second and Monday), a holiday's, a day period's, a month's or a unit's
of a compound shift (Romanian "4 luni", four months).

A weekday of a named week is the weekday of that week (`week_disagreement`):
"下周五", "来週の金曜日", "Friday next week", "vendredi la semaine
prochaine" name the Friday of the week after the reference's (ISO,
Monday to Sunday), which "the next Friday" is not from a Monday; a run
read Chinese 下周五 as this week's Friday (the form that says that week's,
`week +1 FRI`, is `form_weeks`', which code sets). So
a text that names a weekday and one week (a text of CLDR's `cycle week`:
"下周", "next week", "minggu depan") is answered only by days of that
week. A weekday's name that starts inside the week's name counts
(下周五: 下周 and 周五 share 周), one wholly inside it does not
(Indonesian "minggu depan", next week, whose week is its Sunday's name),
nor one inside a longer phrase of another table; one that is another
table's whole phrase does (Vietnamese "thứ hai", Monday and second).
"""

from __future__ import annotations

import datetime as dt
import functools

from attention_zoo.applications.dates import form_compound, form_words, phrase_spans
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import WEEKDAYS

# The tables whose phrases hold words a weekday's name may be part of.
_OTHER_TABLES = (
    form_words.relative_phrases,
    form_words.rank_phrases,
    form_words.holiday_phrases,
    form_words.period_phrases,
    form_words.month_phrases,
)
# The grains of an answer that gives its days (`resolver.Resolution.grain`).
_DAY_GRAINS = ("day", "hour", "minute", "second")


@functools.lru_cache(maxsize=8)
def weekday_names(languages=LANGUAGES) -> dict[str, int]:
    """`{phrase: weekday}`: the wide names, and the abbreviations written
    in a script without spaces (module docstring)."""
    short = form_words.weekday_phrases(languages, widths=("abbreviated",))
    unspaced = {p: d for p, d in short.items() if any(map(phrase_spans.unspaced, p))}
    return {**unspaced, **form_words.weekday_phrases(languages, widths=("wide",))}


def named_weekdays(text: str, languages=LANGUAGES) -> set[int]:
    """The weekdays (Monday 0) that `text` (as written) names by a wide
    name of `languages`, outside the phrases of the other tables."""
    languages = tuple(languages)
    normalized = phrase_spans.normalized(text)
    table = weekday_names(languages)
    hits = phrase_spans.spans(normalized, table)
    if not hits:
        return set()
    taken = _taken(normalized, languages)
    return {
        table[p]
        for start, end, p, _ in hits
        if not any(a < end and start < b for a, b in taken)
    }


def _taken(normalized: str, languages, but=()) -> list[tuple[int, int]]:
    """The spans of the phrases of `_OTHER_TABLES` and of the units of a
    compound shift with their digits in `normalized`, but those of `but`:
    where a weekday's name is part of another phrase."""
    hits = [
        h
        for table in _OTHER_TABLES
        for h in phrase_spans.spans(normalized, table(languages))
    ]
    hits += form_compound.counted_units(normalized, languages)
    return [h[:2] for h in hits if h[:2] not in but]


def answer_days(value: str, grain: str) -> list[dt.date]:
    """The days an ISO answer (`Resolution.text`) gives: a date's or a
    date-time's, an interval's two ends; none coarser than a day."""
    if grain not in _DAY_GRAINS:
        return []
    return [dt.date.fromisoformat(end[:10]) for end in value.split("/")]


def weekday_disagreement(text: str, value: str, grain: str, languages=LANGUAGES) -> str:
    """Why the answer `value` of `grain` does not fall on a weekday that
    `text` names, "" when it does or when the text names none."""
    named = named_weekdays(text, languages)
    if not named:
        return ""
    days = answer_days(value, grain)
    missing = named - {day.weekday() for day in days}
    if not missing:
        return ""
    names = "/".join(WEEKDAYS[w] for w in sorted(missing))
    if not days:
        return f"the text names a weekday ({names}) that the answer, a {grain}, does not give"
    on = ", ".join(f"{day.isoformat()} a {WEEKDAYS[day.weekday()]}" for day in days)
    return f"the text names a weekday ({names}) that the answer does not fall on ({on})"


@functools.lru_cache(maxsize=8)
def week_names(languages=LANGUAGES) -> dict[str, int]:
    """`{phrase: k}`: the texts that name one week, `k` weeks from the
    reference's ("next week": 1), from `form_words.relative_phrases`."""
    out = {}
    for phrase, forms in form_words.relative_phrases(languages).items():
        (form,) = forms if len(forms) == 1 else (None,)
        if isinstance(form, str) and form.startswith("cycle week "):
            out[phrase] = int(form.split(" ")[2])
    return out


def named_week(text: str, languages=LANGUAGES) -> int | None:
    """The week (`k` from the reference's) whose weekday `text` names, or
    None: where it names no weekday, no week, or two weeks."""
    languages = tuple(languages)
    normalized = phrase_spans.normalized(text)
    weeks = phrase_spans.spans(normalized, week_names(languages))
    if not weeks:
        return None
    # A weekday's name wholly inside a week's ("minggu" in "minggu depan")
    # or inside a longer phrase of another table ("2 minggu lalu") names no
    # weekday; beside a week, a name that is another table's whole phrase
    # is the weekday (Vietnamese "thứ hai tuần sau": Monday, not second).
    inside = [w[:2] for w in weeks]
    taken = _taken(normalized, languages, but=inside)
    weekdays = [
        (start, end)
        for start, end, _, _ in phrase_spans.spans(normalized, weekday_names(languages))
        if not any(a <= start and end <= b for a, b in inside)
        and not any(a <= start and end <= b and b - a > end - start for a, b in taken)
    ]
    ks = {week_names(languages)[p] for _, _, p, _ in weeks}
    return ks.pop() if weekdays and len(ks) == 1 else None


def week_disagreement(
    text: str, value: str, grain: str, today: dt.date, languages=LANGUAGES
) -> str:
    """Why the answer `value` of `grain` has a day outside the week whose
    weekday `text` names, counted from the ISO week of `today` (the
    reference's day), or is coarser than a day (the whole week, `cycle
    week +1` for 下周五, drops the weekday); "" when it is days of that
    week, or the text names no such week."""
    k = named_week(text, languages)
    if k is None:
        return ""
    monday = today - dt.timedelta(days=today.weekday() - 7 * k)
    sunday = monday + dt.timedelta(days=6)
    days = answer_days(value, grain)
    if not days:
        return (
            f"the text names a weekday of the week {monday.isoformat()}/"
            f"{sunday.isoformat()}, which the answer, a {grain}, does not give"
        )
    outside = [day for day in days if not monday <= day <= sunday]
    if not outside:
        return ""
    return (
        f"the text names a weekday of the week {monday.isoformat()}/"
        f"{sunday.isoformat()} ({k:+d} from the reference's), which the answer"
        f" does not fall in ({', '.join(day.isoformat() for day in outside)})"
    )
