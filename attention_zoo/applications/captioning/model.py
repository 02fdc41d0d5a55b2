"""Show, Attend and Tell captioning models built from attention_zoo parts.

Two Keras models make a captioner:

- the **image encoder**, `attention_zoo.encoders.image_encoder`: RGB images
  `(B, S, S, 3)` in [0, 255] to a feature grid `(B, L, C)`, `L = H * W`
  (EfficientNet-Lite0 with ImageNet weights by default: 7 x 7 x 1280 at
  224 px);
- the **caption model** (`build_caption_model`): `[features (B, L, C),
  words (B, T)]` to `{"logits": (B, T, V), "attention": (B, T, L)}`. The
  features are projected (`feature_projection`), a learned vector per grid
  position is added (`grid_position`), and `ShowAttendTellDecoder` (LSTM,
  initial state from the mean feature, `BahdanauAttention`, gate `beta_t`,
  deep output) runs over the embedded words; `logits` is the output layer
  `L_o`.

With a frozen encoder the features are computed once per image and the
caption model trains on them alone (`tasks.train`); fine-tuning stacks the
two (`build_end_to_end_model`). Decoding (`make_caption_fn`) runs greedy or
beam search from `attention_zoo.decoding` over the trained layers, from
features.
"""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo.applications.common.compile import compile_function
from attention_zoo.applications.common.search import search_words
from attention_zoo.applications.common.text import PAD_ID
from attention_zoo.decoders import ShowAttendTellDecoder
from attention_zoo.decoding import make_step_fn
from attention_zoo.layers import BahdanauAttention
from attention_zoo.losses import (
    DoublyStochasticAttentionLoss,
    MaskedSequenceCrossEntropy,
)


@keras.saving.register_keras_serializable(package="attention_zoo_captioning")
class GridPositionEmbedding(keras.layers.Layer):
    """Adds a learned vector to each position of a `(B, L, D)` feature grid.

    A weighted sum of grid features (the attention context) says what was
    looked at but not where; the captions of the generated scenes name
    relations ("above", "to the left of"), so each position gets its own
    learned offset before the attention reads the grid.

    Args:
        initializer: initializer of the `(L, D)` embeddings.
        **kwargs: base layer arguments.
    """

    def __init__(self, initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        self.initializer = keras.initializers.get(initializer)
        self.supports_masking = True

    def build(self, input_shape):
        if len(input_shape) != 3 or None in input_shape[1:]:
            raise ValueError(
                "GridPositionEmbedding: the input must have shape (batch_size, L, D) "
                f"with known L and D. Received: input_shape={tuple(input_shape)}"
            )
        self.embeddings = self.add_weight(
            shape=tuple(input_shape[1:]),
            initializer=self.initializer,
            name="embeddings",
        )

    def call(self, inputs):
        return inputs + ops.cast(self.embeddings, inputs.dtype)[None]

    def get_config(self):
        return {
            **super().get_config(),
            "initializer": keras.initializers.serialize(self.initializer),
        }


def _is_positive_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def build_caption_model(
    feature_shape: tuple[int, int],
    vocab_size: int,
    units: int = 256,
    embedding_dim: int = 128,
    attention_units: int = 128,
    feature_units: int = 256,
    dropout: float = 0.3,
    context_dropout: float = 0.0,
    gate: bool = True,
    position_embedding: bool = True,
    initial_state: str = "mean_memory",
    seed: int = 0,
) -> keras.Model:
    """`[features (B, L, C), words (B, T)]` -> `{"logits", "attention"}`.

    Args:
        feature_shape: `(L, C)`, the positions of the encoder's grid
            (`H * W`) and its channels: the encoder's `output_shape[1:]`.
        vocab_size: words, special tokens included.
        units: LSTM units.
        embedding_dim: word embedding size (and the deep output's size).
        attention_units: units of the additive attention score.
        feature_units: size the grid features are projected to.
        dropout: dropout of the decoder's inputs and outputs.
        context_dropout: fraction of the training steps at which the LSTM
            does not see the attention context (`ShowAttendTellDecoder`).
        gate: the context gate `beta_t` of the paper.
        position_embedding: add a learned vector per grid position.
        initial_state: the decoder's, `"mean_memory"` (the paper's MLPs of
            the mean feature) or `"zeros"`.
        seed: seed of the dropout.
    """
    if not (
        isinstance(feature_shape, (tuple, list))
        and len(feature_shape) == 2
        and all(_is_positive_int(d) for d in feature_shape)
    ):
        raise ValueError(
            "`feature_shape` must be (grid positions, channels), two positive "
            f"integers. Received: {feature_shape!r}"
        )
    for name, value in {
        "units": units,
        "embedding_dim": embedding_dim,
        "attention_units": attention_units,
        "feature_units": feature_units,
    }.items():
        if not _is_positive_int(value):
            raise ValueError(
                f"`{name}` must be a positive integer. Received: {value!r}"
            )
    if vocab_size < 5:
        raise ValueError(f"`vocab_size` must be at least 5. Received: {vocab_size!r}")
    features = keras.Input(tuple(feature_shape), name="features")
    words = keras.Input((None,), dtype="int32", name="words")
    memory = keras.layers.Dense(feature_units, name="feature_projection")(features)
    if position_embedding:
        memory = GridPositionEmbedding(name="grid_position")(memory)  # (B, L, F)
    embedded = keras.layers.Embedding(
        vocab_size, embedding_dim, mask_zero=True, name="word_embedding"
    )(words)  # (B, T, E)
    decoder = ShowAttendTellDecoder(
        keras.layers.LSTMCell(units, name="cell"),
        BahdanauAttention(attention_units, name="attention"),
        gate=gate,
        deep_output=True,
        initial_state=initial_state,
        dropout=dropout,
        context_dropout=context_dropout,
        seed=seed,
        name="decoder",
    )
    outputs, alignments, _ = decoder(embedded, memory)  # (B, T, E), (B, T, L)
    logits = keras.layers.Dense(vocab_size, name="logits")(outputs)
    attention = keras.layers.Identity(name="attention")(alignments)
    return keras.Model(
        [features, words], {"logits": logits, "attention": attention}, name="captioner"
    )


def compile_caption_model(
    model: keras.Model,
    learning_rate: float = 1e-3,
    doubly_stochastic: float = 1.0,
    decay_steps: int | None = None,
    warmup_steps: int = 0,
) -> keras.Model:
    """Adam with clipped gradients and an optional warm-up and cosine decay.

    The rate rises linearly from 0 to `learning_rate` over `warmup_steps`,
    then follows a cosine to 0 at step `decay_steps` (counted from the
    start, warm-up included) if given, else stays at `learning_rate`.
    The loss is the masked cross-entropy of the words plus
    `DoublyStochasticAttentionLoss(doubly_stochastic)` on the attention.
    """
    if warmup_steps < 0 or (decay_steps and warmup_steps >= decay_steps):
        raise ValueError(
            "`warmup_steps` must be >= 0 and below `decay_steps`. Received: "
            f"warmup_steps={warmup_steps}, decay_steps={decay_steps}"
        )
    rate = learning_rate
    if decay_steps or warmup_steps:
        rate = keras.optimizers.schedules.CosineDecay(
            0.0 if warmup_steps else learning_rate,
            decay_steps - warmup_steps if decay_steps else 1,
            alpha=0.0 if decay_steps else 1.0,  # 1: no decay
            warmup_target=learning_rate if warmup_steps else None,
            warmup_steps=warmup_steps,
        )
    model.compile(
        keras.optimizers.Adam(rate, clipnorm=5.0),
        loss={
            "logits": MaskedSequenceCrossEntropy(pad_token=PAD_ID),
            "attention": DoublyStochasticAttentionLoss(doubly_stochastic, PAD_ID),
        },
    )
    return model


def build_end_to_end_model(encoder: keras.Model, caption_model: keras.Model):
    """`[images (B, S, S, 3), words (B, T)]` -> the caption model's outputs.

    Shares the layers of both models, for fine-tuning the encoder.
    """
    images = keras.Input(encoder.input_shape[1:], name="images")
    words = keras.Input((None,), dtype="int32", name="words")
    outputs = caption_model([encoder(images), words])
    return keras.Model([images, words], outputs, name="end_to_end_captioner")


def make_caption_fn(
    caption_model: keras.Model,
    max_length: int,
    beam_width: int = 1,
    alpha: float = 0.0,
    keep_beams: bool = False,
):
    """`caption(features (B, L, C)) -> (tokens (B, max_length), attention
    (B, max_length, L), scores (B,))`, `scores` the log-probability per
    token of each caption (`search_words`).

    Greedy search for `beam_width=1`, else beam search with GNMT length
    penalty `alpha`, keeping the best hypothesis, or with `keep_beams` every
    hypothesis, best first, on an axis after the batch (`search_words`).
    """
    projection = caption_model.get_layer("feature_projection")
    try:
        position = caption_model.get_layer("grid_position")
    except ValueError:
        position = None
    decoder = caption_model.get_layer("decoder")
    step_fn = make_step_fn(
        decoder,
        caption_model.get_layer("word_embedding"),
        caption_model.get_layer("logits"),
    )

    def caption(features):
        memory = projection(features)
        if position is not None:
            memory = position(memory)
        return search_words(
            step_fn, decoder, memory, max_length, beam_width, alpha,
            keep_beams=keep_beams,
        )  # fmt: skip

    return caption


def compiled(fn, input_shape, jit_compile: bool = True):
    """`fn(x)` compiled for the backend: a `tf.function` on TensorFlow (with
    XLA when `jit_compile`), `jax.jit` on JAX.

    `input_shape` is the shape of `x` without the batch axis. Use
    `jit_compile=False` for the image encoder: TensorFlow's XLA on CPU ran
    EfficientNet-Lite0 several times slower than the plain graph
    (docs/benchmarks.md), while it speeds up the decoding loops.
    """
    return compile_function(fn, input_shape, "float32", jit_compile)
