"""Word tokenization shared by Python and the exported TensorFlow graph.

`normalize` lower-cases, puts spaces around every punctuation character of
`PUNCTUATION` and collapses whitespace; tokens are the space-separated
pieces. `attention_zoo.export.text` runs the same steps in-graph with RE2,
so the character class is spelled out rather than written `\\W` (RE2's `\\w`
is ASCII-only, Python's is Unicode).
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

from attention_zoo.applications.common.errors import read_json, reading

PUNCTUATION = ".,;:!?¿¡\"'“”‘’«»()[]{}—–-…/*"
PUNCTUATION_CLASS = "[" + re.escape(PUNCTUATION) + "]"
_SPACE = re.compile(r"[ \t\n\r\f\v]+")
# Each character of PUNCTUATION with a space on each side, in one pass:
# what the graph's `regex_replace(PUNCTUATION_CLASS, " \\1 ")` does.
_SPACED = str.maketrans({c: f" {c} " for c in PUNCTUATION})

PAD, UNK, START, END = "<pad>", "<unk>", "<start>", "<end>"
SPECIALS = [PAD, UNK, START, END]
# Their ids: every vocabulary starts with SPECIALS.
PAD_ID, UNK_ID, START_ID, END_ID = 0, 1, 2, 3


# The spacing of detokenised English, as (pattern, replacement) rules that
# Python's `re` and TensorFlow's RE2 read alike: no space before closing
# punctuation, none after opening punctuation, none around hyphens and
# slashes.
SPACING_RULES = (
    (r" ([.,;:!?)\]}’”»…])", r"\1"),
    (r"([(\[{‘“«]) ", r"\1"),
    (r" ?([-/]) ?", r"\1"),
)


def detokenize(tokens) -> str:
    """Tokens as text (`SPACING_RULES`), the first letter capitalised."""
    text = " ".join(tokens)
    for pattern, replacement in SPACING_RULES:
        text = re.sub(pattern, replacement, text)
    return text[:1].upper() + text[1:]


def spaced(text: str) -> str:
    """`text` with a space on each side of its punctuation, its runs of
    whitespace one space, stripped: `normalize` without lower-casing."""
    return _SPACE.sub(" ", text.translate(_SPACED)).strip(" \t\n\r\f\v")


def normalize(text: str) -> str:
    return spaced(text.lower())


def tokenize(text: str) -> list[str]:
    normalized = normalize(text)
    return normalized.split(" ") if normalized else []


def cased_tokens(text: str) -> list[str]:
    """The tokens of `tokenize(text)`, in the case `text` writes them.

    A character whose lower case is longer ("İ") would shift the tokens:
    then the lower-cased ones are returned.
    """
    cased = spaced(text)
    tokens = cased.split(" ") if cased else []
    return tokens if len(tokens) == len(tokenize(text)) else tokenize(text)


class WordVocabulary:
    """The `size` most frequent training words plus `<pad>`, `<unk>`, `<start>`, `<end>`.

    Ties in frequency are broken alphabetically, so the vocabulary is a
    function of the training texts alone.
    """

    def __init__(self, tokens):
        self.tokens = list(tokens)
        self.index = {t: i for i, t in enumerate(self.tokens)}
        if self.tokens[:4] != SPECIALS:
            raise ValueError(
                f"a vocabulary starts with {SPECIALS}. Received: {self.tokens[:4]}"
            )

    @classmethod
    def from_texts(cls, texts, size: int):
        if size < 5:
            raise ValueError(f"`size` must be at least 5. Received: size={size}")
        counts = collections.Counter(t for text in texts for t in tokenize(text))
        words = sorted(counts, key=lambda w: (-counts[w], w))[: size - len(SPECIALS)]
        return cls(SPECIALS + words)

    def __len__(self):
        return len(self.tokens)

    def encode(self, text: str, add_start_end: bool = False) -> list[int]:
        ids = [self.index.get(t, UNK_ID) for t in tokenize(text)]
        return [START_ID, *ids, END_ID] if add_start_end else ids

    def decode(self, ids) -> str:
        words = []
        for i in ids:
            i = int(i)
            if i in (PAD_ID, END_ID):
                break
            if i >= len(SPECIALS):
                words.append(self.tokens[i])
            elif i == UNK_ID:
                words.append(UNK)
        return " ".join(words)

    def save(self, path) -> None:
        Path(path).write_text(
            json.dumps(self.tokens, ensure_ascii=False), encoding="utf-8"
        )

    @classmethod
    def load(cls, path):
        """The vocabulary `save` wrote to `path`.

        Raises:
            MalformedFileError: naming `path` when it holds anything else.
        """
        tokens = read_json(path, list, "a vocabulary file")
        with reading(path, "a vocabulary file"):
            if not all(isinstance(t, str) for t in tokens):
                raise TypeError("every token must be a string")
            return cls(tokens)
