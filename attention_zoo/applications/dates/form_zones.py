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
  that 10:00 is another zone's.

Part of `form_grounding`; Python only.
"""

from __future__ import annotations

import re

from attention_zoo.applications.dates import form_words
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.text_words import words


def missing(what: str) -> str:
    return f"the form's {what} is not written in the text"


def zone_disagreement(t: FormText, zone: str | None) -> str:
    """Why the clock zone `zone` (None: no zone) is not grounded in `t`, ""
    when it is."""
    if zone is None:
        written = next(iter(t.written_zones()), "")  # "10:00 EST": no zone's 10:00
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
