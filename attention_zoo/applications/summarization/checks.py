"""The validity checks of a summary: one list of named checks, each a
pair (Python, graph) under one name, as the date normalizer's
(`dates/checks.py`).

Both halves answer one question, "does this answer pass the check?", in
their own form: the Python half returns the reason it refuses, "" where
it passes (the predictor reports the reason); the graph half returns a
bool `(B,)`, True where it passes (the SavedModel's `valid`). So
`check.python(...) == ""` exactly where `check.graph(...)` is True.

The predictor (`Summarizer.reason`) and the SavedModel (`export.py`)
iterate `CHECKS` (`python_reason`, `graph_valid`);
tests/applications/summarization/test_check_parity.py runs every check
and the whole list on both sides. The rules themselves, and why, are in
`address_rule` and `summary_rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from attention_zoo.applications.summarization.address_rule import (
    address_agreement,
    address_reason,
)
from attention_zoo.applications.summarization.summary_rules import (
    summary_agreement,
    summary_reason,
)


class Check(NamedTuple):
    """One check.

    `python(text, words, text_words, domain_words) -> str`: the reason
    the answer fails ("" where it passes), with `text` the input as
    written, `words` the summary's words, `text_words` the set of the
    text's (lower-cased) words and `domain_words` the training
    descriptions' (None: no domain kept).

    `graph(texts, words, lengths, text_words, text_lengths, known) ->
    bool (B,)`: True where it passes, with `texts` tf.string `(B,)`
    valid UTF-8, `words` `(B, T)` and `text_words` `(B, S)` padded with
    their lengths, and `known` a function of a string tensor to bool (a
    word of the domain) or None.

    `reads`: "text", a check of the input alone, which the predictor
    reports before the share of unknown words; "summary", a check of the
    answer, reported after the domain.
    """

    name: str
    python: Callable
    graph: Callable
    reads: str


CHECKS = (
    Check(
        "addresses",
        lambda text, words, text_words, domain_words: address_reason(text),
        lambda texts, *_: address_agreement(texts),
        reads="text",
    ),
    Check(
        "degenerate_summary",
        lambda text, words, text_words, domain_words: summary_reason(
            words, text_words, domain_words
        ),
        lambda texts, *summary: summary_agreement(*summary),
        reads="summary",
    ),
)
assert len({c.name for c in CHECKS}) == len(CHECKS)
assert {c.reads for c in CHECKS} <= {"text", "summary"}


def python_reason(reads: str, text: str, words, text_words, domain_words) -> str:
    """The reason of the first check that reads `reads` and fails, in the
    list's order ("" when every one passes)."""
    for check in CHECKS:
        if check.reads == reads:
            reason = check.python(text, words, text_words, domain_words)
            if reason:
                return reason
    return ""


def graph_valid(texts, words, lengths, text_words, text_lengths, known):
    """bool `(B,)`: every check passes, in the graph (`Check.graph`'s
    arguments)."""
    import tensorflow as tf

    agree = [
        check.graph(texts, words, lengths, text_words, text_lengths, known)
        for check in CHECKS
    ]
    return tf.reduce_all(tf.stack(agree), axis=0)
