"""The date normalizer as a SavedModel that serves raw strings."""

from __future__ import annotations

import math
from pathlib import Path

from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.predictor import Normalizer


def calendar_dates(texts):
    """bool `(B,)`: each string is a real `YYYY-MM-DD` date (in TF ops).

    The graph twin of `data.is_calendar_date` (year 1 to 9999, Gregorian
    leap years).
    """
    import tensorflow as tf

    shaped = tf.strings.regex_full_match(texts, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    # to_number fails on text that is not a number: parse a stand-in there.
    safe = tf.where(shaped, texts, tf.constant("2000-01-01"))
    year = tf.strings.to_number(tf.strings.substr(safe, 0, 4), tf.int32)
    month = tf.strings.to_number(tf.strings.substr(safe, 5, 2), tf.int32)
    day = tf.strings.to_number(tf.strings.substr(safe, 8, 2), tf.int32)
    leap = tf.logical_or(
        tf.logical_and(year % 4 == 0, year % 100 != 0), year % 400 == 0
    )
    lengths = tf.constant([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    last = tf.gather(lengths, tf.clip_by_value(month - 1, 0, 11))
    last = last + tf.cast(tf.logical_and(leap, month == 2), tf.int32)
    ok = (year >= 1) & (month >= 1) & (month <= 12) & (day >= 1) & (day <= last)
    return tf.logical_and(shaped, ok)


def export(run_dir, output, jit_compile: bool = True) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`,
    `attention`, `valid`, `score`.

    The string preprocessing (`data.normalize`, character lookup with
    `<unk>` for unseen characters), the calendar check and the threshold
    run in the graph; the model part is compiled with XLA
    (`jit_compile`), which plain TensorFlow runs without attention_zoo.
    `text` is the model's answer ("" for `<invalid>`), `score` its
    log-probability, `valid` = a real calendar date and score >= the run's
    threshold. Documented rule for inputs the model cannot read: an empty
    input, or one longer than Tx characters once normalized, gives the
    empty string, all-zero attention, `valid` False and score -inf.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, normalize_strings

    output = export_folder(output)
    normalizer = Normalizer(run_dir)
    tx = normalizer.tx
    predict_fn = tf.function(
        models.make_predict_fn(normalizer.model, normalizer.kind),
        jit_compile=jit_compile,
    )
    output_tokens = [t if len(t) == 1 else "" for t in data.IsoVocabulary.tokens]
    tables = TokenTables(normalizer.vocabulary.tokens, output_tokens, unknown_id=1)
    threshold = tf.constant(normalizer.threshold, tf.float32)

    def serve(text):
        normalized = normalize_strings(text)
        ids, lengths = tables.encode_chars(normalized, tx)
        readable = tf.logical_and(lengths > 0, lengths <= tx)
        width = tx
        if normalizer.kind == "default":
            # The default model reads only the batch's longest input (its
            # encoder is masked, so the padding it skips changes nothing),
            # rounded up to a multiple of 8 so that XLA compiles at most
            # tx / 8 programs per batch size: most dates are far shorter
            # than tx, and the encoder's steps are most of the work.
            longest = tf.reduce_max(tf.concat([[1], tf.minimum(lengths, tx)], 0))
            width = tf.minimum(tx, tf.maximum(8, (longest + 7) // 8 * 8))
        iso_ids, attention, scores = predict_fn(ids[:, :width])
        attention = tf.pad(attention, [[0, 0], [0, 0], [0, tx - width]])
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(
            readable[:, None, None], attention, tf.zeros_like(attention)
        )
        stops = (data.IsoVocabulary.pad_id, data.IsoVocabulary.end_id)
        decoded = tf.where(
            readable, tables.decode(iso_ids, stop_ids=stops), tf.constant("")
        )
        scores = tf.where(readable, tf.cast(scores, tf.float32), -math.inf)
        valid = calendar_dates(decoded) & (scores >= threshold)
        return {
            "text": decoded,
            "attention": attention,
            "valid": valid,
            "score": scores,
        }

    return write_saved_model(
        output, serve, "text", [normalizer.model, tables.input_table]
    )
