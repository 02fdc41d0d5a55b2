"""The summarizer: a bidirectional GRU encoder, a GRU decoder that attends
after its cell (`ParallelAttentionDecoder`, See et al.'s placement) and,
by default, copy attention (the pointer-generator of See et al. 2017).

The training model maps `[source (B, Tx), source_extended (B, Tx),
decoder_input (B, Ty)]` to a dict: `probabilities` over the extended
vocabulary `(B, Ty, V + Tx)` with copy attention, else `logits` `(B, Ty,
V)`, and the `attention` `(B, Ty, Tx)` (which the coverage loss reads).
Two flags choose the form (`benchmarks/summarization.py` compares them):

- `copy`: the `PointerGenerator` output (a word of the vocabulary or one
  of the source, mixed by `p_gen`), or the vocabulary softmax alone;
- `coverage`: `CoverageAttention` (the attention reads how much each source
  word was attended) and its loss, against repeated words; else
  `BahdanauAttention`.

`make_summarize_fn` runs greedy or beam search over the trained layers, on
the extended vocabulary with copy attention.
"""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo.applications.common.source_encoder import (
    encode_source,
    source_encoder,
)
from attention_zoo.applications.common.text import END_ID, PAD_ID, START_ID, UNK_ID
from attention_zoo.decoders import ParallelAttentionDecoder, PointerGenerator
from attention_zoo.decoding import decode_memory, make_copy_step_fn, make_step_fn
from attention_zoo.layers import BahdanauAttention, CoverageAttention
from attention_zoo.losses import CoverageLoss, MaskedSequenceCrossEntropy

# The models' names: what a run's model.keras must be called.
MODEL_NAMES = ("pointer_generator", "attention")


def build_model(
    vocab_size: int,
    copy: bool = True,
    coverage: bool = False,
    units: int = 128,
    embedding_dim: int = 96,
    attention_units: int = 128,
    dropout: float = 0.1,
    seed: int = 0,
) -> keras.Model:
    """The training model (module docstring); one vocabulary for both sides."""
    source = keras.Input((None,), dtype="int32", name="source")
    extended = keras.Input((None,), dtype="int32", name="source_extended")
    decoder_input = keras.Input((None,), dtype="int32", name="decoder_input")
    memory, states = encode_source(
        source, vocab_size, embedding_dim, units, dropout, seed
    )  # (B, Tx, 2 units)
    target = keras.layers.Embedding(
        vocab_size, embedding_dim, mask_zero=True, name="target_embedding"
    )(decoder_input)
    scorer = (
        CoverageAttention(attention_units, name="attention")
        if coverage
        else BahdanauAttention(attention_units, name="attention")
    )
    # Attention after the cell (See et al.'s s_t), so teacher forcing runs
    # the cell over all steps, then the attention: faster to train than
    # attention inside the recurrence (docs/summarization.md, "The model");
    # coverage runs its steps there.
    decoder = ParallelAttentionDecoder(
        keras.layers.GRUCell(2 * units, name="cell"),
        scorer,
        attention_output_units=2 * units,
        dropout=dropout,
        seed=seed + 2,
        name="decoder",
    )
    outputs, alignments, _ = decoder(target, memory, initial_state=states)
    # As in translation: normalized features give the softmax a signal from
    # the first step.
    normed = keras.layers.LayerNormalization(name="output_norm")(outputs)
    logits = keras.layers.Dense(vocab_size, name="logits")(normed)
    attention = keras.layers.Identity(name="attention_weights")(alignments)
    if copy:
        probabilities = PointerGenerator(vocab_size, name="copy")(
            logits, alignments, memory, outputs, target, extended
        )
        heads = {"probabilities": probabilities, "attention": attention}
    else:
        heads = {"logits": logits, "attention": attention}
    name = MODEL_NAMES[0] if copy else MODEL_NAMES[1]
    return keras.Model([source, extended, decoder_input], heads, name=name)


def compile_model(
    model: keras.Model,
    learning_rate: float = 2e-3,
    coverage_weight: float = 0.0,
) -> keras.Model:
    """Adam with gradient clipping, the masked cross-entropy of the words
    (over the extended vocabulary with copy attention) and, with
    `coverage_weight`, See et al.'s coverage loss on the attention."""
    copy = "probabilities" in model.output
    head = "probabilities" if copy else "logits"
    losses = {head: MaskedSequenceCrossEntropy(pad_token=PAD_ID, from_logits=not copy)}
    if coverage_weight:
        losses["attention"] = CoverageLoss(coverage_weight, pad_token=PAD_ID)
    # Keras's default jit_compile="auto": XLA on JAX; TensorFlow's XLA
    # trained this model slower on CPU (docs/summarization.md, "The model").
    model.compile(keras.optimizers.Adam(learning_rate, clipnorm=2.0), loss=losses)
    return model


def make_summarize_fn(
    model: keras.Model,
    max_length: int,
    beam_width: int = 1,
    alpha: float = 0.0,
    keep_beams: bool = False,
):
    """`summarize(source_ids (B, Tx), extended_ids (B, Tx)) -> dict` of the
    best output's `tokens` `(B, max_length)`, `attention` `(B, max_length,
    Tx)`, `scores` and `lengths` `(B,)` (`attention_zoo.decoding`) and, with
    copy attention, `p_gen` `(B, max_length, 1)`.

    Greedy search for `beam_width=1`, else beam search with GNMT length
    penalty `alpha`; with `keep_beams`, every hypothesis, best first, on an
    axis after the batch. With copy attention the tokens are extended ids:
    one at or beyond the vocabulary size is the source word at that position.
    """
    encode = source_encoder(model, PAD_ID)
    decoder = model.get_layer("decoder")
    embedding = model.get_layer("target_embedding")
    norm, logits = model.get_layer("output_norm"), model.get_layer("logits")
    copy = MODEL_NAMES[0] == model.name

    def output_layer(x):
        return logits(norm(x))

    if copy:
        step_fn = make_copy_step_fn(
            decoder, embedding, output_layer, model.get_layer("copy"), UNK_ID
        )
    else:
        step_fn = make_step_fn(decoder, embedding, output_layer)
    keys = ("tokens", "attention", "p_gen", "scores", "lengths")

    def summarize(source_ids, extended_ids):
        memory, mask, states = encode(source_ids)
        # The copy step reads the memory and the extended ids every step.
        extra = (memory, ops.cast(extended_ids, "int32")) if copy else None
        out = decode_memory(
            step_fn,
            decoder,
            memory,
            START_ID,
            END_ID,
            max_length,
            memory_mask=mask,
            initial_state=states,
            beam_width=beam_width,
            pad_token=PAD_ID,
            alpha=alpha,
            extra_constants=extra,
            keep_beams=keep_beams,
        )
        return {k: out[k] for k in keys if k in out}

    return summarize
