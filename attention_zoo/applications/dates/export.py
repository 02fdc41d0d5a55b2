"""The date normalizer as a SavedModel that serves raw strings."""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.predictor import Normalizer


def export(run_dir, output) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`, `attention`.

    The string preprocessing (`data.normalize`, character lookup with
    `<unk>` for unseen characters) runs in the graph. Documented rule for
    inputs the model cannot read: an empty input, or one longer than TX
    characters once normalized, gives the empty string and all-zero
    attention.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, normalize_strings

    output = export_folder(output)
    normalizer = Normalizer(run_dir)
    predict_fn = models.make_predict_fn(normalizer.model, normalizer.kind)
    output_tokens = [t if len(t) == 1 else "" for t in data.IsoVocabulary.tokens]
    tables = TokenTables(normalizer.vocabulary.tokens, output_tokens, unknown_id=1)

    def serve(text):
        normalized = normalize_strings(text)
        ids, lengths = tables.encode_chars(normalized, data.TX)
        valid = tf.logical_and(lengths > 0, lengths <= data.TX)
        iso_ids, attention = predict_fn(ids)
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        stops = (data.IsoVocabulary.pad_id, data.IsoVocabulary.end_id)
        decoded = tf.where(
            valid, tables.decode(iso_ids, stop_ids=stops), tf.constant("")
        )
        return {"text": decoded, "attention": attention}

    return write_saved_model(
        output, serve, "text", [normalizer.model, tables.input_table]
    )
