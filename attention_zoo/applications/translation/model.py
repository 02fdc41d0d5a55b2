"""Encoder-decoder translation models built from attention_zoo parts.

Every model maps `[source (B, Tx), decoder_input (B, Ty)]` word ids to
logits `(B, Ty, V)`: an `Embedding` + `BidirectionalRNNEncoder` (GRU,
directions concatenated) and a decoder over the target embeddings, chosen by
two flags:

- `attention`: `"bahdanau"` (`BahdanauAttention`, additive score),
  `"luong"` (`LuongAttention`, general score) or `"none"` (no attention: the
  fixed-context encoder-decoder, `FixedContextDecoder`, the baseline of
  Bahdanau et al. 2015);
- `decoder`: `"recurrent"`, attention inside the recurrence
  (`AttentionRNNDecoder`: Bahdanau's placement for `bahdanau`, Luong's with
  input feeding for `luong`), or `"parallel"`, the cell first and the
  attention over all steps at once (`ParallelAttentionDecoder`, Luong's
  placement without input feeding; much faster to train).

Decoding (`make_translate_fn`) runs greedy or beam search from
`attention_zoo.decoding` over the trained layers.
"""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo.applications.common.compile import compile_function
from attention_zoo.decoders import AttentionRNNDecoder, ParallelAttentionDecoder
from attention_zoo.decoding import best_hypothesis, make_step_fn
from attention_zoo.encoders import BidirectionalRNNEncoder
from attention_zoo.layers import BahdanauAttention, LuongAttention
from attention_zoo.losses import MaskedSequenceCrossEntropy

ATTENTIONS = ("bahdanau", "luong", "none")
DECODERS = ("parallel", "recurrent")
PAD_ID, UNK_ID, START_ID, END_ID = 0, 1, 2, 3


@keras.saving.register_keras_serializable(package="attention_zoo_translation")
class FixedContextDecoder(keras.layers.Layer):
    """GRU decoder reading one fixed context vector at every step (no attention).

    The encoder-decoder of Cho et al. 2014 that Bahdanau et al. 2015 compare
    against: the context `c` summarises the whole source (here the masked
    mean of the memory), is concatenated with every input, and with the
    state to form the output `[s_t; c]`. It offers the step API of
    `AttentionRNNDecoder` (`get_constants`, `get_initial_state`, `step`), so
    `attention_zoo.decoding.make_step_fn` drives it; its "attention" is all
    zeros.

    Args:
        units: GRU units.
        dropout: fraction of the inputs and outputs dropped during training.
        seed: seed of the dropout.
    """

    def __init__(self, units: int, dropout: float = 0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dropout = float(dropout)
        self.seed = seed
        self.rnn = keras.layers.GRU(
            units, return_sequences=True, return_state=True, name="gru"
        )
        self._input_dropout = keras.layers.Dropout(self.dropout, seed=seed)
        self._output_dropout = keras.layers.Dropout(
            self.dropout, seed=None if seed is None else seed + 1
        )
        self.supports_masking = True

    def build(self, inputs_shape, memory_shape, initial_state_shape=None):
        self._memory_dim = int(memory_shape[-1])
        if not self.rnn.built:
            self.rnn.build((None, None, int(inputs_shape[-1]) + self._memory_dim))
        self.built = True

    @property
    def output_size(self):
        return self.units + self._memory_dim

    def get_constants(self, memory, memory_mask=None):
        """`(context (B, Dm), memory_mask (B, Tx))`."""
        memory = ops.cast(memory, self.compute_dtype)
        if memory_mask is None:
            memory_mask = ops.ones(ops.shape(memory)[:2], dtype="bool")
        memory_mask = ops.cast(memory_mask, "bool")
        return zoo_ops.masked_mean(memory, memory_mask, axis=1), memory_mask

    def get_initial_state(self, memory, memory_mask=None, initial_state=None):
        if initial_state is None:
            return [ops.zeros((ops.shape(memory)[0], self.units), self.compute_dtype)]
        return [ops.cast(s, self.compute_dtype) for s in initial_state]

    def step(self, inputs, states, constants, training=None):
        """One step; the context batch may be `B / K` (beam search layout)."""
        context, memory_mask = constants
        batch, memory_batch = ops.shape(inputs)[0], ops.shape(context)[0]
        context = ops.reshape(
            ops.broadcast_to(
                context[:, None, :],
                (memory_batch, batch // memory_batch, ops.shape(context)[-1]),
            ),
            (batch, ops.shape(context)[-1]),
        )  # (B, Dm): row b * K + k reads context b
        x = ops.concatenate([ops.cast(inputs, self.compute_dtype), context], -1)
        h, new_states = self.rnn.cell(x, list(states), training=training)
        alignment = ops.zeros((batch, ops.shape(memory_mask)[1]), self.compute_dtype)
        return ops.concatenate([h, context], -1), list(new_states), alignment

    def call(
        self,
        inputs,
        memory,
        initial_state=None,
        inputs_mask=None,
        memory_mask=None,
        training=None,
    ):
        context, memory_mask = self.get_constants(memory, memory_mask)
        states = self.get_initial_state(memory, memory_mask, initial_state)
        inputs = self._input_dropout(inputs, training=training)
        steps = ops.shape(inputs)[1]
        tiled = ops.broadcast_to(
            context[:, None, :], (ops.shape(context)[0], steps, ops.shape(context)[1])
        )
        x = ops.concatenate([ops.cast(inputs, self.compute_dtype), tiled], -1)
        hidden, *final = self.rnn(
            x, initial_state=states, mask=inputs_mask, training=training
        )
        outputs = self._output_dropout(
            ops.concatenate([hidden, tiled], -1), training=training
        )
        alignments = ops.zeros(
            (ops.shape(memory)[0], steps, ops.shape(memory)[1]), self.compute_dtype
        )
        return outputs, alignments, final

    def compute_mask(self, inputs, previous_mask=None):
        return previous_mask

    def compute_output_spec(self, inputs, memory, initial_state=None, **kwargs):
        batch, steps = inputs.shape[0], inputs.shape[1]
        dtype = self.compute_dtype
        size = self.units + int(memory.shape[-1])
        return (
            keras.KerasTensor((batch, steps, size), dtype=dtype),
            keras.KerasTensor((batch, steps, memory.shape[1]), dtype=dtype),
            [keras.KerasTensor((batch, self.units), dtype=dtype)],
        )

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "dropout": self.dropout,
            "seed": self.seed,
        }


def build_model(
    source_vocab_size: int,
    target_vocab_size: int,
    attention: str = "bahdanau",
    decoder: str = "parallel",
    units: int = 128,
    embedding_dim: int = 128,
    dropout: float = 0.2,
    seed: int = 0,
    output_units: int | None = None,
) -> keras.Model:
    """Training model: `[source (B, Tx), decoder_input (B, Ty)]` -> logits.

    The encoder has `units` per direction; the decoder cell has `2 * units`
    and starts from the encoder's final states. `output_units` sizes the
    Luong attentional state `tanh(W_c [c; h])` that feeds the softmax
    (default `2 * units`; unused by Bahdanau's placement and by `none`).
    """
    if attention not in ATTENTIONS:
        raise ValueError(
            f"`attention` must be one of {ATTENTIONS}. Received: attention={attention!r}"
        )
    if decoder not in DECODERS:
        raise ValueError(
            f"`decoder` must be one of {DECODERS}. Received: decoder={decoder!r}"
        )
    source = keras.Input((None,), dtype="int32", name="source")
    decoder_input = keras.Input((None,), dtype="int32", name="decoder_input")
    embedded = keras.layers.Embedding(
        source_vocab_size, embedding_dim, mask_zero=True, name="source_embedding"
    )(source)
    memory, states = BidirectionalRNNEncoder(
        units, cell_type="gru", dropout=dropout, seed=seed, name="encoder"
    )(embedded)  # (B, Tx, 2 units)
    target = keras.layers.Embedding(
        target_vocab_size, embedding_dim, mask_zero=True, name="target_embedding"
    )(decoder_input)
    decoder_units = 2 * units
    if attention == "none":
        layer = FixedContextDecoder(
            decoder_units, dropout=dropout, seed=seed + 2, name="decoder"
        )
    else:
        scorer = (
            BahdanauAttention(units, name="attention")
            if attention == "bahdanau"
            else LuongAttention("general", name="attention")
        )
        cell = keras.layers.GRUCell(decoder_units, name="cell")
        if decoder == "parallel":
            layer = ParallelAttentionDecoder(
                cell,
                scorer,
                attention_output_units=output_units,
                dropout=dropout,
                seed=seed + 2,
                name="decoder",
            )
        else:
            layer = AttentionRNNDecoder(
                cell,
                scorer,
                style=attention,
                input_feeding=attention == "luong",
                attention_output_units=output_units if attention == "luong" else None,
                dropout=dropout,
                seed=seed + 2,
                name="decoder",
            )
    outputs, _, _ = layer(target, memory, initial_state=states)
    # Normalized features give the softmax layer a signal from the first
    # step: without it, training sat at the unigram loss for an epoch.
    outputs = keras.layers.LayerNormalization(name="output_norm")(outputs)
    logits = keras.layers.Dense(target_vocab_size, name="logits")(outputs)
    name = f"{attention}_{decoder}" if attention != "none" else "no_attention"
    return keras.Model([source, decoder_input], logits, name=name)


def compile_model(model: keras.Model, learning_rate: float = 2e-3):
    """Adam with gradient clipping and the masked cross-entropy.

    Keras's default `jit_compile="auto"`: XLA on JAX; not on TensorFlow,
    whose XLA cannot differentiate the decoders' loop over targets of
    unknown length, which the buckets' batches have (on CPU Keras never
    picks XLA for TensorFlow; on a GPU machine the decoders' `supports_jit`
    turns it off).
    """
    model.compile(
        keras.optimizers.Adam(learning_rate, clipnorm=1.0),
        loss=MaskedSequenceCrossEntropy(pad_token=PAD_ID),
    )
    return model


def make_translate_fn(
    model: keras.Model,
    max_length: int,
    beam_width: int = 1,
    alpha: float = 0.0,
    wrap_step=None,
):
    """`translate(source_ids (B, Tx)) -> (tokens (B, max_length), attention (B, max_length, Tx))`.

    Greedy search for `beam_width=1`, else beam search with GNMT length
    penalty `alpha`, keeping the best hypothesis. Tokens end with `END_ID`
    then `PAD_ID`. `wrap_step`, if given, maps the model's step function to
    the one the search drives (e.g. to mask tokens out of the logits); it
    must keep the step function's `shares_constants_across_beams`.
    """
    source_embedding = model.get_layer("source_embedding")
    encoder = model.get_layer("encoder")
    decoder = model.get_layer("decoder")
    norm, logits = model.get_layer("output_norm"), model.get_layer("logits")
    step_fn = make_step_fn(
        decoder, model.get_layer("target_embedding"), lambda x: logits(norm(x))
    )
    if wrap_step is not None:
        step_fn = wrap_step(step_fn)

    def translate(source_ids):
        source_ids = ops.cast(source_ids, "int32")
        mask = ops.not_equal(source_ids, PAD_ID)
        memory, states = encoder(source_embedding(source_ids), mask=mask)
        constants = decoder.get_constants(memory, mask)
        state = decoder.get_initial_state(memory, mask, initial_state=states)
        start = ops.full((ops.shape(source_ids)[0],), START_ID, "int32")
        out = best_hypothesis(
            step_fn,
            state,
            start,
            END_ID,
            max_length,
            beam_width=beam_width,
            constants=constants,
            pad_token=PAD_ID,
            alpha=alpha,
        )
        return out["tokens"], out["attention"]

    return translate


def compiled(fn):
    """`fn(source_ids)` compiled for the backend (XLA on TensorFlow, jit on JAX)."""
    return compile_function(fn, (None,), "int32")
