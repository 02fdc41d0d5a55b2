"""The two date models: the course's `classic` and attention_zoo's `default`.

Both map character ids `(B, TX)` to the ten characters of an ISO date and
expose their attention `(B, TY, TX)`:

- `classic`: the deeplearning.ai Sequence Models assignment, layer for layer
  (Bi-LSTM 32 encoder; per output step RepeatVector + Concatenate +
  Dense(10, tanh) + Dense(1, relu) + softmax over TX + dot; post-attention
  LSTM 64; softmax over 11 characters). Non-autoregressive: it predicts all
  ten characters from attention contexts alone.
- `default`: Embedding + `BidirectionalRNNEncoder` (GRU) +
  `ParallelAttentionDecoder` (GRU, `BahdanauAttention` scores by default,
  any mechanism of `ATTENTIONS` on request) + Dense, teacher-forced in `fit`
  and decoded with `attention_zoo.decoding`.
"""

from __future__ import annotations

import keras
import numpy as np
from keras import ops

from attention_zoo.applications.common.compile import compile_function
from attention_zoo.applications.common.source_encoder import (
    encode_source,
    source_encoder,
)
from attention_zoo.applications.dates.data import (
    ISO_CHARS,
    TX,
    TX_CLASSIC,
    TY,
    IsoVocabulary,
)
from attention_zoo.applications.dates.model_names import MODELS  # noqa: F401
from attention_zoo.decoders import ParallelAttentionDecoder
from attention_zoo.decoding import decode_memory, make_step_fn
from attention_zoo.layers import (
    BahdanauAttention,
    CoverageAttention,
    LocalAttention,
    LocationSensitiveAttention,
    LuongAttention,
    MonotonicAttention,
    MonotonicChunkwiseAttention,
)
from attention_zoo.losses import MaskedSequenceCrossEntropy
from attention_zoo.metrics import SequenceExactMatch

# The mechanisms the default model can use, by name (`model_names`'s
# ATTENTION_NAMES, the flag's choices): factories of `units`.
ATTENTIONS = {
    "bahdanau": lambda units: BahdanauAttention(units),
    "luong": lambda units: LuongAttention("general"),
    # Luong's D = 10; "concat" scores (additive, like Bahdanau's): with
    # "general" scores local-m fell short in the default budget
    # (docs/layers.md, "Every mechanism on the dates task").
    "local-m": lambda units: LocalAttention(
        "local-m", window=10, score_mode="concat", units=units
    ),
    "local-p": lambda units: LocalAttention(
        "local-p", window=10, score_mode="concat", units=units
    ),
    "location": lambda units: LocationSensitiveAttention(
        units, filters=16, kernel_size=7, cumulative=True
    ),
    "coverage": lambda units: CoverageAttention(units),
    # Raffel's unit pre-sigmoid noise; r = +1 (stop early) measured best of
    # -3, -1, +1 for monotonic, -1 for MoChA (docs/layers.md, benchmarks).
    "monotonic": lambda units: MonotonicAttention(
        units, sigmoid_noise=1.0, score_bias_init=1.0
    ),
    # Noise of standard deviation 4, not 1: with unit (or 2) noise MoChA
    # learned soft alignments that its hard inference could not follow
    # (docs/layers.md, "Every mechanism on the dates task").
    "mocha": lambda units: MonotonicChunkwiseAttention(4, units, sigmoid_noise=4.0),
    "bahdanau+luong": lambda units: [
        BahdanauAttention(units),
        LuongAttention("general"),
    ],
}

# Adam's learning rate for the default model, by mechanism, where it is not
# 3e-3: at 3e-3 monotonic attention was still climbing after the 6-epoch
# budget; at 1e-2 it converges in it. So does MoChA with its noise of 4
# (docs/layers.md, "Every mechanism on the dates task").
LEARNING_RATES = {"monotonic": 1e-2, "mocha": 1e-2}


def default_learning_rate(kind: str, attention: str = "bahdanau") -> float:
    """Adam's learning rate when none is given: the course's 5e-3 for
    `classic`, `LEARNING_RATES[attention]` or 3e-3 for `default`."""
    if kind == "classic":
        return 0.005
    return LEARNING_RATES.get(attention, 3e-3)


@keras.saving.register_keras_serializable(package="attention_zoo_dates")
class OneHot(keras.layers.Layer):
    """Token ids to one-hot vectors (the course feeds one-hot inputs)."""

    def __init__(self, depth: int, **kwargs):
        super().__init__(**kwargs)
        self.depth = depth

    def call(self, ids):
        return ops.one_hot(ops.cast(ids, "int32"), self.depth, dtype=self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return (*input_shape, self.depth)

    def get_config(self):
        return {**super().get_config(), "depth": self.depth}


@keras.saving.register_keras_serializable(package="attention_zoo_dates")
class ZeroState(keras.layers.Layer):
    """Zeros `(B, units)`: the course's `s0` and `c0` inputs, made internal."""

    def __init__(self, units: int, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def call(self, reference):
        return ops.zeros((ops.shape(reference)[0], self.units), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.units)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@keras.saving.register_keras_serializable(package="attention_zoo_dates")
class Stack(keras.layers.Layer):
    """Stack a list of `(B, ...)` tensors on axis 1."""

    def call(self, tensors):
        return ops.stack(tensors, axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0][0], len(input_shape), *input_shape[0][1:])


def build_classic(
    input_vocab_size: int,
    output_vocab_size: int = len(ISO_CHARS),
    tx: int = TX_CLASSIC,
    ty: int = TY,
    n_a: int = 32,
    n_s: int = 64,
) -> keras.Model:
    """The deeplearning.ai attention model; outputs `[probabilities, attention]`.

    With the course's vocabularies (37 input characters, 11 output
    characters) it has 52,960 parameters.
    """
    source = keras.Input((tx,), dtype="int32", name="source")
    x = OneHot(input_vocab_size, name="one_hot")(source)
    a = keras.layers.Bidirectional(
        keras.layers.LSTM(n_a, return_sequences=True), name="encoder"
    )(x)  # (B, Tx, 2 n_a)
    repeator = keras.layers.RepeatVector(tx, name="repeat")
    concatenator = keras.layers.Concatenate(axis=-1, name="concat")
    densor1 = keras.layers.Dense(10, activation="tanh", name="attention_dense_1")
    densor2 = keras.layers.Dense(1, activation="relu", name="attention_dense_2")
    activator = keras.layers.Softmax(axis=1, name="attention_weights")
    dotor = keras.layers.Dot(axes=1, name="context")
    post_lstm = keras.layers.LSTM(n_s, return_state=True, name="post_attention_lstm")
    output_layer = keras.layers.Dense(
        output_vocab_size, activation="softmax", name="output"
    )
    s = ZeroState(n_s, name="s0")(source)
    c = ZeroState(n_s, name="c0")(source)
    outputs, alphas = [], []
    for _ in range(ty):
        energies = densor2(densor1(concatenator([a, repeator(s)])))  # (B, Tx, 1)
        alpha = activator(energies)  # (B, Tx, 1)
        context = dotor([alpha, a])  # (B, 1, 2 n_a)
        s, _, c = post_lstm(context, initial_state=[s, c])
        outputs.append(output_layer(s))
        alphas.append(alpha)
    probabilities = Stack(name="probabilities")(outputs)  # (B, Ty, V)
    attention = keras.layers.Reshape((ty, tx), name="attention")(Stack()(alphas))
    return keras.Model(source, [probabilities, attention], name="classic")


def build_default(
    input_vocab_size: int,
    units: int = 64,
    embedding_dim: int = 32,
    tx: int = TX,
    dropout: float = 0.0,
    attention: str = "bahdanau",
    target_vocab_size: int | None = None,
) -> keras.Model:
    """Training model: `[source (B, TX), decoder_input (B, TY + 1)]` -> logits.

    `attention` names the mechanism (a key of `ATTENTIONS`); with several
    mechanisms (`"bahdanau+luong"`) the decoder concatenates their contexts
    and the application shows the first mechanism's attention.
    `target_vocab_size`: the output tokens, `IsoVocabulary`'s by default
    (a forms run's are `forms_data.FormVocabulary`'s).
    """
    if attention not in ATTENTIONS:
        raise ValueError(
            f"`attention` must be one of {tuple(ATTENTIONS)}. Received: "
            f"attention={attention!r}"
        )
    target_vocab = target_vocab_size or len(IsoVocabulary.tokens)
    source = keras.Input((tx,), dtype="int32", name="source")
    decoder_input = keras.Input((None,), dtype="int32", name="decoder_input")
    memory, states = encode_source(
        source, input_vocab_size, embedding_dim, units, dropout
    )  # (B, Tx, 2 units)
    target = keras.layers.Embedding(
        target_vocab, embedding_dim, name="target_embedding"
    )(decoder_input)
    outputs, _, _ = ParallelAttentionDecoder(
        keras.layers.GRUCell(2 * units),
        ATTENTIONS[attention](units),
        dropout=dropout,
        name="decoder",
    )(target, memory, initial_state=states)
    logits = keras.layers.Dense(target_vocab, name="logits")(outputs)
    return keras.Model([source, decoder_input], logits, name="default")


def compile_model(
    model: keras.Model,
    kind: str,
    learning_rate: float | None = None,
    total_steps: int | None = None,
    attention: str = "bahdanau",
    course_decay: bool = True,
):
    """Optimizer, loss and exact-match metric of each model.

    Without `learning_rate`, `default_learning_rate(kind, attention)`.
    `default` anneals its learning rate to zero over `total_steps` (cosine),
    so the last epochs settle instead of bouncing. `classic` trains as the
    course did, `Adam(lr=0.005, decay=0.01)`: Keras 2's `decay` divided the
    rate by `1 + 0.01 * iterations` (Keras 3 dropped the argument; the same
    schedule is `InverseTimeDecay`). `course_decay=False` keeps the rate
    constant instead (a stronger baseline than the course's).
    """
    rate = learning_rate or default_learning_rate(kind, attention)
    if kind == "classic":
        if course_decay:
            rate = keras.optimizers.schedules.InverseTimeDecay(
                rate, decay_steps=1, decay_rate=0.01
            )
        model.compile(
            keras.optimizers.Adam(rate),
            loss=["sparse_categorical_crossentropy", None],
            metrics=[[SequenceExactMatch(pad_token=-1)], None],
        )
    else:
        if total_steps:
            rate = keras.optimizers.schedules.CosineDecay(rate, decay_steps=total_steps)
        model.compile(
            keras.optimizers.Adam(rate),
            loss=MaskedSequenceCrossEntropy(pad_token=IsoVocabulary.pad_id),
            metrics=[SequenceExactMatch(pad_token=IsoVocabulary.pad_id)],
        )
    return model


def training_arrays(kind: str, source_ids, isos, vocabulary=None):
    """(x, y) for `fit` from ISO strings (`""` for a non-date, default only),
    or from forms with `vocabulary` a `forms_data.FormVocabulary`."""
    iso = vocabulary or IsoVocabulary()
    if kind == "classic":
        return source_ids, iso.encode(isos) - 3  # classes 0..10 are ISO_CHARS
    labels = iso.targets(isos)  # (N, TY + 1)
    start = np.full((len(isos), 1), IsoVocabulary.start_id, "int32")
    decoder_input = np.concatenate([start, labels[:, :-1]], axis=1)
    return (source_ids, decoder_input), labels


def make_predict_fn(model: keras.Model, kind: str, ty: int = TY):
    """`predict(source_ids) -> (iso_ids (B, TY), attention (B, TY, TX), scores (B,))`.

    `ty`: the longest answer of the default model, in tokens (`TY` for an
    ISO date, `forms_data.TY_FORMS` for a form).

    `iso_ids` are IsoVocabulary ids; `scores` the log-probability of the
    whole answer (float32). For `default` this is greedy decoding
    (`attention_zoo.decoding.decode_memory`) over the trained layers, and
    the score sums the log-probabilities of the decoded tokens, `<end>`
    included. For `classic` (no `<end>`) it sums the log-probabilities of
    the ten most probable characters.
    """
    if kind == "classic":

        def predict(source_ids):
            probabilities, attention = model(source_ids)
            ids = ops.cast(ops.argmax(probabilities, axis=-1), "int32") + 3
            best = ops.max(ops.cast(probabilities, "float32"), axis=-1)
            scores = ops.sum(ops.log(ops.maximum(best, 1e-30)), axis=-1)
            return ids, attention, scores

        return predict

    encode = source_encoder(model)
    decoder = model.get_layer("decoder")
    step_fn = make_step_fn(
        decoder, model.get_layer("target_embedding"), model.get_layer("logits")
    )

    def predict(source_ids):
        memory, mask, states = encode(source_ids)
        out = decode_memory(
            step_fn,
            decoder,
            memory,
            IsoVocabulary.start_id,
            IsoVocabulary.end_id,
            ty + 1,
            memory_mask=mask,
            initial_state=states,
            pad_token=IsoVocabulary.pad_id,
        )
        attention = out["attention"][:, :ty]
        # Several mechanisms: their alignments are concatenated; the
        # application shows the first one's.
        n = len(decoder._mechanisms)
        attention = decoder.split_alignments(attention, [ops.shape(memory)[1]] * n)[0]
        return out["tokens"][:, :ty], attention, out["scores"]

    return predict


def compiled(fn, tx: int = TX):
    """`fn(source_ids)` compiled for the backend (XLA on TensorFlow, jit on JAX)."""
    return compile_function(fn, (tx,), "int32")
