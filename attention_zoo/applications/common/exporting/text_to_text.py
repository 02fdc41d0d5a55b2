"""What the SavedModels of the text-to-text applications (translation,
summarization) share: the source read as their predictors read it, the
domain check, and the archive with the tables it tracks.

Each application's `export` builds its own `serve` on these: its search,
its output words and its validity rules differ, its reading of the
source does not (`common.text`: punctuation split off, normalized,
lower-cased, looked up word by word, cut at the model's source length).
TensorFlow is imported when a graph is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from attention_zoo.applications.common.exporting.saved_model import (
    write_saved_model,
)
from attention_zoo.applications.common.text import PUNCTUATION_CLASS
from attention_zoo.applications.common.text_domain_graph import GraphDomain


@dataclass
class Source:
    """A batch of source texts `(B,)` as the model reads them.

    Attributes:
        split: the texts with punctuation split off (`split_punctuation`).
        normalized: `split` normalized and lower-cased (`normalize_strings`).
        ids: int32 `(B, max_tokens)` word ids, `<unk>` for unknown words.
        lengths: int32 `(B,)` words read, at most `max_tokens`.
        cased_words: ragged `(B, None)` the words as written (normalized,
            case kept, invalid UTF-8 replaced), for the words an output
            copies from the source.
    """

    split: object
    normalized: object
    ids: object
    lengths: object
    cased_words: object


def read_source(text, tables, max_tokens: int) -> Source:
    """`text` (tf.string `(B,)`) read with the source vocabulary of
    `tables` (`attention_zoo.export.TokenTables`), as the predictors'
    `common.text.tokenize` and `WordVocabulary.encode` read it."""
    import tensorflow as tf

    from attention_zoo.export.text import (
        normalize_strings,
        split_punctuation,
        valid_utf8,
    )

    split = split_punctuation(text, PUNCTUATION_CLASS)
    normalized = normalize_strings(split)
    ids, lengths = tables.encode_words(normalized, max_tokens)
    cased = normalize_strings(valid_utf8(split), lowercase=False)
    return Source(
        split=split,
        normalized=normalized,
        ids=ids,
        lengths=tf.minimum(lengths, max_tokens),
        cased_words=tf.strings.split(cased),
    )


def graph_domain(predictor) -> GraphDomain | None:
    """The graph twin of `predictor.domain` (`common.text_domain`), None
    for a run without one."""
    return GraphDomain(predictor.domain) if predictor.domain else None


def in_domain(domain: GraphDomain | None, source: Source):
    """bool `(B,)`: whether each source is like the training texts, as
    `TextDomain.reason` decides (None without a domain: every text is)."""
    import tensorflow as tf

    if domain is None:
        return None
    return domain.in_domain(tf.strings.split(source.normalized), source.cased_words)


def write_text_model(
    output, serve, predictor, tables, domain, app: str, more_tables=()
) -> Path:
    """`serve`, a function of `text` (tf.string `(B,)`), as the SavedModel
    of `app` in `output`, tracking the predictor's model, the source table
    of `tables`, the domain's tables and `more_tables` (a lookup table is
    saved only if it is tracked)."""
    tracked = [
        predictor.model,
        tables.input_table,
        *more_tables,
        *(domain.tables if domain else []),
    ]
    return write_saved_model(output, serve, "text", tracked, app)
