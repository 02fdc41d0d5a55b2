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
        lambda logits, t: first_argmax(logits),
        shift_invariant=True,
    )


def first_argmax(x):
    """The index of the first largest entry of each row of `x` (B, V).

    `ops.argmax` of floats on TensorFlow tests the sign bit of zeros
    (`tf.bitwise.bitwise_and`), an op LiteRT has no builtin for: the
    greedy loop would not convert to a `.tflite` file without Flex ops.
    The argmax of an integer mask of the row maxima is the same index (the
    first, as argmax) in builtin ops only.
    """
    best = ops.equal(x, ops.max(x, axis=-1, keepdims=True))
    return ops.argmax(ops.cast(best, "int32"), axis=-1)
