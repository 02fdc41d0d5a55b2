"""In-graph string preprocessing and postprocessing for SavedModels."""

from __future__ import annotations

from attention_zoo._checks import checked_bool


def _tf():
    import tensorflow as tf

    return tf


def normalize_strings(texts, lowercase: bool = True, collapse_whitespace: bool = True):
    """Lower-case (Unicode), collapse runs of ASCII whitespace to one space, strip.

    Matches Python's `re.sub(r"[ \\t\\n\\r\\f\\v]+", " ", text.lower()).strip()`
    on the alphabets attention_zoo's applications use, for any byte string:
    `text = raw.decode("utf-8", "replace")`, so invalid UTF-8 becomes U+FFFD,
    and NUL and other control characters are kept like any other character.
    """
    lowercase = checked_bool("normalize_strings", "lowercase", lowercase)
    collapse_whitespace = checked_bool(
        "normalize_strings", "collapse_whitespace", collapse_whitespace
    )
    tf = _tf()
    if lowercase:
        texts = _lower_utf8(texts)
    if collapse_whitespace:
        texts = tf.strings.regex_replace(texts, r"[ \t\n\r\f\v]+", " ")
        texts = tf.strings.strip(texts)
    return texts


def ascii_digits(texts, zeros):
    """Each decimal digit of the scripts whose zero is in `zeros` (e.g.
    "\u0660", Arabic-Indic) as its ASCII digit: Python's
    `text.translate({ord(zero) + i: ord("0") + i ...})`."""
    tf = _tf()
    for i in range(10):
        native = "".join(chr(ord(zero) + i) for zero in zeros)
        texts = tf.strings.regex_replace(texts, f"[{native}]", str(i))
    return texts


def _lower_utf8(texts):
    # tf.strings.lower(encoding="utf-8") reads its input as a C string and
    # stops at the first NUL byte ("3 May\x00 1979" became "3 may"), so NUL is
    # escaped around it. \x01 leads every escape: \x01\x02 is a \x01 of the
    # input and \x01\x03 a NUL; lower-casing leaves both control bytes alone.
    tf = _tf()
    texts = tf.strings.regex_replace(texts, r"\x01", "\x01\x02")
    texts = tf.strings.regex_replace(texts, r"\x00", "\x01\x03")
    texts = tf.strings.lower(texts, encoding="utf-8")
    texts = tf.strings.regex_replace(texts, r"\x01\x03", "\x00")
    return tf.strings.regex_replace(texts, r"\x01\x02", "\x01")


def split_punctuation(texts, punctuation_class: str):
    """Spaces around every character matching `punctuation_class` (an RE2 class).

    Spell the class out (`[.,;!?]`), as RE2's `\\w` and `\\W` are ASCII-only.
    """
    tf = _tf()
    return tf.strings.regex_replace(texts, f"({punctuation_class})", r" \1 ")


class TokenTables:
    """Lookup tables between tokens (characters or words) and ids.

    A SavedModel saves the input table when the exporter tracks
    `input_table`.

    Args:
        input_tokens: list of input tokens; index = id. Anything missing from
            the list maps to `unknown_id`.
        output_tokens: list of output strings; index = id (special tokens
            should be empty strings so they vanish when joined).
        unknown_id: id of tokens missing from `input_tokens`.
    """

    def __init__(self, input_tokens, output_tokens, unknown_id: int = 1):
        tf = _tf()
        keys = list(input_tokens)
        values = list(range(len(keys)))
        self.input_table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(keys, tf.string), tf.constant(values, tf.int32)
            ),
            default_value=unknown_id,
        )
        self.output_strings = tf.constant(list(output_tokens), tf.string)

    def _lookup(self, pieces, max_length):
        tf = _tf()
        ids = tf.ragged.map_flat_values(self.input_table.lookup, pieces)
        lengths = tf.cast(pieces.row_lengths(), tf.int32)
        dense = ids.to_tensor(default_value=0, shape=[None, max_length])
        return tf.cast(dense, tf.int32), lengths

    def encode_chars(self, texts, max_length: int):
        """Characters of each (already normalized) text as ids.

        Returns:
            `(ids, lengths)`: int32 `(B, max_length)`, right-padded with 0 and
            truncated to `max_length`; int32 `(B,)` lengths before truncation.
        """
        tf = _tf()
        return self._lookup(tf.strings.unicode_split(texts, "UTF-8"), max_length)

    def encode_words(self, texts, max_length: int):
        """Whitespace-separated words of each (normalized) text as ids.

        Returns `(ids, lengths)` as `encode_chars` does.
        """
        tf = _tf()
        return self._lookup(tf.strings.split(texts), max_length)

    def decode(self, ids, separator: str = "", stop_ids=()):
        """Join the output strings of `ids` `(B, T)` into one string per row.

        A row stops before its first id in `stop_ids` (e.g. end and padding),
        as the Python decoders of the applications do; empty output strings
        (special tokens) are left out, so no separator doubles up.
        """
        tf = _tf()
        ids = tf.cast(ids, tf.int32)
        strings = tf.gather(self.output_strings, ids)
        keep = tf.not_equal(strings, "")
        if stop_ids:
            stops = tf.reduce_any(
                tf.equal(ids[:, :, None], tf.constant(list(stop_ids), tf.int32)),
                axis=-1,
            )
            before_stop = tf.equal(tf.cumsum(tf.cast(stops, tf.int32), axis=1), 0)
            keep = tf.logical_and(keep, before_stop)
        kept = tf.ragged.boolean_mask(strings, keep)
        return tf.strings.reduce_join(kept, axis=1, separator=separator)


def valid_utf8(texts):
    """`texts` with every byte sequence that is not UTF-8 read as U+FFFD.

    Python's `raw.decode("utf-8", "replace")` gives the same characters for
    the common cases (a stray byte, a truncated sequence), so string ops that
    need valid UTF-8 (`capitalize_first`) can follow.
    """
    tf = _tf()
    return tf.strings.unicode_transcode(
        texts, "UTF-8", "UTF-8", errors="replace", replacement_char=0xFFFD
    )


def rewrite_strings(texts, rules):
    """Apply `(pattern, rewrite)` RE2 rules in order, each to every match.

    Written as Python's `re.sub(pattern, rewrite, text)` would be, with
    `\\1` for a group, for patterns both engines read alike (no `\\w`, `\\b`).
    """
    tf = _tf()
    for pattern, rewrite in rules:
        texts = tf.strings.regex_replace(texts, pattern, rewrite)
    return texts


def capitalize_first(strings):
    """Each string with its first character upper-cased (Unicode), the rest kept.

    The graph twin of Python's `s[:1].upper() + s[1:]` on valid UTF-8
    (`valid_utf8`); a string starting with NUL is left as it is, as
    `tf.strings.upper` reads NUL as the end of its input.
    """
    tf = _tf()
    first = tf.strings.substr(strings, 0, 1, unit="UTF8_CHAR")
    length = tf.strings.length(strings, unit="UTF8_CHAR")
    # Substr refuses a position past the end, so "" starts its rest at 0.
    start = tf.minimum(length, 1)
    rest = tf.strings.substr(strings, start, length - start, unit="UTF8_CHAR")
    upper = tf.strings.upper(first, encoding="utf-8")
    upper = tf.where(tf.equal(first, "\x00"), first, upper)
    return tf.strings.join([upper, rest])


class StringTable:
    """A string-to-string lookup that leaves strings outside its keys as they are.

    A SavedModel saves the table when the exporter tracks `table`.

    Args:
        mapping: `{key: value}` (e.g. lower-cased word to its cased form).
    """

    def __init__(self, mapping):
        tf = _tf()
        # An empty key keeps the initializer's constants non-empty; the
        # lookup of "" gives "" either way.
        items = {"": "", **dict(mapping)}
        self.table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(list(items), tf.string),
                tf.constant(list(items.values()), tf.string),
            ),
            default_value="\x00",
        )

    def lookup(self, strings):
        """`mapping[s]` for each string `s` that is a key, else `s`."""
        tf = _tf()
        found = self.table.lookup(strings)
        return tf.where(tf.equal(found, "\x00"), strings, found)
