"""A translation run as a SavedModel that translates raw strings."""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation.predictor import (
    DECODE_PAD,
    MAX_SOURCE_TOKENS,
    Translator,
)


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`, `attention`.

    Tokenization (`tokenizer.normalize`, word lookup with `<unk>`) runs in
    the graph, then beam search (`beam_width`, default the run's) compiled
    with XLA as `Translator` runs it, then detokenization. `attention` is
    float32 `(B, MAX_OUTPUT_TOKENS, Tx)` with `Tx` the batch's source
    length padded to a multiple of `DECODE_PAD`. The input rules of the
    module docstring hold: an empty input gives "" and zero attention.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, normalize_strings, split_punctuation

    output = export_folder(output)
    translator = Translator(run_dir, beam_width=beam_width)
    fn = translator.translate_fn(translator.beam_width)
    output_tokens = [
        t if i >= len(tokenizer.SPECIALS) or t == tokenizer.UNK else ""
        for i, t in enumerate(translator.target_vocabulary.tokens)
    ]
    tables = TokenTables(
        translator.source_vocabulary.tokens, output_tokens, unknown_id=models.UNK_ID
    )

    def serve(text):
        normalized = normalize_strings(
            split_punctuation(text, tokenizer.PUNCTUATION_CLASS)
        )
        ids, lengths = tables.encode_words(normalized, MAX_SOURCE_TOKENS)
        lengths = tf.minimum(lengths, MAX_SOURCE_TOKENS)
        longest = tf.reduce_max(tf.concat([lengths, [0]], 0))
        width = DECODE_PAD * tf.maximum(1, (longest + DECODE_PAD - 1) // DECODE_PAD)
        ids = ids[:, :width]  # padded as Translator.encode pads
        tokens, attention = fn(ids)
        valid = lengths > 0
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        decoded = tables.decode(
            tokens, separator=" ", stop_ids=(models.PAD_ID, models.END_ID)
        )
        return {
            "text": tf.where(valid, decoded, tf.constant("")),
            "attention": attention,
        }

    return write_saved_model(
        output, serve, "text", [translator.model, tables.input_table]
    )
