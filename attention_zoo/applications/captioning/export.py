"""A captioning run exported: as a SavedModel that captions encoded image
bytes (`export`), as the tensor core of a LiteRT or ONNX file
(`export_core`), and the predictor that runs such a core
(`ExportedCaptioner`)."""

from __future__ import annotations

from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning.features import image_array
from attention_zoo.applications.captioning.predictor import MAX_PIXELS, Captioner
from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.common.exporting.portable import (
    CoreFunction,
    check_width,
    data_files,
)
from attention_zoo.applications.common.text import (
    END_ID,
    PAD_ID,
    SPACING_RULES,
    UNK_ID,
)


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(image_bytes: tf.string [None])`.

    Returns `text` (tf.string captions, detokenised as `Captioner` writes
    them), `attention` (float32 `(B, max_caption_length, H*W)`: the
    attention of each generated word, zero after `<end>`), `score` (float32:
    the search's log-probability of the caption per token, `<end>`
    included, as `Captioner`'s), `distance` (float32: to the training images,
    `captioning.domain`; NaN for bytes that could not be read) and `valid` (bool: False for bytes that are empty,
    undecodable or over `MAX_PIXELS`, whose caption is "" and attention
    zero, and for an image unlike the training images or a caption without
    a word, as `Captioner`'s `valid`); an empty batch gives empty outputs. Decoding, RGB conversion and
    the resize run in the graph (`attention_zoo.export.decode_images`), then
    the encoder (plain graph) and beam search (XLA), then the words are
    joined.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, decode_images
    from attention_zoo.export.text import capitalize_first, rewrite_strings

    output = export_folder(output, "captioning")
    captioner = Captioner(run_dir, beam_width=beam_width)
    fn, encode = (
        captioner.search_function(captioner.beam_width),
        captioner.encode_function(),
    )
    # Special tokens vanish from the joined text, except <unk>, as in
    # WordVocabulary.decode.
    words = [
        t if i >= 4 or i == UNK_ID else ""
        for i, t in enumerate(captioner.vocabulary.tokens)
    ]
    tables = TokenTables(["<pad>"], words)

    domain = captioner.domain
    threshold = domain.threshold if domain is not None else float("inf")

    def distances(features):
        """float64, compared with the threshold as `Captioner` compares."""
        if domain is None:
            return tf.zeros(tf.shape(features)[:1], tf.float64)
        pooled = tf.reduce_mean(tf.cast(features, tf.float64), axis=1)
        z = tf.matmul(pooled - domain.mean, domain.whitening)
        return tf.sqrt(tf.reduce_mean(z * z, axis=-1))

    def caption_batch(images, valid):
        features = encode(images)
        tokens, attention, score = fn(features)
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        words = tables.decode(tokens, separator=" ", stop_ids=(PAD_ID, END_ID))
        text = capitalize_first(rewrite_strings(words, SPACING_RULES))
        score = tf.cast(score, tf.float32)
        distance = distances(features)
        answered = tf.logical_and(valid, tf.strings.length(words) > 0)
        answered = tf.logical_and(answered, distance <= threshold)
        # An image that could not be read has no distance.
        distance = tf.where(valid, tf.cast(distance, tf.float32), float("nan"))
        return (
            tf.where(valid, text, tf.constant("")),
            attention,
            tf.where(valid, score, tf.fill(tf.shape(score), float("-inf"))),
            distance,
            answered,
        )

    def no_caption():
        cells = captioner.grid_shape[0] * captioner.grid_shape[1]
        return (
            tf.zeros([0], tf.string),
            tf.zeros([0, captioner.max_length, cells], tf.float32),
            tf.zeros([0], tf.float32),
            tf.zeros([0], tf.float32),
            tf.zeros([0], tf.bool),
        )

    def serve(image_bytes):
        images, readable = decode_images(image_bytes, captioner.image_size, MAX_PIXELS)
        # The encoder fails on a batch of 0 images ("Incompatible shapes:
        # [32] vs. [0,224,224,3]" in the EfficientNet stem): skip it.
        text, attention, score, distance, valid = tf.cond(
            tf.size(readable) > 0,
            lambda: caption_batch(images, readable),
            no_caption,
        )
        return {
            "text": text,
            "attention": attention,
            "score": score,
            "distance": distance,
            "valid": valid,
        }

    return write_saved_model(
        output, serve, "image_bytes", [captioner.encoder, captioner.model], "captioning"
    )


# ------------------------------------------------------- LiteRT and ONNX

OUTPUTS = ("tokens", "attention", "scores", "pooled")


def export_core(run_dir, beam_width: int | None = None) -> CoreFunction:
    """`pixels (B, S, S, 3) float32` (RGB in [0, 255], resized as
    `features.image_array` resizes) `-> tokens (B, max_caption_length)`,
    `attention (B, max_caption_length, H*W)`, `scores (B,)` (log-probability
    per token) and `pooled (B, C)` (the encoder's features averaged over the
    grid, which `domain.ImageDomain` measures): the encoder and the search
    with `beam_width` beams (default: the run's; 1 is greedy) in one file,
    as `Captioner` searches."""
    captioner = Captioner(run_dir, beam_width=beam_width)
    encoder = captioner.encoder
    width = captioner.beam_width
    caption = models.make_caption_fn(
        captioner.model,
        captioner.max_length,
        beam_width=width,
        alpha=captioner.config["alpha"] if width > 1 else 0.0,
    )

    def fn(pixels):
        features = encoder(pixels, training=False)
        tokens, attention, scores = caption(features)
        return {
            "tokens": keras.ops.cast(tokens, "int32"),
            "attention": keras.ops.cast(attention, "float32"),
            "scores": keras.ops.cast(scores, "float32"),
            "pooled": keras.ops.mean(keras.ops.cast(features, "float32"), axis=1),
        }

    size = captioner.image_size
    return CoreFunction(
        fn=fn,
        input_name="pixels",
        shape=(size, size, 3),
        data_files=data_files(captioner),
        outputs=OUTPUTS,
        dtype="float32",
        beam_width=width,
    )


class ExportedCaptioner(Captioner):
    """A `Captioner` whose encoder and decoder are an exported core run by
    `runner` (`common.exporting.runtimes`), searching with the `beam_width` it was
    exported with: the same image reading and resize,
    vocabulary, detokenisation and domain check, in NumPy, from the
    folder's `config.json`, `vocabulary.json` and `domain.json`.

    Its answers are `Captioner.predict_items`': `text`, `score`, `valid`,
    `reason`, `notes`, `distance`, `tokens` and `attention` for every
    image (no `input`: images are not echoed back)."""

    required_files = ("config.json", "vocabulary.json")

    def __init__(self, folder, runner, beam_width: int = 1):
        self.runner = runner
        self.exported_width = beam_width
        super().__init__(folder, beam_width=beam_width)

    def load_models(self) -> None:
        self.encoder = self.model = None

    def feature_channels(self) -> int:
        # The file is the only description of its encoder: one black image
        # run through it (which also warms the runtime).
        pixels = np.zeros((1, self.image_size, self.image_size, 3), "float32")
        return int(np.asarray(self.runner(pixels)["pooled"]).shape[-1])

    def answer_images(self, images, beam_width, batch_size: int, n_best=False):
        check_width("captioner", self.exported_width, beam_width)
        if n_best:
            raise ValueError(
                "an exported captioner keeps the best hypothesis only: leave "
                "n_best out. Received: n_best=True"
            )
        captions, attention, scores, means = [], [], [], []
        for start in range(0, len(images), batch_size):
            pixels = np.stack(
                [
                    image_array(i, self.image_size)
                    for i in images[start : start + batch_size]
                ]
            )
            out = self.runner(pixels)
            more = self.captions(out["tokens"], out["attention"], out["scores"])
            for mine, theirs in zip((captions, attention, scores), more):
                mine.extend(theirs)
            means.append(np.asarray(out["pooled"], "float64"))
        return captions, attention, scores, np.concatenate(means), None
