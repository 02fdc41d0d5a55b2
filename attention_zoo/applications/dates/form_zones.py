"""The grounding of a clock's zone: the zone a form writes is written in its text.

- `Z` needs `z`, `utc` or `gmt` (an abbreviation of `form_words`);
- an offset needs its sign and its numbers, in ISO 8601's extended form
  (`+02:00`, `+2`, `-03:30`) or its basic one (`+0200`, as RFC 2822 and
  many logs write it: exactly four digits, so that `+10` is no `+01:00`),
  or an abbreviation meaning it (`EST`); its numbers are then the form's
  (`FormText.allowed`: the `0200` of `+0200` is no number left unused);
- a zone by name needs its city or a phrase naming it
  (`form_words.zone_phrases`: "по московскому времени");
- a form with no zone, of a text that writes one (`10:00 EST`), is refused:
  that 10:00 is another zone's; so is one of a text writing a zone the
  tables do not read (`unread_zone`: the tz database's abbreviations,
  "10:00 HKT", and its names, "10:00 Europe/Berlin", which forms56 read
  as 10:00 in the reference's zone, valid).

Part of `form_grounding`; Python only.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo

from attention_zoo.applications.dates import form_words
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.text_words import words


def missing(what: str) -> str:
    return f"the form's {what} is not written in the text"


def zone_disagreement(t: FormText, zone: str | None) -> str:
    """Why the clock zone `zone` (None: no zone) is not grounded in `t`, ""
    when it is."""
    if zone is None:  # "10:00 EST": no zone's 10:00
        written = next(iter(t.written_zones()), "") or unread_zone(t.written)
        reason = f"the text writes the zone {written!r}, which the form does not use"
        return written and reason
    abbreviations = {
        w for w in words(t.text) if zone in form_words.ZONE_ABBREVIATIONS.get(w, ())
    }
    if abbreviations or zone in t.named(t.table("zone_phrases")):
        return ""
    if zone == "Z":
        return missing("zone 'Z' (z, utc or gmt)")
    if zone[0] in "+-":
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        sign = "[+]" if zone[0] == "+" else "[-\u2212]"
        tail = "" if minutes == 0 else rf":?0*{minutes}(?![0-9])"
        extended = rf"{sign} ?0*{hours}(?![0-9]){tail}"
        basic = rf"{sign} ?{hours:02d}{minutes:02d}(?![0-9])"
        t.allowed |= {hours, minutes}
        if re.search(basic, t.text):
            t.allowed.add(100 * hours + minutes)
        found = re.search(extended, t.text) or re.search(basic, t.text)
        return "" if found else missing(f"offset {zone!r}")  # its digits allowed above
    city = zone.rsplit("/", 1)[-1].replace("_", " ").lower()
    return "" if city in t.text else missing(f"zone {zone!r}")


@functools.cache
def tz_abbreviations() -> frozenset[str]:
    """The letters-only abbreviations the tz database writes for its zones
    (in January and July of 2000 and 2026: `HKT`, `JST`, `AEST`, `PDT`)."""
    out = set()
    for name in zoneinfo.available_timezones():
        zone = zoneinfo.ZoneInfo(name)
        for year in (2000, 2026):
            for month in (1, 7):
                written = dt.datetime(year, month, 1, tzinfo=zone).tzname() or ""
                if written.isalpha() and written.isupper():
                    out.add(written)
    return frozenset(out)


# North America's zones by region, which the tz database does not write
# ("10am PT", "5 pm ET": Pacific, Eastern, Central, Mountain Time).
REGIONS = frozenset({"PT", "ET", "CT", "MT"})


def unread_zone(written: str) -> str:
    """A zone `written` (a text as written) names that no table of the
    application reads, "" when none: a tz database abbreviation in
    capitals that `form_words.ZONE_ABBREVIATIONS` lacks, one of `REGIONS`,
    or a tz database name (`Europe/Berlin`)."""
    for word in re.findall(r"(?<![^\W\d_])[A-Z]{2,5}(?![^\W\d_])", written):
        known = word.lower() in form_words.ZONE_ABBREVIATIONS
        if (word in tz_abbreviations() or word in REGIONS) and not known:
            return word
    for name in re.findall(r"[A-Z][A-Za-z_]+/[A-Z][A-Za-z_/-]+", written):
        if name in zoneinfo.available_timezones():
            return name
    return ""
