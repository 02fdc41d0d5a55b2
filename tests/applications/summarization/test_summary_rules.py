"""Degenerate summaries (repeating themselves, or writing a word that
neither the text nor the training texts hold) are not valid, in Python and
in the SavedModel's graph alike."""

import random

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


def _random_cases(n, seed):
    rng = random.Random(seed)
    vocabulary = ["suite", "of", "the", "Suite", ".", "-", "x", "ÉTÉ", "été", "3"]
    cases = []
    for _ in range(n):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 9))]
        if words and rng.random() < 0.4:  # a repeat in a row
            start = rng.randrange(len(words))
            gram = words[start : start + rng.randint(1, 4)]
            words[start:start] = gram * rng.randint(1, 3)
        text = [rng.choice(vocabulary).lower() for _ in range(rng.randint(0, 4))]
        cases.append((words[:20], text))
    return cases


@pytest.mark.tf_only
@pytest.mark.parametrize("with_domain", [True, False])
def test_the_graph_judges_as_python(with_domain):
    import tensorflow as tf

    from attention_zoo.applications.summarization.summary_rules import (
        summary_agreement,
    )

    domain = {"suite", "of", "the", ".", "-"}
    cases = _random_cases(600, seed=1)
    cases += [(["Suite", "of", "suite", "of"], []), (["x"], ["x"]), ([], [])]
    words = tf.ragged.constant([w for w, _ in cases], dtype=tf.string)
    text = tf.ragged.constant([t for _, t in cases], dtype=tf.string)
    keys = tf.constant(sorted(domain))
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(keys, tf.ones_like(keys, tf.int64)), 0
    )
    got = summary_agreement(
        words.to_tensor(""),
        words.row_lengths(),
        text.to_tensor(""),
        text.row_lengths(),
        (lambda w: table.lookup(w) > 0) if with_domain else None,
    ).numpy()
    expected = [
        not summary_reason(w, set(t), domain if with_domain else None) for w, t in cases
    ]
    assert got.tolist() == expected
    assert 100 < sum(expected) < len(expected) - 100


def test_the_shipped_summarizer_refuses_a_summary_that_repeats_itself(summarizer):
    # A description that ends mid-list: the search loops on "suite of".
    (item,) = summarizer(["This suite includes: suite of, suite of, suite of"])
    assert item["text"].lower().startswith("suite of suite of"), item["text"]
    assert item["valid"] is False
    assert "the summary repeats itself: 'suite of'" in item["reason"]
