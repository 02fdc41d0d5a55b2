"""A second month the form does not take: "с марта по май 2019 года" is no March.

An interval's text that names a month neither end took is refused
(`FormText.unread_month`, asked by `read_ends`), but a form of one point
was not asked, so a model that read the months of an interval as its
first month alone ("с марта по май 2019 года" -> `month 2019-03`, "3
March, not April" -> `date --03-03`) answered it valid. So a form that
took a month makes no answer of a text naming another month
(`other_month`, asked of every form by `form_grounding`).

Only where the form took a month: a form of no month reads a text whose
words are also a month's abbreviation in another language as it did
(Spanish "ago", August, in "3 days ago"; `FormText.unused_month` asks a
time or a year for a month's name as before). And a month's word inside
a name is the name's (`NAMES`): Japanese 月曜日 (Monday) holds the marker
月 ("第2月曜日" would read as February), Romanian "mar." is Tuesday's
abbreviation and March's, Swedish "annandag jul" (26 December) holds
"jul" (July), Arabic's ordinal الثاني ("the second Wednesday of
September") is a month's word of the Levant (كانون الثاني, January);
so the spans of the weekdays', holidays' and ranks' phrases are blanked
before the months are read.
"""

from __future__ import annotations

from attention_zoo.applications.dates import phrase_spans
from attention_zoo.applications.dates.form_text import FormText, month_names
from attention_zoo.applications.dates.text_words import mark_months, words

# The tables whose phrases are names that may hold a month's word.
NAMES = ("weekday_phrases", "holiday_phrases", "rank_phrases")


def other_month(t: FormText) -> str:
    """Why `t`'s form, which took a month, is no reading of a text naming
    another one; "" when it took none or the text names no other."""
    if not t.months_used:
        return ""
    text = t.text
    for name in NAMES:
        for start, end, _, _ in t.spans(t.table(name)):
            text = text[:start] + " " * (end - start) + text[end:]
    table = t.table("month_phrases")
    phrases = {h[2] for h in phrase_spans.spans(text, table)}
    for months in month_names(words(mark_months(text)), phrases, t.lexicon, table):
        if months and not months & t.months_used:
            named = "/".join(f"{m:02d}" for m in sorted(months))
            return f"the text names a month ({named}) that the form does not use"
    return ""

