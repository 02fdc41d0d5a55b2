"""One or several attention mechanisms inside a decoder: one memory (or mask,
or shape) per mechanism, their constants, and a step attending with each and
concatenating the contexts and alignments."""

from __future__ import annotations

from keras import ops


def per_mechanism(owner: str, n: int, memory, arg: str, shapes: bool = False):
    """One memory (or mask, or shape) per mechanism, as a list of `n`.

    A single tensor is shared by every mechanism; a list must have one entry
    per mechanism.

    Args:
        owner: the class name errors start with.
        n: the number of mechanisms.
        memory: a tensor, mask, shape, `None`, or a list of them.
        arg: the argument's name, for errors.
        shapes: whether `memory` is a shape (a tuple of ints is one shape,
            a list of tuples one shape per mechanism).
    """
    is_list = isinstance(memory, (list, tuple)) and not (
        shapes and (not memory or not isinstance(memory[0], (list, tuple)))
    )
    if not is_list:
        return [memory] * n
    if len(memory) != n:
        raise ValueError(
            f"{owner}: `{arg}` must be one tensor shared by the {n} attention "
            f"mechanism(s) or a list of {n}. Received: a list of {len(memory)}"
        )
    return list(memory)


def split_constants(constants, n: int):
    """The `get_constants` triples, one per mechanism (a lone one unwrapped)."""
    return [constants] if n == 1 else list(constants)


def split_alignments(owner: str, alignments, lengths):
    """Alignments `(..., Tx_1 + ... + Tx_n)` split into one per mechanism."""
    if lengths is None or None in list(lengths):
        raise ValueError(
            f"{owner}.split_alignments needs the memory lengths: pass `lengths` "
            "(the decoder has not been called on memories of static length). "
            f"Received: lengths={lengths}"
        )
    if len(lengths) == 1:  # whole: its length may be a traced tensor
        return [alignments]
    lengths = [int(n) for n in lengths]
    bounds = [sum(lengths[:i]) for i in range(1, len(lengths))]
    return ops.split(alignments, bounds, axis=-1)


def attend(
    mechanisms,
    query,
    constants,
    attention_state,
    training,
    step_inputs=None,
    dropout_masks=None,
):
    """Single-step attention of every mechanism; queries `(B, D)` over
    memories of batch `B / K`.

    Args:
        mechanisms: the decoder's `BaseAttention` layers.
        query: `(B, D)`.
        constants: the decoder's `get_constants` (a triple per mechanism).
        attention_state: the mechanisms' states, concatenated in order.
        training: bool.
        step_inputs: optional list, one `None` or `(B, F)` per mechanism.
        dropout_masks: optional list, one `None` or `(B / K, Tx)` per
            mechanism (drawn once per sequence, the same at every step).

    Returns:
        `(context (B, sum Dm), alignment (B, sum Tx), new attention state)`.
    """
    contexts, alignments, new_states = [], [], []
    attention_state = list(attention_state)
    none = [None] * len(mechanisms)
    for mechanism, constants_i, dropout_mask, step_inputs_i in zip(
        mechanisms,
        split_constants(constants, len(mechanisms)),
        dropout_masks or none,
        step_inputs or none,
    ):
        n = mechanism.num_states
        state_i, attention_state = attention_state[:n], attention_state[n:]
        context, alignment, state_i = _attend_one(
            mechanism,
            query,
            constants_i,
            state_i,
            training,
            dropout_mask,
            step_inputs_i,
        )
        contexts.append(context)
        alignments.append(alignment)
        new_states += state_i
    if len(contexts) == 1:
        return contexts[0], alignments[0], new_states
    return (
        ops.concatenate(contexts, axis=-1),
        ops.concatenate(alignments, axis=-1),
        new_states,
    )


def _attend_one(
    mechanism, query, constants, attention_state, training, dropout_mask, step_inputs
):
    """The `K` queries that share a memory become `K` query rows of one
    `mechanism.step` call, so the attention reads each memory once instead of
    once per hypothesis; each row keeps its own attention state."""
    memory, projected_key, memory_mask = constants
    memory_batch = ops.shape(memory)[0]
    batch = ops.shape(query)[0]

    def rows(x):  # (B, ...) -> (B/K, K, ...)
        return ops.reshape(x, (memory_batch, -1, *ops.shape(x)[1:]))

    def unrows(x):  # (B/K, K, ...) -> (B, ...)
        return ops.reshape(x, (batch, *ops.shape(x)[2:]))

    context, alignment, new_state = mechanism.step(
        rows(query),
        memory,
        projected_key,
        [rows(s) for s in attention_state],
        value_mask=memory_mask,
        training=training,
        dropout_mask=dropout_mask,
        step_inputs=None if step_inputs is None else rows(step_inputs),
    )  # (B/K, K, Dm), (B/K, K, Tx)
    return unrows(context), unrows(alignment), [unrows(s) for s in new_state]
