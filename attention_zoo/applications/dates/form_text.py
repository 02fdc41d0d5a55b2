"""What the grounding of a form reads of its text (`form_grounding`): its
runs of digits (a quantity's, "12 km", are none), month words, day words
and phrases, and the numbers the form's parts take from it (`claim`),
each run to one part (`overclaimed`)."""

from __future__ import annotations

import collections
import functools
import re

from attention_zoo.applications.dates import (
    day_order,
    expression_pairs,
    expressions,
    form_words,
    phrase_spans,
)
from attention_zoo.applications.dates.data import normalize
from attention_zoo.applications.dates.form_joins import interval_disagreement
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import NOW
from attention_zoo.applications.dates.grounding import NOTE
from attention_zoo.applications.dates.text_words import mark_months, words

_RUNS = re.compile(r"[0-9]+")
# A number with a unit or a currency is a quantity ("12 km", "5 %", "$12",
# "12,5 kg", "20 °c"), no part of a date, nor a number a form leaves
# unused: the symbols no language we read writes as a word ("12 h" is a
# French hour, "12 in" English's "in", "1° maggio" Italian's 1st).
_QUANTITY = re.compile(
    r"[$€£¥₹₽₺] ?[0-9]+(?:[.,][0-9]+)*"
    r"|(?<![0-9])[0-9]+(?:[.,][0-9]+)* ?"
    r"(?:%|(?:°[cf]|km/h|kwh|km|kg|cm|mm|mg|ml|kb|mb|gb|tb|mph)(?![^\W\d_]))"
)
# A clock with seconds, `00:00:01` (dots are a date's as often: `12.03.20`).
_SECONDS = re.compile(r"(?<![0-9])[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?![0-9])")
_DIGIT = re.compile("[0-9]")
_NOTE = re.compile(NOTE)
# Minutes after an hour (two digits: `3:0` is a score), or an `h` that is
# no word's first letter.
_CLOCK = re.compile(
    r"(?<![0-9])[0-9]{1,2} ?(?::[0-9]{2}(?![0-9])|h(?![^\W\d_])|\.[0-9]{2}(?![0-9]))"
)
# An `h` after an hour's digits, no word's first letter (`2h`, `17 h`).
_AN_H = re.compile(r" ?h(?![^\W\d_])")
# An hour and its minutes (`21:20`, `21.20`, `17h30`, spaced or not): the
# minutes are the two digits after the hour's separator.
_HOUR_MINUTE = re.compile(r"(?<![0-9])([0-9]{1,2}) ?(?::|h|\.) ?([0-9]{2})(?![0-9])")
# What ends right before a clock's minutes: an hour and its separator.
_AFTER_AN_HOUR = re.compile(r"[0-9] ?(?::|h|\.) ?$")


@functools.lru_cache(maxsize=8)
def _hour_affixes(languages) -> re.Pattern:
    """The words before and after the hour of the hand-written `hours`
    patterns of `languages` (`a las {H}`, `{H} Uhr`, `{h}点`), beside a run
    of one or two digits."""
    before, after = set(), set()
    for language in languages:
        for pattern in expression_pairs.words(language).get("hours", ()):
            head, _, tail = re.sub(r"\{[Ba]\}", "{x}", pattern).partition(
                "{H}" if "{H}" in pattern else "{h}"
            )
            head, tail = head.split("{x}")[-1], tail.split("{x}")[0]
            if head.strip():
                word = normalize(head).strip()
                edge = "" if phrase_spans.unspaced(word[0]) else r"(?<![^\W\d_])"
                before.add(edge + re.escape(word) + " ?")
            if tail.strip():
                word = normalize(tail).strip()
                edge = r"(?![^\W\d_])"
                if phrase_spans.unspaced(word[-1]):  # 時, but not of 時間
                    edge = expressions.unit_lookahead(word, language)
                after.add(" ?" + re.escape(word) + edge)
    hour = r"(?<![0-9])[0-9]{1,2}(?![0-9])"
    either = [
        rf"(?:{'|'.join(sorted(before))}){hour}" if before else "",
        rf"{hour}(?:{'|'.join(sorted(after))})" if after else "",
    ]
    return re.compile("|".join(e for e in either if e) or "(?!)")


def month_names(found, phrases, lexicon, table) -> list[frozenset[int]]:
    """The months each month word of `found` (a text's `words`, read in
    `lexicon`) and each phrase of `phrases` (of `table`,
    `form_words.month_phrases`) may name."""
    return [frozenset(lexicon.get(w) or ()) for w in found] + [
        frozenset(table[p]) for p in phrases
    ]


class FormText:
    """What the rules read of one text: its numbers, words and phrases."""

    def __init__(self, text: str, lexicon, days, languages=LANGUAGES):
        self.written, self.lexicon = text, lexicon
        self.text = phrase_spans.apostrophes(re.sub(r"\s+", " ", normalize(text)))
        self._spans: dict[int, tuple] = {}  # the table kept: its id stays its
        # Numbers the text may write beside what the parts claim: a month
        # marker's (`9月`), an offset's, the 00 of a whole hour.
        self.allowed: set[int] = set()
        # Where a run of digits is a phrase's (`第3`, `1. weihnachtstag`) or
        # a note's (`[12]`), no number of the form's.
        self.covered = [m.span() for m in _NOTE.finditer(self.text)]
        self.covered += [m.span() for m in _QUANTITY.finditer(self.text)]
        self.languages = tuple(languages)
        self.runs = _RUNS.findall(_QUANTITY.sub(" ", self.text))
        self.numbers = {int(r) for r in self.runs}
        found = words(mark_months(self.text))
        self.other_words = {w for w in found if not lexicon.get(w)}  # no month's
        table = form_words.month_phrases(self.languages)
        self.month_names = month_names(found, self.found(table), lexicon, table)
        self.months = set().union(*self.month_names)
        # The months written as a number beside a marker (`9月`, `tháng 9`),
        # whose digits are the month's, not a day's ("1. Januar" is no January).
        marked = (lexicon.get(w) or () for w in found if w.startswith("月"))
        self.marked_months = set().union(*marked)
        self.months_used: set[int] = set()  # those a part of the form took
        # A weekday's digit is its name's (Vietnamese `thứ 3`, Tuesday).
        self.spans(form_words.weekday_phrases(self.languages))
        self.days = days
        # A day written in words names the days every one of its words, side
        # by side, names (`twenty-eighth`: 21-29 and 8, 28: the 28th).
        self.day_words, group = set(), []
        for w in [*found, ""]:
            if w in days:
                group.append(set(days[w]))
            elif group:
                self.day_words |= set.intersection(*group)
                group = []
        # `{(part, values): None}`: the numbers the form's parts took from
        # the text's digits, in order; one key for the year or month both
        # ends of an interval share (`13-15/07/2013`), one per end for the
        # rest (`de 14h à 16h30` writes 30 once: no 14:30 to 16:30).
        self.claims: dict[tuple[str, frozenset[int]], None] = {}
        self.interval = False  # set while an interval's ends are read
        self.end = False  # set while its end is read

    def hours_only(self, n: int) -> bool:
        """Whether every run of digits of value `n` is an hour's: followed by a
        clock word, a period or an `h` (`10 Uhr`, `8 утра`, an `h` after it) or
        after a word of the clock (`à 10`: `day_order.hour_starts`), so no
        day's."""
        hours = day_order.hour_starts(self.text, self.lexicon, self.languages)
        runs = [m for m in _RUNS.finditer(self.text) if int(m[0]) == n]
        clock = [
            m.start() in hours
            or self._before_clock_word(m)
            or bool(_AN_H.match(self.text, m.end()))
            for m in runs
        ]
        return bool(runs) and all(clock)

    def _before_clock_word(self, run: re.Match) -> bool:
        """Whether a period or a clock word follows the run of digits `run`."""
        starts = {s for s, _, _, _ in self.spans(self.table("period_phrases"))}
        rest = self.text[run.end() :]
        gap = len(rest) - len(rest.lstrip(" "))
        word = re.match(r"[^\W\d_]+", rest[gap:])
        clock = form_words.clock_words(self.languages)
        return run.end() + gap in starts or bool(
            word and len(word[0]) > 1 and word[0] in clock
        )

    def clock_hours(self) -> set[int]:
        """The numbers (0-23) the text writes as a clock's hour: before its
        minutes or an `h` (`22:00`, `17h30`), a period or a clock word
        (`8 pm`, `6 Uhr`), or in a hand-written `hours` pattern (`a las 7`,
        `8点`). A date's `12.03` reads as a clock here too: a caller needs
        one hour, so it then has two."""
        found = [m[0] for m in _CLOCK.finditer(self.text)]
        found += [m[0] for m in _hour_affixes(self.languages).finditer(self.text)]
        # Not a clock's minutes before its period (the 21 of `2:21 p.m.`).
        found += [
            m[0]
            for m in _RUNS.finditer(self.text)
            if self._before_clock_word(m)
            and not _AFTER_AN_HOUR.search(self.text, 0, m.start())
        ]
        hours = {int(_RUNS.search(f)[0]) for f in found}
        return {h for h in hours if h < 24}

    def clock_minutes(self, hours: set[int]) -> set[int]:
        """The minutes (0-59) the text writes right after one of `hours` and
        a clock's separator (`21h20`, `21:20`, `8.15`)."""
        pairs = [(int(m[1]), int(m[2])) for m in _HOUR_MINUTE.finditer(self.text)]
        return {minute for hour, minute in pairs if hour in hours and minute < 60}

    def named_time(self, hour: int, minute: int) -> bool:
        """Whether a word of noon or midnight of the text names `hour`:`minute`
        ("noon": 12:00); the digits of its hour (`12 noon`) are then its."""
        if (hour, minute) not in self.named(self.table("named_time_phrases")):
            return False
        self.allowed |= {hour, hour % 12 or 12, minute}
        return True

    def half_past(self, hours: set[int], every: bool = False) -> bool:
        """Whether a run of digits of one of `hours` (`every`: each one) is followed,
        a space between or none, by a clock word of half past (`7点半`, `3 y media`)."""
        halves = self.table("half_hour_phrases")
        runs = [m for m in _RUNS.finditer(self.text) if int(m[0]) in hours]
        after = [self.text[m.end() :].removeprefix(" ") for m in runs]
        half = [any(rest.startswith(h) for h in halves) for rest in after]
        return bool(runs) and (all(half) if every else any(half))

    def writes_a_clock(self) -> bool:
        """Whether the text writes a time as a clock, not as a bare number
        ("الصفحة ١٢", page 12, is no 12:00): minutes after the hour (`5:30`,
        `17h30`, `17.30`) or an `h` after it, a period (`pm`, `下午`),
        a word of CLDR's clocks (`Uhr`, `時`), or the words the hand-written
        `hours` write beside the hour (`a las 7`, `الساعة ٥`, `3 बजे`)."""
        if _CLOCK.search(self.text) or self.spans(self.table("period_phrases")):
            return True
        if set(words(self.text)) & self.table("clock_words"):
            return True
        return bool(_hour_affixes(self.languages).search(self.text))

    def claim(self, part: str, *values: int) -> None:
        """Note that the form's `part` is one of the text's runs of digits
        of one of `values`."""
        if self.end and part not in ("year", "month"):
            part = f"end's {part}"
        self.claims[(part, frozenset(values))] = None

    def holiday(self, meaning: tuple) -> bool:
        """Whether a holiday name of the text means `meaning`
        (`form_words.holiday_phrases`: `("easter", -2)`, `("date", 12, 25)`)."""
        return meaning in self.named(self.table("holiday_phrases"))

    def unwritten_seconds(self) -> str:
        """Why a clock without seconds reads a text that writes them
        (`01.01.2000 00:00:01` is no midnight): "" when it writes none."""
        if _SECONDS.search(self.text):
            return "the text writes a time's seconds, which the form does not use"
        return ""

    def read_ends(self, read, interval) -> str:
        """Why `read(point)` (the grounding of a point) refuses an end of
        `interval`, or why its text names a month neither end took or
        writes nothing that joins two ends, or two ends that are one point
        (`form_joins`), or ""."""
        self.interval = True
        for self.end, point in enumerate((interval.start, interval.end)):
            reason = read(point)
            if reason:
                return reason
        own = any(part.startswith("end's") for part, _ in self.claims)
        return self.unread_month() or interval_disagreement(
            self.written, interval, self.languages, own
        )

    def unused(self) -> str:
        """ "" when every run of digits of the text is a number of the form
        (claimed or allowed), else the reason: `vendredi 13 novembre 2015 à
        21h20` is no interval of the 13th to the 21st."""
        used = self.allowed.union(*(values for _, values in self.claims))
        for m in _RUNS.finditer(self.text):
            inside = any(a <= m.start() and m.end() <= b for a, b in self.covered)
            if not inside and int(m[0]) not in used:
                return (
                    f"the text writes the number {m[0]}, which the form does "
                    "not use (a time, a second date, a count?)"
                )
        return ""

    def unused_month(self) -> str:
        """Why a text that names a month was not read whole by a form that
        took none of its months ("9 мая" read as 09:00)."""
        if not self.months or self.months_used:
            return ""
        named = "/".join(f"{m:02d}" for m in sorted(self.months))
        return f"the text names a month ({named}) that the form does not use"

    def relative_words(self) -> list[str]:
        """The named relative texts of the text (`relative_phrases`) that
        are no part of a day period, a weekday's or a holiday's name
        (`unused_relative`), in order."""
        hits = self.spans(self.table("relative_phrases"))
        if not hits:
            return []
        other = ("period_phrases", "weekday_phrases", "holiday_phrases")
        taken = [h[:2] for name in other for h in self.spans(self.table(name))]
        return [
            p for start, end, p, _ in hits
            if not any(a < end and start < b for a, b in taken)
        ]  # fmt: skip

    def unused_relative(self) -> str:
        """Why a form with no relative part reads a text that names a day,
        week, month or year relative to now ("明天下午5点" read as 17:00
        alone): a named relative text (`form_words.relative_phrases`: "明天",
        "yesterday", "next week") that is no part of a day period ("de la
        mañana"), a weekday's name (Dutch "ma", Hungarian today) or a
        holiday's ("اليوم العالمي للمرأة"). "Now" itself (`NOW`) moves no
        day, so a time written beside it is that time; and its words are
        other languages' words: Italian "ora" is Romanian's hour ("la ora
        17:00"), Danish "nu" Romanian's "not"."""
        table = self.table("relative_phrases")
        for p in self.relative_words():
            if any(
                isinstance(f, str) and f.startswith(("shift", "cycle")) and f != NOW
                for f in table[p]
            ):
                return (
                    f"the text writes {p!r}, a time relative to now, which the "
                    "form does not use"
                )
        return ""

    def written_zones(self) -> dict[str, str]:
        """`{as written: the form's zone}` of the zones the text writes: an
        abbreviation in capitals (`EST`: `-05:00`; `UTC`, `МСК`), as in lower
        case they are words too (French "est", German "ist"); `Z` after a
        number; a zone named in words (`form_words.zone_phrases`: "по
        московскому времени", Europe/Moscow)."""
        out = {}
        for word in re.findall(r"[^\W\d_]+", self.written):
            zones = form_words.ZONE_ABBREVIATIONS.get(word.lower())
            if len(word) > 1 and word.isupper() and zones:
                out[word] = zones[0]
        if re.search(r"[0-9] ?Z(?![^\W\d_])", self.written):
            out["Z"] = "Z"
        table = self.table("zone_phrases")
        out.update((p, table[p]) for p in self.found(table))
        return out

    def unread_month(self) -> str:
        """Why an interval's text names a month neither end took ("December
        20, 2021 - January 3, 2022" read as 20 January to 3 January)."""
        for names in self.month_names:
            if names and not names & self.months_used:
                named = "/".join(f"{m:02d}" for m in sorted(names))
                return f"the text names a month ({named}) that the form does not use"
        return ""

    def overclaimed(self) -> str:
        """ "" when each claim can take a run of digits of its own, else the
        reason: `8:25 a.m. Dec. 12, 2014` writes 25 once, not as a minute
        and a day."""
        supply = collections.Counter(int(r) for r in self.runs)
        claims = list(self.claims)

        def assign(i: int) -> bool:
            if i == len(claims):
                return True
            for value in sorted(claims[i][1]):
                if supply[value]:
                    supply[value] -= 1
                    if assign(i + 1):
                        return True
                    supply[value] += 1
            return False

        if assign(0):
            return ""
        for value, count in collections.Counter(
            next(iter(v)) for _, v in claims if len(v) == 1
        ).items():
            if count > supply[value]:
                parts = [p for p, v in claims if v == frozenset((value,))]
                return (
                    f"the form uses the text's number {value} as its "
                    f"{' and its '.join(parts)}, but the text writes it "
                    f"{supply[value]} time(s)"
                )
        return "the form uses the text's numbers more times than it writes them"

    def writes(self, n: int, run: str | None = None) -> bool:
        """Whether the text writes the number `n`; `run`: only as that run
        (digits, or a day word)."""
        if run is None:
            return n in self.numbers or n in self.day_words
        if run.isdigit():
            return int(run) == n
        return tuple(self.days.get(run, ())) == (n,)

    def spans(self, table) -> list:
        """`phrase_spans.spans` of `table` in the text, read once per table."""
        key = id(table)
        if key not in self._spans:
            hits = phrase_spans.spans(self.text, table)
            self._spans[key] = (table, hits)
            self.covered += [h[:2] for h in hits if _DIGIT.search(h[2])]
        return self._spans[key][1]

    def found(self, table) -> set[str]:
        return {h[2] for h in self.spans(table)}

    def table(self, name: str):
        """The table `form_words.<name>` of the run's languages."""
        return getattr(form_words, name)(self.languages)

    def named(self, table) -> set:
        """The union of what the phrases of `table` found in the text name."""
        out = set()
        for p in self.found(table):
            value = table[p]
            out |= value if isinstance(value, frozenset) else {value}
        return out
