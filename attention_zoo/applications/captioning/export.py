"""A captioning run as a SavedModel that captions encoded image bytes."""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.captioning.predictor import MAX_PIXELS, Captioner
from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.common.text import END_ID, PAD_ID, UNK_ID


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(image_bytes: tf.string [None])`.

    Returns `text` (tf.string captions), `attention` (float32
    `(B, max_caption_length, H*W)`: the attention of each generated word,
    zero after `<end>`) and `valid` (bool: False for bytes that are empty,
    undecodable or over `MAX_PIXELS`, whose caption is "" and attention
    zero); an empty batch gives empty outputs. Decoding, RGB conversion and
    the resize run in the graph (`attention_zoo.export.decode_images`), then
    the encoder (plain graph) and beam search (XLA), then the words are
    joined.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, decode_images

    output = export_folder(output, "captioning")
    captioner = Captioner(run_dir, beam_width=beam_width)
    fn, encode = captioner._search_fn(captioner.beam_width), captioner._encode_fn()
    # Special tokens vanish from the joined text, except <unk>, as in
    # WordVocabulary.decode.
    words = [
        t if i >= 4 or i == UNK_ID else ""
        for i, t in enumerate(captioner.vocabulary.tokens)
    ]
    tables = TokenTables(["<pad>"], words)

    def caption_batch(images, valid):
        tokens, attention = fn(encode(images))
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        text = tables.decode(tokens, separator=" ", stop_ids=(PAD_ID, END_ID))
        return tf.where(valid, text, tf.constant("")), attention

    def no_caption():
        cells = captioner.grid_shape[0] * captioner.grid_shape[1]
        return (
            tf.zeros([0], tf.string),
            tf.zeros([0, captioner.max_length, cells], tf.float32),
        )

    def serve(image_bytes):
        images, valid = decode_images(image_bytes, captioner.image_size, MAX_PIXELS)
        # The encoder fails on a batch of 0 images ("Incompatible shapes:
        # [32] vs. [0,224,224,3]" in the EfficientNet stem): skip it.
        text, attention = tf.cond(
            tf.size(valid) > 0, lambda: caption_batch(images, valid), no_caption
        )
        return {"text": text, "attention": attention, "valid": valid}

    return write_saved_model(
        output, serve, "image_bytes", [captioner.encoder, captioner.model], "captioning"
    )
