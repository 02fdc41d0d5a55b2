"""The model's view of an input (`normalize`), shared by the data, the
lexicon and the predictors; the exported SavedModel applies the same rule
in its graph (`export.ascii_digits`, `export.normalize_strings`)."""

from __future__ import annotations

import re

_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")

# The decimal digits people write dates with besides ASCII: Arabic-Indic
# (Arabic), Extended Arabic-Indic (Persian, Urdu), Devanagari (Hindi) and
# full-width (Chinese, Japanese). Each is read as its ASCII digit, so that
# the model, the numeric rule and the written-year rule see one set of ten.
NATIVE_DIGITS = ("\u0660", "\u06f0", "\u0966", "\uff10")
_ASCII_DIGITS = {
    ord(zero) + i: ord("0") + i for zero in NATIVE_DIGITS for i in range(10)
}


def normalize(text: str) -> str:
    """The model's view of an input: lower case, ASCII digits, single
    spaces, stripped."""
    # ASCII whitespace only, as in the exported graph (RE2, tf.strings.strip).
    text = _WHITESPACE.sub(" ", text.lower().translate(_ASCII_DIGITS))
    return text.strip(" \t\n\r\f\v")
