"""A rule on the text: one that is mostly addresses is no description.

A list of URLs (`https://example.org/a https://example.org/b
ftp://ftp.example.com/pub/`) passed every other rule: the tokenizer
splits an address into its pieces (`https : / / example . org`), words
the descriptions hold ("http" is one), the domain's surprisal stayed
within its threshold, and the summarizer answered "Set of http server",
valid. So a text is not valid when more than half of its chunks (runs of
characters between ASCII white space) that hold a letter or a digit are
addresses: a URL (`scheme://...`, `www....`), an e-mail address
(`user@host.org`) or a path (`/usr/share/doc`, `~/.config`, `./run`),
bracketed or followed by punctuation or not. A description that mentions
an address or two is made mostly of words and keeps its answer
(docs/summarization.md counts the test descriptions it refuses).

The rule reads the text as written, before the tokenizer: the Python half
(`address_reason`) serves the predictor and the LiteRT/ONNX exports; the
graph half (`address_agreement`) the SavedModel; both are the check
"addresses" of `checks.CHECKS`, and
tests/applications/summarization/test_check_parity.py checks that they
agree. Both use only ASCII classes and the same patterns, so that
Python's `re` and TensorFlow's RE2 read them alike.
"""

from __future__ import annotations

import re

from attention_zoo.applications.summarization.summary_rules import is_word

# Python's str.split() and RE2's \s disagree on what white space is (\v,
# \x1c, NBSP...): these six characters are white space on both sides.
SPACE = "[\t\n\x0b\x0c\r ]+"
_OPEN = "[(<\\[{\"']*"
_CLOSE = "[)>\\]}\"'.,;:!?]*"
_FORMS = (
    "[A-Za-z][A-Za-z0-9+.-]*://.*",  # a URL with its scheme
    "[Ww][Ww][Ww]\\.[A-Za-z0-9-]+\\..*",  # www.example.org
    "[^@]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}" + _CLOSE,  # e-mail
    "(?:~|\\.\\.?)?/.*[A-Za-z0-9].*",  # a path
)
ADDRESS = "(?s)" + _OPEN + "(?:" + "|".join(_FORMS) + ")"
# A chunk that counts: it holds a letter or a digit (a list's "-" or "*"
# is no word, as `summary_rules.is_word`).
WORDY = "(?s).*[\\pL\\pN].*"
# More than this share of the wordy chunks: mostly addresses.
MAX_ADDRESS_SHARE = 0.5

_SPACE, _ADDRESS = re.compile(SPACE), re.compile(ADDRESS)


def address_share(text: str) -> float:
    """The share of the wordy chunks of `text` that are addresses (0 when
    it has none)."""
    chunks = [c for c in _SPACE.split(text) if is_word(c)]
    if not chunks:
        return 0.0
    return sum(bool(_ADDRESS.fullmatch(c)) for c in chunks) / len(chunks)


def address_reason(text: str) -> str:
    """Why `text` is no description for its addresses ("" when it is one)."""
    share = address_share(text)
    if share > MAX_ADDRESS_SHARE:
        return (
            f"the text is mostly web addresses, e-mail addresses or paths "
            f"({100 * share:.0f} % of its words), not a description"
        )
    return ""


def address_agreement(texts):
    """bool `(B,)`: the graph twin of `address_reason(text) == ""` for the
    tf.string `(B,)` `texts`, valid UTF-8 (`export.text.valid_utf8`)."""
    import tensorflow as tf

    spaced = tf.strings.regex_replace(texts, SPACE, " ")
    chunks = tf.strings.split(spaced, sep=" ")  # (B, None), "" at the ends
    wordy = tf.ragged.map_flat_values(tf.strings.regex_full_match, chunks, WORDY)
    address = tf.ragged.map_flat_values(tf.strings.regex_full_match, chunks, ADDRESS)
    counted = tf.reduce_sum(tf.cast(wordy, tf.float64), axis=1)
    addresses = tf.reduce_sum(tf.cast(wordy & address, tf.float64), axis=1)
    # share = addresses / counted, without a division by zero.
    return addresses <= MAX_ADDRESS_SHARE * counted
