"""Greedy search: the most probable token at every step."""

from __future__ import annotations

from keras import ops

from attention_zoo.decoding._common import run_token_loop


def greedy_search(
    step_fn,
    initial_state,
    start_tokens,
    end_token: int,
    max_length: int,
    constants=(),
    pad_token: int = 0,
):
    """Pick the most probable token at every step.

    Args:
        step_fn: see `attention_zoo.decoding`.
        initial_state: structure of tensors with leading axis `B`.
        start_tokens: int `(B,)`, the first input token of every sequence.
        end_token: id that ends a sequence.
        max_length: most tokens generated per sequence, at most
            `MAX_LENGTH_LIMIT` (10,000) of `attention_zoo.decoding._common`.
        constants: structure of tensors passed to every step unchanged.
        pad_token: id written after the end of a sequence; a live sequence
            never emits it, unless it is also `end_token`.

    Returns:
        The dict described in `attention_zoo.decoding`.
    """
    return run_token_loop(
        step_fn,
        initial_state,
        start_tokens,
        constants,
        max_length,
        end_token,
        pad_token,
        lambda log_probs, t: ops.argmax(log_probs, axis=-1),
    )
