"""Generated relative expressions, and relative days with a time.

- `relative(language)`: the pairs of `expressions.relative_expressions`
  (CLDR's relative fields: "ayer", "hace 3 días", "el mes pasado", "in 2
  Fridays"), and the named days CLDR lacks (`expression_words.json`
  `named_days`: English "the day after tomorrow", which CLDR's English
  does not write while its Spanish "pasado mañana" is there), and the
  relative texts CLDR does not write (`relative`: "hace un año", "daqui
  a uma semana", Arabic "بعد 3 أيام", Hindi "3 दिन बाद");
- `relative_at(language)`: a relative day ("tomorrow", "in 3 days", "pasado
  mañana") and a time, joined by the language's CLDR date-time pattern
  (`{1}, {0}`: "tomorrow, 5:00 PM") and by its hand-written `at`
  ("{day} a las {time}") -> `shift day +1 at 17:00`; after an `at`, a
  whole hour as people write it too (`expr_spoken`: "tomorrow at 5pm",
  "morgen um 8 Uhr", "明天下午5点", "tomorrow at noon"); and by the joiners
  people write without a word (`loose_joiners`: "tomorrow 3pm", "morgen
  15 Uhr") and by the time first (`time_first`: "3pm tomorrow", "à midi
  demain", "в 15:00 завтра"); a named day ("tomorrow", "hier", "明天":
  `named`) is written more, by every joiner with a CLDR time and with a
  whole hour by each pattern people write it with (`_named_at`: one
  text a joiner, by a coin, left "3pm tomorrow" read at a low score and
  "9am tomorrow" misread), as it is how most people write a day with a
  time;
- `weekday_at(language)`: a weekday, alone ("Monday", "am Montag") or
  with next, last or this (CLDR's "next Monday"), and a time by any of
  those joiners -> `weekday +1 MON at 10:00` ("next Monday at 10am",
  "viernes a las 10:00", "月曜日の午前9時").

Each value is computed here from `REFERENCE` with `datetime` arithmetic
(the week's Monday, the month's last day for a clamped month shift), not
by the resolver; a weekday alone keeps the reference `expr_weekdays`
drew for it (a midnight), and a time adds its clock to the day.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from collections import defaultdict

from attention_zoo.applications.dates import expr_weekdays
from attention_zoo.applications.dates.expr_timed import (
    hour_patterns,
    spoken_at,
    timed,
)
from attention_zoo.applications.dates.expression_pairs import (
    REFERENCE,
    Pair,
    locale,
    rng,
    with_native,
    word_form,
    words,
    ymd,
)
from attention_zoo.applications.dates.expressions import relative_expressions
from attention_zoo.applications.dates.formats import LOCALES
from attention_zoo.applications.dates.forms import WEEKDAYS

_SPANS = {
    "second": dt.timedelta(seconds=1),
    "minute": dt.timedelta(minutes=1),
    "hour": dt.timedelta(hours=1),
}
# The counts of a hand-written counted text (`relative`, "en {0} días"),
# and how many of them each text is written with.
COUNTS = (2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20)
PER_COUNTED = 4


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` moved by `months`, its day clamped to the month's last."""
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def relative_value(form: str, reference: dt.datetime = REFERENCE) -> str:
    """The ISO value of one of the relative forms this module writes, at `reference`."""
    words_ = form.split(" ")
    today = reference.date()
    if words_[0] == "shift":
        unit, amount = words_[1], int(words_[2])
        if unit in _SPANS:
            moment = reference + amount * _SPANS[unit]
            return moment.isoformat(
                timespec="seconds" if unit == "second" else "minutes"
            )
        if unit in ("day", "week"):
            return ymd(today + dt.timedelta(days=amount * (7 if unit == "week" else 1)))
        return ymd(add_months(today, amount * (12 if unit == "year" else 1)))
    if words_[0] == "cycle":
        unit, select = words_[1], int(words_[2])
        if unit == "week":
            monday = (
                today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=select)
            )
            return f"{ymd(monday)}/{ymd(monday + dt.timedelta(days=6))}"
        if unit == "month":
            first = add_months(today.replace(day=1), select)
            return f"{first.year:04d}-{first.month:02d}"
        return f"{today.year + select:04d}"
    if words_[0] == "weekday":
        select, weekday = int(words_[1]), WEEKDAYS.index(words_[2])
        if select == 0:  # the reference's ISO week
            return ymd(today + dt.timedelta(days=weekday - today.weekday()))
        step = 1 if select > 0 else -1
        day, found = today, 0
        while found < abs(select):
            day += dt.timedelta(days=step)
            found += day.weekday() == weekday
        return ymd(day)
    raise ValueError(
        f"form must be a shift, cycle or weekday form. Received: form={form!r:.80}"
    )


def _relative(language: str) -> list[Pair]:
    reference = REFERENCE.isoformat()
    out = [
        Pair(e.text, e.form, language, "relative", reference, relative_value(e.form))
        for e in relative_expressions(language)
    ]
    for text, days in words(language).get("named_days", {}).items():
        form = "shift day " + ("0" if days == 0 else f"{days:+d}")
        out.append(
            Pair(text, form, language, "relative", reference, relative_value(form))
        )
    r = rng("relative_words", language)
    for text, unit, amount, *bounds in words(language).get("relative", ()):
        if "{0}" not in text:
            written = [(text, amount)]
        else:  # `amount` is the direction; Arabic plurals bound the counts
            low, high = bounds or (2, 20)
            counts = [n for n in COUNTS if low <= n <= high]
            chosen = r.sample(counts, min(PER_COUNTED, len(counts)))
            written = [(text.format(n), amount * n) for n in chosen]
        for phrase, steps in written:
            form = word_form(unit, steps)
            out.append(
                Pair(
                    phrase, form, language, "relative", reference, relative_value(form)
                )
            )
    return out


def relative(language: str) -> list[Pair]:
    return with_native(_relative(language))


def _cldr_joiner(language: str) -> str:
    """The language's CLDR date-time pattern with `{day}` and `{time}` ("{day}, {time}")."""
    pattern = str(locale(language).datetime_formats["medium"])
    return pattern.replace("{1}", "{day}").replace("{0}", "{time}")


def loose_joiners(language: str) -> list[str]:
    """The joiners of a day and a time without a word: a space where the
    language spaces its words and has no such joiner of its own ("tomorrow
    3pm", "morgen 15 Uhr"; Chinese and Japanese glue them, "{day}{time}"
    of their `at`), and those that write the time first (`time_first`)."""
    at = words(language).get("at", [])
    spaced = [] if {"{day} {time}", "{day}{time}"} & set(at) else ["{day} {time}"]
    return spaced + time_first(language)


def time_first(language: str) -> list[str]:
    """The joiners that write the time before the day: the hand-written
    `time_first` ("{time} {day}": "3pm tomorrow"), and where an `at` joins
    them with a word, that word before the time and the time alone before
    the day ("à {time} {day}", "{time} {day}": "à midi demain", "midi
    demain", "в 15:00 завтра"). A language whose `at` has no word (Chinese
    明天下午3点, Turkish, Korean) writes the day first only."""
    out = list(words(language).get("time_first", []))
    for joiner in words(language).get("at", []):
        found = re.fullmatch(r"\{day\},? (.+) \{time\}", joiner)
        if found:
            out += [f"{found.group(1)} {{time}} {{day}}", "{time} {day}"]
    return list(dict.fromkeys(out))


def named(pair: Pair) -> bool:
    """Whether `pair` is a named day ("yesterday", "pasado mañana", "明天";
    a count of at most two, no digit), not a counted one ("in 3 days")."""
    amount = int(pair.form.split(" ")[2])
    return abs(amount) <= 2 and not any(c.isdigit() for c in pair.text)


@functools.lru_cache(maxsize=32)
def _period_words(language: str) -> frozenset[str]:
    """CLDR's names of the day periods of `language`, case-folded, every width and context."""
    periods = locale(language).day_periods
    return frozenset(
        name.casefold()
        for context in periods.values()
        for names in context.values()
        for name in names.values()
    )


def _days(language: str) -> list[Pair]:
    """The relative days of one unit ("shift day N"): "tomorrow", "in 3 days"."""
    return [
        p for p in _relative(language)
        if p.form.startswith("shift day ") and p.form.count(" ") == 2
    ]  # fmt: skip


def relative_at(language: str) -> list[Pair]:
    """Relative days ("shift day N") with a time, by CLDR's and the
    hand-written joiners, then by the loose ones (`loose_joiners`)."""
    r = rng("relative_at", language)
    joiners = [_cldr_joiner(language)] + words(language).get("at", [])
    days = _days(language)
    out = []
    for joiner in joiners:
        for pair in days:
            moment = timed(language, joiner, pair, r, "relative_at", spoken=False)
            # CLDR's joiner writes the time right after the day, where дня
            # reads as the period ("через 4 дня, 02:30"); an `at` word between
            # them does not before a CLDR time ("через 2 дня в 06:00").
            if joiner == joiners[0] and two_readings(language, joiner, pair):
                continue  # after the draws, so the others stay as they were
            out.append(moment)
    for joiner in words(language).get("at", []):
        for pair in days:
            if not two_readings(language, joiner, pair):
                out.append(spoken_at(language, joiner, pair, r))
    # Drawn from their own stream, so the pairs above stay as they were.
    loose = rng("relative_at_loose", language)
    for joiner in loose_joiners(language):
        for pair in days:
            if not two_readings(language, joiner, pair):
                out.append(timed(language, joiner, pair, loose, "relative_at"))
    again = rng("relative_at_named", language)
    for pair in filter(named, days):
        for joiner in joiners + loose_joiners(language):
            if not two_readings(language, joiner, pair):
                out += _named_at(language, joiner, pair, again)
    return with_native(out)


def _named_at(language: str, joiner: str, pair: Pair, r) -> list[Pair]:
    """A named day and a time by `joiner`: a CLDR time, and a whole hour by
    each of `expr_timed.hour_patterns` ("3pm tomorrow", "3 p.m. tomorrow")."""
    out = [timed(language, joiner, pair, r, "relative_at", spoken=False)]
    for pattern in hour_patterns(language, joiner) or [None]:
        out.append(spoken_at(language, joiner, pair, r, "relative_at", pattern))
    return out


def two_readings(language: str, joiner: str, pair: Pair) -> bool:
    """Whether `pair`'s day and a time joined by `joiner` read two ways:

    - Russian "через 2 дня 06:00", "через четыре дня, 05:15" (CLDR's
      joiner too): a counted day's unit, дня (days), is
      also a day period (of the afternoon) when a time follows it; the
      hand-written `at` writes it ("через 2 дня в 06:00") but before a
      whole hour the period still reads ("через 2 дня в 2 ч"). A day word
      that is no count's unit is kept: "pasado mañana 15:00";
    - a time right before a relative text that is a counted one's without
      its count (`_count_tails`): "22:00 dzień temu" reads as "00 days
      ago", Indonesian "11.30 Senin lalu" as 30 Mondays ago;
    - a time right before a word that is a day period of a language taught
      (`_every_period`): Spanish "a las 3:00 este martes" writes
      Hungarian's evening (este) after the time."""
    text = pair.text.casefold()
    if joiner.endswith("{time} {day}"):
        return text in _count_tails(language) or text.split()[0] in _every_period()
    last = text.split()[-2:]
    # A count in digits, or in words ("через четыре дня": a day not named).
    spelled = pair.form.startswith("shift day ") and not named(pair)
    counted = (
        len(last) == 2
        and (last[0].isdigit() or spelled)
        and last[1] in _period_words(language)
    )
    # The time after the day, by a space or an `at` word ("через 2 дня в 2 ч").
    return joiner.find("{day}") < joiner.find("{time}") and counted


@functools.lru_cache(maxsize=32)
def _count_tails(language: str) -> frozenset[str]:
    """The counted relative texts of `language` without their count
    ("dzień temu" of "1 dzień temu"), case-folded."""
    return frozenset(
        re.sub(r"^[0-9]+\s*", "", p.text).casefold()
        for p in _relative(language)
        if p.text[:1].isdigit()
    )


@functools.lru_cache(maxsize=1)
def _every_period() -> frozenset[str]:
    """`_period_words` of every language."""
    return frozenset().union(*map(_period_words, LOCALES))


# The selectors of the weekdays written with a time: next, last, this
# ("in 3 Mondays at 10am" is not how people write it, nor "in 1 Monday").
AT_SELECTORS = ("-1", "0", "+1")
PER_WEEKDAY = 2  # texts of each weekday with a time, a joiner drawn for each


def weekday_at(language: str) -> list[Pair]:
    """Weekdays ("Monday", "am Montag", "next Monday") with a time: a
    weekday without a selector, the way most write one with a time, by
    every joiner of `relative_at`'s ("5pm Friday" was left to a draw),
    one with a selector `PER_WEEKDAY` times by a joiner drawn. A weekday
    text the language reads two ways (Hebrew's bare weekday is CLDR's
    "this Monday") is left out, as `time_expressions` leaves it alone out."""
    r = rng("weekday_at", language)
    # CLDR's counted texts are left out too: "in 1 Monday" is `weekday +1`.
    named = [
        p for p in _relative(language)
        if p.form.startswith("weekday ") and p.form.split(" ")[1] in AT_SELECTORS
        and not any(c.isdigit() for c in p.text)
    ]  # fmt: skip
    named += [p for p in expr_weekdays.weekdays(language) if p.kind == "weekday"]
    forms = defaultdict(set)
    for pair in named:
        forms[pair.text.casefold()].add(pair.form)
    joiners = weekday_joiners(language)
    out = []
    for pair in named:
        if len(forms[pair.text.casefold()]) > 1:
            continue
        bare = pair.kind == "weekday"
        for joiner in joiners if bare else r.choices(joiners, k=PER_WEEKDAY):
            if not two_readings(language, joiner, pair):
                out.append(timed(language, joiner, pair, r, "weekday_at"))
    return with_native(out)


def weekday_joiners(language: str) -> list[str]:
    """Every joiner of a weekday and a time: CLDR's, the hand-written `at`, the loose ones."""
    joiners = [_cldr_joiner(language)] + words(language).get("at", [])
    return joiners + loose_joiners(language)
