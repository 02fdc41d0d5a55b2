"""Degenerate summaries (repeating themselves, or writing a word that
neither the text nor the training texts hold) are not valid (the graph
half: test_check_parity.py)."""

import pytest

from attention_zoo.applications.summarization.summary_rules import (
    repetition,
    summary_reason,
)


@pytest.mark.parametrize(
    "summary, repeated",
    [
        ("suite of suite of suite of suite", "'suite of' 3 times in a row"),
        ("suite of suite of", "'suite of' 2 times in a row"),
        ("tools tools tools", "'tools' 3 times in a row"),
        ("a b c a b c", "'a b c' 2 times in a row"),
        ("perl module for for the the", ""),  # twice, one word: a typo
        ("library for gnu emacs", ""),
        ("data files ( . . . )", ""),  # punctuation alone is no repetition
        ("client - it - it / gsm", ""),  # two tokens twice, one not a word
        ("python 3 bindings for python 3", ""),  # not in a row
        ("", ""),
    ],
)
def test_repetition_in_a_row(summary, repeated):
    assert repetition(summary.split()) == repeated


def test_a_made_up_word_is_named_and_text_or_domain_words_are_not():
    domain = {"library", "for", "the"}
    text = {"libfoo", "xml"}
    assert summary_reason(["Library", "for", "libfoo"], text, domain) == ""
    assert "'zorg', a word neither the text nor" in summary_reason(
        ["Library", "for", "zorg"], text, domain
    )
    # No domain kept: only the repetition rule.
    assert summary_reason(["zorg"], text, None) == ""
    assert "repeats itself" in summary_reason(["A", "a", "A"], text, None)


def test_the_shipped_summarizer_refuses_a_summary_that_repeats_itself(summarizer):
    # A description that ends mid-list: the search loops on "suite of".
    (item,) = summarizer(["This suite includes: suite of, suite of, suite of"])
    assert item["text"].lower().startswith("suite of suite of"), item["text"]
    assert item["valid"] is False
    assert "the summary repeats itself: 'suite of'" in item["reason"]
