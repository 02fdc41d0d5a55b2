"""Decode a batch of memories with a step decoder, through its protocol."""

from __future__ import annotations

from keras import ops

from attention_zoo.decoding.best import best_hypothesis
from attention_zoo.decoding.refill import greedy_refill


def decode_memory(
    step_fn,
    decoder,
    memory,
    start_token: int,
    end_token: int,
    max_length: int,
    memory_mask=None,
    initial_state=None,
    beam_width: int = 1,
    pad_token: int = 0,
    alpha: float = 0.0,
    extra_constants=None,
    keep_beams: bool = False,
    extra_state=None,
    slots=None,
    active=None,
):
    """The best output sequence for each memory of the batch.

    The decoder's constants and initial state come from its step-decoder
    protocol (`get_constants`, `get_initial_state`), once per memory; then
    `best_hypothesis` runs greedy search (`beam_width=1`) or beam search.

    Args:
        step_fn: `make_step_fn(decoder, embedding, output_layer)`, or a
            `StepFunction` wrapping it.
        decoder: the step decoder `step_fn` runs.
        memory: `(B, Tx, D)`, the encoder's output.
        start_token: the token every sequence starts from.
        end_token: as in `greedy_search`.
        max_length: as in `greedy_search`.
        memory_mask: `(B, Tx)` bool, or None.
        initial_state: the decoder's `initial_state` argument (e.g. the
            encoder's final states), or None.
        beam_width: 1 for greedy search, more for beam search.
        pad_token: as in `greedy_search`.
        alpha: beam search's length penalty.
        extra_constants: a tuple of tensors `(B, ...)` the step function
            reads beside the decoder's constants, or None. With them the
            constants are `(decoder_constants, *extra_constants)` (the form
            `make_copy_step_fn` reads: the memory and the source's extended
            ids).
        keep_beams: as in `best_hypothesis` (every hypothesis, best first).
        extra_state: a structure of tensors `(B, ...)` the step function
            carries beside the decoder's state, or None. With it the state
            is `(decoder_state, extra_state)` (the form `constrain_copies`
            reads: its budget).
        slots: greedy search only: the memories searched `slots` rows at a
            time, a row that ends taking the next memory (`greedy_refill`);
            None: all at once.
        active: with `slots`, bool `(B,)`, the memories to search (the
            others get `pad_token` only); None: all.

    Returns:
        `best_hypothesis`'s dict: `tokens` `(B, T)`, `scores`, `lengths`,
        `attention` `(B, T, Tx)`.
    """
    constants = decoder.get_constants(memory, memory_mask)
    if extra_constants is not None:
        constants = (constants, *extra_constants)
    state = decoder.get_initial_state(memory, memory_mask, initial_state=initial_state)
    if extra_state is not None:
        state = (state, extra_state)
    if slots is not None:
        if beam_width != 1 or keep_beams:
            raise ValueError(
                "`slots` runs greedy search only: `beam_width` 1 without "
                f"`keep_beams`. Received: beam_width={beam_width}, "
                f"keep_beams={keep_beams}"
            )
        return greedy_refill(
            step_fn,
            state,
            start_token,
            end_token,
            max_length,
            slots,
            constants=constants,
            pad_token=pad_token,
            active=active,
        )
    start = ops.full((ops.shape(memory)[0],), start_token, "int32")
    return best_hypothesis(
        step_fn,
        state,
        start,
        end_token,
        max_length,
        beam_width=beam_width,
        constants=constants,
        pad_token=pad_token,
        alpha=alpha,
        keep_beams=keep_beams,
    )
