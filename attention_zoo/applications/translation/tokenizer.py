"""The translation app's tokenizer: the shared `common.text`, under its first
name (benchmarks and the captioning tests import it from here)."""

from attention_zoo.applications.common.text import (  # noqa: F401
    END,
    PAD,
    PUNCTUATION,
    PUNCTUATION_CLASS,
    SPECIALS,
    START,
    UNK,
    WordVocabulary,
    normalize,
    tokenize,
)
