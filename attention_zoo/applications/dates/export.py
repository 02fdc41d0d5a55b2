"""The date normalizer as a SavedModel that serves raw strings."""

from __future__ import annotations

import math
from pathlib import Path

from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.dates import checks, data, passes
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.graph_rules import word_table
from attention_zoo.applications.dates.predictor import Normalizer


def export(run_dir, output, jit_compile: bool = True) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`,
    `attention`, `valid`, `score`.

    The string preprocessing (the graph halves of `passes.PASSES`,
    character lookup with `<unk>` for unseen characters) and the validity
    checks (the graph halves of `checks.CHECKS`) run in the graph; the
    model part is compiled with XLA (`jit_compile`), which plain
    TensorFlow runs without attention_zoo.
    `text` is the model's answer ("" for `<invalid>`), `score` its
    log-probability, `valid` = an input that writes no date before the
    common era (`eras.era_disagreement`), a real calendar date, the one
    reading of an all-numeric input (`readings.agrees`), a year the input
    writes if it writes four-digit numbers (`readings.year_disagreement`),
    a month the input names if it writes letters
    (`lexicon.month_disagreement`) and score >= the run's threshold.
    Documented rule for inputs the model cannot read: an empty
    input, or one longer than Tx characters once normalized, gives the
    empty string, all-zero attention, `valid` False and score -inf.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables

    output = export_folder(output, "dates")
    normalizer = Normalizer(run_dir)
    tx = normalizer.tx
    predict_fn = tf.function(
        models.make_predict_fn(normalizer.model, normalizer.kind),
        jit_compile=jit_compile,
        autograph=False,  # keras.ops code (common/compile.py)
    )
    output_tokens = [t if len(t) == 1 else "" for t in data.IsoVocabulary.tokens]
    tables = TokenTables(normalizer.vocabulary.tokens, output_tokens, unknown_id=1)
    threshold = tf.constant(normalizer.threshold, tf.float32)
    months = word_table(normalizer.lexicon, normalizer.days)

    def serve(text):
        normalized = passes.run_graph(text, passes.NORMALIZE)
        viewed = passes.run_graph(normalized, passes.LEXICON_PASSES, months)
        ids, lengths = tables.encode_chars(viewed, tx)
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
        valid = checks.graph_valid(normalized, viewed, decoded, months)
        valid = valid & (scores >= threshold)
        return {
            "text": decoded,
            "attention": attention,
            "valid": valid,
            "score": scores,
        }

    return write_saved_model(
        output, serve, "text", [normalizer.model, tables.input_table, months], "dates"
    )
