"""The graph twin of `common.text_domain.TextDomain`, for the SavedModels
of the text applications (TensorFlow, imported lazily)."""

from __future__ import annotations

from attention_zoo.applications.common.text_domain import DISCOUNT, UNIGRAM_SMOOTHING


class GraphBigrams:
    """One bigram model of a `TextDomain` as lookup tables: `log_probs`."""

    def __init__(self, domain):
        import tensorflow as tf

        self.domain = domain
        size = len(domain.words)
        self.stride = size + 1
        self.word_table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(domain.words[2:], tf.string),
                tf.range(2, size, dtype=tf.int64),
            ),
            default_value=-1,
        )
        keys = [i * self.stride + j for i, j in domain.bigrams] or [-1]
        values = list(domain.bigrams.values()) or [0]
        self.bigram_table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(keys, tf.int64), tf.constant(values, tf.int64)
            ),
            default_value=0,
        )
        self.tables = [self.word_table, self.bigram_table]

    def ids(self, words):
        """The ragged word ids of `words` (-1: unseen)."""
        import tensorflow as tf

        return tf.ragged.map_flat_values(self.word_table.lookup, words)

    def knows(self, words):
        """bool, shaped as the string tensor `words`: each is a word of the
        domain's texts."""
        return self.word_table.lookup(words) >= 0

    def log_probs(self, words):
        """`(B, None)` ragged float64: log p of each transition of
        `START words END`, as `TextDomain.log_probs`."""
        import tensorflow as tf

        domain = self.domain
        ids = self.ids(words)
        rows = ids.nrows()
        start = tf.RaggedTensor.from_tensor(tf.zeros([rows, 1], tf.int64))
        end = tf.RaggedTensor.from_tensor(tf.ones([rows, 1], tf.int64))
        sequence = tf.concat([start, ids, end], axis=1)
        before, after = sequence[:, :-1].flat_values, sequence[:, 1:].flat_values
        counts = tf.constant(domain.counts, tf.float64)
        histories = tf.constant(domain.histories, tf.float64)
        kept = tf.constant(domain.kept, tf.float64)
        seen_word = after >= 0
        count = tf.where(seen_word, tf.gather(counts, tf.maximum(after, 0)), 0.0)
        smoothing = UNIGRAM_SMOOTHING
        unigram = (count + smoothing) / (
            domain.tokens + smoothing * (len(domain.words) + 1)
        )
        known = before >= 0
        history = tf.where(known, tf.gather(histories, tf.maximum(before, 0)), 0.0)
        pair = tf.logical_and(known, seen_word)
        seen = tf.where(pair, self.bigram_table.lookup(before * self.stride + after), 0)
        safe = tf.maximum(history, 1.0)
        backoff = (history - tf.gather(kept, tf.maximum(before, 0))) / safe
        bigram = tf.maximum(tf.cast(seen, tf.float64) - DISCOUNT, 0.0) / safe
        p = tf.where(history > 0, bigram + backoff * unigram, unigram)
        return tf.RaggedTensor.from_row_splits(
            tf.math.log(p), sequence[:, :-1].row_splits
        )


class GraphDomain:
    """The graph half of `text_domain.TextDomain`: `in_domain`, the twin
    of `TextDomain.in_domain`, with the same bigram models and thresholds,
    in float64, as lookup tables."""

    def __init__(self, domain):
        self.domain = domain
        self.model = GraphBigrams(domain)
        self.background = (
            GraphBigrams(domain.background) if domain.background is not None else None
        )
        self.tables = [
            *self.model.tables,
            *(self.background.tables if self.background else []),
        ]

    def in_domain(self, words, cased_words):
        """`(B,)` bool for the ragged words `(B, None)` of each text, lower-
        cased and as written (`cased_words`, for the names)."""
        import tensorflow as tf

        domain = self.domain
        ids = self.model.ids(words)
        lengths = ids.row_lengths()
        logs = self.model.log_probs(words)
        # As `text_domain.inner_steps`: without the first and last
        # transitions when the text has two words or more.
        row = logs.value_rowids()
        position = tf.range(tf.size(row, tf.int64)) - tf.gather(logs.row_starts(), row)
        length = tf.gather(lengths, row)
        inner = tf.logical_or(
            length < 2, tf.logical_and(position >= 1, position < length)
        )

        def total(values):
            flat = tf.where(inner, values.flat_values, 0.0)
            return tf.reduce_sum(logs.with_flat_values(flat), axis=1)

        counted = total(tf.ones_like(logs))
        mean_surprisal = -total(logs) / counted
        first = tf.strings.substr(cased_words.flat_values, 0, 1, unit="UTF8_CHAR")
        # tf.strings.lower reads a C string: "\x00" lowers to "", which is
        # no capital for Python either.
        capital = tf.logical_and(
            tf.not_equal(first, tf.strings.lower(first, encoding="utf-8")),
            tf.not_equal(first, "\x00"),
        )
        name = tf.RaggedTensor.from_row_splits(capital, cased_words.row_splits)
        unseen = tf.logical_and(ids < 0, tf.logical_not(name))
        unseen = tf.reduce_sum(tf.cast(unseen, tf.float64), axis=1)
        share = unseen / tf.maximum(tf.cast(lengths, tf.float64), 1.0)
        valid = tf.logical_and(
            share <= domain.max_unseen_share, mean_surprisal <= domain.max_surprisal
        )
        if self.background is None:
            return valid
        # As `TextDomain.contrast`: the end is no name.
        end = tf.RaggedTensor.from_tensor(tf.zeros([ids.nrows(), 1], tf.bool))
        into_name = tf.concat([name, end], axis=1).flat_values
        difference = self.background.log_probs(words) - logs
        flat = tf.where(
            tf.logical_and(inner, tf.logical_not(into_name)),
            difference.flat_values,
            0.0,
        )
        contrast = tf.reduce_sum(logs.with_flat_values(flat), axis=1)
        return tf.logical_and(valid, contrast <= domain.max_contrast)
