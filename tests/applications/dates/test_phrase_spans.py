"""Where the phrases of a table are in a text (phrase_spans.py): the indexed
search finds what trying every phrase finds, on every table the grounding
reads and the generated texts of six languages, and its rules (a phrase
inside a longer one found does not count; the slot takes a number or a
word; a script without spaces is searched inside runs of letters)."""

import pytest

from attention_zoo.applications.dates import form_words, phrase_spans, time_expressions
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.lexicon import load, load_days

pytestmark = pytest.mark.backend_free

TABLES = (
    "relative_phrases",
    "period_phrases",
    "weekday_phrases",
    "holiday_phrases",
    "rank_phrases",
    "month_phrases",
    "named_time_phrases",
)


def _every_phrase(text, phrases):
    """The search without the index: every phrase tried, its pattern where
    the text holds its parts (a pattern found holds them)."""
    hits = [
        (m.start(), m.end(), p, m.groupdict().get("n"))
        for p in phrases
        if p and all(q.strip() in text for q in p.split("#"))
        for m in phrase_spans._pattern(p).finditer(text)
    ]
    return [
        h
        for h in hits
        if not any(
            o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits
        )
    ]


def test_the_index_finds_what_every_phrase_finds():
    words = load(), load_days()
    texts = [
        FormText(p.text, *words).text
        for language in ("en", "es", "de", "ru", "zh", "ar")
        for p in time_expressions.pairs(language)[::10]
    ]
    found = 0
    for name in TABLES:
        table = getattr(form_words, name)()
        for text in texts:
            indexed = phrase_spans.spans(text, table)
            assert indexed == _every_phrase(text, table), (name, text)
            found += len(indexed)
    assert found > 1000  # the texts do hold phrases of the tables


@pytest.mark.parametrize(
    "text, expected",
    [
        ("easter monday 2021", ["easter monday"]),  # not the `easter` inside it
        ("vor 3 tagen", ["vor # tagen"]),
        ("vor drei tagen", ["vor # tagen"]),  # the slot takes a word too
        ("3天前", ["# 天前"]),  # no space needed beside the slot
        ("明天下午5点", ["明天", "下午"]),  # inside a run of letters
        ("mañana", ["mañana"]),
        ("mañanas", []),  # a Latin phrase ends at a word's end
    ],
)
def test_the_rules_of_a_phrase_found(text, expected):
    table = dict.fromkeys(
        ["easter", "easter monday", "vor # tagen", "# 天前", "明天", "下午", "mañana"]
    )
    assert sorted(h[2] for h in phrase_spans.spans(text, table)) == sorted(expected)


def test_a_phrase_of_its_slot_alone_is_tried_on_every_text():
    table = dict.fromkeys(["#", "easter"])
    assert [h[2:] for h in phrase_spans.spans("42", table)] == [("#", "42")]


def test_a_phrase_is_normalized_with_one_apostrophe_and_its_slot():
    assert phrase_spans.phrase("L’année  prochaine ") == "l'année prochaine"
    assert phrase_spans.phrase("hace 3 días", slot=True) == "hace # días"
    assert phrase_spans.phrase("ظهرًا") == "ظهرا"  # Arabic without vowel marks
