"""In-graph string preprocessing and postprocessing for SavedModels."""

from __future__ import annotations


def _tf():
    import tensorflow as tf

    return tf


def normalize_strings(texts, lowercase: bool = True, collapse_whitespace: bool = True):
    """Lower-case (Unicode), collapse runs of ASCII whitespace to one space, strip.

    Matches Python's `re.sub(r"[ \\t\\n\\r\\f\\v]+", " ", text.lower()).strip()`
    on the alphabets attention_zoo's applications use.
    """
    tf = _tf()
    if lowercase:
        texts = tf.strings.lower(texts, encoding="utf-8")
    if collapse_whitespace:
        texts = tf.strings.regex_replace(texts, r"[ \t\n\r\f\v]+", " ")
        texts = tf.strings.strip(texts)
    return texts


class CharTables:
    """Lookup tables between characters and ids, trackable by a SavedModel.

    Args:
        input_tokens: list of input characters; index = id. Ids missing from
            the table map to `unknown_id`.
        output_tokens: list of output strings; index = id (special tokens
            should be empty strings so they vanish when joined).
        unknown_id: id of characters missing from `input_tokens`.
    """

    def __init__(self, input_tokens, output_tokens, unknown_id: int = 1):
        tf = _tf()
        keys = [t for t in input_tokens if len(t) == 1]
        values = [input_tokens.index(t) for t in keys]
        self.input_table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(keys, tf.string), tf.constant(values, tf.int32)
            ),
            default_value=unknown_id,
        )
        self.output_strings = tf.constant(list(output_tokens), tf.string)

    def encode(self, texts, max_length: int):
        """Characters of each (already normalized) text as ids.

        Returns:
            `(ids, lengths)`: int32 `(B, max_length)`, right-padded with 0 and
            truncated to `max_length`; int32 `(B,)` lengths before truncation.
        """
        tf = _tf()
        chars = tf.strings.unicode_split(texts, "UTF-8")  # ragged (B, None)
        ids = tf.ragged.map_flat_values(self.input_table.lookup, chars)
        lengths = tf.cast(chars.row_lengths(), tf.int32)
        dense = ids.to_tensor(default_value=0, shape=[None, max_length])
        return tf.cast(dense, tf.int32), lengths

    def decode(self, ids):
        """Join the output strings of `ids` `(B, T)` into one string per row."""
        tf = _tf()
        return tf.strings.reduce_join(tf.gather(self.output_strings, ids), axis=1)
