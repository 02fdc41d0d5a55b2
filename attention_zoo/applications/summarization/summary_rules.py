"""Rules on the summary itself: degenerate output is not valid.

The other rules ask the input (words, unknown share, domain) and the
score. A search can still loop or wander while its score stays high: a
description that ends mid-list (`This suite includes: suite of, suite of,
suite of`) gave `Suite of suite of suite of suite of ...`, valid. So a
summary is not valid when

- it repeats itself: a sequence of up to `MAX_NGRAM` tokens, one of them
  a word (a letter or a digit: `...` is no repetition), written `REPEATS`
  times in a row (`suite suite suite`), or a sequence of two to
  `MAX_NGRAM` words twice in a row (`suite of suite of`): hardly a
  synopsis of the Debian packages does (docs/summarization.md measures
  it on the references);
- it writes a word that neither the text nor the training descriptions
  (the domain's words, `common.text_domain`) hold: the model made it up
  from its output vocabulary alone.

Words are compared lower-cased, as the model reads them. The Python half
(`summary_reason`) serves the predictor and the LiteRT/ONNX exports; the
graph half (`summary_agreement`) the SavedModel; both are the check
"degenerate_summary" of `checks.CHECKS`, and
tests/applications/summarization/test_check_parity.py checks that they
agree.
"""

from __future__ import annotations

import unicodedata

from attention_zoo.applications.common.errors import quoted

MAX_NGRAM = 4
REPEATS = 3


def is_word(token: str) -> bool:
    """Whether `token` writes a letter or a digit (not punctuation alone)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in token)


def repetition(words: list[str]) -> str:
    """The repeated sequence of `words` (lower-cased) that makes a summary
    degenerate, and how often it is written in a row ("" when none)."""
    for times, smallest, gram_ok in ((REPEATS, 1, any), (2, 2, all)):
        for n in range(smallest, MAX_NGRAM + 1):
            for start in range(len(words) - times * n + 1):
                gram = words[start : start + n]
                if gram_ok(is_word(w) for w in gram) and all(
                    words[start + k * n : start + (k + 1) * n] == gram
                    for k in range(1, times)
                ):
                    return f"{quoted(' '.join(gram))} {times} times in a row"
    return ""


def summary_reason(words: list[str], text_words, domain_words) -> str:
    """Why the summary `words` is not valid as a summary ("" when it is),
    with `text_words` the text's (lower-cased) words and `domain_words`
    the training descriptions' (None: no domain kept, that rule is off)."""
    lowered = [w.lower() for w in words]
    repeated = repetition(lowered)
    if repeated:
        return f"the summary repeats itself: {repeated}"
    if domain_words is not None:
        made_up = [w for w in lowered if w not in text_words and w not in domain_words]
        if made_up:
            return (
                f"the summary writes {quoted(made_up[0])}, a word neither the "
                "text nor the training descriptions hold"
            )
    return ""


def summary_agreement(words, lengths, text_words, text_lengths, known):
    """bool `(B,)`: the graph twin of `summary_reason(...) == ""`.

    Args:
        words: `(B, T)` string, the summary's words (any case), padded.
        lengths: `(B,)` int, the summary's word count.
        text_words: `(B, S)` string, the text's lower-cased words, padded.
        text_lengths: `(B,)` int.
        known: a function of a string tensor to bool (a word the training
            descriptions hold), or None (no domain).
    """
    import tensorflow as tf

    from attention_zoo.export.text import normalize_strings

    # Not tf.strings.lower, which stops at a NUL (`normalize_strings`).
    words = normalize_strings(words, collapse_whitespace=False)
    steps = tf.shape(words)[1]
    lengths = tf.cast(lengths, tf.int32)
    # Room after the summary so that every shifted view has a column.
    room = [[0, 0], [0, REPEATS * MAX_NGRAM]]
    padded = tf.pad(words, room)
    wordy = tf.pad(tf.strings.regex_full_match(words, r"(?s).*[\pL\pN].*"), room)
    position = tf.range(steps)[None, :]
    repeated = tf.zeros_like(lengths, tf.bool)
    for times, smallest, every in ((REPEATS, 1, False), (2, 2, True)):
        for n in range(smallest, MAX_NGRAM + 1):
            same = position + times * n <= lengths[:, None]
            gram_ok = tf.fill(tf.shape(same), every)
            for i in range(n):
                here = padded[:, i : i + steps]
                word = wordy[:, i : i + steps]
                gram_ok = (gram_ok & word) if every else (gram_ok | word)
                for k in range(1, times):
                    there = padded[:, k * n + i : k * n + i + steps]
                    same = same & tf.equal(here, there)
            repeated = repeated | tf.reduce_any(same & gram_ok, axis=1)
    ok = tf.logical_not(repeated)
    if known is None:
        return ok
    inside = position < lengths[:, None]
    text_lengths = tf.cast(text_lengths, tf.int32)
    text_inside = tf.range(tf.shape(text_words)[1])[None, :] < text_lengths[:, None]
    in_text = tf.reduce_any(
        tf.equal(words[:, :, None], text_words[:, None, :]) & text_inside[:, None, :],
        axis=2,
    )
    made_up = inside & tf.logical_not(in_text) & tf.logical_not(known(words))
    return ok & tf.logical_not(tf.reduce_any(made_up, axis=1))
