"""Caption normalisation shared by every captioning data source.

Examples:
    >>> normalize_caption("A child in a pink dress, climbing  stairs.")
    'a child in a pink dress , climbing stairs .'
"""

from __future__ import annotations

import re

# ASCII punctuation and the other marks the word vocabulary's tokenizer
# (`attention_zoo.applications.common.text.PUNCTUATION`) splits off, spelled out
# for RE2 (`attention_zoo.export`): the vocabulary's words of a normalised
# caption are then its space-separated pieces, as BLEU's references are.
CAPTION_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~¿¡“”‘’«»—–…"
CAPTION_PUNCTUATION_CLASS = "[" + re.escape(CAPTION_PUNCTUATION) + "]"
_PUNCT = re.compile(f"({CAPTION_PUNCTUATION_CLASS})")
_SPACE = re.compile(r"[ \t\n\r\f\v]+")


def normalize_caption(text: str) -> str:
    """Lower case, a space on each side of every ASCII punctuation mark, runs of
    ASCII whitespace collapsed to one space, stripped.

    The words of a caption are then `text.split(" ")`; "stairs." gives
    "stairs .", "man's" gives "man ' s". Scene captions are already in this
    form. In a graph: `normalize_strings(split_punctuation(texts,
    CAPTION_PUNCTUATION_CLASS))` from `attention_zoo.export`.
    """
    return _SPACE.sub(" ", _PUNCT.sub(r" \1 ", text.lower())).strip(" \t\n\r\f\v")
