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

With `copy=True` the output is copy attention (the library's
`PointerGenerator`, as the summarizer's): the model takes the source's
extended ids (`extended_ids`) as a third input, `[source, source_extended,
decoder_input]`, and gives probabilities over the target vocabulary and
the source positions `(B, Ty, V + Tx)`, so a name, a path or a rare word
can be copied from the source.

Decoding (`make_translate_fn`) runs greedy or beam search from
`attention_zoo.decoding` over the trained layers.
"""

from __future__ import annotations

import keras
import numpy as np

from attention_zoo.applications.common.compile import compile_function
from attention_zoo.applications.common.search import search_words
from attention_zoo.applications.common.source_encoder import (
    encode_source,
    source_encoder,
)
from attention_zoo.applications.common.text import (
    END_ID,
    PAD_ID,
    START_ID,
    UNK_ID,
    tokenize,
)
from attention_zoo.applications.translation import masking
from attention_zoo.decoders import (
    AttentionRNNDecoder,
    FixedContextDecoder,
    ParallelAttentionDecoder,
    PointerGenerator,
)
from attention_zoo.decoders.pointer_generator import extended_source_ids
from attention_zoo.decoding import (
    constrain_copies,
    copy_budget,
    make_copy_step_fn,
    make_step_fn,
)
from attention_zoo.decoding.shortlist import (
    check_shortlist,
    expand,
    shortlist_step,
    unpacked,
)
from attention_zoo.decoding.shortlist import shortlist as make_shortlist
from attention_zoo.layers import BahdanauAttention, LuongAttention
from attention_zoo.losses import MaskedSequenceCrossEntropy

# Translation runs saved before FixedContextDecoder moved into the library
# name it by this application's old registration; the application keeps the
# alias (the library names no application), so loading them finds the class.
keras.saving.get_custom_objects()["attention_zoo_translation>FixedContextDecoder"] = (
    FixedContextDecoder
)

ATTENTIONS = ("bahdanau", "luong", "none")
DECODERS = ("parallel", "recurrent")


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
    copy: bool = False,
) -> keras.Model:
    """Training model: `[source (B, Tx), decoder_input (B, Ty)]` -> logits;
    with `copy`, `[source, source_extended (B, Tx), decoder_input]` ->
    probabilities `(B, Ty, V + Tx)` (module docstring).

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
    if copy and attention == "none":
        raise ValueError(
            "`copy` needs attention to copy by. Received: copy=True, attention='none'"
        )
    source = keras.Input((None,), dtype="int32", name="source")
    extended = keras.Input((None,), dtype="int32", name="source_extended")
    decoder_input = keras.Input((None,), dtype="int32", name="decoder_input")
    memory, states = encode_source(
        source, source_vocab_size, embedding_dim, units, dropout, seed
    )  # (B, Tx, 2 units)
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
    outputs, alignments, _ = layer(target, memory, initial_state=states)
    # Normalized features give the softmax layer a signal from the first
    # step: without it, training sat at the unigram loss for an epoch.
    normed = keras.layers.LayerNormalization(name="output_norm")(outputs)
    logits = keras.layers.Dense(target_vocab_size, name="logits")(normed)
    name = model_name(attention, decoder, copy)
    if not copy:
        return keras.Model([source, decoder_input], logits, name=name)
    probabilities = PointerGenerator(target_vocab_size, name="copy")(
        logits, alignments, memory, outputs, target, extended
    )
    return keras.Model([source, extended, decoder_input], probabilities, name=name)


def model_name(attention: str, decoder: str, copy: bool = False) -> str:
    """What a run's model.keras is called for these settings."""
    if attention == "none":
        return "no_attention"
    return f"{attention}_{decoder}" + ("_copy" if copy else "")


def extended_ids(source_tokens, target_index: dict, target_vocab_size: int):
    """The source's extended ids over the target vocabulary: a source word
    the target vocabulary holds (a name, a number, `ph_printf_1`) is that
    word's target id, any other `target_vocab_size + i`, `i` its first
    position (`PointerGenerator`)."""
    return extended_source_ids(source_tokens, target_index, UNK_ID, target_vocab_size)[
        1
    ]


def extended_input(ids, texts, target_index: dict, target_vocab_size: int):
    """What a copy model's search reads: the source ids `(N, T)` and the
    texts' extended ids over the target vocabulary (`extended_ids`, of
    their first `T` tokens) stacked, `(N, 2, T)`."""
    extended = np.zeros_like(ids)
    for row, text in enumerate(texts):
        tokens = tokenize(text)[: ids.shape[1]]
        extended[row, : len(tokens)] = extended_ids(
            tokens, target_index, target_vocab_size
        )
    return np.stack([ids, extended], axis=1)


def extended_labels(target_ids, target_tokens, source_tokens, target_vocab_size: int):
    """Copy-attention labels: the target ids, but an unknown target word
    (`<unk>`) that the source holds is its extended id (the first position
    of it in the source, past the vocabulary), as the copy emits it."""
    first = {}
    for position, token in enumerate(source_tokens):
        first.setdefault(token, position)
    return [
        target_vocab_size + first[token] if i == UNK_ID and token in first else i
        for i, token in zip(target_ids, target_tokens)
    ]


def compile_model(model: keras.Model, learning_rate: float = 2e-3):
    """Adam with gradient clipping and the masked cross-entropy.

    Keras's default `jit_compile="auto"`: XLA on JAX; not on TensorFlow,
    whose XLA cannot differentiate the decoders' loop over targets of
    unknown length, which the buckets' batches have (on CPU Keras never
    picks XLA for TensorFlow; on a GPU machine the decoders' `supports_jit`
    turns it off).
    """
    copy = is_copy_model(model)
    model.compile(
        keras.optimizers.Adam(learning_rate, clipnorm=1.0),
        # The copy's output is probabilities, not logits.
        loss=MaskedSequenceCrossEntropy(pad_token=PAD_ID, from_logits=not copy),
    )
    return model


def make_translate_fn(
    model: keras.Model,
    max_length: int,
    beam_width: int = 1,
    alpha: float = 0.0,
    wrap_step=None,
    keep_beams: bool = False,
    must_copy=None,
    slots=None,
    shortlist=None,
    shortlist_input: bool = False,
):
    """`translate(source_ids (B, Tx)) -> (tokens (B, max_length), attention
    (B, max_length, Tx), scores (B,))`, `scores` the log-probability per
    token of each output (`search_words`); with `keep_beams`, every
    hypothesis, best first, on an axis after the batch.

    Greedy search for `beam_width=1`, else beam search with GNMT length
    penalty `alpha`, keeping the best hypothesis (`search_words`).
    `wrap_step`, if given, maps the model's step function to the one the
    search drives (e.g. to mask tokens out of the logits); it
    must keep the step function's `shares_constants_across_beams`.

    `must_copy`, if given, is `(source_groups, target_groups)`
    (`masking.copy_tables`): the groups each source word holds and each
    target word counts for (the typed placeholder tokens). The search then
    emits each group exactly as often as the source holds it, and no
    other (`attention_zoo.decoding.constrain_copies`), or stops at
    `max_length`.

    A model with copy attention (`is_copy_model`) translates `x (B, 2,
    Tx)`, the source ids and their extended ids, to tokens over the
    extended vocabulary: one at or past the target vocabulary's size is the
    source word at that position.

    `slots`, for greedy search: the `B` sources are searched `slots` rows
    per step, a row that ends taking the next source
    (`attention_zoo.decoding.refill`), and a source of padding only is not
    searched (all-padding tokens, zero attention and score): a caller pads
    its batch with such rows.

    `shortlist`, if given, is `(candidates, shared, size)`
    (`attention_zoo.decoding.shortlist`): each source is searched over its
    `size` likely target ids only (the output layer's product, and what the
    search reads, shrink from the vocabulary to them); the tokens returned
    are ids as without it. Not for copy attention, nor with `wrap_step`
    (whose logits would be the shortlist's positions). With
    `shortlist_input`, the caller computes the shortlists (`shortlist(...,
    on_host=True)`, as `packed`): `translate` reads `(B, Tx + size)`, each
    source's ids and then its packed shortlist.
    """
    if shortlist_input and shortlist is None:
        raise ValueError(
            "`shortlist_input` reads the caller's shortlists: it needs a "
            "`shortlist`. Received: shortlist=None, shortlist_input=True"
        )
    encode = source_encoder(model, PAD_ID)
    decoder = model.get_layer("decoder")
    embedding = model.get_layer("target_embedding")
    norm, logits = model.get_layer("output_norm"), model.get_layer("logits")
    copy = is_copy_model(model)
    if shortlist is not None:
        if copy or wrap_step is not None:
            raise ValueError(
                "`shortlist` is not for a model with copy attention (whose "
                "outputs include the source's positions) nor with `wrap_step`. "
                f"Received: a shortlist for {model.name!r}, wrap_step={wrap_step!r}"
            )
        candidates, shared, size = shortlist
        vocab = logits.kernel.shape[-1]
        candidates, shared = check_shortlist(
            candidates, shared, size, vocab, tokens=(PAD_ID, START_ID, END_ID)
        )
        step_fn = shortlist_step(
            decoder, embedding, norm, logits.kernel, logits.bias, shared
        )
    elif copy:
        step_fn = make_copy_step_fn(
            decoder,
            embedding,
            lambda x: logits(norm(x)),
            model.get_layer("copy"),
            UNK_ID,
        )
    else:
        step_fn = make_step_fn(decoder, embedding, lambda x: logits(norm(x)))
    if wrap_step is not None:
        step_fn = wrap_step(step_fn)
    if must_copy is not None:
        n_groups = int(max(must_copy[1].max(), 0)) + 1
        groups = must_copy[1]
        if shortlist is not None:
            groups = listed_groups(groups, shared, size)
        step_fn = constrain_copies(step_fn, END_ID, groups)

    def translate(source_ids):
        extra = listed = None
        if copy:
            # The copy step reads the memory and the extended ids every step.
            source_ids, extended = source_ids[:, 0], source_ids[:, 1]
        if shortlist is not None:
            if shortlist_input:  # the caller's, after the source ids
                listed, valid = unpacked(source_ids[:, -size:])
                source_ids = source_ids[:, :-size]
            else:
                listed, valid = make_shortlist(
                    source_ids, candidates, shared, size, vocab
                )
            extra = (listed, valid)
        memory, mask, states = encode(source_ids)
        if copy:
            extra = (memory, keras.ops.cast(extended, "int32"))
        budget = None
        if must_copy is not None:
            # Made here, a constant of the traced graph (not a captured input).
            source_groups = keras.ops.convert_to_tensor(must_copy[0], "int32")
            required = keras.ops.take(
                source_groups, keras.ops.cast(source_ids, "int32"), axis=0
            )  # (B, Tx, S) the groups of each source word, -1 for none
            budget = copy_budget(
                keras.ops.reshape(required, (keras.ops.shape(required)[0], -1)),
                n_groups,
            )
        tokens, attention, scores = search_words(
            step_fn,
            decoder,
            memory,
            max_length,
            beam_width,
            alpha,
            memory_mask=mask,
            initial_state=states,
            keep_beams=keep_beams,
            extra_constants=extra,
            extra_state=budget,
            slots=slots,
            active=None if slots is None else keras.ops.any(mask, axis=1),
        )
        if listed is not None:
            tokens = expand(tokens, listed)
        return tokens, attention, scores

    return translate


def listed_groups(token_groups, shared, size: int):
    """`constrain_copies`'s groups over a shortlist's positions: those of
    its `shared` ids, then none; a ValueError where an id that counts for a
    group is not shared (the constraint knows groups by position)."""
    missing = set(masking.grouped_ids(token_groups)) - set(np.asarray(shared).tolist())
    if missing:
        raise ValueError(
            "`shortlist`'s shared ids must hold every id that counts for a "
            f"group of `must_copy`. Received: {len(missing)} missing, e.g. "
            f"{sorted(missing)[:5]}"
        )
    groups = np.full((size, token_groups.shape[1]), -1, "int32")
    groups[: len(shared)] = token_groups[shared]
    return groups


def is_copy_model(model: keras.Model) -> bool:
    """Whether `model` has copy attention (`build_model(copy=True)`)."""
    return len(model.inputs) == 3


def compiled(fn):
    """`fn(source_ids)` compiled for the backend (XLA on TensorFlow, jit on JAX)."""
    return compile_function(fn, (None,), "int32")
