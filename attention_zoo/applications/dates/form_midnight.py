"""A day's midnight by name is refused: which midnight is not written.

"today at midnight", "tonight at midnight", "Friday at midnight", "3 May
at midnight": the 00:00 that starts the day or the one that ends it (24:00,
the next day's 00:00)? Writers mean the second as often as the first, and
the grammar's 00:00 of a day is its start, so a form of a day at 00:00
(`At`, `DateTime`, an interval's end too) whose text names midnight by a
word (`form_words.named_time_phrases`: "midnight", "minuit", "Mitternacht",
"полночь") is not valid, its reason saying so. Midnight alone ("at
midnight", `time 00:00`) is the next one on or after the reference, as
any time alone, and a clock written `00:00` beside a day is that day's
start, as written.
"""

from __future__ import annotations

from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import At, DateTime, FormError, Interval


def midnight_disagreement(text: str, form: str, languages=LANGUAGES) -> str:
    """Why `form` (a text of the grammar) of `text` is a day at a midnight
    the text names by a word of `languages`: "" when it is not, or when the
    form is no form."""
    try:
        parsed = parse_form(form)
    except FormError:
        return ""
    points = (parsed.start, parsed.end) if isinstance(parsed, Interval) else (parsed,)
    dayed = [
        p
        for p in points
        if isinstance(p, At | DateTime)
        and (p.clock.hour, p.clock.minute, p.clock.second) == (0, 0, None)
    ]
    if dayed and FormText(text, {}, {}, languages).named_time(0, 0):
        return (
            "it names a day's midnight, which is the day's start or its end "
            "(24:00): the text does not say which"
        )
    return ""
